package testkernels

import "github.com/nugo-dev/nugo/cuda"

// ScaleComplex multiplies a complex64 slice by a complex64 scalar and each
// element of a complex128 matrix by the scalar's square, through shared
// memory.
func ScaleComplex(t cuda.Thread, a []complex64, s complex64, m cuda.Array2[complex128]) {
	sh := cuda.SharedArray[complex64](t, 64)
	i := t.Grid1()
	k := t.ThreadIdx().X
	if i < len(a) {
		sh[k] = a[i]
	}
	t.SyncThreads()
	if i < len(a) {
		a[i] = sh[k] * s
	}
	rows, cols := m.Shape()
	if i < rows*cols {
		w := complex128(s)
		m.Set(i/cols, i%cols, m.At(i/cols, i%cols)*w*w)
	}
}

// ApplyComplex applies f to each element of z.
func ApplyComplex(t cuda.Thread, f func(complex128) complex128, z []complex128) {
	if i := t.Grid1(); i < len(z) {
		z[i] = f(z[i])
	}
}

// CSquarePlusI is a function to pass to ApplyComplex.
func CSquarePlusI(z complex128) complex128 { return z*z + 1i }
