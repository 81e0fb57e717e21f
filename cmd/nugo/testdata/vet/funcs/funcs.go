// Package funcs passes functions to vectorize and to a launch; one of them
// uses a map, which the GPU cannot run (nugo vet's test).
package funcs

import (
	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/vectorize"
)

func square(x float64) float64 { return x * x }

func lookup(x float64) float64 {
	m := map[float64]float64{1: 2}
	return m[x]
}

func norm(x []float64, out *float64) {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	*out = s
}

func twice[T cuda.Number](x T) T { return 2 * x }

func apply(t cuda.Thread, f func(float64) float64, a []float64) {
	if i := t.Grid1(); i < len(a) {
		a[i] = f(a[i])
	}
}

// Use makes the ufuncs and launches the kernel.
func Use() {
	_ = vectorize.New1(square, vectorize.CUDA)
	_ = vectorize.New1(lookup)
	_ = vectorize.New1(twice[int32])
	_, _ = vectorize.GU("(n)->()", norm)
	_ = cuda.Jit(apply).Launch(cuda.Dim1(1), cuda.Dim1(1), square, []float64{1})
}
