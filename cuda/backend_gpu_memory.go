package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
)

// gpuMemory is device memory of the GPU backend. Its allocation is released
// by free or, when the gpuMemory becomes unreachable first, by a cleanup.
type gpuMemory struct {
	*gpuAlloc
	n int
}

// gpuAlloc is the allocation itself, apart from gpuMemory so that the
// cleanup's argument does not keep the gpuMemory reachable.
//
// Calls that hand its address to the driver hold a use (acquire, done)
// while they do, so that a Free from another goroutine (of the array, or
// of the array a view was made from) cannot release the memory between
// their check and their driver call: release then leaves the cuMemFree to
// the last such call. (Work queued on streams is not a use: memFree
// synchronizes the context first, since the driver API does not promise
// that cuMemFree waits for kernels still using the memory, though
// cudaFree is known to.)
type gpuAlloc struct {
	dev   *gpuDevice
	ptr   driver.DevicePtr // 0 for an empty allocation
	freed atomic.Bool
	// host is the start of the registered range of mapped memory: Go
	// memory (words) page-locked and mapped with cuMemHostRegister and
	// pinned for the runtime until cuMemHostUnregister; nil for device and
	// managed memory.
	host   unsafe.Pointer
	words  []uint64
	pinner runtime.Pinner
	// external memory (WrapDevicePointer) belongs to someone else: release
	// ends nugo's use of it and frees nothing.
	external bool

	mu       sync.Mutex
	users    int  // calls using the memory now
	deferred bool // released while in use: the last user frees it
}

func (m *gpuMemory) size() int   { return m.n }
func (m *gpuMemory) free() error { return m.release() }

// release frees the allocation once, or has its last user free it; later
// calls do nothing.
func (a *gpuAlloc) release() error {
	if a.ptr == 0 || !a.freed.CompareAndSwap(false, true) || a.external {
		return nil
	}
	a.mu.Lock()
	if a.users > 0 {
		a.deferred = true
		a.mu.Unlock()
		return nil
	}
	a.mu.Unlock()
	return a.memFree()
}

func (a *gpuAlloc) memFree() error {
	// Kernels queued on streams may still use the memory: neither cuMemFree
	// nor unregistering is documented to wait for them.
	if a.host == nil {
		return a.dev.do(func(api driver.API) error { // device or managed memory
			err := api.CtxSynchronize()
			if ferr := api.MemFree(a.ptr); err == nil {
				err = ferr
			}
			return err
		})
	}
	err := a.dev.do(func(api driver.API) error {
		err := api.CtxSynchronize()
		if uerr := api.MemHostUnregister(a.host); err == nil {
			err = uerr
		}
		return err
	})
	// Even when the context is gone: a Pinner left pinning panics.
	a.pinner.Unpin()
	return err
}

// acquire starts a use of the allocation, or reports ErrFreed.
func (a *gpuAlloc) acquire() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.freed.Load() {
		return ErrFreed
	}
	a.users++
	return nil
}

// done ends a use begun by acquire, freeing the allocation if it was
// released meanwhile. A failure of that cuMemFree has no one to report
// to: the Free that asked for it has returned.
func (a *gpuAlloc) done() {
	a.mu.Lock()
	a.users--
	last := a.users == 0 && a.deferred
	a.deferred = a.deferred && !last
	a.mu.Unlock()
	if last {
		_ = a.memFree()
	}
}

func (g *gpuBackend) alloc(bytes int) (memory, error) {
	return g.current().alloc(bytes)
}

func (d *gpuDevice) alloc(bytes int) (*gpuMemory, error) {
	if bytes < 0 {
		return nil, fmt.Errorf("cannot allocate %d bytes", bytes)
	}
	a := &gpuAlloc{dev: d}
	if bytes > 0 {
		// cuMemAlloc does not clear memory; device arrays start zeroed.
		err := d.do(func(api driver.API) error {
			p, err := api.MemAlloc(bytes)
			if err != nil {
				return err
			}
			if err := api.MemsetD8(p, 0, bytes); err != nil {
				_ = api.MemFree(p)
				return err
			}
			a.ptr = p
			return nil
		})
		if errors.Is(err, ErrContextLost) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("device %d: %w", d.props.Ordinal, err)
		}
	}
	m := &gpuMemory{gpuAlloc: a, n: bytes}
	if a.ptr != 0 {
		// Unreachable memory goes back to the driver; a failure there (a
		// context already released) has no one to report to.
		runtime.AddCleanup(m, func(a *gpuAlloc) { _ = a.release() }, a)
	}
	return m, nil
}

