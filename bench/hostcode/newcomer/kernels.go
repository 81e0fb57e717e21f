// Package newcomer holds the device code of the newcomer program that
// bench/hostcode counts: the kernels and the functions given to vectorize,
// shared by its before and after versions, whose host code differs.
package newcomer

import "github.com/nugo-dev/nugo/cuda"

// TPB is the threads per block of the 1-D kernels.
const TPB = 256

// Saxpy sets y = a·x + y.
func Saxpy(t cuda.Thread, a float32, x, y []float32) {
	if i := t.Grid1(); i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

// AddIndex adds 10·row + column to each element of m.
func AddIndex(t cuda.Thread, m cuda.Array2[int32]) {
	x, y := t.Grid2()
	if rows, cols := m.Shape(); y < rows && x < cols {
		m.Set(y, x, m.At(y, x)+int32(10*y+x))
	}
}

// BlockSum adds x into total[0], a shared-memory tree reduction per block.
func BlockSum(t cuda.Thread, x []float32, total []float32) {
	buf := cuda.SharedArray[float32](t, TPB)
	tid := t.ThreadIdx().X
	if i := t.Grid1(); i < len(x) {
		buf[tid] = x[i]
	}
	t.SyncThreads()
	for s := TPB / 2; s > 0; s >>= 1 {
		if tid < s {
			buf[tid] += buf[tid+s]
		}
		t.SyncThreads()
	}
	if tid == 0 {
		cuda.AtomicAdd(&total[0], buf[0])
	}
}

// Hypot2 is x² + y², for a ufunc.
func Hypot2(x, y float64) float64 { return x*x + y*y }

// MovingAverage averages the window of width elements around each
// element of x, truncated at the ends, for a gufunc.
func MovingAverage(x []float64, width int64, out []float64) {
	w := int(width)
	for i := range x {
		lo, hi := max(0, i-w/2), min(len(x)-1, i+w/2)
		var s float64
		for j := lo; j <= hi; j++ {
			s += x[j]
		}
		out[i] = s / float64(hi-lo+1)
	}
}
