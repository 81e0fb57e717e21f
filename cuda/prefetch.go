package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// Location is a place where managed memory can be: the host's memory
// (HostLocation) or a GPU's (DeviceLocation). It is the destination of
// ManagedArray.Prefetch and what ManagedArray.Advise's advice is about
// (CUDA's CUdevice argument of cuMemPrefetchAsync and cuMemAdvise, with
// CU_DEVICE_CPU for the host).
type Location int

// HostLocation is the host's memory (CUDA's CU_DEVICE_CPU, the runtime's
// cudaCpuDeviceId).
const HostLocation Location = -1

// DeviceLocation is the memory of GPU i, numbered as Gpus and
// SelectDevice number them (Device.ID). The cpu and ptxsim backends have
// one device, 0, whose memory is the host's. A negative i is a location
// that Prefetch and Advise refuse, never HostLocation.
func DeviceLocation(i int) Location {
	if i < 0 {
		return Location(i - 1) // below HostLocation, and String still says device i
	}
	return Location(i)
}

// String says "host" or "device i".
func (l Location) String() string {
	if l == HostLocation {
		return "host"
	}
	if l < HostLocation {
		return fmt.Sprintf("device %d", int(l)+1)
	}
	return fmt.Sprintf("device %d", int(l))
}

// check refuses a device that the backend does not have.
func (l Location) check(devices int) error {
	if l == HostLocation || (l >= 0 && int(l) < devices) {
		return nil
	}
	return fmt.Errorf("%s does not exist; there are %d (0..%d), and HostLocation is the host", l, devices, devices-1)
}

// Advice tells the driver how a managed array will be used, so that it
// places and maps the pages to suit (CUDA's CUmem_advise, the runtime's
// cudaMemoryAdvise; CuPy's cupy.cuda.runtime.memAdvise). Advice changes
// where the data lives, never what a program computes.
type Advice int

// The advice ManagedArray.Advise gives; the values are CUDA's. Each Set
// advice has an Unset that undoes it.
const (
	// AdviseSetReadMostly: the data is mostly read. Each processor that
	// reads it (the host, a GPU) gets a read-only copy of the pages it
	// reads, and Prefetch makes one at its destination; a write drops
	// every copy but the writer's. The location is ignored.
	AdviseSetReadMostly Advice = 1
	// AdviseUnsetReadMostly undoes AdviseSetReadMostly.
	AdviseUnsetReadMostly Advice = 2
	// AdviseSetPreferredLocation: keep the pages at the location (a GPU
	// or the host), migrating them there rather than elsewhere when a
	// fault asks; another processor's access maps them where it can
	// instead of moving them.
	AdviseSetPreferredLocation Advice = 3
	// AdviseUnsetPreferredLocation forgets the preferred location.
	AdviseUnsetPreferredLocation Advice = 4
	// AdviseSetAccessedBy: the location (a GPU or the host) will use the
	// data, so keep the pages mapped for it wherever they are, sparing it
	// the faults.
	AdviseSetAccessedBy Advice = 5
	// AdviseUnsetAccessedBy undoes AdviseSetAccessedBy for the location.
	AdviseUnsetAccessedBy Advice = 6
)

// String names the advice as the documentation does.
func (a Advice) String() string {
	switch a {
	case AdviseSetReadMostly:
		return "set read-mostly"
	case AdviseUnsetReadMostly:
		return "unset read-mostly"
	case AdviseSetPreferredLocation:
		return "set preferred location"
	case AdviseUnsetPreferredLocation:
		return "unset preferred location"
	case AdviseSetAccessedBy:
		return "set accessed-by"
	case AdviseUnsetAccessedBy:
		return "unset accessed-by"
	}
	return fmt.Sprintf("Advice(%d)", int(a))
}

// errNoConcurrentPrefetch is Prefetch's error on a device without
// concurrent managed access, where CUDA refuses prefetches.
var errNoConcurrentPrefetch = errors.New("the device does not let the host use managed memory while kernels run " +
	"(ConcurrentAccess is false: CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS is 0, as on Windows and GPUs older than Pascal), " +
	"and CUDA prefetches only on devices that do; there the driver moves the array to the device at each launch by itself")

// Prefetch migrates the whole array to a location — a GPU's memory
// (DeviceLocation) or the host's (HostLocation) — as work queued on
// stream s, so that kernels there (or the host) find the pages in place
// instead of faulting them over one by one: CUDA's cuMemPrefetchAsync
// (cudaMemPrefetchAsync; CuPy's memPrefetchAsync; Numba has no such call).
// It changes where the data lives, never its value.
//
// On a stream it is ordered with the stream's other work: a launch
// queued after it on s finds the data on the device, and after the
// stream's Synchronize a prefetch to the host has completed. On the nil
// (default) stream it is synchronous, like every operation there: the
// data has moved when Prefetch returns. The stream must be on the device
// the array was allocated on.
//
// On the GPU a device without concurrent managed access (ConcurrentAccess
// false: Windows, GPUs older than Pascal) refuses prefetches, and so does
// Prefetch there, with an error saying why; such a device moves the data
// itself at each launch. A destination GPU other than the array's must
// allow concurrent managed access too. On the cpu and ptxsim backends the
// memory is the host's already: Prefetch checks its arguments as on the
// GPU (device 0 and HostLocation are valid there), keeps the stream order
// and moves nothing. An empty array or range is no work. Errors: a nil, zero or freed array, a location that is no device,
// a stream of another backend.
func (m *ManagedArray[T]) Prefetch(to Location, s *Stream) error {
	return m.prefetch("Prefetch", 0, m.Len(), to, s)
}

