package fakedriver

import (
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/ptxsim"
)

// Init implements driver.API.
func (f *Fake) Init() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.enter("cuInit", false, false); err != nil {
		return driver.NoDevice(err)
	}
	if len(f.cfg.Devices) == 0 {
		return driver.NoDevice(driver.NewError("cuInit", driver.ErrorNoDevice))
	}
	f.initialized = true
	return nil
}

// DriverVersion implements driver.API; it works before Init, as in CUDA.
func (f *Fake) DriverVersion() (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.enter("cuDriverGetVersion", false, false); err != nil {
		return 0, err
	}
	return f.cfg.DriverVersion, nil
}

// DeviceCount implements driver.API.
func (f *Fake) DeviceCount() (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.enter("cuDeviceGetCount", true, false); err != nil {
		return 0, err
	}
	return len(f.cfg.Devices), nil
}

// device checks a device handle.
func (f *Fake) device(call string, d driver.Device) (int, error) {
	if d < 0 || int(d) >= len(f.cfg.Devices) {
		return -1, driver.NewError(call, driver.ErrorInvalidDevice)
	}
	return int(d), nil
}

// DeviceGet implements driver.API.
func (f *Fake) DeviceGet(ordinal int) (driver.Device, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.enter("cuDeviceGet", true, false); err != nil {
		return 0, err
	}
	if _, err := f.device("cuDeviceGet", driver.Device(ordinal)); err != nil {
		return 0, err
	}
	return driver.Device(ordinal), nil
}

// DeviceName implements driver.API.
func (f *Fake) DeviceName(d driver.Device) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.enter("cuDeviceGetName", true, false); err != nil {
		return "", err
	}
	i, err := f.device("cuDeviceGetName", d)
	if err != nil {
		return "", err
	}
	return f.cfg.Devices[i].Name, nil
}

// DeviceAttribute implements driver.API.
func (f *Fake) DeviceAttribute(d driver.Device, attr driver.DeviceAttribute) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuDeviceGetAttribute"
	if _, err := f.enter(call, true, false); err != nil {
		return 0, err
	}
	i, err := f.device(call, d)
	if err != nil {
		return 0, err
	}
	v, ok := f.cfg.Devices[i].Attrs[attr]
	if !ok {
		return 0, invalid(call, "attribute %d not known to the fake device", int(attr))
	}
	return v, nil
}

// DeviceTotalMem implements driver.API.
func (f *Fake) DeviceTotalMem(d driver.Device) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.enter("cuDeviceTotalMem", true, false); err != nil {
		return 0, err
	}
	i, err := f.device("cuDeviceTotalMem", d)
	if err != nil {
		return 0, err
	}
	return f.cfg.Devices[i].TotalMem, nil
}

// PrimaryCtxRetain implements driver.API.
func (f *Fake) PrimaryCtxRetain(d driver.Device) (driver.Context, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.enter("cuDevicePrimaryCtxRetain", true, false); err != nil {
		return 0, err
	}
	i, err := f.device("cuDevicePrimaryCtxRetain", d)
	if err != nil {
		return 0, err
	}
	f.ctxRefs[i]++
	return ctxHandle(i), nil
}

// PrimaryCtxRelease implements driver.API. Releasing the last reference
// destroys the context: its memory, modules, streams and events go with it,
// and a poisoning is lifted, as with the real driver.
func (f *Fake) PrimaryCtxRelease(d driver.Device) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuDevicePrimaryCtxRelease"
	if _, err := f.enter(call, true, false); err != nil {
		return err
	}
	i, err := f.device(call, d)
	if err != nil {
		return err
	}
	if f.ctxRefs[i] == 0 {
		return driver.NewError(call, driver.ErrorInvalidContext)
	}
	f.ctxRefs[i]--
	if f.ctxRefs[i] == 0 {
		f.destroyContext(i)
	}
	return nil
}

