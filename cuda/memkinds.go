package cuda

import (
	"fmt"
	"sync"
	"unsafe"
	"weak"
)

// sharedKind is a kind of memory that both the host and kernels use
// directly: mapped (zero-copy) host memory or managed (unified) memory.
type sharedKind uint8

const (
	sharedMapped sharedKind = iota
	sharedManaged
)

func (k sharedKind) String() string {
	if k == sharedManaged {
		return "managed"
	}
	return "mapped"
}

// MappedArray is page-locked host memory mapped into the device's address
// space (Numba's cuda.mapped_array): the host reads and writes it as the
// Go slice Host returns, and a kernel launched with the MappedArray as an
// argument reads and writes the same memory directly, over the bus,
// without a copy in or out. It suits data that a kernel reads or writes
// once (results streamed back, inputs used once), where a copy would cost
// as much as the access; data that kernels use again and again belongs in
// a DeviceArray.
//
// A MappedArray is a DeviceArray (it embeds one): Launch takes it for a
// slice parameter, Slice and Reshape make views of it that launches take
// too, and its copies work; &m.DeviceArray is the *DeviceArray for
// functions that want one. Pass the MappedArray, not Host(), to a launch:
// a host slice is copied in and out like any other.
//
// The host sees a kernel's writes once the launch is complete: after
// Launch on the default stream returns, or after the stream's
// Synchronize. On the CPU and ptxsim backends it is ordinary memory of
// the host, which kernels use in place just the same.
//
// Free releases the memory: on the GPU it is unmapped and unlocked once
// the device has finished the work queued before (Free waits for it). As
// with a DeviceArray, Free is idempotent, using the array after Free is an
// error, and an array dropped without Free is released once it and its
// views are unreachable. The slice Host returned stays valid Go memory
// after Free (the host may keep it), but kernels no longer see it; Host
// itself returns nil from then on. Elements are numbers or structs of
// numbers, as in a DeviceArray.
type MappedArray[T any] struct {
	DeviceArray[T]
	host []T
}

// NewMappedArray allocates n zeroed elements of mapped host memory. On the
// GPU it is Go memory, whole pages of its own, page-locked and mapped for
// every context with cuMemHostRegister (CU_MEMHOSTREGISTER_DEVICEMAP and
// PORTABLE) — not cuMemHostAlloc's C memory, as Numba's mapped_array has,
// so that no slice of it can outlive its memory (see Pin) — and the
// kernels' address is cuMemHostGetDevicePointer's.
func NewMappedArray[T any](n int) (*MappedArray[T], error) {
	d, host, _, err := newShared[T]("NewMappedArray", sharedMapped, n)
	if err != nil {
		return nil, err
	}
	m := &MappedArray[T]{host: host}
	m.DeviceArray.adopt(d)
	addMapped(d.be, bytesOf(host), d.buf)
	return m, nil
}

// Host is the memory as a Go slice of Len elements, for the host to read
// and write; nil after Free (and for a nil or zero MappedArray).
func (m *MappedArray[T]) Host() []T {
	if m == nil || !m.DeviceArray.live() {
		return nil
	}
	return m.host
}

// ManagedArray is managed (unified) memory (Numba's cuda.managed_array):
// one allocation that the host reads and writes as the Go slice Host
// returns and kernels read and write when given the ManagedArray as an
// argument, the driver moving its pages to whichever side uses them. It
// suits data that both sides use in turn without the program copying it,
// and data larger than the device's memory.
//
// Like MappedArray it embeds a DeviceArray, for launches, views and
// copies. Prefetch moves its pages to a device or the host ahead of use,
// and Advise tells the driver how they will be used. Unlike MappedArray, it is released by Free only, never by the garbage
// collector: the memory is the driver's, and Go cannot see that a slice
// Host returned is still in use. Every ManagedArray must therefore be
// freed, and neither Host nor any slice it returned may be used after
// Free, as with memory freed in C.
//
// The host must not touch the memory while a kernel may be running on
// the device, unless ConcurrentAccess reports that the device allows it
// (CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: Pascal and newer on
// Linux; not on Windows or older GPUs, where such an access is a
// segmentation fault, not an error). A launch on the default stream has
// completed when Launch returns; a launch on a stream when the stream's
// Synchronize (or the package Synchronize) returns. Where concurrent
// access is allowed, the host and kernels touching the same elements at
// the same time is still a data race. On the CPU and ptxsim backends it is
// ordinary host memory, which the host may always use.
type ManagedArray[T any] struct {
	DeviceArray[T]
	host       []T
	concurrent bool
}

// NewManagedArray allocates n zeroed elements of managed memory. On the
// GPU this is cuMemAllocManaged with CU_MEM_ATTACH_GLOBAL (visible to
// every stream), and a device without managed memory
// (CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY) is an error.
func NewManagedArray[T any](n int) (*ManagedArray[T], error) {
	d, host, concurrent, err := newShared[T]("NewManagedArray", sharedManaged, n)
	if err != nil {
		return nil, err
	}
	m := &ManagedArray[T]{host: host, concurrent: concurrent}
	m.DeviceArray.adopt(d)
	return m, nil
}

// Host is the memory as a Go slice of Len elements, for the host to read
// and write (see ManagedArray for when); nil after Free (and for a nil or
// zero ManagedArray).
func (m *ManagedArray[T]) Host() []T {
	if m == nil || !m.DeviceArray.live() {
		return nil
	}
	return m.host
}

