package fakedriver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nugo-dev/nugo/internal/driver"
)

var entryRE = lazyRE(`\.entry\s+([A-Za-z_$%][\w$]*)`)

// globalRE matches a module-scope .global variable: its element type, name
// and optional element count.
var globalRE = lazyRE(`\.global\s+(?:\.align\s+\d+\s+)?\.([bsuf])(8|16|32|64)\s+([A-Za-z_$%][\w$]*)\s*(?:\[(\d+)\])?\s*;`)

// ModuleLoadData implements driver.API. The fake compiler accepts any text
// that has .version and .target directives and exposes its .entry functions.
func (f *Fake) ModuleLoadData(ptx string, opts driver.JITOptions) (driver.Module, driver.JITLog, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuModuleLoadDataEx"
	var log driver.JITLog
	dev, err := f.enter(call, true, true)
	if err != nil {
		var e *driver.Error
		if errors.As(err, &e) {
			log.Error = e.Log
		}
		return 0, log, err
	}
	if strings.TrimSpace(ptx) == "" {
		return 0, log, driver.NewError(call, driver.ErrorInvalidImage)
	}
	for _, dir := range []string{".version", ".target"} {
		if !strings.Contains(ptx, dir) {
			e := driver.NewError(call, driver.ErrorInvalidPTX)
			e.Log = "ptxas fatal   : fake driver: missing " + dir + " directive"
			log.Error = e.Log
			return 0, log, e
		}
	}
	attrs := f.cfg.Devices[dev].Attrs
	cc := 10*attrs[driver.AttrComputeCapabilityMajor] + attrs[driver.AttrComputeCapabilityMinor]
	if e := checkPTXHeader(call, ptx, f.cfg.DriverVersion, cc); e != nil {
		log.Error = e.Log
		return 0, log, e
	}
	if opts.OptLevel < driver.OptDefault || opts.OptLevel > driver.O4 {
		return 0, log, invalid(call, "optimisation level %d", int(opts.OptLevel))
	}
	m := driver.Module(f.handle())
	mod := &module{dev: dev}
	var names []string
	static := arrayBytes(ptx, "shared")
	for _, sub := range entryRE().FindAllStringSubmatch(ptx, -1) {
		fn := driver.Function(f.handle())
		f.funcs[fn] = &function{name: sub[1], mod: m, params: entryParams(ptx, sub[1]), code: entryResources(ptx, sub[1], static)}
		mod.funcs = append(mod.funcs, fn)
		names = append(names, sub[1])
	}
	if f.sim != nil {
		if err := f.simLoad(call, dev, mod, ptx); err != nil {
			var e *driver.Error
			if errors.As(err, &e) {
				log.Error = e.Log
			}
			for _, fn := range mod.funcs {
				delete(f.funcs, fn)
			}
			return 0, log, err
		}
	} else {
		f.placeGlobals(dev, mod, ptx)
	}
	f.modules[m] = mod
	level := "default"
	if opts.OptLevel != driver.OptDefault {
		level = fmt.Sprintf("O%d", opts.OptLevel-driver.O0)
	}
	log.Info = fmt.Sprintf("fake ptxas: %d entries (%s), optimisation %s", len(names), strings.Join(names, ", "), level)
	log.WallMS = 0.5
	return m, log, nil
}

// placeGlobals allocates the module-scope .global variables the PTX
// declares (found by globalRE), zeroed; called with f.mu held.
func (f *Fake) placeGlobals(dev int, mod *module, ptx string) {
	for _, sub := range globalRE().FindAllStringSubmatch(ptx, -1) {
		if mod.globals == nil {
			mod.globals = map[string]driver.DevicePtr{}
		}
		bits, _ := strconv.Atoi(sub[2])
		n := 1
		if sub[4] != "" {
			n, _ = strconv.Atoi(sub[4])
		}
		bytes := max(n*bits/8, 1)
		p := f.nextAddr
		f.nextAddr += driver.DevicePtr((bytes + allocAlign - 1) &^ (allocAlign - 1))
		f.allocs[p] = &alloc{dev: dev, mem: deviceBytes(bytes), global: true}
		mod.globals[sub[3]] = p
	}
}

// ModuleGetFunction implements driver.API.
func (f *Fake) ModuleGetFunction(m driver.Module, name string) (driver.Function, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuModuleGetFunction"
	if _, err := f.enter(call, true, true); err != nil {
		return 0, err
	}
	mod, ok := f.modules[m]
	if !ok {
		return 0, driver.NewError(call, driver.ErrorInvalidHandle)
	}
	for _, fn := range mod.funcs {
		if f.funcs[fn].name == name {
			return fn, nil
		}
	}
	e := driver.NewError(call, driver.ErrorNotFound)
	e.Message += ": " + name
	return 0, e
}

