package cuda

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/cstdio"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// The GPU backend: kernels compiled to PTX by nugo's compiler and run through
// the CUDA driver (package internal/driver, libcuda.so.1 through purego, no
// cgo).
//
// # RATIONALE: how the right context stays current
//
// Each device is used through its primary context (driver.DeviceContext).
// Every sequence of driver calls that needs a context — an allocation, a copy,
// a module load, a launch with its argument copies, a stream or event call —
// runs inside one DeviceContext.Do, which locks the goroutine to its OS thread
// for the sequence and makes the device's context current there. No goroutine
// stays locked between sequences, no OS thread is assumed to keep a context,
// and goroutines may launch on any device concurrently. A launch is one Do: one
// cuCtxSetCurrent and one LockOSThread pair on top of the driver's own work.
//
// # What lives where
//
//   - Device memory (gpuMemory) belongs to the device that allocated it. Free
//     is idempotent; memory that becomes unreachable without Free is returned
//     to the driver by a cleanup (runtime.AddCleanup) on the gpuMemory, which
//     only the DeviceArray references.
//   - A kernel is compiled once per compiler target (the device's compute
//     capability and the kernel's options) and loaded once per device; both
//     are cached in the Kernel (compiledFor). Modules stay loaded for the
//     process's lifetime.
//   - Streams are CUDA streams created blocking (not CU_STREAM_NON_BLOCKING),
//     so the nil Stream — CUDA's legacy default stream — waits for them and
//     they wait for it, as on the CPU backend. Before an operation on the nil
//     stream, the host-side completions of every stream with pending work run
//     (drainAll), which is where their errors surface, as on the CPU backend.
//   - Host memory in asynchronous copies is staged through page-locked memory
//     (cuMemHostAlloc): ToDeviceAsync copies the host data into the staging
//     buffer before it returns, and CopyToHostAsync copies from the staging
//     buffer into the destination when the stream is synchronized. The Go
//     memory is therefore never touched by the device, and the copies overlap
//     with kernels on other streams. Staging buffers and the temporary device
//     memory of host slices passed to an asynchronous launch are freed at the
//     stream's next Synchronize.
//   - Debug-mode kernels fill a 64-byte error record in their module
//     (compiler.ErrorSymbol). It is zeroed when the module is loaded and
//     after each failure it reports; it is read after a launch on the
//     default stream has finished, and at the stream's Synchronize for a
//     launch on a stream. The record is per module and device, so
//     concurrent debug launches of one kernel share it: a failure is
//     reported by whichever of them reads the record first.
//   - Errors the driver reports are *DriverError (the JIT log appended to
//     the message for invalid PTX). Errors that arise while queuing work on a
//     stream (out of memory, an invalid launch) are returned by the call that
//     queues it; errors of the work itself by the stream's Synchronize. A
//     kernel fault ends the device for the process (backend_gpu_fault.go):
//     its error says so, and later calls on the device fail at once.
//   - Each loaded kernel's resources (registers and local memory per thread,
//     static shared memory, the threads per block they allow) are read from
//     the driver at load; a launch with a larger block is refused before it
//     reaches the driver, with the figures, and a launch the driver still
//     refuses for its resources gets them appended.

func init() { registerBackend(GPU, openGPU) }

// FakeGPUEnv names the environment variable that, set to 1, gives the GPU
// backend a simulated device instead of the CUDA driver: nugo's fake
// driver, which checks every call as the real one would and runs kernels
// in ptxsim. It is for testing programs, deployments and scripts on
// machines without a GPU; GPU timings there are meaningless. Set to N, it
// gives N such devices (for multi-device programs: DeviceAt).
const FakeGPUEnv = "NUGO_FAKE_GPU"

// maxFakeGPUs bounds FakeGPUEnv: a node has at most a few dozen GPUs.
const maxFakeGPUs = 64

// openGPU is the GPU backend's factory: libcuda.so.1 (or $NUGO_LIBCUDA)
// through purego, the driver started, device 0 opened. It runs again after a
// failure (dlopen of a library already loaded is cheap), so a test or a user
// can change NUGO_LIBCUDA between attempts.
//
// With FakeGPUEnv set to N it drives nugo's fake driver instead, whose N
// simulated devices run kernels in ptxsim: the whole GPU path (compile,
// load, copies, launches, streams, the debug record) without a GPU.
func openGPU() (backend, error) {
	var lib driver.API
	switch v := os.Getenv(FakeGPUEnv); v {
	case "", "0":
		l, err := driver.Load()
		if err != nil {
			return nil, noDevice(err)
		}
		lib = l
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxFakeGPUs {
			return nil, noDevice(fmt.Errorf("%s=%q: set it to 1 for a simulated GPU (up to %d for as many), or unset it", FakeGPUEnv, v, maxFakeGPUs))
		}
		devs := make([]fakedriver.DeviceSpec, n)
		for i := range devs {
			devs[i] = fakedriver.DefaultDevice()
			if n > 1 {
				devs[i].Name += fmt.Sprintf(" #%d", i)
			}
		}
		lib = fakedriver.New(fakedriver.Config{Devices: devs, Sim: &fakedriver.SimConfig{}})
	}
	be, err := newGPUBackend(lib)
	if err != nil {
		return nil, err
	}
	return be, nil
}

