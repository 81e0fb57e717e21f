package cuda

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/nugo-dev/nugo/internal/driver"
)

// Prefetch and advice of managed memory on the GPU backend:
// cuMemPrefetchAsync and cuMemAdvise in their CUdevice forms, issued in
// the context of the device that allocated the memory.
//
// Whether the array's own device allows prefetches (concurrent managed
// access) is known from its allocation and checked by ManagedArray before
// anything reaches the driver; a destination GPU other than that device
// is checked here, by its attribute, so that the refusal says why rather
// than the driver's bare CUDA_ERROR_INVALID_DEVICE.

func (g *gpuBackend) deviceCount() int { return len(g.props) }

// errDestinationNotConcurrent refuses a prefetch to a GPU, other than the
// array's, that CUDA would refuse.
var errDestinationNotConcurrent = errors.New("the destination GPU does not allow concurrent managed access " +
	"(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS is 0), and CUDA prefetches only to GPUs that do")

// target is the driver's name for a location, for a call in d's context:
// CU_DEVICE_CPU, d's own device, or another device's handle, which must
// allow concurrent managed access when needConcurrent. It runs inside the
// device's Do.
func (d *gpuDevice) target(api driver.API, loc Location, needConcurrent bool) (driver.Device, error) {
	switch {
	case loc == HostLocation:
		return driver.DeviceCPU, nil
	case int(loc) == d.props.Ordinal:
		return d.ctx.Device(), nil
	}
	dev, err := api.DeviceGet(int(loc))
	if err != nil {
		return 0, err
	}
	if !needConcurrent {
		return dev, nil
	}
	c, err := api.DeviceAttribute(dev, driver.AttrConcurrentManagedAccess)
	if err != nil {
		return 0, err
	}
	if c == 0 {
		return 0, errDestinationNotConcurrent
	}
	return dev, nil
}

func (g *gpuBackend) prefetch(s *Stream, m memory, off, n int, to Location) error {
	gm, err := g.useMem(m)
	if err != nil {
		return err
	}
	defer gm.done()
	p := gm.ptr + driver.DevicePtr(off)
	var gs *gpuStream
	if s == nil {
		if err := g.drainAll(); err != nil {
			return err
		}
	} else if gs, err = g.gpuStreamOn(s, gm.dev); err != nil {
		return err
	}
	err = gm.dev.do(func(api driver.API) error {
		dst, err := gm.dev.target(api, to, true)
		if err != nil {
			return err
		}
		if gs == nil {
			// The default stream's operations are synchronous.
			if err := api.MemPrefetchAsync(p, n, dst, 0); err != nil {
				return err
			}
			return api.StreamSynchronize(0)
		}
		if err := api.MemPrefetchAsync(p, n, dst, gs.h); err != nil {
			return err
		}
		gs.defer_(func(driver.API, bool) error { runtime.KeepAlive(gm); return nil })
		return nil
	})
	return gm.dev.hintErr(err)
}

func (g *gpuBackend) advise(m memory, off, n int, advice Advice, loc Location) error {
	gm, err := g.useMem(m)
	if err != nil {
		return err
	}
	defer gm.done()
	p := gm.ptr + driver.DevicePtr(off)
	err = gm.dev.do(func(api driver.API) error {
		dev, err := gm.dev.target(api, loc, false)
		if err != nil {
			return err
		}
		return api.MemAdvise(p, n, driver.MemAdvice(advice), dev)
	})
	return gm.dev.hintErr(err)
}

// hintErr names the device in an error of a call made there, except the
// loss of its context and the refusal of a destination, which say what
// they concern already.
func (d *gpuDevice) hintErr(err error) error {
	if err == nil || errors.Is(err, ErrContextLost) || err == errDestinationNotConcurrent {
		return err
	}
	return fmt.Errorf("device %d: %w", d.props.Ordinal, err)
}
