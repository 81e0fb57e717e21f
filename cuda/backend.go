package cuda

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// Backend names a way of running kernels.
type Backend string

// The backends. NUGO_BACKEND selects one by name; Auto picks the GPU when
// one can be used and the CPU otherwise.
const (
	Auto   Backend = "auto"
	CPU    Backend = "cpu"    // kernels run natively as compiled Go on all cores
	GPU    Backend = "gpu"    // kernels are compiled to PTX and run on an NVIDIA GPU
	PTXSim Backend = "ptxsim" // kernels are compiled to PTX and interpreted on the CPU
)

// backend is one way of running kernels and holding device memory. The CPU
// and ptxsim backends keep device memory in host memory and run streams as
// goroutines (hostBackend); the GPU backend drives the CUDA driver.
type backend interface {
	kind() Backend
	limits() Limits
	alloc(bytes int) (memory, error)
	// copies; s == nil is the default stream, which runs synchronously.
	copyToDevice(s *Stream, dst memory, dstOff int, src []byte) error
	copyToHost(s *Stream, dst []byte, src memory, srcOff int) error
	copyDevice(s *Stream, dst memory, dstOff int, src memory, srcOff, n int) error
	launch(s *Stream, k *Kernel, cfg LaunchConfig, args []boundArg) error
	// forAllBlock is the block size ForAll launches k with, sharedMem
	// bytes of dynamic shared memory and args on stream s.
	forAllBlock(s *Stream, k *Kernel, sharedMem int, args []boundArg) (int, error)
	// cooperativeBlocks is the most blocks of block threads with
	// sharedMem bytes of dynamic shared memory that a cooperative launch
	// of k on stream s may have (args nil: the kernel as it is, for
	// MaxCooperativeBlocks), and where that limit comes from, for errors.
	cooperativeBlocks(s *Stream, k *Kernel, block Dim3, sharedMem int, args []boundArg) (int, string, error)
	// pin page-locks host memory (Pin) and returns the undo.
	pin(b []byte) (unpin func() error, err error)
	// allocShared allocates zeroed mapped or managed memory of bytes:
	// memory kernels use, which the host reads and writes at host (nil for
	// none); concurrent says whether the host may while kernels run.
	allocShared(kind sharedKind, bytes int) (m memory, host unsafe.Pointer, concurrent bool, err error)
	// deviceCount is how many devices a Location may name (the host
	// backends have one, device 0).
	deviceCount() int
	// prefetch migrates n bytes of managed memory m at offset off to a
	// location already checked, on stream s (nil: the default stream,
	// synchronously); advise gives advice about them (ManagedArray).
	prefetch(s *Stream, m memory, off, n int, to Location) error
	advise(m memory, off, n int, advice Advice, loc Location) error
	// memInfo is the free and total memory that device arrays come from.
	memInfo() (free, total int64, err error)
	// setLimit and getLimit set and read a context limit (SetLimit).
	setLimit(l Limit, value int) error
	getLimit(l Limit) (int, error)
	// profile starts or stops the profiler's collection (ProfileStart).
	profile(start bool) error
	newStream() (streamImpl, error)
	newEvent() (eventImpl, error)
	record(e eventImpl, s *Stream) error
	synchronize() error
	devices() ([]Device, error)
	selectDevice(i int) error

	// Several devices (devices.go). root is the backend the registry
	// opened, of which every device's backend is a part; ordinal is the
	// device work goes to now; bound is the backend of that device, which
	// what is made now (arrays, streams, events) belongs to.
	root() backend
	ordinal() int
	bound() backend
	// numDevices is how many devices DeviceAt may name; onDevice is the
	// backend of device i, the same value every time.
	numDevices() (int, error)
	onDevice(i int) (backend, error)
	// deviceName names the device for errors: "gpu device 1".
	deviceName() string
}

// memory is a block of device memory owned by a backend.
type memory interface {
	size() int
	free() error
}

// backendFactory opens a backend, or says why it cannot be used here.
type backendFactory func() (backend, error)

// registry holds the backends compiled into this binary and the one in use.
// It is the package's only mutable global state besides kernel caches.
var registry = struct {
	sync.Mutex
	factories map[Backend]backendFactory
	opened    map[Backend]backend
	current   backend
}{factories: map[Backend]backendFactory{}, opened: map[Backend]backend{}}

func registerBackend(b Backend, f backendFactory) {
	registry.Lock()
	defer registry.Unlock()
	registry.factories[b] = f
}

// ErrNoDevice reports that no usable GPU was found: no NVIDIA driver, no
// device, or a GPU backend missing from this build. Errors that wrap it say
// which.
var ErrNoDevice = errors.New("no usable CUDA GPU")

