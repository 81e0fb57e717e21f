// Package rowstop is nugo gen's test input for the row loops' stop check:
// kernels that cannot make their block concurrent get a loop without it
// (Row.Start), the others, which reach a collective operation in ways
// barrier fission does not take, keep it (Row.Begin).
package rowstop

import (
	"slices"

	"github.com/nugo-dev/nugo/cuda"
)

// Free reads indices and memory and calls package functions that do too.
func Free(t cuda.Thread, d []float32) {
	if i := t.Grid1(); i < len(d) {
		d[i] = twice(d[i]) + float32(len(slices.Repeat(d[:1], 2)))
	}
}

func twice(x float32) float32 { return 2 * x }

// Recursive calls a recursive function that takes the Thread.
func Recursive(t cuda.Thread, d []int32) {
	if i := t.Grid1(); i < len(d) {
		d[i] = depth(t, int(d[i]))
	}
}

func depth(t cuda.Thread, n int) int32 {
	if n <= 0 || t.Grid1() < 0 {
		return 0
	}
	return depth(t, n-1) + 1
}

// GenericNumber passes its type parameter's values to another package.
func GenericNumber[T cuda.Number](t cuda.Thread, d []T) {
	if i := t.Grid1(); i < len(d) {
		d[i] = slices.Max(d)
	}
}

// MethodValue synchronises through a method value.
func MethodValue(t cuda.Thread, d []float32) {
	sync := t.SyncThreads
	if len(d) > 1 {
		sync()
	}
}

// FuncValue hands its Thread to a func value.
func FuncValue(t cuda.Thread, f func(cuda.Thread)) { f(t) }

// OtherPackage hands its Thread to another package's function.
func OtherPackage(t cuda.Thread, d []int32) {
	d[0] = int32(slices.Index([]cuda.Thread{t}, t))
}

type stepper interface{ step() }

type syncer struct{ t cuda.Thread }

func (s syncer) step() { s.t.SyncThreads() }

// Interface synchronises in a method called through an interface.
func Interface(t cuda.Thread, d []int32) {
	var s stepper = syncer{t}
	if len(d) > 1 {
		s.step()
	}
}

// GenericAny passes values of a type parameter that may be a Thread to a
// func value.
func GenericAny[T any](t cuda.Thread, d []T, f func(T)) { f(d[0]) }

var (
	_ = cuda.Jit(GenericNumber[float32])
	_ = cuda.Jit(GenericAny[int32])
)

// Grid1Value reads Grid1 through a method value: it reads only Grid1, but
// not only as a call, so its loop starts with Start.
func Grid1Value(t cuda.Thread, d []int32) {
	grid1 := t.Grid1
	if i := grid1(); i < len(d) {
		d[i]++
	}
}

// Indexed reads its thread's index in the block.
func Indexed(t cuda.Thread, d []int32) {
	if i := t.Grid1(); i < len(d) {
		d[i] = int32(t.ThreadIdx().X)
	}
}
