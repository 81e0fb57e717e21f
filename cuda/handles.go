package cuda

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
	"weak"

	"github.com/nugo-dev/nugo/internal/driver"
)

// Raw handles exchange memory, streams and the context with code outside
// nugo: CUDA libraries called through purego, other Go GPU packages, C
// code. They are what Numba's __cuda_array_interface__, cuda.external_stream
// and device_ctypes_pointer are.
//
// On the GPU backend they are the driver's own values (CUdeviceptr,
// CUstream, CUcontext). The cpu and ptxsim backends have no driver: there a
// device pointer is the host address of the memory that stands for device
// memory and a stream handle is a token; both are valid within nugo
// (WrapDevicePointer, ExternalStream accept them) and nowhere else.

// DevicePointer returns the device address of the array's first element:
// a CUdeviceptr of the current context on the GPU backend, which CUDA
// libraries given ContextHandle's context accept. On the cpu and ptxsim
// backends it is the host address of the array's memory, which
// WrapDevicePointer accepts and host code may read while the array is
// alive. It is 0 for an empty array and after Free. Mapped and managed
// arrays have one too (their DeviceArray's).
//
// The address is valid while the array is: nugo may release the memory
// when the array is freed or becomes unreachable, so keep the array
// (runtime.KeepAlive) until the code given the address is done with it.
func (d *DeviceArray[T]) DevicePointer() uintptr {
	if d == nil || d.buf == nil || d.detached.Load() {
		return 0
	}
	d.buf.mu.Lock()
	defer d.buf.mu.Unlock()
	if d.buf.memory == nil || d.n == 0 {
		return 0
	}
	switch m := d.buf.memory.(type) {
	case *gpuMemory:
		if m.freed.Load() {
			return 0
		}
		return uintptr(m.ptr) + uintptr(d.off)
	case *hostMemory:
		hostPointers.remember(uintptr(m.ptr()), m)
		return uintptr(m.ptr()) + uintptr(d.off)
	}
	return 0
}

// WrapDevicePointer makes a device array over memory that nugo did not
// allocate: ptr is the device address of its first element and shape its
// one to three dimensions, row-major. nugo never frees that memory (Free
// only ends the array's use of it): the caller keeps it allocated, on the
// device the current backend uses, for as long as the array or a view of it
// may be used, queued work included. On the GPU backend ptr is a
// CUdeviceptr of the current context (ContextHandle), from cuMemAlloc,
// cudaMalloc or another library; nugo cannot check that the range is
// allocated, so a wrong one is a fault of the kernel that uses it, as in
// CUDA. On the cpu and ptxsim backends ptr must be a DevicePointer of a live
// array of that backend, and the range must lie within that array's
// memory: anything else is an error.
func WrapDevicePointer[T any](ptr uintptr, shape ...int) (*DeviceArray[T], error) {
	if err := checkElem[T](); err != nil {
		return nil, fmt.Errorf("WrapDevicePointer: %w", err)
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(shape) == 0 {
		return nil, errors.New("WrapDevicePointer: no shape; give one to three dimensions")
	}
	n, err := shapeElements[T](shape)
	if err != nil {
		return nil, fmt.Errorf("WrapDevicePointer: %w", err)
	}
	if ptr == 0 {
		return nil, errors.New("WrapDevicePointer: a nil device pointer")
	}
	if align := unsafe.Alignof(zero); ptr%align != 0 {
		return nil, fmt.Errorf("WrapDevicePointer: address %#x is not aligned for %T (%d bytes)", ptr, zero, align)
	}
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("WrapDevicePointer: %w", err)
	}
	be = be.bound() // the array belongs to the current device
	bytes := n * size
	arr := &DeviceArray[T]{be: be, shape: append([]int(nil), shape...), n: n}
	switch b := hostOrGPU(be).(type) {
	case *gpuBackend:
		a := &gpuAlloc{dev: b.current(), ptr: driver.DevicePtr(ptr), external: true}
		arr.buf = &deviceBuffer{memory: &gpuMemory{gpuAlloc: a, n: bytes}}
	case *hostBackend:
		m, off, ok := hostAllocation(ptr, bytes)
		if !ok {
			return nil, fmt.Errorf("WrapDevicePointer: %#x (%d bytes of %T) is not within an array of the %s backend; on the host backends a device pointer comes from DevicePointer of a live array", ptr, bytes, zero, be.kind())
		}
		arr.off = off
		arr.buf = &deviceBuffer{memory: m}
		arr.view = true // the memory is the original array's: Free only detaches
	default:
		return nil, fmt.Errorf("WrapDevicePointer: the %s backend does not take device pointers", be.kind())
	}
	return arr, nil
}

