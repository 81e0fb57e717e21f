// Package kernels holds the GPU benchmark's kernels (the primes kernel is
// internal/primes'), apart from the benchmark program so that the kernels'
// package imports only what kernels use.
package kernels

//go:generate go tool nugo gen

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// VecAdd is c = a + b.
func VecAdd(t cuda.Thread, a, b, c []float32) {
	if i := t.Grid1(); i < len(c) {
		c[i] = a[i] + b[i]
	}
}

// Logs fills a with log10(i+j+1).
func Logs(t cuda.Thread, a cuda.Array2[float64]) {
	i, j := t.Grid2()
	if rows, cols := a.Shape(); i < rows && j < cols {
		a.Set(i, j, math.Log10(float64(i+j+1)))
	}
}

// InOrder writes log10(i+1) to out[i]: neighbouring threads write
// neighbouring elements.
func InOrder(t cuda.Thread, out []float64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = math.Log10(float64(i + 1))
	}
}

// Permuted writes log10(j+1) to out[j], j = perm[i]: scattered writes.
func Permuted(t cuda.Thread, perm []int32, out []float64) {
	if i := t.Grid1(); i < len(out) {
		j := perm[i]
		out[j] = math.Log10(float64(j + 1))
	}
}

// MovingAverage is the centred moving average of width elements, truncated
// at the ends.
func MovingAverage(t cuda.Thread, x []float64, width int, out []float64) {
	i := t.Grid1()
	if i >= len(x) {
		return
	}
	lo, hi := max(0, i-width/2), min(len(x)-1, i+width/2)
	var sum float64
	for j := lo; j <= hi; j++ {
		sum += x[j]
	}
	out[i] = sum / float64(hi-lo+1)
}