// ModuleUnload implements driver.API.
func (f *Fake) ModuleUnload(m driver.Module) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuModuleUnload"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	if _, ok := f.modules[m]; !ok {
		return driver.NewError(call, driver.ErrorInvalidHandle)
	}
	f.unload(m)
	return nil
}

// ModuleGetGlobal implements driver.API: the module's .global variables
// live in fake device memory from load to unload (zeroed, as PTX globals
// without an initialiser are).
func (f *Fake) ModuleGetGlobal(m driver.Module, name string) (driver.DevicePtr, int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuModuleGetGlobal"
	if _, err := f.enter(call, true, true); err != nil {
		return 0, 0, err
	}
	mod, ok := f.modules[m]
	if !ok {
		return 0, 0, driver.NewError(call, driver.ErrorInvalidHandle)
	}
	p, ok := mod.globals[name]
	if !ok {
		e := driver.NewError(call, driver.ErrorNotFound)
		e.Message += ": " + name
		return 0, 0, e
	}
	return p, len(f.allocs[p].mem), nil
}

func (f *Fake) unload(m driver.Module) {
	for _, fn := range f.modules[m].funcs {
		delete(f.funcs, fn)
	}
	for _, p := range f.modules[m].globals {
		delete(f.allocs, p)
	}
	if prog := f.modules[m].prog; prog != nil {
		_ = prog.Unload()
	}
	delete(f.modules, m)
}

// defaultFuncAttrs is DefaultFuncAttrs, made once: funcAttr runs on every
// launch.
var defaultFuncAttrs = DefaultFuncAttrs()

// funcAttr is kernel fn's attribute: the SetFuncAttr or FuncSetAttribute
// value, else what its PTX says (see resources.go), else the default.
// FuncMaxThreadsPerBlock, unless set, follows from the kernel's registers
// and its device.
func (f *Fake) funcAttr(fn *function, attr driver.FunctionAttribute) (int, bool) {
	if v, ok := f.funcAttrs[fn.name][attr]; ok {
		return v, true
	}
	if v, ok := fn.code[attr]; ok {
		return v, true
	}
	if attr == driver.FuncMaxThreadsPerBlock {
		if mod, ok := f.modules[fn.mod]; ok {
			attrs := f.cfg.Devices[mod.dev].Attrs
			perBlock, okR := attrs[driver.AttrMaxRegistersPerBlock]
			maxT, okT := attrs[driver.AttrMaxThreadsPerBlock]
			if okR && okT {
				regs, _ := f.funcAttr(fn, driver.FuncNumRegs)
				return threadsForRegs(regs, perBlock, maxT), true
			}
		}
	}
	v, ok := defaultFuncAttrs[attr]
	return v, ok
}

// FuncGetAttribute implements driver.API.
func (f *Fake) FuncGetAttribute(fn driver.Function, attr driver.FunctionAttribute) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuFuncGetAttribute"
	if _, err := f.enter(call, true, true); err != nil {
		return 0, err
	}
	k, ok := f.funcs[fn]
	if !ok {
		return 0, driver.NewError(call, driver.ErrorInvalidHandle)
	}
	v, ok := f.funcAttr(k, attr)
	if !ok {
		return 0, invalid(call, "attribute %d not known to the fake driver", int(attr))
	}
	return v, nil
}

// FuncSetAttribute implements driver.API: FuncMaxDynamicSharedSize (up to the
// device's opt-in limit less the kernel's static shared memory) and
// FuncPreferredCarveout (0..100, or -1 for no preference) are settable.
func (f *Fake) FuncSetAttribute(fn driver.Function, attr driver.FunctionAttribute, value int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuFuncSetAttribute"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	k, ok := f.funcs[fn]
	if !ok {
		return driver.NewError(call, driver.ErrorInvalidHandle)
	}
	switch attr {
	case driver.FuncMaxDynamicSharedSize:
		static, _ := f.funcAttr(k, driver.FuncSharedSizeBytes)
		if limit := f.cfg.Devices[dev].Attrs[driver.AttrMaxSharedMemoryPerBlockOptin] - static; value < 0 || value > limit {
			return invalid(call, "dynamic shared memory %d outside 0..%d", value, limit)
		}
	case driver.FuncPreferredCarveout:
		if value < -1 || value > 100 {
			return invalid(call, "carveout %d outside -1..100", value)
		}
	default:
		return invalid(call, "attribute %d is read-only", int(attr))
	}
	if f.funcAttrs[k.name] == nil {
		f.funcAttrs[k.name] = map[driver.FunctionAttribute]int{}
	}
	f.funcAttrs[k.name][attr] = value
	return nil
}

// LaunchKernel implements driver.API: it checks the launch as the driver
// would, records it, advances the event clock, runs the kernel (with
// Config.Sim) and calls OnLaunch.
func (f *Fake) LaunchKernel(fn driver.Function, grid, block driver.Dim3, sharedMem int, s driver.Stream, params *driver.Params) error {
	return f.launchKernel(fn, grid, block, sharedMem, s, params, false)
}

