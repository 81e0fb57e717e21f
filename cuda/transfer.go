package cuda

import "fmt"

// Transfer wraps a host slice argument of a launch with the copies it
// needs between host and device (Numba's cuda.In, cuda.Out, cuda.InOut):
// make one with In, Out or InOut. A bare host slice is copied both ways.
type Transfer struct {
	value any
	dir   transferDir
}

// transferDir says which copies a host argument gets; the zero value is
// both, a bare host slice's.
type transferDir uint8

const (
	transferInOut transferDir = iota
	transferIn
	transferOut
)

// In marks a host slice argument as input only: it is copied to the device
// before the kernel runs and not copied back, so the kernel's writes to it
// do not reach the host (on the cpu and ptxsim backends the kernel works
// on a copy of it).
func In(x any) Transfer { return Transfer{x, transferIn} }

// Out marks a host slice argument as output only: it is not copied to the
// device, so the kernel must write every element it means to return (on a
// GPU the device copy starts with undefined contents), and it is copied
// back after the kernel.
func Out(x any) Transfer { return Transfer{x, transferOut} }

// InOut marks a host slice argument as copied in and back, as a bare host
// slice is.
func InOut(x any) Transfer { return Transfer{x, transferInOut} }

// String names the wrapper and its value's type, as "cuda.In([]float64)".
func (t Transfer) String() string {
	return fmt.Sprintf("cuda.%s(%T)", [...]string{"InOut", "In", "Out"}[t.dir], t.value)
}
