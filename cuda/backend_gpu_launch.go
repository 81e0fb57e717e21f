package cuda

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/driver"
)

// gpuKernel is a kernel loaded on one device.
type gpuKernel struct {
	dev  *gpuDevice
	name string
	m    *compiler.Module
	mod  driver.Module
	fn   driver.Function
	rec  driver.DevicePtr // the debug error record; 0 without debug checks
	res  kernelResources  // what the driver says the kernel needs, read at load

	mu        sync.Mutex
	dynShared int         // dynamic shared memory the kernel has been opted in to
	forAll    map[int]int // ForAll's block size by dynamic shared memory bytes
}

// gpuKernelKey keys a kernel's loaded form: one per device, target and
// functions passed for func parameters (see funcsKey).
type gpuKernelKey struct {
	dev    *gpuDevice
	target compiler.Target
	funcs  string
}

// defaultDynamicShared is what a kernel may use in all (static + dynamic)
// without cuFuncSetAttribute.
const defaultDynamicShared = 48 << 10

// kernel returns k compiled for d's target and the functions of args' func
// arguments, and loaded on d, doing either on first use; overlap says
// whether args share memory (argsOverlap).
func (d *gpuDevice) kernel(k *Kernel, args []boundArg, overlap bool) (*gpuKernel, error) {
	target := k.target(d.sm)
	target.NoReadOnlyCache = overlap
	m, err := k.module(target, args)
	if err != nil {
		return nil, err
	}
	c, err := k.compiledFor(gpuKernelKey{d, target, funcsKey(args)}, func() (any, error) { return d.load(k.name, m) })
	if err != nil {
		return nil, err
	}
	return c.(*gpuKernel), nil
}

// load JIT-compiles the module's PTX on the device and finds its entry and
// debug record (zeroed).
func (d *gpuDevice) load(name string, m *compiler.Module) (*gpuKernel, error) {
	gk := &gpuKernel{dev: d, name: name, m: m, dynShared: defaultDynamicShared - m.SharedBytes}
	err := d.do(func(api driver.API) error {
		mod, _, err := api.ModuleLoadData(m.PTX, driver.JITOptions{LineInfo: m.Target.LineInfo})
		if err != nil {
			return err
		}
		fail := func(err error) error {
			_ = api.ModuleUnload(mod)
			return err
		}
		if gk.fn, err = api.ModuleGetFunction(mod, m.Entry); err != nil {
			return fail(err)
		}
		if gk.res, err = readResources(api, gk.fn); err != nil {
			return fail(err)
		}
		if m.UsesErrorRecord {
			rec, n, err := api.ModuleGetGlobal(mod, compiler.ErrorSymbol)
			if err != nil {
				return fail(err)
			}
			if n < compiler.ErrorRecordSize {
				return fail(fmt.Errorf("debug record %s has %d bytes, want %d", compiler.ErrorSymbol, n, compiler.ErrorRecordSize))
			}
			if err := api.MemsetD8(rec, 0, compiler.ErrorRecordSize); err != nil {
				return fail(err)
			}
			gk.rec = rec
		}
		gk.mod = mod
		return nil
	})
	if errors.Is(err, ErrContextLost) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("load on device %d (%s): %w", d.props.Ordinal, d.props.Arch(), err)
	}
	return gk, nil
}

// launch runs k on the stream's device, or the selected one for the nil
// stream.
func (g *gpuBackend) launch(s *Stream, k *Kernel, cfg LaunchConfig, args []boundArg) error {
	d, gs, err := g.deviceFor(s)
	if err != nil {
		return err
	}
	spans, at := hostSpans(args)
	gk, err := d.kernel(k, args, argsOverlapIn(args, spans))
	if err != nil {
		return err
	}
	if err := gk.checkBlock(cfg.Block); err != nil {
		return err
	}
	if gk.m.UsesGridSync && !cfg.Cooperative {
		return fmt.Errorf("%w; %s", ErrNotCooperative, fixCooperative)
	}
	if gs == nil {
		if err := g.drainAll(); err != nil {
			return err
		}
	} else {
		gs.holdForCallbacks()
	}
	return d.do(func(api driver.API) error { return gk.launch(api, gs, cfg, args, spans, at) })
}

// deviceFor returns the device work on stream s runs on, and s's GPU
// form (nil for the default stream, which runs on the selected device).
func (g *gpuBackend) deviceFor(s *Stream) (*gpuDevice, *gpuStream, error) {
	if s == nil {
		return g.current(), nil, nil
	}
	gs, ok := s.impl.(*gpuStream)
	if !ok || gs.be != g.top {
		return nil, nil, errors.New("stream does not belong to this GPU backend")
	}
	return gs.dev, gs, nil
}

