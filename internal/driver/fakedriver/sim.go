package fakedriver

import (
	"errors"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/ptxsim"
)

// SimConfig makes a Fake run the kernels it launches in nugo's PTX
// interpreter (package ptxsim), over the fake's own device memory.
//
// A module load parses the PTX: text the interpreter rejects is
// CUDA_ERROR_INVALID_PTX with the parse error as the JIT log. Its .global
// variables lie where ModuleGetGlobal finds them, initialised as the PTX
// says. Its kernels' FuncSharedSizeBytes is their static shared memory as
// the interpreter lays it out and their FuncMaxDynamicSharedSize starts at
// 48 KiB less that (unless SetFuncAttr or FuncSetAttribute set them for the
// kernel's name); their registers and local memory are estimated from the
// PTX as without Config.Sim (resources.go). Every device allocation is
// visible to kernels at its device address.
//
// A launch runs the kernel with its grid, block and dynamic shared memory.
// The arguments reach it as the real driver takes them from
// cuLaunchKernel's kernelParams: argument i fills the kernel's parameter i
// at the offset the PTX declares, and must have exactly that parameter's
// size (a mismatch, which a GPU would silently misread, is
// CUDA_ERROR_INVALID_VALUE).
//
// Work runs asynchronously, as on a GPU: launches, the Async copies,
// MemcpyDtoD and MemsetD8 are queued in issue order and run when the host
// next waits for the device — at the synchronous copies to and from the
// host, stream, event and context synchronization and queries, frees,
// module unloads, and Read and Write. A caller that uses results, or
// page-locked buffers, before waiting sees them unwritten.
//
// A fault inside a kernel is reported as a GPU reports it: the launch
// itself succeeded, and the call that waits for it and every later one fail
// with the sticky code — CUDA_ERROR_ILLEGAL_ADDRESS for an access outside
// device memory, CUDA_ERROR_MISALIGNED_ADDRESS for a misaligned atomic,
// CUDA_ERROR_LAUNCH_TIMEOUT past MaxSteps, CUDA_ERROR_LAUNCH_FAILED for a
// trap or anything else. KernelFault tells the interpreter's account of it.
type SimConfig struct {
	// Stdout receives the kernels' printf output; nil means os.Stdout,
	// file descriptor 1, where a GPU's printf output goes.
	Stdout io.Writer
	// Workers is how many goroutines run a launch's blocks; 0 means
	// GOMAXPROCS.
	Workers int
	// MaxSteps bounds each thread's taken branches and calls; 0 means no
	// bound.
	MaxSteps int64
}

// defaultDynamicShared is the shared memory, static and dynamic, a kernel
// may use without opting in with cuFuncSetAttribute.
const defaultDynamicShared = 48 << 10

// deviceBytes returns n zeroed bytes whose first byte is 8-byte aligned, so
// that the interpreter's atomics on naturally aligned device addresses are
// host atomics.
func deviceBytes(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	words := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), n)
}

// KernelFault is the interpreter's report (a *ptxsim.ExecError naming the
// kernel, block, thread, PTX line and address) of the kernel fault that
// poisoned the context, or nil. Only a Fake with Config.Sim runs kernels.
func (f *Fake) KernelFault() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.kernelFault
}

// simLoad parses ptx for the interpreter and loads it into device dev's
// memory, recording its .global variables as the module's globals; called
// with f.mu held.
func (f *Fake) simLoad(call string, dev int, mod *module, ptx string) error {
	sm, err := ptxsim.Parse(ptx)
	if err != nil {
		e := driver.NewError(call, driver.ErrorInvalidPTX)
		e.Log = "ptxas fatal   : fake driver (ptxsim): " + err.Error()
		return e
	}
	prog, err := sm.Load(f.sim[dev])
	if err != nil {
		return invalid(call, "%v", err)
	}
	mod.prog = prog
	// The kernels' static shared memory, and the dynamic shared memory
	// they may use without opting in (48 KiB in all).
	static := sm.SharedSize()
	for _, fn := range mod.funcs {
		code := f.funcs[fn].code
		code[driver.FuncSharedSizeBytes] = static
		code[driver.FuncMaxDynamicSharedSize] = max(defaultDynamicShared-static, 0)
	}
	for _, g := range prog.Globals() {
		if g.Size == 0 {
			continue
		}
		b, err := f.sim[dev].Bytes(g.Addr, g.Size)
		if err != nil {
			_ = prog.Unload()
			return invalid(call, "%v", err)
		}
		if mod.globals == nil {
			mod.globals = map[string]driver.DevicePtr{}
		}
		p := driver.DevicePtr(g.Addr)
		f.allocs[p] = &alloc{dev: dev, mem: b, global: true}
		mod.globals[g.Name] = p
	}
	return nil
}