// ErrUnknownBackend reports a backend name that nugo does not know.
var ErrUnknownBackend = errors.New("unknown backend")

// open returns the backend b, opening it on first use. The registry lock is
// held by the caller.
func open(b Backend) (backend, error) {
	if be, ok := registry.opened[b]; ok {
		return be, nil
	}
	f, ok := registry.factories[b]
	if !ok {
		switch b {
		case GPU:
			return nil, fmt.Errorf("backend gpu: %w: this build of nugo has no GPU backend yet", ErrNoDevice)
		case PTXSim:
			return nil, fmt.Errorf("backend ptxsim: this build of nugo has no ptxsim backend yet")
		}
		return nil, fmt.Errorf("%w %q: use auto, cpu, gpu or ptxsim", ErrUnknownBackend, b)
	}
	be, err := f()
	if err != nil {
		return nil, fmt.Errorf("backend %s: %w", b, err)
	}
	registry.opened[b] = be
	return be, nil
}

// resolve opens the backend for a name, with Auto falling back to the CPU.
func resolve(b Backend) (backend, error) {
	if b == "" {
		b = Auto
	}
	if b != Auto {
		return open(b)
	}
	be, err := open(GPU)
	if err == nil {
		return be, nil
	}
	if os.Getenv("NUGO_VERBOSE") == "1" {
		fmt.Fprintf(os.Stderr, "nugo: using the CPU backend: %v\n", err)
	}
	return open(CPU)
}

// current returns the backend in use, choosing it from NUGO_BACKEND on
// first use.
func current() (backend, error) {
	registry.Lock()
	defer registry.Unlock()
	if registry.current != nil {
		return registry.current, nil
	}
	be, err := resolve(Backend(strings.ToLower(os.Getenv("NUGO_BACKEND"))))
	if err != nil {
		return nil, fmt.Errorf("NUGO_BACKEND=%s: %w", os.Getenv("NUGO_BACKEND"), err)
	}
	registry.current = be
	return be, nil
}

// SetBackend makes b the backend for everything that follows: kernel
// launches, device arrays, streams and events. It returns an error, and
// changes nothing, if b cannot be used here. Device arrays, streams and
// events made on one backend cannot be used with another.
func SetBackend(b Backend) error {
	registry.Lock()
	defer registry.Unlock()
	be, err := resolve(b)
	if err != nil {
		return err
	}
	registry.current = be
	return nil
}

// CurrentBackend reports the backend in use: the one set by SetBackend,
// else the one NUGO_BACKEND names (Auto when unset).
func CurrentBackend() (Backend, error) {
	be, err := current()
	if err != nil {
		return "", err
	}
	return be.kind(), nil
}

// BackendStatus says whether a backend can be used on this machine.
type BackendStatus struct {
	Backend   Backend
	Available bool
	Reason    string // why it is not available
}

// Backends reports every backend nugo knows and whether it can be used
// here, in a stable order.
func Backends() []BackendStatus {
	registry.Lock()
	defer registry.Unlock()
	names := []Backend{CPU, GPU, PTXSim}
	for b := range registry.factories {
		if b != CPU && b != GPU && b != PTXSim {
			names = append(names, b)
		}
	}
	sort.Slice(names[3:], func(i, j int) bool { return names[3+i] < names[3+j] })
	out := make([]BackendStatus, 0, len(names))
	for _, b := range names {
		_, err := open(b)
		st := BackendStatus{Backend: b, Available: err == nil}
		if err != nil {
			st.Reason = err.Error()
		}
		out = append(out, st)
	}
	return out
}

// Device describes a GPU.
type Device struct {
	ID                 int
	Name               string
	ComputeCapability  [2]int // major, minor
	Multiprocessors    int
	MaxThreadsPerBlock int
	SharedMemPerBlock  int   // bytes
	TotalMemory        int64 // bytes
	WarpSize           int
	MaxBlock, MaxGrid  Dim3
	// Cooperative says whether the device runs cooperative launches
	// (LaunchConfig.Cooperative, for kernels that call SyncGrid).
	Cooperative bool
}

// Gpus lists the CUDA GPUs nugo can use. Without one it returns an error
// that wraps ErrNoDevice and says why.
func Gpus() ([]Device, error) {
	registry.Lock()
	be, err := open(GPU)
	registry.Unlock()
	if err != nil {
		return nil, err
	}
	return be.devices()
}

// SelectDevice makes GPU i the device of the GPU backend for what follows.
func SelectDevice(i int) error {
	registry.Lock()
	be, err := open(GPU)
	registry.Unlock()
	if err != nil {
		return err
	}
	return be.selectDevice(i)
}
