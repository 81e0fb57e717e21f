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
