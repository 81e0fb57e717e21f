package fakedriver

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
)

// Garbage is the byte that fills fresh device allocations (MemAlloc) and
// page-locked host buffers (MemHostAlloc): the driver does not clear
// either, so a caller that reads memory it has not written sees this, not
// zeros.
const Garbage byte = 0xa5

func fillGarbage(b []byte) {
	for i := range b {
		b[i] = Garbage
	}
}

// allocAlign is the alignment of fake device allocations (the real driver
// aligns to at least 256 bytes).
const allocAlign = 512

// span returns the device bytes [p, p+n), which must lie inside one live
// allocation; called with f.mu held.
func (f *Fake) span(call string, p driver.DevicePtr, n int) ([]byte, error) {
	if n < 0 {
		return nil, invalid(call, "negative byte count %d", n)
	}
	for base, a := range f.allocs {
		if p >= base && p < base+driver.DevicePtr(len(a.mem)) {
			off := int(p - base)
			if off+n > len(a.mem) {
				return nil, invalid(call, "%d bytes at %#x run past the end of a %d-byte allocation", n, uint64(p), len(a.mem))
			}
			return a.mem[off : off+n], nil
		}
	}
	if n == 0 {
		return nil, nil
	}
	return nil, invalid(call, "%#x is not in device memory", uint64(p))
}

// run does device work: at once, or queued with Config.Sim; called with
// f.mu held.
func (f *Fake) run(dev int, op func()) {
	if f.sim != nil {
		f.queue(dev, op)
		return
	}
	op()
}

// hostSpan views n bytes of host memory at p.
func hostSpan(call string, p unsafe.Pointer, n int) ([]byte, error) {
	if n < 0 {
		return nil, invalid(call, "negative byte count %d", n)
	}
	if n == 0 {
		return nil, nil
	}
	if p == nil {
		return nil, invalid(call, "nil host pointer")
	}
	return unsafe.Slice((*byte)(p), n), nil
}

// stream checks a stream handle; 0 is the default stream.
func (f *Fake) stream(call string, s driver.Stream) error {
	if s == 0 {
		return nil
	}
	if _, ok := f.streams[s]; !ok {
		return driver.NewError(call, driver.ErrorInvalidHandle)
	}
	return nil
}

// MemAlloc implements driver.API.
func (f *Fake) MemAlloc(bytes int) (driver.DevicePtr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemAlloc"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return 0, err
	}
	if bytes <= 0 {
		return 0, invalid(call, "allocation of %d bytes", bytes)
	}
	if f.used[dev]+bytes > f.cfg.Devices[dev].TotalMem {
		return 0, driver.NewError(call, driver.ErrorOutOfMemory)
	}
	p := f.nextAddr
	mem := deviceBytes(bytes)
	fillGarbage(mem)
	if f.sim != nil {
		if err := f.sim[dev].Register(uint64(p), mem); err != nil {
			return 0, invalid(call, "%v", err)
		}
	}
	f.nextAddr += driver.DevicePtr((bytes + allocAlign - 1) &^ (allocAlign - 1))
	f.allocs[p] = &alloc{dev: dev, mem: mem}
	f.used[dev] += bytes
	return p, nil
}

// MemFree implements driver.API.
func (f *Fake) MemFree(p driver.DevicePtr) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemFree"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	a, ok := f.allocs[p]
	if !ok {
		return invalid(call, "%#x is not the start of an allocation", uint64(p))
	}
	if a.host != nil {
		return invalid(call, "%#x is mapped host memory; free it with cuMemFreeHost or cuMemHostUnregister", uint64(p))
	}
	f.used[a.dev] -= len(a.mem)
	delete(f.allocs, p)
	if f.sim != nil {
		_ = f.sim[a.dev].Free(uint64(p))
	}
	return nil
}

// MemsetD8 implements driver.API.
func (f *Fake) MemsetD8(p driver.DevicePtr, value byte, n int) error {
	return f.memset("cuMemsetD8", p, []byte{value}, n, 0, false)
}