// forAllBlock asks the driver's occupancy calculator for k's block size
// on the stream's device, once per loaded kernel and shared memory size.
func (g *gpuBackend) forAllBlock(s *Stream, k *Kernel, sharedMem int, args []boundArg) (int, error) {
	d, _, err := g.deviceFor(s)
	if err != nil {
		return 0, err
	}
	gk, err := d.kernel(k, args, argsOverlap(args))
	if err != nil {
		return 0, err
	}
	return gk.occupancyBlock(sharedMem)
}

// cooperativeBlocks is the GPU's cooperative limit for k on the stream's
// device: the blocks the occupancy calculator lets one multiprocessor hold
// at once, times the multiprocessors.
func (g *gpuBackend) cooperativeBlocks(s *Stream, k *Kernel, block Dim3, sharedMem int, args []boundArg) (int, string, error) {
	d, _, err := g.deviceFor(s)
	if err != nil {
		return 0, "", err
	}
	p := d.props
	if !p.Cooperative {
		return 0, "", fmt.Errorf("device %d (%s, %s) does not support cooperative launches", p.Ordinal, p.Name, p.Arch())
	}
	gk, err := d.kernel(k, args, argsOverlap(args))
	if err != nil {
		return 0, "", err
	}
	var perSM int
	err = d.do(func(api driver.API) error {
		if err := gk.optIn(api, sharedMem); err != nil {
			return err
		}
		perSM, err = api.OccupancyMaxActiveBlocksPerMultiprocessor(gk.fn, block.Size(), sharedMem)
		return err
	})
	if err != nil {
		return 0, "", fmt.Errorf("blocks per multiprocessor: %w", err)
	}
	return perSM * p.SMs, fmt.Sprintf("on device %d (%s): %d multiprocessors with %d such blocks each, as the occupancy calculator reports for this kernel", p.Ordinal, p.Arch(), p.SMs, perSM), nil
}

