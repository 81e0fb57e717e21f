// Package testkernels holds kernels that package cuda's tests compile to
// PTX. They live outside package cuda because a kernel's package is compiled
// as user code, and package cuda is the kernels' library, not user code.
package testkernels

import "github.com/nugo-dev/nugo/cuda"

// Scale multiplies data by f.
func Scale(t cuda.Thread, data []float32, f float32) {
	if i := t.Grid1(); i < len(data) {
		data[i] *= f
	}
}

// WithMap uses a map, which no GPU can: the compiler refuses it.
func WithMap(t cuda.Thread, d []int64) {
	m := map[int64]int64{1: 2}
	d[0] = m[1]
}

// Mixed has one parameter of every kind, for argument packing.
func Mixed(t cuda.Thread, x []float32, f float32, a cuda.Array2[int32], n int8) {
	if t.Grid1() == 0 && len(x) > 0 {
		x[0] = f + float32(a.Len()) + float32(n)
	}
}

// MapFunc applies f element by element: a kernel with a func parameter,
// compiled once per function passed.
func MapFunc(t cuda.Thread, f func(float32, float32) float32, out, a, b []float32) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[i], b[i])
	}
}

// MixedFunc has a func parameter between others, for argument packing.
func MixedFunc(t cuda.Thread, x []float32, f func(float32) float32, n int8) {
	if i := t.Grid1(); i < len(x) {
		x[i] = f(x[i]) + float32(n)
	}
}

// Add is a function to pass to MapFunc.
func Add(a, b float32) float32 { return a + b }

// Sub is another.
func Sub(a, b float32) float32 { return a - b }

// Halve is a function to pass to MixedFunc.
func Halve(x float32) float32 { return x / 2 }

// Scaled is a generic function whose instantiations MapFunc takes.
func Scaled[T cuda.Float](a, b T) T { return 2*a + b }

// BadFunc takes a function but uses a map, which the compiler refuses.
func BadFunc(t cuda.Thread, f func(int64) int64, d []int64) {
	m := map[int64]int64{1: 2}
	d[0] = f(m[1])
}

// RowsFunc calls f on each row of a and its element of out: a func
// parameter that takes device memory, a slice and a pointer.
func RowsFunc(t cuda.Thread, f func([]float32, *float32), a, out []float32, n int) {
	if i := t.Grid1(); i < len(out) {
		f(a[i*n:i*n+n:i*n+n], &out[i])
	}
}

// RowMax is a function to pass to RowsFunc: it writes the largest
// element of x to *out.
func RowMax(x []float32, out *float32) {
	*out = x[0]
	for _, v := range x[1:] {
		*out = max(*out, v)
	}
}

// RowsBoolFunc is RowsFunc over bools: f reads row i of a (n bools) and
// writes out[i] through a pointer.
func RowsBoolFunc(t cuda.Thread, f func([]bool, *bool), a, out []bool, n int) {
	if i := t.Grid1(); i < len(out) {
		f(a[i*n:i*n+n:i*n+n], &out[i])
	}
}

// RowAny is a function to pass to RowsBoolFunc: whether any element of x
// is true.
func RowAny(x []bool, out *bool) {
	*out = false
	for _, v := range x {
		*out = *out || v
	}
}

// Relay writes out, then, after a barrier, reads its neighbour's element
// through in: a launch that passes the same memory for in and out sees the
// writes (one block of len(out) threads).
func Relay(t cuda.Thread, in, out, res []float32) {
	i := t.ThreadIdx().X
	out[i] = float32(2*i + 1)
	t.SyncThreads()
	res[i] = in[(i+1)%len(in)]
}

// Transpose writes the transpose of src, viewed as a rows×cols matrix,
// into dst, viewed as cols×rows, one thread per element of a 2-D grid:
// cuda.MustView2 in a kernel.
func Transpose(t cuda.Thread, src, dst []float64, rows, cols int) {
	a, b := cuda.MustView2(src, rows, cols), cuda.MustView2(dst, cols, rows)
	if j, i := t.Grid2(); i < rows && j < cols {
		b.Set(j, i, a.At(i, j))
	}
}

// PlaneSums sums each d1×d2 plane of src, viewed as a d0×d1×d2 array
// with cuda.MustView3, into out, one thread per plane.
func PlaneSums(t cuda.Thread, src []int32, out []int64, d0, d1, d2 int) {
	a := cuda.MustView3(src, d0, d1, d2)
	if i := t.Grid1(); i < d0 {
		var s int64
		for j := range d1 {
			for k := range d2 {
				s += int64(a.At(i, j, k))
			}
		}
		out[i] = s
	}
}

// BlocksFunc calls f on each rows×cols block of a, viewed as a matrix,
// and its element of out: a func parameter that takes a cuda.Array2.
func BlocksFunc(t cuda.Thread, f func(cuda.Array2[float32], *float32), a, out []float32, rows, cols int) {
	if i := t.Grid1(); i < len(out) {
		n := rows * cols
		f(cuda.MustView2(a[i*n:i*n+n:i*n+n], rows, cols), &out[i])
	}
}

// Trace is a function to pass to BlocksFunc: the sum of m's diagonal.
func Trace(m cuda.Array2[float32], out *float32) {
	rows, cols := m.Shape()
	var s float32
	for i := range min(rows, cols) {
		s += m.At(i, i)
	}
	*out = s
}

// ScaleThenRead has scaleView scale block i of a (viewed as a 1×2×2
// array) by i+1, then reads the block back through a itself into out: a
// view passed to a device function that writes through it, after which
// the kernel's own loads of a must see the writes.
func ScaleThenRead(t cuda.Thread, a []int16, out []int16) {
	if i := t.Grid1(); 4*i+4 <= len(a) && i < len(out) {
		scaleView(cuda.MustView3(a[4*i:4*i+4], 1, 2, 2), int16(i+1))
		out[i] = a[4*i] + a[4*i+1] + a[4*i+2] + a[4*i+3]
	}
}

// scaleView multiplies every element of x by k.
func scaleView(x cuda.Array3[int16], k int16) {
	d0, d1, d2 := x.Shape()
	for i := range d0 {
		for j := range d1 {
			for l := range d2 {
				x.Set(i, j, l, x.At(i, j, l)*k)
			}
		}
	}
}

// RowSums23 views a as a 2×3 matrix of constant dimensions and writes
// its row sums into out.
func RowSums23(t cuda.Thread, a []int64, out []int64) {
	m := cuda.MustView2(a, 2, 3)
	if i := t.Grid1(); i < len(out) {
		_, cols := m.Shape()
		var s int64
		for j := range cols {
			s += m.At(i, j)
		}
		out[i] = s
	}
}