// MemsetD8Async implements driver.API: MemsetD8 on stream s (with
// Config.Sim, queued as the stream's other work is).
func (f *Fake) MemsetD8Async(p driver.DevicePtr, value byte, n int, s driver.Stream) error {
	return f.memset("cuMemsetD8Async", p, []byte{value}, n, s, true)
}

// MemsetD16 implements driver.API.
func (f *Fake) MemsetD16(p driver.DevicePtr, value uint16, n int) error {
	return f.memset("cuMemsetD16", p, binary.LittleEndian.AppendUint16(nil, value), n, 0, false)
}

// MemsetD32 implements driver.API.
func (f *Fake) MemsetD32(p driver.DevicePtr, value uint32, n int) error {
	return f.memset("cuMemsetD32", p, binary.LittleEndian.AppendUint32(nil, value), n, 0, false)
}

// memset sets n words of len(word) bytes at p to word; CUDA requires p
// aligned to the word.
func (f *Fake) memset(call string, p driver.DevicePtr, word []byte, n int, s driver.Stream, async bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	if async {
		if err := f.stream(call, s); err != nil {
			return err
		}
	}
	if n < 0 {
		return driver.NewError(call, driver.ErrorInvalidValue)
	}
	if int(p)%len(word) != 0 {
		e := driver.NewError(call, driver.ErrorInvalidValue)
		e.Message = fmt.Sprintf("address %#x is not aligned to %d bytes", uint64(p), len(word))
		return e
	}
	b, err := f.span(call, p, n*len(word))
	if err != nil {
		return err
	}
	set := func() {
		for i := range b {
			b[i] = word[i%len(word)]
		}
	}
	if a := f.allocAt(p); a != nil && a.hostVisible() {
		// CUDA: a memset of pinned host or managed memory is synchronous
		// with the host, so it waits for the queued work too.
		f.flush()
		set()
		return nil
	}
	f.run(dev, set)
	return nil
}

// allocAt is the allocation holding device address p, or nil; called with
// f.mu held.
func (f *Fake) allocAt(p driver.DevicePtr) *alloc {
	for base, a := range f.allocs {
		if p >= base && p < base+driver.DevicePtr(len(a.mem)) {
			return a
		}
	}
	return nil
}

// MemGetInfo implements driver.API.
func (f *Fake) MemGetInfo() (free, total int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.enter("cuMemGetInfo", true, true)
	if err != nil {
		return 0, 0, err
	}
	total = f.cfg.Devices[dev].TotalMem
	return total - f.used[dev], total, nil
}

func (f *Fake) htod(call string, dst driver.DevicePtr, src unsafe.Pointer, n int, s driver.Stream, async bool) error {
	return f.hostCopy(call, dst, src, n, s, async, true)
}

func (f *Fake) dtoh(call string, dst unsafe.Pointer, src driver.DevicePtr, n int, s driver.Stream, async bool) error {
	return f.hostCopy(call, src, dst, n, s, async, false)
}

// hostCopy copies n bytes between device memory at dev and host memory at
// host, towards the device if toDevice.
func (f *Fake) hostCopy(call string, dev driver.DevicePtr, host unsafe.Pointer, n int, s driver.Stream, async, toDevice bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	device, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	if async {
		if err := f.stream(call, s); err != nil {
			return err
		}
	}
	d, err := f.span(call, dev, n)
	if err != nil {
		return err
	}
	h, err := hostSpan(call, host, n)
	if err != nil {
		return err
	}
	op := func() {
		if toDevice {
			copy(d, h)
		} else {
			copy(h, d)
		}
	}
	if async {
		f.run(device, op)
	} else {
		op() // the synchronous copies waited for the queued work in enter
	}
	return nil
}

func (f *Fake) dtod(call string, dst, src driver.DevicePtr, n int, s driver.Stream, async bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	if async {
		if err := f.stream(call, s); err != nil {
			return err
		}
	}
	d, err := f.span(call, dst, n)
	if err != nil {
		return err
	}
	sb, err := f.span(call, src, n)
	if err != nil {
		return err
	}
	f.run(dev, func() { copy(d, sb) }) // asynchronous, even without a stream
	return nil
}

// MemcpyHtoD implements driver.API.
func (f *Fake) MemcpyHtoD(dst driver.DevicePtr, src unsafe.Pointer, bytes int) error {
	return f.htod("cuMemcpyHtoD", dst, src, bytes, 0, false)
}