// occupancyBlock is the block size with the most resident threads per
// multiprocessor for sharedMem bytes of dynamic shared memory, which the
// kernel is opted in to first when it is over the default 48 KiB.
func (gk *gpuKernel) occupancyBlock(sharedMem int) (int, error) {
	gk.mu.Lock()
	b, ok := gk.forAll[sharedMem]
	gk.mu.Unlock()
	if ok {
		return b, nil
	}
	err := gk.dev.do(func(api driver.API) error {
		if err := gk.optIn(api, sharedMem); err != nil {
			return err
		}
		_, block, err := api.OccupancyMaxPotentialBlockSize(gk.fn, sharedMem, 0)
		b = block
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("choose a block size: %w", err)
	}
	if b <= 0 {
		return 0, fmt.Errorf("choose a block size: %w for %d bytes of dynamic shared memory on device %d (%s), as the occupancy calculator reports", errNoBlockFits, sharedMem, gk.dev.props.Ordinal, gk.dev.props.Arch())
	}
	gk.mu.Lock()
	if gk.forAll == nil {
		gk.forAll = map[int]int{}
	}
	gk.forAll[sharedMem] = b
	gk.mu.Unlock()
	return b, nil
}

// hostTemp is the device copy of a host slice or array argument and, on a
// stream, the page-locked buffer it is staged through both ways (the host
// memory itself when it is pinned) (the stream
// orders the copy in, the kernel and the copy back).
type hostTemp struct {
	alloc   driver.DevicePtr // the allocation
	ptr     driver.DevicePtr // the copy of host, in alloc
	host    []byte
	staging unsafe.Pointer // nil on the default stream
	pinned  bool           // staging is host itself, pinned (Pin)
	noOut   bool           // only In arguments: not copied back
}

// launch copies host arguments in (in spans, placed as at says: see
// hostSpans), launches, and either (nil stream) copies them back, waits and
// checks the debug record, or (stream) queues the copies back and leaves
// the rest to the stream's Synchronize. Everything it
// allocated is freed on every failure (on a stream, once the stream has
// finished with it). It runs inside the device's Do.
func (gk *gpuKernel) launch(api driver.API, gs *gpuStream, cfg LaunchConfig, args []boundArg, spans []hostSpan, at []spanRef) (err error) {
	var temps []hostTemp
	var counter driver.DevicePtr // the grid barrier's, for a kernel that syncs the grid
	queued := false
	defer func() {
		if err == nil || queued {
			return
		}
		if gs != nil {
			gs.releaseTemps(temps, false)
			gs.releaseCounter(counter)
			return
		}
		for _, t := range temps {
			_ = api.MemFree(t.alloc)
		}
		if counter != 0 {
			_ = api.MemFree(counter)
		}
	}()
	if gk.m.UsesPrintf {
		gk.dev.be.printed.Store(true)
		if gs == nil {
			// A synchronous launch waits for the kernel below: its
			// output is complete when the launch returns.
			defer gk.dev.be.flushPrintf()
		}
	}
	var stream driver.Stream
	if gs != nil {
		stream = gs.h
	}
	addrs := make([]uint64, len(args))
	var devArgs []*gpuMemory // kept reachable until a stream launch has run
	var inUseBuf [4]*gpuMemory
	inUse := inUseBuf[:0] // device arrays acquired, done when launch returns
	defer func() {
		for _, m := range inUse {
			m.done()
		}
	}()
	hostArgs := false
	for si, sp := range spans { // overlapping host arguments share one copy
		// The copy keeps the host address's offset from a 256-byte
		// boundary, so that every argument in the span is as aligned on
		// the device as on the host.
		pad := int(uintptr(unsafe.Pointer(&sp.bytes[0])) % 256)
		p, err := api.MemAlloc(pad + len(sp.bytes))
		if err == nil {
			temps = append(temps, hostTemp{alloc: p, ptr: p + driver.DevicePtr(pad), host: sp.bytes, noOut: sp.noOut})
			t := &temps[len(temps)-1]
			if gs == nil {
				if !sp.noIn {
					err = api.MemcpyHtoD(t.ptr, unsafe.Pointer(&sp.bytes[0]), len(sp.bytes))
				}
			} else {
				err = stage(api, t, gs, !sp.noIn)
			}
		}
		if err != nil {
			return fmt.Errorf("%v: copying it to the device: %w", args[firstIn(at, si)].param, err)
		}
	}
	for i, a := range args {
		switch {
		case a.dev != nil:
			mm, err := a.dev.mem()
			if err != nil {
				return fmt.Errorf("%v: %w", a.param, err)
			}
			m, ok := mm.(*gpuMemory)
			if !ok || m.dev.be != gk.dev.be {
				return fmt.Errorf("%v: device array does not belong to this GPU backend", a.param)
			}
			if m.dev != gk.dev {
				return fmt.Errorf("%v: device array is on device %d, the launch on device %d", a.param, m.dev.props.Ordinal, gk.dev.props.Ordinal)
			}
			// Held until the launch is queued (stream) or done: a Free
			// from another goroutine waits for it.
			if err := m.acquire(); err != nil {
				return fmt.Errorf("%v: %w", a.param, err)
			}
			inUse = append(inUse, m)
			addrs[i] = uint64(m.ptr) + uint64(a.dev.offset()) // a view's offset in its array
			if gs != nil {
				devArgs = append(devArgs, m)
			}
		case a.isHost():
			hostArgs = true
			if r := at[i]; r.span >= 0 {
				addrs[i] = uint64(temps[r.span].ptr) + uint64(r.offset)
			}
		}
	}
	buf, err := packParams(gk.m, args, addrs)
	if err != nil {
		return err
	}
	if gk.m.UsesGridSync {
		// The grid barrier's counter: the launch's own, zeroed in launch
		// order, so that launches on other streams never share one.
		if counter, err = api.MemAlloc(compiler.GridSyncCounterBytes); err != nil {
			return fmt.Errorf("grid barrier counter: %w", err)
		}
		if gs != nil {
			err = api.MemsetD8Async(counter, 0, compiler.GridSyncCounterBytes, stream)
		} else {
			err = api.MemsetD8(counter, 0, compiler.GridSyncCounterBytes)
		}
		if err != nil {
			return fmt.Errorf("grid barrier counter: %w", err)
		}
		binary.LittleEndian.PutUint64(buf[gk.m.GridSyncParam.Offset:], uint64(counter))
	}
	if err := gk.optIn(api, cfg.SharedMem); err != nil {
		return err
	}
	params := gk.dev.params.Get().(*driver.Params)
	params.Reset()
	for _, p := range gk.m.Params {
		for _, pp := range p.PTX {
			params.Add(buf[pp.Offset:pp.Offset+pp.Size], pp.Size)
		}
	}
	if gk.m.UsesGridSync {
		pp := gk.m.GridSyncParam
		params.Add(buf[pp.Offset:pp.Offset+pp.Size], pp.Size)
	}
	if cfg.Cooperative {
		err = api.LaunchCooperativeKernel(gk.fn, driver.Dim3(cfg.Grid), driver.Dim3(cfg.Block), cfg.SharedMem, stream, params)
	} else {
		err = api.LaunchKernel(gk.fn, driver.Dim3(cfg.Grid), driver.Dim3(cfg.Block), cfg.SharedMem, stream, params)
	}
	gk.dev.params.Put(params)
	if driver.Code(err) == driver.ErrorLaunchOutOfRes {
		return fmt.Errorf("%w: %s", err, gk.outOfResources(cfg))
	}
	if err != nil {
		return err
	}
	gk.dev.lastKernel.Store(gk)

	if gs != nil {
		// The stream owns the temporaries from here: copies back, frees and
		// the record check run at its next Synchronize.
		queued = true
		for _, t := range temps {
			if t.noOut {
				continue
			}
			if err := api.MemcpyDtoHAsync(t.staging, t.ptr, len(t.host), gs.h); err != nil {
				// The kernel is queued and may still use the temporaries:
				// they are freed once the stream has finished.
				gs.releaseTemps(temps, false)
				return err
			}
		}
		gs.launched(gk)
		gs.releaseTemps(temps, true)
		gs.releaseCounter(counter)
		if len(devArgs) > 0 {
			// A device array dropped right after an asynchronous launch
			// must not be freed by its cleanup while the kernel runs.
			gs.defer_(func(driver.API, bool) error { runtime.KeepAlive(devArgs); return nil })
		}
		if gk.rec != 0 {
			gs.defer_(func(api driver.API, failed bool) error {
				if failed {
					return nil
				}
				if err := gk.checkRecord(api); err != nil {
					return fmt.Errorf("launch %s: %w", gk.name, withHostNote(err, hostArgs))
				}
				return nil
			})
		}
		return nil
	}

	// The calls from here wait for the kernel: a fault they report is its.
	copied := false
	for _, t := range temps {
		if t.noOut {
			continue
		}
		copied = true
		if err := api.MemcpyDtoH(unsafe.Pointer(&t.host[0]), t.ptr, len(t.host)); err != nil {
			return awaiting(gk, err)
		}
	}
	if !copied {
		if err := api.StreamSynchronize(0); err != nil {
			return awaiting(gk, err)
		}
	}
	for _, t := range temps {
		if err := api.MemFree(t.alloc); err != nil {
			return awaiting(gk, err)
		}
	}
	temps = nil
	if counter != 0 {
		err := api.MemFree(counter)
		counter = 0
		if err != nil {
			return awaiting(gk, err)
		}
	}
	if gk.rec != 0 {
		return awaiting(gk, withHostNote(gk.checkRecord(api), hostArgs))
	}
	return nil
}

// kernelResources are what the driver says a loaded kernel needs
// (cuFuncGetAttribute), read once when it is loaded.
type kernelResources struct {
	maxThreads  int // threads per block the kernel can be launched with on its device
	regs        int // registers per thread
	localBytes  int // local memory per thread
	sharedBytes int // static shared memory per block
}

// readResources reads kernel fn's resources from the driver.
func readResources(api driver.API, fn driver.Function) (kernelResources, error) {
	var r kernelResources
	for _, a := range []struct {
		attr driver.FunctionAttribute
		dst  *int
	}{
		{driver.FuncMaxThreadsPerBlock, &r.maxThreads},
		{driver.FuncNumRegs, &r.regs},
		{driver.FuncLocalSizeBytes, &r.localBytes},
		{driver.FuncSharedSizeBytes, &r.sharedBytes},
	} {
		v, err := api.FuncGetAttribute(fn, a.attr)
		if err != nil {
			return r, err
		}
		*a.dst = v
	}
	return r, nil
}

// checkBlock refuses a block with more threads than the kernel allows on
// its device, which cuLaunchKernel would refuse with a bare
// CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES. The usual reason is the kernel's
// registers: every thread of a block holds its own, from one register file
// per block, allocated per warp in units of 8 per thread.
func (gk *gpuKernel) checkBlock(block Dim3) error {
	r, p := gk.res, gk.dev.props
	n := block.Size()
	if r.maxThreads <= 0 || n <= r.maxThreads {
		return nil
	}
	why := fmt.Sprintf("as the driver reports for it (it uses %d registers and %d bytes of local memory per thread)", r.regs, r.localBytes)
	if perThread := (r.regs + 7) &^ 7; p.RegsPerBlock > 0 && (r.maxThreads+WarpSize)*perThread > p.RegsPerBlock {
		why = fmt.Sprintf("because it uses %d registers per thread and the device has %d per block", r.regs, p.RegsPerBlock)
	}
	return fmt.Errorf("block %v has %d threads; this kernel can run at most %d per block on device %d (%s), %s; launch it with blocks of at most %d threads (and more blocks)",
		block, n, r.maxThreads, p.Ordinal, p.Arch(), why, r.maxThreads)
}

// outOfResources explains a launch the driver refused for its resources,
// with the figures it is made of.
func (gk *gpuKernel) outOfResources(cfg LaunchConfig) string {
	r, p := gk.res, gk.dev.props
	return fmt.Sprintf("block %v of %d threads with %d bytes of dynamic shared memory; the kernel uses %d registers and %d bytes of local memory per thread and %d bytes of static shared memory, and can run at most %d threads per block on device %d (%s), which has %d registers and %d bytes of shared memory per block; try a smaller block or less shared memory",
		cfg.Block, cfg.Block.Size(), cfg.SharedMem, r.regs, r.localBytes, r.sharedBytes, r.maxThreads, p.Ordinal, p.Arch(), p.RegsPerBlock, max(p.SharedPerBlockOpt, p.SharedPerBlock))
}

// firstIn is the first argument placed in span number span.
func firstIn(at []spanRef, span int) int {
	for i, r := range at {
		if r.span == span {
			return i
		}
	}
	return 0
}

// stage queues the copy of t's host bytes to the device on stream gs:
// straight from them when they are pinned (Pin), else through a staging
// buffer it allocates and fills now.
func stage(api driver.API, t *hostTemp, gs *gpuStream, copyIn bool) error {
	if isPinned(gs.be, t.host) {
		t.staging, t.pinned = unsafe.Pointer(&t.host[0]), true
		if !copyIn {
			return nil
		}
		return api.MemcpyHtoDAsync(t.ptr, t.staging, len(t.host), gs.h)
	}
	buf, err := api.MemHostAlloc(len(t.host), 0)
	if err != nil {
		return err
	}
	t.staging = buf
	if !copyIn {
		return nil // Out only: the staging buffer receives the copy back
	}
	copy(pinnedBytes(buf, len(t.host)), t.host)
	return api.MemcpyHtoDAsync(t.ptr, buf, len(t.host), gs.h)
}

// withHostNote says, as the CPU backend does, that host slices may hold part
// of a failed kernel's writes.
func withHostNote(err error, hostArgs bool) error {
	if err != nil && hostArgs {
		return fmt.Errorf("%w (host slices passed to the launch may be partially written)", err)
	}
	return err
}

// optIn raises the kernel's dynamic shared memory limit when a launch asks
// for more than the default 48 KiB per block allows.
func (gk *gpuKernel) optIn(api driver.API, bytes int) error {
	gk.mu.Lock()
	defer gk.mu.Unlock()
	if bytes <= gk.dynShared {
		return nil
	}
	if err := api.FuncSetAttribute(gk.fn, driver.FuncMaxDynamicSharedSize, bytes); err != nil {
		return err
	}
	gk.dynShared = bytes
	return nil
}

// checkRecord reads the debug error record after the kernel has finished and
// turns a recorded failure into a *KernelError, zeroing the record for the
// next launch.
func (gk *gpuKernel) checkRecord(api driver.API) error {
	var rec [compiler.ErrorRecordSize]byte
	if err := api.MemcpyDtoH(unsafe.Pointer(&rec[0]), gk.rec, len(rec)); err != nil {
		return err
	}
	f, failed := gk.m.DecodeRecord(rec[:])
	if !failed {
		return nil
	}
	if err := api.MemsetD8(gk.rec, 0, len(rec)); err != nil {
		return err
	}
	return gk.kernelError(f)
}

// kernelError is a decoded record as the error a launch returns.
func (gk *gpuKernel) kernelError(f compiler.Failure) *KernelError {
	return &KernelError{
		Kernel: gk.name,
		Block:  Dim3{f.Block[0], f.Block[1], f.Block[2]},
		Thread: Dim3{f.Thread[0], f.Thread[1], f.Thread[2]},
		Pos:    f.Pos,
		Msg:    f.Msg,
	}
}
