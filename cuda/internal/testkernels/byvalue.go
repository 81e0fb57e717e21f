package testkernels

import "github.com/nugo-dev/nugo/cuda"

// Arrays and structs passed to kernels by value (Numba's tuples and
// namedtuples), laid out as Go lays them out on every backend.

// Inner has padding after A, and a complex field.
type Inner struct {
	A int8
	B float64
	C [3]int16
	D complex64
}

// Params nests an array, a struct, a Float16 and a bool.
type Params struct {
	Scale float64
	Off   [3]int32
	In    Inner
	H     cuda.Float16
	On    bool
	Z     complex128
}

// ByValue writes every leaf of p and s into out, one per element (complex
// parts and bools as numbers), and at the end p[i%3] for a dynamic index.
func ByValue(t cuda.Thread, p [3]int64, s Params, out []float64) {
	if t.Grid1() != 0 || len(out) < 20 {
		return
	}
	for k := range p {
		out[k] = float64(p[k])
	}
	out[3] = s.Scale
	for k, o := range s.Off {
		out[4+k] = float64(o)
	}
	out[7] = float64(s.In.A)
	out[8] = s.In.B
	for k, c := range s.In.C {
		out[9+k] = float64(c)
	}
	out[12] = float64(real(s.In.D))
	out[13] = float64(imag(s.In.D))
	out[14] = float64(s.H.Float32())
	if s.On {
		out[15] = 1
	}
	out[16] = real(s.Z)
	out[17] = imag(s.Z)
	i := int(s.Off[0]) % 3
	out[18] = float64(p[i])
	out[19] = float64(s.Off[i])
}

// Padded is the layout the issue names: padding after A and C.
type Padded struct {
	A int8
	B float64
	C [3]int16
	D complex64
}

// Mixed16 packs bools, a Float16 and a complex128 around single bytes.
type Mixed16 struct {
	A bool
	B cuda.Float16
	C complex128
	D uint8
	E [2]bool
}

// Nested holds an array of structs.
type Nested struct {
	X [2]struct {
		P int16
		Q float32
	}
	Y bool
	Z [2][3]uint32
}

// Bytes5 wraps an odd-sized array for a slice element.
type Bytes5 struct{ V [5]int8 }

// Grid23 wraps a 2-D array for a slice element.
type Grid23 struct{ V [2][3]float32 }

// Empty has no fields: a parameter of size 0.
type Empty struct{}

// EchoPadded stores v into out[i] for each thread.
func EchoPadded(t cuda.Thread, v Padded, out []Padded) {
	if i := t.Grid1(); i < len(out) {
		out[i] = v
	}
}

// EchoMixed16 stores v into out[i] for each thread.
func EchoMixed16(t cuda.Thread, v Mixed16, out []Mixed16) {
	if i := t.Grid1(); i < len(out) {
		out[i] = v
	}
}

// EchoNested stores v into out[i] for each thread.
func EchoNested(t cuda.Thread, v Nested, out []Nested) {
	if i := t.Grid1(); i < len(out) {
		out[i] = v
	}
}

// EchoBytes5 stores the array v into out[i].V for each thread.
func EchoBytes5(t cuda.Thread, v [5]int8, out []Bytes5) {
	if i := t.Grid1(); i < len(out) {
		out[i].V = v
	}
}

// EchoGrid23 stores the 2-D array v into out[i].V for each thread,
// element by element with dynamic indices.
func EchoGrid23(t cuda.Thread, v [2][3]float32, out []Grid23) {
	if i := t.Grid1(); i < len(out) {
		for r := range 2 {
			for c := range 3 {
				out[i].V[(r+i)%2][c] = v[(r+i)%2][c]
			}
		}
	}
}

// ZeroSize takes an empty struct and a zero-length array around a scalar:
// parameters of no bytes.
func ZeroSize(t cuda.Thread, e Empty, z [0]int64, n int32, out []int32) {
	if i := t.Grid1(); i < len(out) {
		out[i] = n + int32(len(z))
		_ = e
	}
}

// ComplexScale multiplies out by c: a complex parameter, to which a launch
// may pass integers and floats that convert exactly.
func ComplexScale(t cuda.Thread, c complex64, out []complex64) {
	if i := t.Grid1(); i < len(out) {
		out[i] *= c
	}
}

// WithPointerField holds a pointer: refused as a by-value parameter.
type WithPointerField struct {
	N    int64
	Next *int64
}

// TakesPointerStruct takes a struct with a pointer field by value.
func TakesPointerStruct(t cuda.Thread, s WithPointerField, out []int64) {
	out[0] = s.N
}

// TakesBigArray takes more bytes by value than a launch's parameter space
// holds: refused on every backend.
func TakesBigArray(t cuda.Thread, big [600]float64, out []float64) {
	out[0] = big[599]
}

// table2 is a read-only 2-D table.
var table2 = [3][4]int32{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}

// TableAt reads table2[idx[0]][idx[1]]: out of range, it fails as Go does.
func TableAt(t cuda.Thread, idx []int, out []int32) {
	if t.Grid1() == 0 {
		out[0] = table2[idx[0]][idx[1]]
	}
}

// BlockScaled stages v.W through shared memory, with a barrier between:
// a by-value parameter in a kernel the CPU backend splits at barriers.
func BlockScaled(t cuda.Thread, v Padded, w [4]float32, out []float64) {
	sh := cuda.SharedArray[float32](t, 4)
	tid := t.ThreadIdx().X
	if tid < 4 {
		sh[tid] = w[tid] * float32(v.A)
	}
	t.SyncThreads()
	if i := t.Grid1(); i < len(out) {
		out[i] = float64(sh[(tid+1)%4]) + v.B + float64(v.C[tid%3])
	}
}
