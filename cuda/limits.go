package cuda

import (
	"fmt"

	"github.com/nugo-dev/nugo/internal/hostmem"
)

// MemInfo reports the free and total memory, in bytes, of the device that
// holds device arrays (Numba's cuda.current_context().get_memory_info()),
// for sizing work to what fits.
//
// On the GPU it is cuMemGetInfo for the selected device: total is the
// device's memory, free what the driver could still allocate there (other
// processes' use included). On the CPU and ptxsim backends device arrays
// live in host memory, so it reports that: total is the machine's
// physical memory and free the memory available to new allocations
// without swapping (Linux's MemAvailable); batches sized by it fit on
// every backend. Where the host's memory cannot be read (other systems
// than Linux) it is an error.
func MemInfo() (free, total int64, err error) {
	be, err := current()
	if err != nil {
		return 0, 0, fmt.Errorf("MemInfo: %w", err)
	}
	free, total, err = be.memInfo()
	if err != nil {
		return 0, 0, fmt.Errorf("MemInfo: %w", err)
	}
	return free, total, nil
}

// Limit names a resource limit of the device's context, set with
// SetLimit and read with GetLimit (CUDA's CUlimit, Numba's
// cuda.current_context() limits).
type Limit int

// The limits nugo sets and reads. The values are the driver's.
const (
	// LimitStackSize is the stack of each GPU thread, in bytes: deep
	// device-function calls and large local arrays need more than the
	// default (1 KiB). The driver also raises it by itself, at launch, for
	// a kernel that needs more.
	LimitStackSize Limit = 0
	// LimitPrintfFIFOSize is the buffer that kernels' Printf output goes
	// through, in bytes (default 1 MiB); output beyond it before the host
	// collects it is lost. It can only be changed before the first launch
	// of a kernel that prints.
	LimitPrintfFIFOSize Limit = 1
	// LimitMallocHeapSize is the heap of device-side malloc, in bytes
	// (default 8 MiB). nugo's kernels do not allocate on the device; the
	// limit is there for completeness.
	LimitMallocHeapSize Limit = 2
)

// String names the limit as the documentation does.
func (l Limit) String() string {
	switch l {
	case LimitStackSize:
		return "stack size"
	case LimitPrintfFIFOSize:
		return "printf FIFO size"
	case LimitMallocHeapSize:
		return "malloc heap size"
	}
	return fmt.Sprintf("Limit(%d)", int(l))
}

// limitDefaults are the limits before any SetLimit on the host backends:
// CUDA's usual defaults.
var limitDefaults = map[Limit]int{
	LimitStackSize:      1024,
	LimitPrintfFIFOSize: 1 << 20,
	LimitMallocHeapSize: 8 << 20,
}

// checkLimit refuses a limit nugo does not know and a negative value.
func checkLimit(fn string, l Limit, value int) error {
	if _, ok := limitDefaults[l]; !ok {
		return fmt.Errorf("%s: unknown limit %d; use LimitStackSize, LimitPrintfFIFOSize or LimitMallocHeapSize", fn, int(l))
	}
	if value < 0 {
		return fmt.Errorf("%s(%s, %d): negative value", fn, l, value)
	}
	return nil
}

// SetLimit requests a new value for a limit of the device's context
// (cuCtxSetLimit on the selected GPU). The driver may round or clamp it;
// GetLimit reports what it chose.
//
// On the CPU and ptxsim backends the limits constrain nothing (a kernel's
// goroutines grow their stacks, Printf writes straight to standard
// output): SetLimit keeps the value and GetLimit returns it, so that a
// program that sets limits runs unchanged on every backend.
func SetLimit(l Limit, value int) error {
	if err := checkLimit("SetLimit", l, value); err != nil {
		return err
	}
	be, err := current()
	if err != nil {
		return fmt.Errorf("SetLimit: %w", err)
	}
	if err := be.setLimit(l, value); err != nil {
		return fmt.Errorf("SetLimit(%s, %d): %w", l, value, err)
	}
	return nil
}

// GetLimit reports the current value of a limit of the device's context
// (cuCtxGetLimit on the selected GPU; see SetLimit for the host backends,
// where it starts at CUDA's defaults: 1 KiB of stack, 1 MiB of printf
// FIFO, 8 MiB of malloc heap).
func GetLimit(l Limit) (int, error) {
	if err := checkLimit("GetLimit", l, 0); err != nil {
		return 0, err
	}
	be, err := current()
	if err != nil {
		return 0, fmt.Errorf("GetLimit: %w", err)
	}
	v, err := be.getLimit(l)
	if err != nil {
		return 0, fmt.Errorf("GetLimit(%s): %w", l, err)
	}
	return v, nil
}

// memInfo is the host's memory: a host backend's device arrays live there.
func (h *hostBackend) memInfo() (free, total int64, err error) {
	free, total, err = hostmem.Info()
	if err != nil {
		return 0, 0, fmt.Errorf("the %s backend keeps device arrays in host memory: %w", h.kind(), err)
	}
	return free, total, nil
}

// setLimit keeps the value for getLimit; nothing on a host backend obeys
// it (see SetLimit).
func (h *hostBackend) setLimit(l Limit, value int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.limitVals == nil {
		h.limitVals = map[Limit]int{}
	}
	h.limitVals[l] = value
	return nil
}

func (h *hostBackend) getLimit(l Limit) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if v, ok := h.limitVals[l]; ok {
		return v, nil
	}
	return limitDefaults[l], nil
}
