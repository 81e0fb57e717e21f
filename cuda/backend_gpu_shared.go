package cuda

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/hostmem"
)

// Mapped and managed memory on the GPU backend, and the context-wide
// queries and limits (MemInfo, SetLimit, GetLimit).
//
// Both kinds are a gpuMemory like device memory, whose ptr is the address
// kernels use (so launches, copies and views need nothing new), with a
// host address the MappedArray or ManagedArray keeps as a Go slice.
//
// Mapped memory is Go memory that cuMemHostRegister page-locks and maps
// (CU_MEMHOSTREGISTER_DEVICEMAP), not cuMemHostAlloc's, for the reason
// Pin registers Go memory (RATIONALE.md): the host's slice then stays
// valid memory whatever happens to the array, and a MappedArray dropped
// without Free is released by a cleanup like device memory. The range
// registered is whole pages of its own, so that no other registration
// shares a page with it. Managed memory has no such choice
// (cuMemAllocManaged's memory is the only kind the driver migrates): it
// gets no cleanup, since the garbage collector cannot see that the host's
// slice of it is still in use; Free alone releases it.

// allocShared allocates mapped or managed memory on the selected device.
func (g *gpuBackend) allocShared(kind sharedKind, bytes int) (memory, unsafe.Pointer, bool, error) {
	return g.current().allocShared(kind, bytes)
}

func (d *gpuDevice) allocShared(kind sharedKind, bytes int) (memory, unsafe.Pointer, bool, error) {
	if bytes < 0 {
		return nil, nil, false, fmt.Errorf("cannot allocate %d bytes", bytes)
	}
	a := &gpuAlloc{dev: d}
	concurrent := true // mapped memory is host memory: always the host's to use
	var host unsafe.Pointer
	err := d.do(func(api driver.API) error {
		if kind == sharedManaged {
			var err error
			if concurrent, err = d.managedSupport(api); err != nil {
				return err
			}
		}
		if bytes == 0 {
			return nil
		}
		if kind == sharedMapped {
			return d.allocMapped(api, a, bytes)
		}
		// Managed memory is not cleared either; a memset of it is
		// synchronous with the host, so the host may read the zeros at
		// once.
		p, err := api.MemAllocManaged(bytes, driver.MemAttachGlobal)
		if err != nil {
			return err
		}
		dp := driver.DevicePtr(uintptr(p))
		if err := api.MemsetD8(dp, 0, bytes); err != nil {
			_ = api.MemFree(dp)
			return err
		}
		a.ptr, host = dp, p
		return nil
	})
	if errors.Is(err, ErrContextLost) {
		return nil, nil, false, err
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("device %d: %w", d.props.Ordinal, err)
	}
	m := &gpuMemory{gpuAlloc: a, n: bytes}
	if kind == sharedMapped && a.host != nil {
		host = a.host
		runtime.AddCleanup(m, func(a *gpuAlloc) { _ = a.release() }, a)
	}
	return m, host, concurrent, nil
}

// allocMapped allocates bytes of Go memory, rounded up to whole pages
// that no other Go object shares, pins it for the runtime, and page-locks
// and maps it for every context; it records both addresses in a. It runs
// inside the device's Do.
func (d *gpuDevice) allocMapped(api driver.API, a *gpuAlloc, bytes int) error {
	page := os.Getpagesize()
	size := (bytes + page - 1) / page * page
	if err := hostmem.Check("mapped memory", size+page); err != nil {
		return err
	}
	words, err := allocWords((size + page) / 8)
	if err != nil {
		return err
	}
	base := unsafe.Pointer(unsafe.SliceData(words))
	h := unsafe.Add(base, (page-int(uintptr(base)%uintptr(page)))%page)
	a.pinner.Pin(base)
	if err := api.MemHostRegister(h, size, driver.HostRegisterDeviceMap|driver.HostRegisterPortable); err != nil {
		a.pinner.Unpin()
		return err
	}
	p, err := api.MemHostGetDevicePointer(h)
	if err != nil {
		_ = api.MemHostUnregister(h)
		a.pinner.Unpin()
		return err
	}
	a.host, a.words, a.ptr = h, words, p
	return nil
}

// errNoManagedMemory reports a device without managed memory.
var errNoManagedMemory = errors.New("the device does not support managed memory (CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY is 0); use NewMappedArray or a DeviceArray")

// managedSupport checks that the device has managed memory and reports
// whether the host may use it while kernels run. It runs inside the
// device's Do.
func (d *gpuDevice) managedSupport(api driver.API) (concurrent bool, err error) {
	dev, err := api.DeviceGet(d.props.Ordinal)
	if err != nil {
		return false, err
	}
	has, err := api.DeviceAttribute(dev, driver.AttrManagedMemory)
	if err != nil {
		return false, err
	}
	if has == 0 {
		return false, errNoManagedMemory
	}
	c, err := api.DeviceAttribute(dev, driver.AttrConcurrentManagedAccess)
	if err != nil {
		return false, err
	}
	return c != 0, nil
}

// memInfo is the selected device's free and total memory (cuMemGetInfo).
func (g *gpuBackend) memInfo() (free, total int64, err error) {
	d := g.current()
	err = d.do(func(api driver.API) error {
		f, t, err := api.MemGetInfo()
		free, total = int64(f), int64(t)
		return err
	})
	if err != nil && !errors.Is(err, ErrContextLost) {
		err = fmt.Errorf("device %d: %w", d.props.Ordinal, err)
	}
	return free, total, err
}

// setLimit sets a limit of the selected device's context (cuCtxSetLimit).
func (g *gpuBackend) setLimit(l Limit, v int) error {
	d := g.current()
	err := d.do(func(api driver.API) error { return api.CtxSetLimit(driver.Limit(l), v) })
	if err == nil || errors.Is(err, ErrContextLost) {
		return err
	}
	var de *DriverError
	if errors.As(err, &de) && driver.Result(de.Code) == driver.ErrorInvalidValue && l != LimitStackSize {
		// The driver's whole explanation would be "invalid argument".
		return fmt.Errorf("device %d: %w (the %s can only be changed before the first launch of a kernel that uses it)", d.props.Ordinal, err, l)
	}
	return fmt.Errorf("device %d: %w", d.props.Ordinal, err)
}

// getLimit reads a limit of the selected device's context (cuCtxGetLimit).
func (g *gpuBackend) getLimit(l Limit) (int, error) {
	d := g.current()
	var v int
	err := d.do(func(api driver.API) error {
		var err error
		v, err = api.CtxGetLimit(driver.Limit(l))
		return err
	})
	if err != nil && !errors.Is(err, ErrContextLost) {
		err = fmt.Errorf("device %d: %w", d.props.Ordinal, err)
	}
	return v, err
}