// ConcurrentAccess reports whether the host may use the memory while
// kernels run: the device's CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS
// on the GPU, always true on the host backends.
func (m *ManagedArray[T]) ConcurrentAccess() bool {
	return m != nil && m.concurrent
}

// newShared allocates the memory of a mapped or managed array of n
// elements: the device array over it, the host's slice of it, and whether
// the host may use it while kernels run.
func newShared[T any](fn string, kind sharedKind, n int) (*DeviceArray[T], []T, bool, error) {
	if err := checkElem[T](); err != nil {
		return nil, nil, false, fmt.Errorf("%s: %w", fn, err)
	}
	var zero T
	if n < 0 {
		return nil, nil, false, fmt.Errorf("%s(%d): negative length", fn, n)
	}
	if _, ok := elements(int(unsafe.Sizeof(zero)), n); !ok {
		return nil, nil, false, fmt.Errorf("%s(%d) of %T is too large: its size in bytes overflows int", fn, n, zero)
	}
	be, err := current()
	if err != nil {
		return nil, nil, false, fmt.Errorf("%s: %w", fn, err)
	}
	m, p, concurrent, err := be.allocShared(kind, n*int(unsafe.Sizeof(zero)))
	if err != nil {
		return nil, nil, false, fmt.Errorf("%s(%d of %T): %w", fn, n, zero, err)
	}
	host := []T{}
	if n > 0 {
		host = unsafe.Slice((*T)(p), n)
	}
	d := &DeviceArray[T]{be: be, shape: []int{n}, n: n, buf: &deviceBuffer{memory: m}}
	return d, host, concurrent, nil
}

// adopt makes the zero array d the owner of a's memory (which a gives up).
func (d *DeviceArray[T]) adopt(a *DeviceArray[T]) {
	d.be, d.shape, d.n, d.off, d.buf, d.strides = a.be, a.shape, a.n, a.off, a.buf, a.strides
}

// live reports whether the array's memory is there to use: made by a
// constructor and not freed.
func (d *DeviceArray[T]) live() bool {
	_, err := d.mem()
	return err == nil
}

// allocShared is a host backend's mapped or managed memory: ordinary
// device memory of the backend, which is host memory already, used by
// the host in place; the host may use it at any time.
func (h *hostBackend) allocShared(_ sharedKind, bytes int) (memory, unsafe.Pointer, bool, error) {
	m, err := h.alloc(bytes)
	if err != nil {
		return nil, nil, false, err
	}
	return m, m.(*hostMemory).ptr(), true, nil
}

// Free releases the memory (see MappedArray); calling it again, or on a
// nil array, does nothing.
func (m *MappedArray[T]) Free() error {
	if m == nil {
		return nil
	}
	return m.DeviceArray.Free()
}

// Len is the number of elements (0 for a nil array).
func (m *MappedArray[T]) Len() int {
	if m == nil {
		return 0
	}
	return m.DeviceArray.Len()
}

// Free releases the memory (see ManagedArray); calling it again, or on a
// nil array, does nothing.
func (m *ManagedArray[T]) Free() error {
	if m == nil {
		return nil
	}
	return m.DeviceArray.Free()
}

// Len is the number of elements (0 for a nil array).
func (m *ManagedArray[T]) Len() int {
	if m == nil {
		return 0
	}
	return m.DeviceArray.Len()
}

// mappedRange is the host memory of a mapped array, which Pin recognises
// as pinned already. The weak pointer lets the array be collected.
type mappedRange struct {
	be         backend
	start, end uintptr
	buf        weak.Pointer[deviceBuffer]
}

// mappedRanges are the mapped arrays made on every backend, live or not
// yet found dead.
var mappedRanges struct {
	sync.Mutex
	list []mappedRange
}

// addMapped records the host memory b of a new mapped array on be, and
// forgets the arrays freed or collected since.
func addMapped(be backend, b []byte, buf *deviceBuffer) {
	if len(b) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(&b[0]))
	mappedRanges.Lock()
	defer mappedRanges.Unlock()
	live := mappedRanges.list[:0]
	for _, r := range mappedRanges.list {
		if v := r.buf.Value(); v != nil && v.live() {
			live = append(live, r)
		}
	}
	clear(mappedRanges.list[len(live):])
	mappedRanges.list = append(live, mappedRange{be: be, start: start, end: start + uintptr(len(b)), buf: weak.Make(buf)})
}

// mappedAt finds the live mapped array of backend be whose memory holds
// all of b (inside, with its buffer); b partly inside one is an error.
func mappedAt(be backend, b []byte) (buf *deviceBuffer, inside bool, err error) {
	start := uintptr(unsafe.Pointer(&b[0]))
	end := start + uintptr(len(b))
	mappedRanges.Lock()
	defer mappedRanges.Unlock()
	for _, r := range mappedRanges.list {
		if r.be != be || end <= r.start || r.end <= start {
			continue
		}
		v := r.buf.Value()
		if v == nil || !v.live() {
			continue
		}
		if start >= r.start && end <= r.end {
			return v, true, nil
		}
		return nil, false, errStraddlesMapped
	}
	return nil, false, nil
}

// live reports whether the buffer still holds its memory (not freed).
func (b *deviceBuffer) live() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.memory != nil
}
