package fakedriver

import (
	"github.com/nugo-dev/nugo/internal/driver"
)

// Prefetch is one recorded cuMemPrefetchAsync.
type Prefetch struct {
	Ptr    driver.DevicePtr
	Bytes  int
	Device driver.Device // the destination; driver.DeviceCPU for the host
	Stream driver.Stream
}

// Advice is one recorded cuMemAdvise.
type Advice struct {
	Ptr    driver.DevicePtr
	Bytes  int
	Advice driver.MemAdvice
	Device driver.Device // driver.DeviceCPU for the host
}

// Prefetches returns the prefetches the fake accepted, oldest first.
func (f *Fake) Prefetches() []Prefetch {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Prefetch(nil), f.prefetches...)
}

// Advice returns the advice the fake accepted, oldest first.
func (f *Fake) Advice() []Advice {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Advice(nil), f.advice...)
}

// managedRange checks that the bytes [p, p+n) lie inside one managed
// allocation (n > 0); called with f.mu held.
func (f *Fake) managedRange(call string, p driver.DevicePtr, n int) error {
	if n <= 0 {
		return invalid(call, "a range of %d bytes", n)
	}
	a := f.allocAt(p)
	if a == nil || !a.managed {
		return invalid(call, "%#x is not in managed memory (cuMemAllocManaged)", uint64(p))
	}
	if _, err := f.span(call, p, n); err != nil {
		return err
	}
	return nil
}

// concurrentManaged reports whether device i lets the host and kernels
// use managed memory at once, which CUDA's prefetch requires.
func (f *Fake) concurrentManaged(i int) bool {
	return f.cfg.Devices[i].Attrs[driver.AttrConcurrentManagedAccess] != 0
}

// MemPrefetchAsync implements driver.API. The data does not move (the
// fake's managed memory is host memory already), so nothing is queued;
// the call is checked as CUDA checks it and recorded (Prefetches). A
// destination that is no device is CUDA_ERROR_INVALID_DEVICE; so, in the
// fake, is a stream's device or destination GPU without
// AttrConcurrentManagedAccess (which code a real driver gives there is
// for a run on such a device to confirm; nugo does not depend on it).
func (f *Fake) MemPrefetchAsync(p driver.DevicePtr, bytes int, dst driver.Device, s driver.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemPrefetchAsync"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	if err := f.stream(call, s); err != nil {
		return err
	}
	if err := f.managedRange(call, p, bytes); err != nil {
		return err
	}
	if s != 0 {
		dev = f.streams[s]
	}
	if dst != driver.DeviceCPU {
		i, err := f.device(call, dst)
		if err != nil {
			return err
		}
		if !f.concurrentManaged(i) {
			return driver.NewError(call, driver.ErrorInvalidDevice)
		}
	}
	if !f.concurrentManaged(dev) {
		return driver.NewError(call, driver.ErrorInvalidDevice)
	}
	f.prefetches = append(f.prefetches, Prefetch{Ptr: p, Bytes: bytes, Device: dst, Stream: s})
	return nil
}

// MemAdvise implements driver.API: the range must be managed memory, the
// advice one of CUDA's six, and the device (which the read-mostly advice
// ignores) a device or driver.DeviceCPU. Accepted advice is recorded
// (Advice); it changes nothing else.
func (f *Fake) MemAdvise(p driver.DevicePtr, bytes int, advice driver.MemAdvice, d driver.Device) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemAdvise"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	if err := f.managedRange(call, p, bytes); err != nil {
		return err
	}
	switch advice {
	case driver.AdviseSetReadMostly, driver.AdviseUnsetReadMostly:
	case driver.AdviseSetPreferredLocation, driver.AdviseUnsetPreferredLocation,
		driver.AdviseSetAccessedBy, driver.AdviseUnsetAccessedBy:
		if d != driver.DeviceCPU {
			if _, err := f.device(call, d); err != nil {
				return err
			}
		}
	default:
		return invalid(call, "advice %d is none of CUmem_advise's", int(advice))
	}
	f.advice = append(f.advice, Advice{Ptr: p, Bytes: bytes, Advice: advice, Device: d})
	return nil
}