// MemcpyDtoH implements driver.API.
func (f *Fake) MemcpyDtoH(dst unsafe.Pointer, src driver.DevicePtr, bytes int) error {
	return f.dtoh("cuMemcpyDtoH", dst, src, bytes, 0, false)
}

// MemcpyDtoD implements driver.API.
func (f *Fake) MemcpyDtoD(dst, src driver.DevicePtr, bytes int) error {
	return f.dtod("cuMemcpyDtoD", dst, src, bytes, 0, false)
}

// MemcpyHtoDAsync implements driver.API; the copy completes before it returns
// (with Config.Sim: when the host next waits).
func (f *Fake) MemcpyHtoDAsync(dst driver.DevicePtr, src unsafe.Pointer, bytes int, s driver.Stream) error {
	return f.htod("cuMemcpyHtoDAsync", dst, src, bytes, s, true)
}

// MemcpyDtoHAsync implements driver.API; the copy completes before it returns
// (with Config.Sim: when the host next waits).
func (f *Fake) MemcpyDtoHAsync(dst unsafe.Pointer, src driver.DevicePtr, bytes int, s driver.Stream) error {
	return f.dtoh("cuMemcpyDtoHAsync", dst, src, bytes, s, true)
}

// MemcpyDtoDAsync implements driver.API; the copy completes before it returns
// (with Config.Sim: when the host next waits).
func (f *Fake) MemcpyDtoDAsync(dst, src driver.DevicePtr, bytes int, s driver.Stream) error {
	return f.dtod("cuMemcpyDtoDAsync", dst, src, bytes, s, true)
}

// MemHostAlloc implements driver.API with Go memory the Fake keeps
// referenced until MemFreeHost (the Go heap does not move objects).
func (f *Fake) MemHostAlloc(bytes int, flags driver.HostAllocFlags) (unsafe.Pointer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemHostAlloc"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return nil, err
	}
	if bytes <= 0 {
		return nil, invalid(call, "allocation of %d bytes", bytes)
	}
	if flags&^(driver.HostAllocPortable|driver.HostAllocDeviceMap|driver.HostAllocWriteCombined) != 0 {
		return nil, invalid(call, "unknown flags %#x", uint32(flags))
	}
	b := deviceBytes(bytes)
	fillGarbage(b)
	p := unsafe.Pointer(&b[0])
	if flags&driver.HostAllocDeviceMap != 0 {
		// Mapped: the same bytes get a device address, which kernels in
		// the interpreter (Config.Sim) read and write.
		d := f.nextAddr
		if f.sim != nil {
			if err := f.sim[dev].Register(uint64(d), b); err != nil {
				return nil, invalid(call, "%v", err)
			}
		}
		f.nextAddr += driver.DevicePtr((bytes + allocAlign - 1) &^ (allocAlign - 1))
		f.allocs[d] = &alloc{dev: dev, mem: b, host: p}
	}
	f.host[p] = b
	return p, nil
}

// MemFreeHost implements driver.API.
func (f *Fake) MemFreeHost(p unsafe.Pointer) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemFreeHost"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	if _, ok := f.host[p]; !ok {
		return invalid(call, "%p was not allocated by cuMemHostAlloc", p)
	}
	delete(f.host, p)
	f.unmap(p, false)
	return nil
}

// MemHostGetDevicePointer implements driver.API: p must lie in memory
// allocated by MemHostAlloc with HostAllocDeviceMap or registered by
// MemHostRegister with HostRegisterDeviceMap.
func (f *Fake) MemHostGetDevicePointer(p unsafe.Pointer) (driver.DevicePtr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemHostGetDevicePointer"
	if _, err := f.enter(call, true, true); err != nil {
		return 0, err
	}
	for d, a := range f.allocs {
		if a.host == nil {
			continue
		}
		if off := uintptr(p) - uintptr(a.host); uintptr(p) >= uintptr(a.host) && off < uintptr(len(a.mem)) {
			return d + driver.DevicePtr(off), nil
		}
	}
	return 0, invalid(call, "%p is not in mapped memory (cuMemHostAlloc with CU_MEMHOSTALLOC_DEVICEMAP, cuMemHostRegister with CU_MEMHOSTREGISTER_DEVICEMAP)", p)
}

