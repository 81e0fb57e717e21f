package testkernels

//go:generate go tool nugo gen

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// The corpus: kernels that exercise each feature a GPU backend must get
// right. The tests run each on the CPU backend (the reference) and on the
// backend under test and compare the results.

// Increment adds one to every element.
func Increment(t cuda.Thread, data []float64) {
	if i := t.Grid1(); i < len(data) {
		data[i]++
	}
}

// VecAdd adds two float32 vectors.
func VecAdd(t cuda.Thread, a, b, c []float32) {
	if i := t.Grid1(); i < len(c) {
		c[i] = a[i] + b[i]
	}
}

// Add2D adds two 2-D arrays on a 2-D grid.
func Add2D(t cuda.Thread, a, b, c cuda.Array2[float32]) {
	i, j := t.Grid2()
	if rows, cols := c.Shape(); i < rows && j < cols {
		c.Set(i, j, a.At(i, j)+b.At(i, j))
	}
}

// Logs fills a 2-D array with log10(i+j+1).
func Logs(t cuda.Thread, a cuda.Array2[float64]) {
	i, j := t.Grid2()
	if rows, cols := a.Shape(); i < rows && j < cols {
		a.Set(i, j, math.Log10(float64(i+j+1)))
	}
}

// Permuted writes log10(j+1) to out[j] for j = perm[i]: scattered writes.
func Permuted(t cuda.Thread, perm []int32, out []float64) {
	if i := t.Grid1(); i < len(out) {
		j := perm[i]
		out[j] = math.Log10(float64(j + 1))
	}
}

// MovingAverage is a centred moving average, truncated at the ends.
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

// IntOps exercises Go's integer semantics: truncated division, the
// remainder's sign, wrapping, shifts, narrow types.
func IntOps(t cuda.Thread, a, b []int64, out []int64, small []int8, shifts []uint32) {
	i := t.Grid1()
	if i >= len(a) {
		return
	}
	x, y := a[i], b[i]
	r := int64(0)
	if y != 0 {
		r = x/y + 7*(x%y)
	}
	out[i] = r ^ (x * 1000003) ^ int64(uint64(x)>>3)
	small[i] = int8(x) + int8(y)*3
	shifts[i] = uint32(x)<<(uint(y)&31) | uint32(y)>>(uint(x)&7)
}

// BlockSum sums each block's elements through shared memory and adds the
// block sums atomically into total[0].
func BlockSum(t cuda.Thread, x []int64, total []int64) {
	buf := cuda.SharedArray[int64](t, 256)
	tid := t.ThreadIdx().X
	var v int64
	if i := t.Grid1(); i < len(x) {
		v = x[i]
	}
	buf[tid] = v
	t.SyncThreads()
	for s := t.BlockDim().X / 2; s > 0; s /= 2 {
		if tid < s {
			buf[tid] += buf[tid+s]
		}
		t.SyncThreads()
	}
	if tid == 0 {
		cuda.AtomicAdd(&total[0], buf[0])
	}
}

// Reverse reverses each block's slice of x in dynamic shared memory.
func Reverse(t cuda.Thread, x []float32) {
	buf := cuda.DynamicSharedArray[float32](t)
	tid, n := t.ThreadIdx().X, t.BlockDim().X
	base := t.BlockIdx().X * n
	buf[tid] = x[base+tid]
	t.SyncThreads()
	x[base+tid] = buf[n-1-tid]
}

// Histogram counts values into bins with atomics.
func Histogram(t cuda.Thread, x []uint32, bins []int32) {
	for i := t.Grid1(); i < len(x); i += t.GridSize1() {
		cuda.AtomicAdd(&bins[x[i]%uint32(len(bins))], 1)
	}
}

// Volume writes a function of the 3-D position into an Array3.
func Volume(t cuda.Thread, v cuda.Array3[float32]) {
	i, j, k := t.Grid3()
	if d0, d1, d2 := v.Shape(); i < d0 && j < d1 && k < d2 {
		v.Set(i, j, k, float32(math.Sqrt(float64(i*d1*d2+j*d2+k))))
	}
}

// OutOfRange writes one element per thread without a bounds check: with
// more threads than elements, debug mode reports the first bad index.
func OutOfRange(t cuda.Thread, d []int32) {
	d[t.Grid1()] = 1
}

// DivideBy divides each element by by: with by 0, debug mode reports the
// first thread's division.
func DivideBy(t cuda.Thread, d []int64, by int64) {
	if i := t.Grid1(); i < len(d) {
		d[i] /= by
	}
}

// ShiftBy shifts each element left by s: a negative s is a run-time
// error in Go, and in debug mode.
func ShiftBy(t cuda.Thread, d []int64, s int) {
	if i := t.Grid1(); i < len(d) {
		d[i] <<= s
	}
}

// SumFrom stores the sum of d[lo:i+1] in d[i]'s place in out: with lo past
// some i+1, the slice expression is out of range.
func SumFrom(t cuda.Thread, d []int32, lo int, out []int32) {
	if i := t.Grid1(); i < len(d) {
		var s int32
		for _, v := range d[lo : i+1] {
			s += v
		}
		out[i] = s
	}
}

// SharedBoth uses 16 KiB of static shared memory and the dynamic shared
// memory's last BlockDim elements: x[i] becomes three times the element
// mirrored in its block.
func SharedBoth(t cuda.Thread, x []float32) {
	st := cuda.SharedArray[float32](t, 4096)
	dyn := cuda.DynamicSharedArray[float32](t)
	tid, n := t.ThreadIdx().X, t.BlockDim().X
	i := t.BlockIdx().X*n + tid
	st[tid] = x[i]
	dyn[len(dyn)-n+tid] = 2 * x[i]
	t.SyncThreads()
	x[i] = st[n-1-tid] + dyn[len(dyn)-1-tid]
}

// ForAllProbe counts the threads that reach each index of hits, and
// thread 0 records the launch's block and grid sizes in shape[0] and
// shape[1]: what a ForAll launch chose.
func ForAllProbe(t cuda.Thread, hits []int32, shape []int32) {
	i := t.Grid1()
	if i == 0 {
		shape[0] = int32(t.BlockDim().X)
		shape[1] = int32(t.GridDim().X)
	}
	if i < len(hits) {
		hits[i]++
	}
}

// DivRemWidths divides and takes remainders at every integer width by the
// divisors of its thread's element: a zero divisor is a run-time error in
// Go, and so in every build of a kernel (issue 21, item 3).
func DivRemWidths(t cuda.Thread, a []int64, b []int32, c []uint16, d []uint64, by64 []int64, by32 []int32, by16 []uint16, byU []uint64) {
	if i := t.Grid1(); i < len(a) {
		a[i] /= by64[i]
		b[i] %= by32[i]
		c[i] /= by16[i]
		d[i] %= byU[i]
	}
}