func (f *Fake) destroyContext(dev int) {
	for p, a := range f.allocs {
		if a.dev == dev {
			delete(f.allocs, p)
		}
	}
	f.used[dev] = 0
	f.limits[dev] = nil
	f.profiling[dev] = false
	for m, mod := range f.modules {
		if mod.dev == dev {
			f.unload(m)
		}
	}
	for s, sd := range f.streams {
		if sd == dev {
			delete(f.streams, s)
		}
	}
	for e, ev := range f.events {
		if ev.dev == dev {
			delete(f.events, e)
		}
	}
	if f.sim != nil {
		f.sim[dev] = ptxsim.NewMemory()
		kept := f.pending[:0]
		for _, op := range f.pending {
			if op.dev != dev {
				kept = append(kept, op)
			}
		}
		f.pending = kept
	}
	f.poison, f.kernelFault = driver.Success, nil
}

// CtxSetCurrent implements driver.API: the binding is per OS thread.
func (f *Fake) CtxSetCurrent(c driver.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuCtxSetCurrent"
	if _, err := f.enter(call, true, false); err != nil {
		return err
	}
	if c == 0 {
		delete(f.current, threadID())
		return nil
	}
	if d := f.ctxDevice(c); d < 0 || f.ctxRefs[d] == 0 {
		return driver.NewError(call, driver.ErrorInvalidContext)
	}
	f.current[threadID()] = c
	return nil
}

// CtxGetCurrent implements driver.API.
func (f *Fake) CtxGetCurrent() (driver.Context, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.enter("cuCtxGetCurrent", true, false); err != nil {
		return 0, err
	}
	return f.current[threadID()], nil
}

// CtxSynchronize implements driver.API. Work completes at once in the fake
// (or here, with Config.Sim), so this only reports errors (a poisoned
// context).
func (f *Fake) CtxSynchronize() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err := f.enter("cuCtxSynchronize", true, true)
	return err
}

// defaultLimits are the context limits before CtxSetLimit, CUDA's usual
// defaults.
var defaultLimits = map[driver.Limit]int{
	driver.LimitStackSize:      1024,
	driver.LimitPrintfFIFOSize: 1 << 20,
	driver.LimitMallocHeapSize: 8 << 20,
}

// CtxSetLimit implements driver.API. Like the real driver it may change
// the value: the stack size is rounded up to a multiple of 16 bytes.
func (f *Fake) CtxSetLimit(limit driver.Limit, value int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuCtxSetLimit"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	if _, ok := defaultLimits[limit]; !ok {
		return driver.NewError(call, driver.ErrorUnsupportedLimit)
	}
	if value < 0 {
		return invalid(call, "negative value %d", value)
	}
	if limit == driver.LimitStackSize {
		value = (value + 15) &^ 15
	}
	if f.limits[dev] == nil {
		f.limits[dev] = map[driver.Limit]int{}
	}
	f.limits[dev][limit] = value
	return nil
}

// CtxGetLimit implements driver.API.
func (f *Fake) CtxGetLimit(limit driver.Limit) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuCtxGetLimit"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return 0, err
	}
	def, ok := defaultLimits[limit]
	if !ok {
		return 0, driver.NewError(call, driver.ErrorUnsupportedLimit)
	}
	if v, ok := f.limits[dev][limit]; ok {
		return v, nil
	}
	return def, nil
}

// ProfilerStart implements driver.API: it needs a current context, as
// the driver does, and marks the context's device as profiling
// (Profiling); starting twice is no error.
func (f *Fake) ProfilerStart() error { return f.setProfiling("cuProfilerStart", true) }

// ProfilerStop implements driver.API, undoing ProfilerStart.
func (f *Fake) ProfilerStop() error { return f.setProfiling("cuProfilerStop", false) }

func (f *Fake) setProfiling(call string, on bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	f.profiling[dev] = on
	return nil
}

// Profiling reports whether profile collection is on for device dev's
// context: ProfilerStart called since the context was made, and no
// ProfilerStop after it.
func (f *Fake) Profiling(dev int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return dev >= 0 && dev < len(f.profiling) && f.profiling[dev]
}
