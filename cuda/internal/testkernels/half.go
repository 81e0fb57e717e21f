package testkernels

import "github.com/nugo-dev/nugo/cuda"

// HalfOps is the number of results HalfUnary writes per input.
const HalfOps = 18

// HalfUnary applies every unary Float16 operation to a[i]: result k of
// element i lands in out[k*len(a)+i]. Bits, conversions and the math
// functions all appear, so that every backend can be checked bit for bit
// over all 65536 patterns.
func HalfUnary(t cuda.Thread, a []cuda.Float16, out []cuda.Float16) {
	i := t.Grid1()
	n := len(a)
	if i >= n {
		return
	}
	x := a[i]
	r := [HalfOps]cuda.Float16{
		cuda.HNeg(x), cuda.HAbs(x), cuda.HSqrt(x), cuda.HRsqrt(x), cuda.HRcp(x),
		cuda.HExp(x), cuda.HExp2(x), cuda.HExp10(x), cuda.HLog(x), cuda.HLog2(x), cuda.HLog10(x),
		cuda.HSin(x), cuda.HCos(x), cuda.HFloor(x), cuda.HCeil(x), cuda.HTrunc(x), cuda.HRint(x),
		cuda.F16(x.Float32() * 3),
	}
	for k, v := range r {
		out[k*n+i] = v
	}
}

// HalfBinary computes every binary Float16 operation of a[i] and b[i] and
// fma(a[i], b[i], c[i]); out has 7 results per element, cmp 6 comparisons
// as bits.
func HalfBinary(t cuda.Thread, a, b, c []cuda.Float16, out []cuda.Float16, cmp []uint8) {
	i := t.Grid1()
	n := len(a)
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	out[i] = cuda.HAdd(x, y)
	out[n+i] = cuda.HSub(x, y)
	out[2*n+i] = cuda.HMul(x, y)
	out[3*n+i] = cuda.HDiv(x, y)
	out[4*n+i] = cuda.HFma(x, y, c[i])
	out[5*n+i] = cuda.HMax(x, y)
	out[6*n+i] = cuda.HMin(x, y)
	var m uint8
	for k, p := range [6]bool{cuda.HEq(x, y), cuda.HNe(x, y), cuda.HLt(x, y), cuda.HLe(x, y), cuda.HGt(x, y), cuda.HGe(x, y)} {
		if p {
			m |= 1 << k
		}
	}
	cmp[i] = m
}

// HalfConvert converts float32 and float64 inputs to Float16 and back, and
// reads and writes bit patterns.
func HalfConvert(t cuda.Thread, f []float32, d []float64, h, hd []cuda.Float16, f32 []float32, f64 []float64, bits []uint16) {
	if i := t.Grid1(); i < len(f) {
		h[i] = cuda.F16(f[i])
		hd[i] = cuda.F16FromFloat64(d[i])
		f32[i] = h[i].Float32()
		f64[i] = hd[i].Float64()
		bits[i] = cuda.HAdd(cuda.Float16FromBits(bits[i]), cuda.F16(1)).Bits()
	}
}

// HalfAxpy computes y = a×x + y in half precision with a scalar Float16.
func HalfAxpy(t cuda.Thread, a cuda.Float16, x, y []cuda.Float16) {
	if i := t.Grid1(); i < len(x) {
		y[i] = cuda.HFma(a, x[i], y[i])
	}
}

// HalfCompareOp compares Float16 values with ==, which kernels refuse.
func HalfCompareOp(t cuda.Thread, x []cuda.Float16, out []uint8) {
	if i := t.Grid1(); i < len(x) {
		if x[i] == cuda.F16(1) {
			out[i] = 1
		}
	}
}

// ElementMove copies a (rows×cols) into b row by row through a shared
// array: generic code over cuda.Element, which Float16 instantiates as the
// numbers do. Blocks have at most 64 threads.
func ElementMove[T cuda.Element](t cuda.Thread, a cuda.Array2[T], b []T) {
	sh := cuda.SharedArray[T](t, 64)
	i := t.Grid1()
	rows, cols := a.Shape()
	if i < rows*cols {
		sh[t.ThreadIdx().X] = a.At(i/cols, i%cols)
		b[i] = sh[t.ThreadIdx().X]
	}
}

// AtomicAddEach adds y[i] to x[i] atomically, keeping the old value, and
// sums every y[i] into acc[i%2] (elements that share a 32-bit word when T
// is a Float16); generic over every AtomicAdd type, so that a Float16
// instantiation goes through the same path as a user's generic kernel.
func AtomicAddEach[T cuda.AtomicElement](t cuda.Thread, x, y, old, acc []T) {
	if i := t.Grid1(); i < len(x) {
		old[i] = cuda.AtomicAdd(&x[i], y[i])
		cuda.AtomicAdd(&acc[i%2], y[i%4])
	}
}

// ApplyHalf replaces a[i] with f(a[i], b[i]).
func ApplyHalf(t cuda.Thread, f func(cuda.Float16, cuda.Float16) cuda.Float16, a, b []cuda.Float16) {
	if i := t.Grid1(); i < len(a) {
		a[i] = f(a[i], b[i])
	}
}

// HalfMulAdd is a function to pass to ApplyHalf: x×y + x in half
// precision, each operation rounded.
func HalfMulAdd(x, y cuda.Float16) cuda.Float16 { return cuda.HAdd(cuda.HMul(x, y), x) }

// RowsHalfFunc sets out[r] to f of row r of a (rows of n elements).
func RowsHalfFunc(t cuda.Thread, f func([]cuda.Float16) cuda.Float16, a, out []cuda.Float16, n int) {
	if r := t.Grid1(); r < len(out) {
		out[r] = f(a[r*n : (r+1)*n])
	}
}

// RowHalfSum is a function to pass to RowsHalfFunc: the row's sum in half
// precision, added left to right.
func RowHalfSum(row []cuda.Float16) cuda.Float16 {
	s := cuda.Float16FromBits(0)
	for _, x := range row {
		s = cuda.HAdd(s, x)
	}
	return s
}