// useMem checks that m is live memory of this backend and acquires a use
// of it; the caller calls done on the result when its driver calls have
// been made.
func (g *gpuBackend) useMem(m memory) (*gpuMemory, error) {
	gm, ok := m.(*gpuMemory)
	if !ok || gm.dev.be != g.top {
		return nil, errors.New("memory does not belong to this GPU backend")
	}
	if err := gm.acquire(); err != nil {
		return nil, err
	}
	return gm, nil
}

// gpuStreamOn returns s's GPU stream, which must be on device d, once the
// stream's callbacks have returned (work queued after them waits for them).
func (g *gpuBackend) gpuStreamOn(s *Stream, d *gpuDevice) (*gpuStream, error) {
	gs, ok := s.impl.(*gpuStream)
	if !ok || gs.be != g.top {
		return nil, errors.New("stream does not belong to this GPU backend")
	}
	if gs.dev != d {
		return nil, fmt.Errorf("stream is on device %d, memory on device %d", gs.dev.props.Ordinal, d.props.Ordinal)
	}
	gs.holdForCallbacks()
	return gs, nil
}

func (g *gpuBackend) copyToDevice(s *Stream, dst memory, off int, src []byte) error {
	m, err := g.useMem(dst)
	if err != nil {
		return err
	}
	defer m.done()
	if len(src) == 0 {
		return nil
	}
	if s == nil {
		if err := g.drainAll(); err != nil {
			return err
		}
		return m.dev.do(func(api driver.API) error {
			return api.MemcpyHtoD(m.ptr+driver.DevicePtr(off), unsafe.Pointer(&src[0]), len(src))
		})
	}
	gs, err := g.gpuStreamOn(s, m.dev)
	if err != nil {
		return err
	}
	return m.dev.do(func(api driver.API) error {
		return gs.copyIn(api, m.ptr+driver.DevicePtr(off), src, m)
	})
}

func (g *gpuBackend) copyToHost(s *Stream, dst []byte, src memory, off int) error {
	m, err := g.useMem(src)
	if err != nil {
		return err
	}
	defer m.done()
	if len(dst) == 0 {
		return nil
	}
	if s == nil {
		if err := g.drainAll(); err != nil {
			return err
		}
		defer g.flushPrintf() // a synchronous copy waits for the kernels before it
		return m.dev.do(func(api driver.API) error {
			return api.MemcpyDtoH(unsafe.Pointer(&dst[0]), m.ptr+driver.DevicePtr(off), len(dst))
		})
	}
	gs, err := g.gpuStreamOn(s, m.dev)
	if err != nil {
		return err
	}
	return m.dev.do(func(api driver.API) error {
		return gs.copyOut(api, dst, m.ptr+driver.DevicePtr(off), m)
	})
}

// memset writes count copies of the size-byte pattern at off with
// cuMemsetD8, D16 or D32; it reports false, doing nothing, where the
// address is not aligned to the pattern (CUDA requires it).
func (g *gpuBackend) memset(dst memory, off int, pattern uint32, size, count int) (bool, error) {
	m, err := g.useMem(dst)
	if err != nil {
		return true, err
	}
	defer m.done()
	p := m.ptr + driver.DevicePtr(off)
	if int(p)%size != 0 {
		return false, nil
	}
	if err := g.drainAll(); err != nil {
		return true, err
	}
	return true, m.dev.do(func(api driver.API) error {
		switch size {
		case 1:
			return api.MemsetD8(p, byte(pattern), count)
		case 2:
			return api.MemsetD16(p, uint16(pattern), count)
		}
		return api.MemsetD32(p, pattern, count)
	})
}

