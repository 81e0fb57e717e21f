package cuda

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nugo-dev/nugo/internal/hostmem"
)

// A CompileError reports why a kernel cannot be compiled for a GPU: each
// diagnostic has the position in the kernel's Go source and a sentence that
// says what to write instead.
type CompileError struct {
	Kernel      string
	Diagnostics []Diagnostic
}

// Diagnostic is one problem found in a kernel's source.
type Diagnostic struct {
	Pos string // file:line:col
	Msg string
}

// Error lists the diagnostics after the kernel's name.
func (e *CompileError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "compile %s:", e.Kernel)
	for i, d := range e.Diagnostics {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %s: %s", d.Pos, d.Msg)
	}
	return b.String()
}

// A DriverError is a failure reported by the CUDA driver.
type DriverError struct {
	Call    string // the driver function, e.g. "cuMemAlloc"
	Code    int    // the CUresult value
	Name    string // e.g. "CUDA_ERROR_OUT_OF_MEMORY"
	Message string // the driver's description
}

// ErrOutOfMemory is matched (errors.Is) by every allocation that fails
// for want of memory: on a GPU the driver's CUDA_ERROR_OUT_OF_MEMORY (a
// *DriverError), on the cpu and ptxsim backends, which keep device arrays
// in host memory, an allocation that together with the arrays alive would
// exceed the machine's RAM and swap, the process's control group limit or
// its address-space limit (ulimit -v).
var ErrOutOfMemory = hostmem.ErrOutOfMemory

// Is makes a CUDA_ERROR_OUT_OF_MEMORY match ErrOutOfMemory.
func (e *DriverError) Is(target error) bool {
	return target == ErrOutOfMemory && e.Code == 2
}

// Error names the driver call, the result and its description.
func (e *DriverError) Error() string {
	return fmt.Sprintf("%s: %s (%d): %s", e.Call, e.Name, e.Code, e.Message)
}

// ErrContextLost is matched (errors.Is) by the errors of a GPU whose CUDA
// context a fault inside a kernel has made unusable — an access outside
// device memory, a misaligned access, a trap: the error that first reports
// the fault, which says which kernel faulted, and every later error of that
// device, which the GPU backend returns at once without calling the driver.
// The device cannot be used again in the process; errors.As still finds the
// fault's *DriverError. Debug mode (NUGO_DEBUG=1 or the Debug option)
// reports an out-of-range index as a *KernelError before it can fault.
var ErrContextLost = errors.New("GPU context lost to a kernel fault")

// A KernelError reports a thread that failed while a kernel ran: a panic on
// the CPU backend (index out of range, integer division by zero), a trap or
// a failed debug-mode check on a GPU.
type KernelError struct {
	Kernel string
	Block  Dim3   // the failing thread's block
	Thread Dim3   // the failing thread's position in its block
	Pos    string // Go source position of the failure, when known: file:line, as in a Go traceback
	Msg    string
}

// goLine drops the column from a file:line:col position, leaving file:line
// as a Go traceback writes it: KernelError.Pos reads the same on every
// backend, and the CPU backend knows lines only.
func goLine(pos string) string {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return pos
	}
	j := strings.LastIndexByte(pos[:i], ':')
	if j < 0 || !allDigits(pos[i+1:]) || !allDigits(pos[j+1:i]) {
		return pos
	}
	return pos[:i]
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Error describes the failure; Launch adds the kernel's name.
func (e *KernelError) Error() string {
	s := fmt.Sprintf("block %v thread %v: %s", e.Block, e.Thread, e.Msg)
	if e.Pos != "" {
		s += " at " + e.Pos
	}
	return s
}