// pendingOp is device work the executing fake has queued.
type pendingOp struct {
	dev int
	run func() // called with f.mu held
}

// hostSync lists the calls that wait for the queued work: the synchronous
// copies to and from the host (legacy default stream), synchronization and
// queries, and the calls that synchronize implicitly.
var hostSync = map[string]bool{
	"cuCtxSynchronize": true, "cuStreamSynchronize": true, "cuEventSynchronize": true,
	"cuStreamQuery": true, "cuEventQuery": true, "cuEventElapsedTime": true,
	"cuMemcpyHtoD": true, "cuMemcpyDtoH": true,
	"cuMemFree": true, "cuMemFreeHost": true, "cuModuleUnload": true,
}

// queue adds op to device dev's pending work; called with f.mu held.
func (f *Fake) queue(dev int, op func()) {
	f.pending = append(f.pending, pendingOp{dev, op})
}

// flush runs the pending work in issue order, a valid order for any set of
// streams; after a kernel fault the rest is dropped, as a poisoned context
// runs nothing more. Called with f.mu held.
func (f *Fake) flush() {
	for len(f.pending) > 0 {
		op := f.pending[0]
		f.pending = f.pending[1:]
		if f.poison == driver.Success {
			op.run()
		}
	}
	f.pending = nil
}

// simQueue checks launch l's arguments against the kernel's parameters and
// queues the kernel's run.
func (f *Fake) simQueue(l Launch) error {
	const call = "cuLaunchKernel"
	f.mu.Lock()
	defer f.mu.Unlock()
	mod := f.modules[l.Module]
	if mod == nil || mod.prog == nil {
		return driver.NewError(call, driver.ErrorInvalidHandle)
	}
	params, err := simParams(mod.prog.Module(), l)
	if err != nil {
		return invalid(call, "%v", err)
	}
	f.queue(mod.dev, func() { f.simExec(mod.prog, l, params) })
	return nil
}

// simExec runs launch l in the interpreter; a fault poisons the context.
// Called with f.mu held.
func (f *Fake) simExec(prog *ptxsim.Program, l Launch, params []byte) {
	sc := f.cfg.Sim
	out := sc.Stdout
	if out == nil {
		out = os.Stdout
	}
	err := prog.Run(ptxsim.Config{
		Kernel:    l.Function,
		Grid:      [3]int{l.Grid.X, l.Grid.Y, l.Grid.Z},
		Block:     [3]int{l.Block.X, l.Block.Y, l.Block.Z},
		SharedMem: l.SharedMem,
		Params:    params,
		Stdout:    out,
		Workers:   sc.Workers,
		MaxSteps:  sc.MaxSteps,
		// All blocks at once, so that a grid barrier completes.
		Cooperative: l.Cooperative,
	})
	if err == nil {
		return
	}
	f.poison, f.kernelFault = driver.ErrorLaunchFailed, err
	var ee *ptxsim.ExecError
	if errors.As(err, &ee) {
		f.poison = faultCode(ee.Kind)
	}
}

// simParams lays l's arguments out as kernel l.Function declares its
// parameters, as the driver does with cuLaunchKernel's kernelParams.
func simParams(m *ptxsim.Module, l Launch) ([]byte, error) {
	ps, err := m.Params(l.Function)
	if err != nil {
		return nil, err
	}
	size, _ := m.ParamSize(l.Function)
	if len(l.Args) != len(ps) {
		return nil, fmt.Errorf("kernel %s has %d parameters, the launch passes %d arguments", l.Function, len(ps), len(l.Args))
	}
	buf := make([]byte, size)
	for i, p := range ps {
		if len(l.Args[i]) != p.Size {
			return nil, fmt.Errorf("kernel %s: parameter %d (%s %s) has %d bytes, argument %d has %d", l.Function, i, p.Type, p.Name, p.Size, i, len(l.Args[i]))
		}
		copy(buf[p.Offset:], l.Args[i])
	}
	return buf, nil
}

// faultCode is the sticky result a GPU reports for a fault of kind k.
func faultCode(k ptxsim.FaultKind) driver.Result {
	switch k {
	case ptxsim.FaultAddress:
		return driver.ErrorIllegalAddress
	case ptxsim.FaultMisaligned:
		return driver.ErrorMisalignedAddress
	case ptxsim.FaultLimit:
		return driver.ErrorLaunchTimeout
	}
	return driver.ErrorLaunchFailed
}