// LaunchCooperativeKernel implements driver.API: LaunchKernel, refused with
// CUDA_ERROR_NOT_SUPPORTED on a device without AttrCooperativeLaunch and
// with CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE for a grid of more blocks
// than OccupancyMaxActiveBlocksPerMultiprocessor times the
// multiprocessors. The executing fake runs every block at once.
func (f *Fake) LaunchCooperativeKernel(fn driver.Function, grid, block driver.Dim3, sharedMem int, s driver.Stream, params *driver.Params) error {
	return f.launchKernel(fn, grid, block, sharedMem, s, params, true)
}

func (f *Fake) launchKernel(fn driver.Function, grid, block driver.Dim3, sharedMem int, s driver.Stream, params *driver.Params, coop bool) error {
	l, err := f.launch(fn, grid, block, sharedMem, s, params, coop)
	if err == nil && f.sim != nil {
		err = f.simQueue(l)
	}
	if err != nil || f.OnLaunch == nil {
		return err
	}
	if err := f.OnLaunch(f, l); err != nil {
		var e *driver.Error
		if errors.As(err, &e) && e.Code.Sticky() {
			f.mu.Lock()
			f.poison = e.Code
			f.mu.Unlock()
		}
		return err
	}
	return nil
}

func (f *Fake) launch(fn driver.Function, grid, block driver.Dim3, sharedMem int, s driver.Stream, params *driver.Params, coop bool) (Launch, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	call := "cuLaunchKernel"
	if coop {
		call = "cuLaunchCooperativeKernel"
	}
	dev, err := f.enter(call, true, true)
	if err != nil {
		return Launch{}, err
	}
	k, ok := f.funcs[fn]
	if !ok {
		return Launch{}, driver.NewError(call, driver.ErrorInvalidHandle)
	}
	if err := f.stream(call, s); err != nil {
		return Launch{}, err
	}
	attrs := f.cfg.Devices[dev].Attrs
	limits := []struct {
		what   string
		v, max int
	}{
		{"block.x", block.X, attrs[driver.AttrMaxBlockDimX]},
		{"block.y", block.Y, attrs[driver.AttrMaxBlockDimY]},
		{"block.z", block.Z, attrs[driver.AttrMaxBlockDimZ]},
		{"grid.x", grid.X, attrs[driver.AttrMaxGridDimX]},
		{"grid.y", grid.Y, attrs[driver.AttrMaxGridDimY]},
		{"grid.z", grid.Z, attrs[driver.AttrMaxGridDimZ]},
	}
	for _, lim := range limits {
		if lim.v < 1 || lim.v > lim.max {
			return Launch{}, invalid(call, "%s = %d outside 1..%d", lim.what, lim.v, lim.max)
		}
	}
	threads := block.X * block.Y * block.Z
	if threads > attrs[driver.AttrMaxThreadsPerBlock] {
		return Launch{}, invalid(call, "block %v has %d threads, device allows %d", block, threads, attrs[driver.AttrMaxThreadsPerBlock])
	}
	if maxT, _ := f.funcAttr(k, driver.FuncMaxThreadsPerBlock); threads > maxT {
		return Launch{}, driver.NewError(call, driver.ErrorLaunchOutOfRes)
	}
	static, _ := f.funcAttr(k, driver.FuncSharedSizeBytes)
	maxDyn, _ := f.funcAttr(k, driver.FuncMaxDynamicSharedSize)
	if sharedMem < 0 || sharedMem > maxDyn || static+sharedMem > attrs[driver.AttrMaxSharedMemoryPerBlockOptin] {
		return Launch{}, invalid(call, "%d bytes of dynamic shared memory (+%d static), kernel allows %d", sharedMem, static, maxDyn)
	}
	if err := checkParams(call, k, params); err != nil {
		return Launch{}, err
	}
	if coop {
		if attrs[driver.AttrCooperativeLaunch] == 0 {
			return Launch{}, driver.NewError(call, driver.ErrorNotSupported)
		}
		resident := f.activeBlocks(dev, k, threads, sharedMem) * attrs[driver.AttrMultiprocessorCount]
		if n := grid.X * grid.Y * grid.Z; n > resident {
			e := driver.NewError(call, driver.ErrorCooperativeLaunchTooLarge)
			e.Message = fmt.Sprintf("grid of %d blocks; %d can be resident", n, resident)
			return Launch{}, e
		}
	}
	l := Launch{Function: k.name, Module: k.mod, Grid: grid, Block: block, SharedMem: sharedMem, Stream: s, Cooperative: coop}
	if params != nil {
		l.Params = append([]byte(nil), params.Bytes()...)
		for i := 0; i < params.Len(); i++ {
			l.Args = append(l.Args, append([]byte(nil), params.Arg(i)...))
		}
	}
	f.launches = append(f.launches, l)
	f.clockMS += float64(f.cfg.LaunchTimeMS)
	return l, nil
}