// Handle returns the stream's driver handle (a CUstream) on the GPU
// backend, for CUDA libraries that queue work on it (cublasSetStream,
// say); 0 for the nil (default) stream, as CUDA's legacy default stream.
// On the cpu and ptxsim backends it is a token that ExternalStream turns
// back into this stream, valid while the stream is reachable.
func (s *Stream) Handle() uintptr {
	if s == nil {
		return 0
	}
	switch impl := s.impl.(type) {
	case *gpuStream:
		return uintptr(impl.h)
	case *hostStream:
		h := uintptr(unsafe.Pointer(impl))
		hostStreams.remember(h, impl)
		return h
	}
	return 0
}

// ExternalStream makes a Stream of a stream that nugo did not create:
// on the GPU backend a CUstream of the current context (Numba's
// cuda.external_stream), which nugo queues work on and synchronizes but
// never destroys; the caller keeps it alive while the Stream is used. On
// the cpu and ptxsim backends the handle must be a Handle of a live stream
// of that backend, which ExternalStream returns; anything else is an error,
// as is 0 (use the nil *Stream for the default stream).
func ExternalStream(handle uintptr) (*Stream, error) {
	if handle == 0 {
		return nil, errors.New("ExternalStream: handle 0 is the default stream; pass a nil *Stream for it")
	}
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("ExternalStream: %w", err)
	}
	be = be.bound() // the stream is on the current device
	switch b := hostOrGPU(be).(type) {
	case *gpuBackend:
		return &Stream{be: be, impl: &gpuStream{be: b.top, dev: b.current(), h: driver.Stream(handle)}}, nil
	case *hostBackend:
		if hs := hostStreams.lookup(handle); hs != nil && hs.be == b {
			return &Stream{be: be, impl: hs}, nil
		}
		return nil, fmt.Errorf("ExternalStream: %#x is not the handle of a live stream of the %s backend", handle, be.kind())
	}
	return nil, fmt.Errorf("ExternalStream: the %s backend does not take stream handles", be.kind())
}

// ContextHandle returns the CUcontext nugo runs kernels in on the GPU
// backend (the current device's primary context), for CUDA libraries
// that must use the same one: bind it with cuCtxSetCurrent on the OS
// thread that calls them (runtime.LockOSThread). The cpu and ptxsim
// backends have no CUDA context: an error wrapping ErrNoDevice.
func ContextHandle() (uintptr, error) {
	be, err := current()
	if err != nil {
		return 0, fmt.Errorf("ContextHandle: %w", err)
	}
	g, ok := be.(*gpuBackend)
	if !ok {
		return 0, fmt.Errorf("ContextHandle: %w: the %s backend has no CUDA context", ErrNoDevice, be.kind())
	}
	return uintptr(g.current().ctx.Context()), nil
}

// hostOrGPU returns the *gpuBackend or *hostBackend that be is or embeds.
func hostOrGPU(be backend) backend {
	if p, ok := be.(*ptxsimBackend); ok {
		return p.hostBackend
	}
	return be
}

// hostPointers remembers the host-backend allocations whose address
// DevicePointer gave out, so that WrapDevicePointer can find them, and
// hostStreams the host-backend streams Handle gave a handle, for
// ExternalStream; weak references, so that remembering keeps nothing alive.
var (
	hostPointers = newWeakRegistry[hostMemory]()
	hostStreams  = newWeakRegistry[hostStream]()
)

// weakRegistry maps addresses to live objects without keeping them alive.
type weakRegistry[T any] struct {
	mu sync.Mutex
	m  map[uintptr]weak.Pointer[T]
}

func newWeakRegistry[T any]() *weakRegistry[T] {
	return &weakRegistry[T]{m: map[uintptr]weak.Pointer[T]{}}
}

// remember records v under key; a new key first drops the entries whose
// objects the collector took.
func (r *weakRegistry[T]) remember(key uintptr, v *T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if w, ok := r.m[key]; ok && w.Value() == v {
		return
	}
	for k, w := range r.m {
		if w.Value() == nil {
			delete(r.m, k)
		}
	}
	r.m[key] = weak.Make(v)
}

// lookup returns the live object remembered under key, or nil.
func (r *weakRegistry[T]) lookup(key uintptr) *T {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[key].Value()
}

// find returns the first live object for which match, given its key, is
// true.
func (r *weakRegistry[T]) find(match func(key uintptr, v *T) bool) (uintptr, *T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, w := range r.m {
		if v := w.Value(); v != nil && match(k, v) {
			return k, v
		}
	}
	return 0, nil
}

// hostAllocation returns the live allocation that DevicePointer gave out
// holding bytes bytes at p, and p's offset in it.
func hostAllocation(p uintptr, bytes int) (*hostMemory, int, bool) {
	base, m := hostPointers.find(func(base uintptr, m *hostMemory) bool {
		return p >= base && p-base <= uintptr(m.n) && uintptr(bytes) <= uintptr(m.n)-(p-base)
	})
	if m == nil {
		return nil, 0, false
	}
	return m, int(p - base), true
}
