// Package kern is nugo gen's test input: kernels, functions that are not
// kernels, and scalar functions passed to vectorize, with names that
// collide with the ones the generated code would use.
package kern

import (
	"math"

	nc "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/loopgen/testdata/kern/otherdir"
	"github.com/nugo-dev/nugo/vectorize"
)

//go:generate go tool nugo gen

// Package-level names that the generated file must not shadow or reuse.
var (
	cuda          = 1
	t, r, n, stop = 1, 2, 3, 4
	args, a0      = 5, 6
	acc, v        = 7, 8
)

// Point is a struct element type of this package.
type Point struct{ X, Y float64 }

// Scale is a plain kernel.
func Scale(th nc.Thread, d []float32, k float32) {
	if i := th.Grid1(); i < len(d) {
		d[i] *= k
	}
}

// Mixed takes views, structs, a func and a type of another package.
func Mixed(th nc.Thread, a nc.Array2[float64], p []Point, f func(float64) float64, w []other.Weight) {
	if i := th.Grid1(); i < len(p) {
		p[i].X = f(a.At(i, 0)) * float64(w[i])
	}
}

// Rotate takes complex slices, scalars and views.
func Rotate(th nc.Thread, z []complex64, w complex128, a nc.Array3[complex128]) {
	if i := th.Grid1(); i < len(z) {
		z[i] *= complex64(w * a.At(0, 0, i))
	}
}

// a1 is a kernel whose name is one the generated code would pick.
func a1(th nc.Thread) {}

// Generic kernels get a loop per instantiation the package writes.
func Generic[T nc.Number](th nc.Thread, d []T) {}

// Unused is generic and never instantiated.
func Unused[T nc.Number](th nc.Thread, d []T) {}

var (
	genericF32    = nc.Jit(Generic[float32])
	genericWeight = nc.Jit(Generic[other.Weight])
	genericAgain  = nc.Jit(Generic[float32])
)

// jitAny instantiates Generic with a type parameter: no loop for that.
func jitAny[T nc.Number]() *nc.Kernel { return nc.Jit(Generic[T]) }

// Device returns a value: a device function.
func Device(th nc.Thread) int { return th.Grid1() }

// Variadic is not a kernel.
func Variadic(th nc.Thread, d ...int) {}

// NoThread is not a kernel.
func NoThread(d []float32) {}

// Hypot, Square and Cube are passed to vectorize: here, in the package's
// test file and in its external test file.
func Hypot(x, y float64) float64 { return math.Sqrt(x*x + y*y) }
func Square(x float64) float64   { return x * x }
func Cube(x float32) float32     { return x * x * x }

// Heavier, Scaled and Ratio are passed to vectorize.New2. Only Heavier,
// whose operands and result are one number type, can be reduced and gets
// a fold and a scan.
func Heavier(a, b other.Weight) other.Weight { return max(a, b) }
func Scaled(x float32, k int32) float32      { return x * float32(k) }
func Ratio(x, y int32) float64               { return float64(x) / float64(y) }

// Twice and Sum are generic: each instantiation passed to vectorize with
// concrete type arguments gets a loop (Sum's a fold too); Sum passed
// without type arguments does not.
func Twice[T nc.Number](x T) T  { return 2 * x }
func Sum[T nc.Number](a, b T) T { return a + b }

// HalfSum is a ufunc of cuda.Float16, a struct that is a vectorize.Element:
// it gets a loop, a fold and a scan.
func HalfSum(a, b nc.Float16) nc.Float16 { return nc.HAdd(a, b) }

var (
	hsum  = vectorize.New2(HalfSum)
	hyp   = vectorize.New2(Hypot)
	heavy = vectorize.New2(Heavier)
	scl   = vectorize.New2(Scaled)
	ratio = vectorize.New2(Ratio)
	twice = vectorize.New1(Twice[float64])
	sum32 = vectorize.New2(Sum[float32])
	sumW  = vectorize.New2(Sum[other.Weight])
	sumIn = vectorize.New2[float64, float64, float64](Sum)
	lit   = vectorize.New1(func(x float64) float64 { return x })
)
