package driver

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// Start initialises the driver and counts the devices. Every way of finding no
// usable GPU (Init failing, zero devices) is an error wrapping ErrNoDevice.
func Start(api API) (devices int, err error) {
	if err := api.Init(); err != nil {
		if !errors.Is(err, ErrNoDevice) {
			err = NoDevice(err)
		}
		return 0, err
	}
	n, err := api.DeviceCount()
	if err != nil {
		return 0, NoDevice(err)
	}
	if n == 0 {
		return 0, NoDevice(errors.New("cuDeviceGetCount reports 0 devices"))
	}
	return n, nil
}

// DeviceProps are the limits and facts of a device that launches are checked
// against and that `nugo info` prints.
type DeviceProps struct {
	Ordinal           int
	Name              string
	Major, Minor      int // compute capability
	SMs               int
	MaxThreadsPerBlk  int
	MaxBlock, MaxGrid Dim3
	SharedPerBlock    int // bytes, without opt-in
	SharedPerBlockOpt int // bytes, with opt-in (cuFuncSetAttribute)
	SharedPerSM       int
	RegsPerBlock      int
	WarpSize          int
	ClockKHz          int
	MemClockKHz       int
	BusWidthBits      int
	L2Bytes           int
	TotalMem          int
	MaxThreadsPerSM   int
	AsyncEngines      int
	Cooperative       bool // supports cooperative launches (AttrCooperativeLaunch)
}

// Arch is the PTX target for the device, e.g. "sm_90".
func (p DeviceProps) Arch() string { return fmt.Sprintf("sm_%d%d", p.Major, p.Minor) }

// QueryDevice reads the properties of device ordinal. It needs Init but no
// context.
func QueryDevice(api API, ordinal int) (DeviceProps, error) {
	p := DeviceProps{Ordinal: ordinal}
	d, err := api.DeviceGet(ordinal)
	if err != nil {
		return p, err
	}
	if p.Name, err = api.DeviceName(d); err != nil {
		return p, err
	}
	if p.TotalMem, err = api.DeviceTotalMem(d); err != nil {
		return p, err
	}
	for _, a := range []struct {
		attr DeviceAttribute
		dst  *int
	}{
		{AttrComputeCapabilityMajor, &p.Major},
		{AttrComputeCapabilityMinor, &p.Minor},
		{AttrMultiprocessorCount, &p.SMs},
		{AttrMaxThreadsPerBlock, &p.MaxThreadsPerBlk},
		{AttrMaxBlockDimX, &p.MaxBlock.X},
		{AttrMaxBlockDimY, &p.MaxBlock.Y},
		{AttrMaxBlockDimZ, &p.MaxBlock.Z},
		{AttrMaxGridDimX, &p.MaxGrid.X},
		{AttrMaxGridDimY, &p.MaxGrid.Y},
		{AttrMaxGridDimZ, &p.MaxGrid.Z},
		{AttrMaxSharedMemoryPerBlock, &p.SharedPerBlock},
		{AttrMaxSharedMemoryPerBlockOptin, &p.SharedPerBlockOpt},
		{AttrMaxSharedMemoryPerSM, &p.SharedPerSM},
		{AttrMaxRegistersPerBlock, &p.RegsPerBlock},
		{AttrWarpSize, &p.WarpSize},
		{AttrClockRate, &p.ClockKHz},
		{AttrMemoryClockRate, &p.MemClockKHz},
		{AttrGlobalMemoryBusWidth, &p.BusWidthBits},
		{AttrL2CacheSize, &p.L2Bytes},
		{AttrMaxThreadsPerMultiprocessor, &p.MaxThreadsPerSM},
		{AttrAsyncEngineCount, &p.AsyncEngines},
	} {
		v, err := api.DeviceAttribute(d, a.attr)
		if err != nil {
			return p, err
		}
		*a.dst = v
	}
	coop, err := api.DeviceAttribute(d, AttrCooperativeLaunch)
	if err != nil {
		return p, err
	}
	p.Cooperative = coop != 0
	return p, nil
}

// DeviceContext is one device's primary context, opened for nugo, and the way
// to run driver calls with that context current. See the package documentation
// (RATIONALE) for why every call sequence goes through Do.
type DeviceContext struct {
	api    API
	dev    Device
	ctx    Context
	props  DeviceProps
	mu     sync.Mutex // guards closed against Close racing Do
	closed bool
}

// OpenDevice retains device ordinal's primary context and reads its
// properties. The driver must be initialised (Start).
func OpenDevice(api API, ordinal int) (*DeviceContext, error) {
	props, err := QueryDevice(api, ordinal)
	if err != nil {
		return nil, fmt.Errorf("device %d: %w", ordinal, err)
	}
	d, err := api.DeviceGet(ordinal)
	if err != nil {
		return nil, fmt.Errorf("device %d: %w", ordinal, err)
	}
	ctx, err := api.PrimaryCtxRetain(d)
	if err != nil {
		return nil, fmt.Errorf("device %d: %w", ordinal, err)
	}
	return &DeviceContext{api: api, dev: d, ctx: ctx, props: props}, nil
}

// API is the driver this context belongs to.
func (c *DeviceContext) API() API { return c.api }

// Device is the context's device handle.
func (c *DeviceContext) Device() Device { return c.dev }

// Context is the primary context handle.
func (c *DeviceContext) Context() Context { return c.ctx }

// Props are the device's properties, read at OpenDevice.
func (c *DeviceContext) Props() DeviceProps { return c.props }

// ErrClosed is returned by Do after Close.
var ErrClosed = errors.New("device context closed")

// Do runs f with the goroutine locked to its OS thread and the primary context
// current on that thread. Every sequence of context-dependent driver calls
// (allocation, copies, module loads, launches, stream and event calls) must run
// inside Do; f must not start goroutines that make driver calls outside a Do of
// their own. Do calls nest (the thread stays locked until the outermost returns).
func (c *DeviceContext) Do(f func(api API) error) error {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return ErrClosed
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.api.CtxSetCurrent(c.ctx); err != nil {
		return err
	}
	return f(c.api)
}

// Close releases the primary context reference taken by OpenDevice. Memory,
// modules, streams and events made in it must be freed first, and no Do may be
// running; the driver destroys the context, and everything still in it, when
// the last reference in the process goes. Later Do calls return ErrClosed.
func (c *DeviceContext) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	return c.api.PrimaryCtxRelease(c.dev)
}