// gpuUnavailable is why the GPU backend cannot run here: it matches
// ErrNoDevice and keeps the driver's reason in the chain.
type gpuUnavailable struct{ reason error }

func noDevice(reason error) error { return &gpuUnavailable{reason: reason} }

func (e *gpuUnavailable) Error() string {
	return ErrNoDevice.Error() + ": " + strings.TrimPrefix(e.reason.Error(), driver.ErrNoDevice.Error()+": ")
}

func (e *gpuUnavailable) Unwrap() []error { return []error{ErrNoDevice, e.reason} }

// gpuBackend drives the devices of one driver.API. The backend the
// registry opens (the root) works on the device SelectDevice chose; each
// DeviceHandle of the GPU backend is a gpuBackend of its own pinned to one
// device (only), sharing the root's devices and state (gpuShared), so that
// goroutines can drive several devices at once without SelectDevice.
type gpuBackend struct {
	*gpuShared
	only *gpuDevice // the device of a DeviceHandle's backend; nil for the root
}

// gpuShared is what the root and the per-device backends of one driver
// share.
type gpuShared struct {
	top   *gpuBackend // the root: the backend the registry opened
	api   driver.API
	props []driver.DeviceProps // every device, read at start

	mu   sync.Mutex
	devs []*gpuDevice // by ordinal, opened on first use
	cur  *gpuDevice   // the device SelectDevice chose (0 by default)
	busy map[*gpuStream]struct{}
	pins []*gpuBackend   // the per-device backends, by ordinal, made on first use
	peer map[[2]int]bool // device pairs (from, to) whose peer access was tried (copyPeer)

	printed atomic.Bool // a kernel that calls printf was launched (see flushPrintf)
}

// flushPrintf flushes C's stdout, through which the driver writes kernels'
// printf output when it synchronizes, once any kernel that prints has been
// launched: a Go program exits without flushing C's buffers, so output to
// a pipe or a file would otherwise be lost. Called after every wait for a
// device, stream or event.
func (g *gpuBackend) flushPrintf() {
	if g.printed.Load() {
		_ = flushCStdout() // nothing to report: fd 1 is where the output would have gone
	}
}

// flushCStdout flushes C's stdio; tests replace it to see that the output
// is lost without it.
var flushCStdout = cstdio.Flush

// gpuDevice is one device's primary context and what nugo keeps for it.
type gpuDevice struct {
	be     *gpuBackend
	ctx    *driver.DeviceContext
	props  driver.DeviceProps
	sm     int       // compute capability as 75, 90, ...
	params sync.Pool // *driver.Params, reused across launches

	fault      atomic.Pointer[deviceFault] // the kernel fault that ended the context (see do)
	lastKernel atomic.Pointer[gpuKernel]   // the last kernel launched
}

// newGPUBackend starts the driver, reads every device's properties and opens
// device 0. Any failure means no usable GPU.
func newGPUBackend(api driver.API) (*gpuBackend, error) {
	n, err := driver.Start(api)
	if err != nil {
		return nil, noDevice(err)
	}
	// Every module is PTX of one ISA version; an older driver would refuse
	// each load with CUDA_ERROR_UNSUPPORTED_PTX_VERSION.
	v, err := api.DriverVersion()
	if err != nil {
		return nil, noDevice(err)
	}
	if v < compiler.MinDriverVersion {
		return nil, noDevice(fmt.Errorf("the driver supports CUDA %d.%d; nugo's PTX (ISA %s) needs CUDA %d.%d or newer",
			v/1000, v%1000/10, compiler.PTXVersion, compiler.MinDriverVersion/1000, compiler.MinDriverVersion%1000/10))
	}
	g := &gpuBackend{gpuShared: &gpuShared{api: api, props: make([]driver.DeviceProps, n), devs: make([]*gpuDevice, n),
		busy: map[*gpuStream]struct{}{}, pins: make([]*gpuBackend, n)}}
	g.top = g
	for i := range n {
		if g.props[i], err = driver.QueryDevice(api, i); err != nil {
			return nil, noDevice(fmt.Errorf("device %d: %w", i, err))
		}
	}
	d, err := g.device(0)
	if err != nil {
		return nil, noDevice(err)
	}
	g.cur = d
	return g, nil
}

