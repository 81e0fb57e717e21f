// Package good holds kernels that compile for the GPU (nugo vet's test).
package good

import gpu "github.com/nugo-dev/nugo/cuda"

func scale(t gpu.Thread, data []float32, f float32) {
	if i := t.Grid1(); i < len(data) {
		data[i] *= f
	}
}

type number interface{ ~int32 | ~float64 }

func add[T number](t gpu.Thread, a, b []T) {
	if i := t.Grid1(); i < len(a) {
		a[i] += b[i]
	}
}

func apply(t gpu.Thread, f func(float32) float32, data []float32) {
	if i := t.Grid1(); i < len(data) {
		data[i] = f(data[i])
	}
}

// neverInstantiated is generic and written nowhere with type arguments.
func neverInstantiated[T number](t gpu.Thread, a []T) {}

// notAKernel takes no Thread.
func notAKernel(m map[int]int) int { return m[0] }

var kernels = []any{scale, add[int32], add[float64], add[int32], apply}