func (g *gpuBackend) copyDevice(s *Stream, dst memory, dstOff int, src memory, srcOff, n int) error {
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
	if dm.dev != sm.dev {
		return fmt.Errorf("copy from device %d to device %d: copies between devices are not supported", sm.dev.props.Ordinal, dm.dev.props.Ordinal)
	}
	if n == 0 {
		return nil
	}
	to, from := dm.ptr+driver.DevicePtr(dstOff), sm.ptr+driver.DevicePtr(srcOff)
	if s == nil {
		if err := g.drainAll(); err != nil {
			return err
		}
		// A device-to-device copy does not wait on the host's side; the
		// default stream's operations do.
		return dm.dev.do(func(api driver.API) error {
			if err := api.MemcpyDtoD(to, from, n); err != nil {
				return err
			}
			return api.StreamSynchronize(0)
		})
	}
	gs, err := g.gpuStreamOn(s, dm.dev)
	if err != nil {
		return err
	}
	return dm.dev.do(func(api driver.API) error {
		if err := api.MemcpyDtoDAsync(to, from, n, gs.h); err != nil {
			return err
		}
		gs.defer_(func(driver.API, bool) error { runtime.KeepAlive(dm); runtime.KeepAlive(sm); return nil })
		return nil
	})
}

// pinnedBytes views n bytes of page-locked host memory.
func pinnedBytes(p unsafe.Pointer, n int) []byte { return unsafe.Slice((*byte)(p), n) }

// copyIn queues a copy of src to device address dst on the stream: from
// src itself when it is pinned (Pin), else through a page-locked staging
// buffer filled now and freed at the next Synchronize;
// mem, the device memory holding dst, stays reachable until then (its
// cleanup must not free it under the copy). It runs inside the device's Do.
func (s *gpuStream) copyIn(api driver.API, dst driver.DevicePtr, src []byte, mem *gpuMemory) error {
	if isPinned(s.be, src) {
		// Straight from the pinned memory, when the stream gets there.
		if err := api.MemcpyHtoDAsync(dst, unsafe.Pointer(&src[0]), len(src), s.h); err != nil {
			return err
		}
		s.defer_(func(driver.API, bool) error { runtime.KeepAlive(mem); runtime.KeepAlive(src); return nil })
		return nil
	}
	buf, err := api.MemHostAlloc(len(src), 0)
	if err != nil {
		return err
	}
	copy(pinnedBytes(buf, len(src)), src)
	if err := api.MemcpyHtoDAsync(dst, buf, len(src), s.h); err != nil {
		_ = api.MemFreeHost(buf)
		return err
	}
	s.defer_(func(api driver.API, _ bool) error {
		runtime.KeepAlive(mem)
		return api.MemFreeHost(buf)
	})
	return nil
}

// copyOut queues a copy of len(dst) bytes at src into dst: straight into
// dst when it is pinned (Pin), else into a staging buffer on the stream
// and from there into dst at the next Synchronize;
// mem, the device memory holding src, stays reachable until then.
func (s *gpuStream) copyOut(api driver.API, dst []byte, src driver.DevicePtr, mem *gpuMemory) error {
	if isPinned(s.be, dst) {
		if err := api.MemcpyDtoHAsync(unsafe.Pointer(&dst[0]), src, len(dst), s.h); err != nil {
			return err
		}
		s.defer_(func(driver.API, bool) error { runtime.KeepAlive(mem); runtime.KeepAlive(dst); return nil })
		return nil
	}
	buf, err := api.MemHostAlloc(len(dst), 0)
	if err != nil {
		return err
	}
	if err := api.MemcpyDtoHAsync(buf, src, len(dst), s.h); err != nil {
		_ = api.MemFreeHost(buf)
		return err
	}
	s.defer_(func(api driver.API, failed bool) error {
		runtime.KeepAlive(mem)
		if !failed {
			copy(dst, pinnedBytes(buf, len(dst)))
		}
		return api.MemFreeHost(buf)
	})
	return nil
}