// MemAllocManaged implements driver.API with Go memory whose address is
// both the host and the device address, counted against the device's
// memory like MemAlloc and freed by MemFree.
func (f *Fake) MemAllocManaged(bytes int, flags driver.MemAttachFlags) (unsafe.Pointer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemAllocManaged"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return nil, err
	}
	if bytes <= 0 {
		return nil, invalid(call, "allocation of %d bytes", bytes)
	}
	if flags != driver.MemAttachGlobal && flags != driver.MemAttachHost {
		return nil, invalid(call, "flags %#x: want CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST", uint32(flags))
	}
	if f.cfg.Devices[dev].Attrs[driver.AttrManagedMemory] == 0 {
		return nil, driver.NewError(call, driver.ErrorNotSupported)
	}
	if f.used[dev]+bytes > f.cfg.Devices[dev].TotalMem {
		return nil, driver.NewError(call, driver.ErrorOutOfMemory)
	}
	mem := deviceBytes(bytes)
	fillGarbage(mem)
	p := unsafe.Pointer(&mem[0])
	d := driver.DevicePtr(uintptr(p))
	if f.sim != nil {
		if err := f.sim[dev].Register(uint64(d), mem); err != nil {
			return nil, invalid(call, "%v", err)
		}
	}
	f.allocs[d] = &alloc{dev: dev, mem: mem, managed: true}
	f.used[dev] += bytes
	return p, nil
}

// MemHostRegister implements driver.API: the range must not overlap one
// registered before (CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED).
func (f *Fake) MemHostRegister(p unsafe.Pointer, bytes int, flags driver.HostRegisterFlags) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemHostRegister"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	if p == nil || bytes <= 0 {
		return invalid(call, "registration of %d bytes at %p", bytes, p)
	}
	if flags&^(driver.HostRegisterPortable|driver.HostRegisterDeviceMap) != 0 {
		return invalid(call, "unknown flags %#x", uint32(flags))
	}
	start := uintptr(p)
	for s, n := range f.registered {
		if start < s+uintptr(n) && s < start+uintptr(bytes) {
			return driver.NewError(call, driver.ErrorHostMemoryAlreadyRegistered)
		}
	}
	if flags&driver.HostRegisterDeviceMap != 0 {
		// Mapped: the caller's bytes get a device address, which kernels
		// in the interpreter (Config.Sim) read and write.
		b := unsafe.Slice((*byte)(p), bytes)
		d := f.nextAddr
		if f.sim != nil {
			if err := f.sim[dev].Register(uint64(d), b); err != nil {
				return invalid(call, "%v", err)
			}
		}
		f.nextAddr += driver.DevicePtr((bytes + allocAlign - 1) &^ (allocAlign - 1))
		f.allocs[d] = &alloc{dev: dev, mem: b, host: p, registered: true}
	}
	f.registered[start] = bytes
	return nil
}

// MemHostUnregister implements driver.API: p must start a registered range
// (CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED otherwise).
func (f *Fake) MemHostUnregister(p unsafe.Pointer) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemHostUnregister"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	if _, ok := f.registered[uintptr(p)]; !ok {
		return driver.NewError(call, driver.ErrorHostMemoryNotRegistered)
	}
	delete(f.registered, uintptr(p))
	f.unmap(p, true)
	return nil
}

// unmap removes the device mapping of host memory at p, allocated
// (registered false) or registered; called with f.mu held.
func (f *Fake) unmap(p unsafe.Pointer, registered bool) {
	for d, a := range f.allocs {
		if a.host == p && a.registered == registered {
			delete(f.allocs, d)
			if f.sim != nil {
				_ = f.sim[a.dev].Free(uint64(d))
			}
		}
	}
}

// Registered reports whether n bytes at p lie in one registered range.
func (f *Fake) Registered(p unsafe.Pointer, n int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for s, size := range f.registered {
		if uintptr(p) >= s && uintptr(p)+uintptr(n) <= s+uintptr(size) {
			return true
		}
	}
	return false
}