// PrefetchRange is Prefetch of elements [lo, hi) of the array only (lo <=
// hi <= Len, as in Slice). CUDA moves whole pages, so the pages around
// the range's ends may move with it.
func (m *ManagedArray[T]) PrefetchRange(lo, hi int, to Location, s *Stream) error {
	return m.prefetch(fmt.Sprintf("PrefetchRange [%d:%d]", lo, hi), lo, hi, to, s)
}

// Advise gives the driver advice about the whole array and a location
// (CUDA's cuMemAdvise; CuPy's memAdvise; Numba has none): see Advice for
// what each one means. The location is the GPU or the host that the
// preferred-location and accessed-by advice name; the read-mostly advice
// ignores it (any valid location will do). Advice lasts until undone by
// its Unset form or until Free, and applies at once, not on a stream.
//
// On the cpu and ptxsim backends the memory is the host's and advice has
// nothing to change: Advise checks its arguments as on the GPU and
// returns. Errors: a nil, zero or freed array, advice that is none of the
// six, a location that is no device.
func (m *ManagedArray[T]) Advise(advice Advice, loc Location) error {
	return m.advise("Advise", 0, m.Len(), advice, loc)
}

// AdviseRange is Advise about elements [lo, hi) of the array only (lo <=
// hi <= Len). CUDA applies advice to whole pages, so the pages around the
// range's ends get it too.
func (m *ManagedArray[T]) AdviseRange(lo, hi int, advice Advice, loc Location) error {
	return m.advise(fmt.Sprintf("AdviseRange [%d:%d]", lo, hi), lo, hi, advice, loc)
}

// errNilManaged is the error of a nil *ManagedArray's methods that
// cannot do nothing.
var errNilManaged = errors.New("nil *cuda.ManagedArray; make one with NewManagedArray")

// hintRange checks what Prefetch and Advise have in common and returns
// the memory, and the byte offset and length of elements [lo, hi).
func (m *ManagedArray[T]) hintRange(lo, hi int, loc Location) (mem memory, off, n int, err error) {
	if m == nil {
		return nil, 0, 0, errNilManaged
	}
	mem, err = m.mem()
	if err != nil {
		return nil, 0, 0, err
	}
	if lo < 0 || hi < lo || hi > m.n {
		return nil, 0, 0, fmt.Errorf("the range is outside the managed array of %d elements: %s", m.n, boundsProblem(lo, hi, m.n))
	}
	if err := loc.check(m.be.deviceCount()); err != nil {
		return nil, 0, 0, err
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	return mem, m.off + lo*size, (hi - lo) * size, nil
}

func (m *ManagedArray[T]) prefetch(op string, lo, hi int, to Location, s *Stream) error {
	mem, off, n, err := m.hintRange(lo, hi, to)
	if err != nil {
		return fmt.Errorf("%s to %s: %w", op, to, err)
	}
	if err := m.checkStream(s); err != nil {
		return fmt.Errorf("%s to %s: %w", op, to, err)
	}
	if !m.concurrent {
		return fmt.Errorf("%s to %s: %w", op, to, errNoConcurrentPrefetch)
	}
	if n == 0 {
		return nil
	}
	if err := m.be.prefetch(s, mem, off, n, to); err != nil {
		return fmt.Errorf("%s to %s: %w", op, to, err)
	}
	return nil
}

func (m *ManagedArray[T]) advise(op string, lo, hi int, advice Advice, loc Location) error {
	mem, off, n, err := m.hintRange(lo, hi, loc)
	if err == nil && (advice < AdviseSetReadMostly || advice > AdviseUnsetAccessedBy) {
		err = fmt.Errorf("unknown advice %d; use AdviseSetReadMostly, AdviseSetPreferredLocation, AdviseSetAccessedBy or their Unset forms", int(advice))
	}
	if err != nil {
		return fmt.Errorf("%s(%s, %s): %w", op, advice, loc, err)
	}
	if n == 0 {
		return nil
	}
	if err := m.be.advise(mem, off, n, advice, loc); err != nil {
		return fmt.Errorf("%s(%s, %s): %w", op, advice, loc, err)
	}
	return nil
}

// The host backends: the memory is host memory, so there is nothing to
// move or advise; they have one device, 0, like a machine with one GPU.

func (h *hostBackend) deviceCount() int { return 1 }

// prefetch is a no-op ordered like other work: on the default stream it
// first lets the other streams drain (and reports their errors), as
// every default-stream operation does.
func (h *hostBackend) prefetch(s *Stream, _ memory, _, _ int, _ Location) error {
	return h.run(s, func() error { return nil })
}

func (h *hostBackend) advise(memory, int, int, Advice, Location) error { return nil }