// device returns device i, retaining its primary context on first use.
func (g *gpuBackend) device(i int) (*gpuDevice, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if i < 0 || i >= len(g.devs) {
		return nil, fmt.Errorf("device %d does not exist; there are %d (0..%d)", i, len(g.devs), len(g.devs)-1)
	}
	if d := g.devs[i]; d != nil {
		return d, nil
	}
	ctx, err := driver.OpenDevice(g.api, i)
	if err != nil {
		return nil, driverError(err)
	}
	p := ctx.Props()
	d := &gpuDevice{be: g.top, ctx: ctx, props: p, sm: p.Major*10 + p.Minor}
	d.params.New = func() any { return new(driver.Params) }
	g.devs[i] = d
	return d, nil
}

// current is the device work goes to: the pinned one, else the selected
// one.
func (g *gpuBackend) current() *gpuDevice {
	if g.only != nil {
		return g.only
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cur
}

func (g *gpuBackend) kind() Backend { return GPU }

// limits are the selected device's. Dynamic shared memory may go up to the
// opt-in limit; launches above 48 KiB set the kernel's attribute first.
func (g *gpuBackend) limits() Limits {
	p := g.current().props
	shared := max(p.SharedPerBlockOpt, p.SharedPerBlock)
	return Limits{
		MaxThreadsPerBlock: p.MaxThreadsPerBlk,
		MaxBlock:           Dim3(p.MaxBlock),
		MaxGrid:            Dim3(p.MaxGrid),
		MaxSharedMemory:    shared,
	}
}

func (g *gpuBackend) devices() ([]Device, error) {
	out := make([]Device, len(g.props))
	for i, p := range g.props {
		out[i] = Device{
			ID:                 i,
			Name:               p.Name,
			ComputeCapability:  [2]int{p.Major, p.Minor},
			Multiprocessors:    p.SMs,
			MaxThreadsPerBlock: p.MaxThreadsPerBlk,
			SharedMemPerBlock:  p.SharedPerBlock,
			TotalMemory:        int64(p.TotalMem),
			WarpSize:           p.WarpSize,
			MaxBlock:           Dim3(p.MaxBlock),
			MaxGrid:            Dim3(p.MaxGrid),
			Cooperative:        p.Cooperative,
		}
	}
	return out, nil
}

func (g *gpuBackend) selectDevice(i int) error {
	d, err := g.device(i)
	if err != nil {
		return fmt.Errorf("SelectDevice: %w", err)
	}
	g.mu.Lock()
	g.cur = d
	g.mu.Unlock()
	return nil
}

// synchronize finishes every stream's pending work, then waits for each
// opened device (a per-device backend: for its device).
func (g *gpuBackend) synchronize() error {
	first := g.drainAll()
	g.mu.Lock()
	devs := append([]*gpuDevice(nil), g.devs...)
	g.mu.Unlock()
	if g.only != nil {
		devs = []*gpuDevice{g.only}
	}
	for _, d := range devs {
		if d == nil {
			continue
		}
		if err := d.do(func(api driver.API) error { return api.CtxSynchronize() }); err != nil && first == nil {
			first = err
		}
	}
	g.flushPrintf()
	return first
}

// drainAll synchronizes the streams with pending host-side work (of its
// device, for a per-device backend: CUDA's default stream waits for the
// streams of its own context only) and returns
// (and clears) the first error any of them met.
func (g *gpuBackend) drainAll() error {
	g.mu.Lock()
	if len(g.busy) == 0 {
		g.mu.Unlock()
		return nil
	}
	streams := make([]*gpuStream, 0, len(g.busy))
	for s := range g.busy {
		if g.only == nil || s.dev == g.only {
			streams = append(streams, s)
		}
	}
	g.mu.Unlock()
	var first error
	for _, s := range streams {
		if err := s.synchronize(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// close synchronizes and releases every opened device's context; the driver
// frees what was left in them. A context lost to a kernel fault has nothing
// left to wait for and is only released. For tests: the backend is unusable
// after it.
func (g *gpuBackend) close() error {
	first := g.synchronize()
	if errors.Is(first, ErrContextLost) {
		first = nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, d := range g.devs {
		if d == nil {
			continue
		}
		if err := d.ctx.Close(); err != nil && first == nil {
			first = driverError(err)
		}
	}
	return first
}

// prepare compiles k for the selected device and loads it there (Compile).
// A kernel with func parameters is only checked: it is compiled at launch,
// for the functions passed.
func (g *gpuBackend) prepare(k *Kernel) error {
	if k.hasFuncParams() {
		return k.checkSource()
	}
	_, err := g.current().kernel(k, nil, false)
	return err
}

// driverError turns the driver's *driver.Error into the public *DriverError,
// with the JIT compiler's log appended to the message, keeping the context
// that wraps it in the text; other errors pass unchanged.
func driverError(err error) error {
	if err == nil {
		return nil
	}
	var e *driver.Error
	if !errors.As(err, &e) {
		return err
	}
	de := &DriverError{Call: e.Call, Code: int(e.Code), Name: e.Name, Message: e.Message}
	if e.Log != "" {
		de.Message += "\n" + e.Log
	}
	if err == error(e) {
		return de
	}
	return &driverContext{text: err.Error(), de: de}
}

// driverContext is a *DriverError with the context a caller wrapped around
// the driver's error (the argument, the device): the same text as before the
// conversion, and errors.As still finds the DriverError.
type driverContext struct {
	text string
	de   *DriverError
}

func (e *driverContext) Error() string { return e.text }
func (e *driverContext) Unwrap() error { return e.de }

func (g *gpuBackend) root() backend { return g.top }

// ordinal is the device the backend's work goes to now.
func (g *gpuBackend) ordinal() int { return g.current().props.Ordinal }

// bound is the backend pinned to the device work goes to now: what device
// arrays, streams and events made now belong to.
func (g *gpuBackend) bound() backend {
	if g.only != nil {
		return g
	}
	b, err := g.onDevice(g.ordinal())
	if err != nil {
		return g // cannot happen: the selected device is open
	}
	return b
}

func (g *gpuBackend) numDevices() (int, error) { return len(g.props), nil }

// onDevice returns the backend pinned to device i, opening the device on
// first use; it is the same value every time, so that what belongs to a
// device can be told by its backend.
func (g *gpuBackend) onDevice(i int) (backend, error) {
	d, err := g.device(i)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.pins[i] == nil {
		g.pins[i] = &gpuBackend{gpuShared: g.gpuShared, only: d}
	}
	return g.pins[i], nil
}

func (g *gpuBackend) deviceName() string {
	return fmt.Sprintf("gpu device %d", g.current().props.Ordinal)
}

// copyPeer copies n bytes of src (on one device) into dst (on another)
// with cuMemcpyPeerAsync, after the work queued on both devices, and waits
// for it. Peer access from the source's context to the destination's is
// enabled on first use where the devices allow it, so the copy goes
// directly between them; elsewhere the driver stages it.
func (g *gpuBackend) copyPeer(dst memory, dstOff int, src memory, srcOff, n int) error {
	dm, err := g.useMem(dst)
	if err != nil {
		return err
	}
	defer dm.done()
	sm, err := g.useMem(src)
	if err != nil {
		return err
	}
	defer sm.done()
	if err := g.top.drainAll(); err != nil {
		return err
	}
	// The destination's kernels may still use the memory: cuMemcpyPeerAsync
	// on the source's default stream does not wait for them.
	if err := dm.dev.do(func(api driver.API) error { return api.CtxSynchronize() }); err != nil {
		return err
	}
	g.enablePeer(sm.dev, dm.dev)
	to, from := dm.ptr+driver.DevicePtr(dstOff), sm.ptr+driver.DevicePtr(srcOff)
	return sm.dev.do(func(api driver.API) error {
		if err := api.MemcpyPeerAsync(to, dm.dev.ctx.Context(), from, sm.dev.ctx.Context(), n, 0); err != nil {
			return err
		}
		return api.StreamSynchronize(0)
	})
}

// enablePeer lets from's context use to's memory directly, once, where the
// devices can: an optimisation only, since cuMemcpyPeerAsync works without
// it, so a refusal is not an error.
func (g *gpuBackend) enablePeer(from, to *gpuDevice) {
	key := [2]int{from.props.Ordinal, to.props.Ordinal}
	g.mu.Lock()
	tried := g.peer[key]
	if g.peer == nil {
		g.peer = map[[2]int]bool{}
	}
	g.peer[key] = true
	g.mu.Unlock()
	if tried {
		return
	}
	_ = from.do(func(api driver.API) error {
		can, err := api.DeviceCanAccessPeer(from.ctx.Device(), to.ctx.Device())
		if err != nil || !can {
			return err
		}
		return api.CtxEnablePeerAccess(to.ctx.Context())
	})
}
