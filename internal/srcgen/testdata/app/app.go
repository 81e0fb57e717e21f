// Package app has kernels calling package lib, a ufunc and a closure.
package app

import (
	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/srcgen/testdata/lib"
	"github.com/nugo-dev/nugo/vectorize"
)

// Apply is a kernel calling lib's functions.
func Apply(t cuda.Thread, a []float64) {
	if i := t.Grid1(); i < len(a) {
		p := lib.Pair{A: a[i], B: 1}
		a[i] = lib.Poly(a[i]) + lib.Scale(p.Sum()) + p.Norm()
	}
}

func twice(x float64) float64 { return 2 * x }

// Ufuncs makes a ufunc of a function of this package, of lib's, and of a
// closure (which the compiled backends cannot take).
func Ufuncs() {
	_ = vectorize.New1(twice, vectorize.CUDA)
	_ = vectorize.New1(lib.Poly, vectorize.CUDA)
	_ = vectorize.New1(func(x float64) float64 { return x + 1 }, vectorize.CUDA)
}
