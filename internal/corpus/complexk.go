package corpus

import (
	"math"
	"math/cmplx"

	"github.com/nugo-dev/nugo/cuda"
)

// Complex numbers: Go's operators on complex64 and complex128 bit for bit
// (division is the runtime's algorithm, products of complex64 go through
// float64 as Go's compiler computes them), and math/cmplx within the
// device math library's ulps.

func complexArith128(t cuda.Thread, a, b []complex128, s complex128, add, sub, mul, neg []complex128, eq []int32) {
	if i := t.Grid1(); i < len(a) {
		x, y := a[i], b[i]
		add[i] = x + y
		sub[i] = x - y*s
		mul[i] = x * y
		neg[i] = -x + 1.5i
		var r int32
		if x == y {
			r |= 1
		}
		if x != y {
			r |= 2
		}
		if x == 0 {
			r |= 4
		}
		eq[i] = r
	}
}

func complexArith64(t cuda.Thread, a, b []complex64, s complex64, add, mul []complex64, wide []complex128, re, im []float32) {
	if i := t.Grid1(); i < len(a) {
		x, y := a[i], b[i]
		add[i] = x + y - s
		mul[i] = x * y * s
		wide[i] = complex128(x) * complex128(y)
		re[i], im[i] = real(x*y), imag(complex64(wide[i]))
	}
}

func complexDiv128(t cuda.Thread, a, b, q []complex128) {
	if i := t.Grid1(); i < len(a) {
		q[i] = a[i] / b[i]
	}
}

func complexDiv64(t cuda.Thread, a, b, q []complex64) {
	if i := t.Grid1(); i < len(a) {
		q[i] = a[i] / b[i]
	}
}

// complexMandel counts the iterations of z = z*z + c until |z| > 2.
func complexMandel(t cuda.Thread, c cuda.Array2[complex128], out cuda.Array2[int32], maxIter int32) {
	i, j := t.Grid2()
	rows, cols := c.Shape()
	if i >= rows || j >= cols {
		return
	}
	z, p := complex128(0), c.At(i, j)
	n := int32(0)
	for n < maxIter && real(z)*real(z)+imag(z)*imag(z) <= 4 {
		z = z*z + p
		n++
	}
	out.Set(i, j, n)
}

// complexDFT is a 64-point DFT per block on complex64: the block stages its
// input in shared memory, each thread accumulates one frequency.
func complexDFT(t cuda.Thread, x, w, out []complex64) {
	const n = 64
	sh := cuda.SharedArray[complex64](t, n)
	k := t.ThreadIdx().X
	base := t.BlockIdx().X * n
	sh[k] = x[base+k]
	t.SyncThreads()
	var acc complex64
	for j := 0; j < n; j++ {
		acc += sh[j] * w[(j*k)%n]
	}
	out[base+k] = acc
}

// cplxPoint is a struct with complex fields.
type cplxPoint struct {
	Z     complex64
	Tag   int16
	W     complex128
	Pairs [2]complex64
}

func complexStructs(t cuda.Thread, ps []cplxPoint, out []complex128, scale complex64) {
	var loc [4]complex128
	for k := range loc {
		loc[k] = complex(float64(k), -float64(k))
	}
	if i := t.Grid1(); i < len(ps) {
		p := ps[i]
		p.Z *= scale
		p.Pairs[1] = p.Pairs[0] + complex64(p.W)
		p.W = -p.W + loc[i%4]
		ps[i] = p
		out[i] = complex128(p.Z) + p.W*complex128(p.Pairs[1]) + complex(float64(p.Tag), 0)
	}
}

func complexFuncs(t cuda.Thread, z []complex128, exp, log, sqrt, sin, cos, sinh, cosh, log10 []complex128, abs, phase []float64) {
	if i := t.Grid1(); i < len(z) {
		x := z[i]
		exp[i], log[i], sqrt[i] = cmplx.Exp(x), cmplx.Log(x), cmplx.Sqrt(x)
		sin[i], cos[i] = cmplx.Sin(x), cmplx.Cos(x)
		sinh[i], cosh[i], log10[i] = cmplx.Sinh(x), cmplx.Cosh(x), cmplx.Log10(cmplx.Conj(x))
		abs[i], phase[i] = cmplx.Abs(x), cmplx.Phase(x)
	}
}

func complexPowTanh(t cuda.Thread, z []complex128, pow, tanh, rect []complex128) {
	if i := t.Grid1(); i < len(z) {
		x := z[i]
		r, th := cmplx.Polar(x)
		rect[i] = cmplx.Rect(r, th)
		pow[i] = cmplx.Pow(x, complex(0.75, -0.5))
		tanh[i] = cmplx.Tanh(x)
	}
}

func complexTan(t cuda.Thread, z []complex128, tan, cot, atan, atanh []complex128) {
	if i := t.Grid1(); i < len(z) {
		x := z[i]
		tan[i], cot[i] = cmplx.Tan(x), cmplx.Cot(x)
		atan[i], atanh[i] = cmplx.Atan(x), cmplx.Atanh(x)
	}
}

func complexInverse(t cuda.Thread, z []complex128, asin, acos, asinh, acosh []complex128) {
	if i := t.Grid1(); i < len(z) {
		x := z[i]
		asin[i], acos[i] = cmplx.Asin(x), cmplx.Acos(x)
		asinh[i], acosh[i] = cmplx.Asinh(x), cmplx.Acosh(x)
	}
}

func complexSpecial(t cuda.Thread, z []complex128, cls []int32, exp, sqrt []complex128, inf, nan []complex128) {
	if i := t.Grid1(); i < len(z) {
		x := z[i]
		var r int32
		if cmplx.IsNaN(x) {
			r |= 1
		}
		if cmplx.IsInf(x) {
			r |= 2
		}
		cls[i] = r
		exp[i], sqrt[i] = cmplx.Exp(x), cmplx.Sqrt(x)
		inf[i], nan[i] = cmplx.Inf(), cmplx.NaN()
	}
}

// rootsOfUnity is a read-only table of complex constants.
var rootsOfUnity = [4]complex128{1, 1i, -1, -1i}

// cpowN is z**n by recursion: a device function that is called, not
// inlined, with complex parameters and result.
func cpowN(z complex128, n int) complex128 {
	if n <= 0 {
		return 1
	}
	return z * cpowN(z, n-1)
}

// csq is generic over the complex types.
func csq[T cuda.Complex](z T) T { return z * z }

// cscale is a small device function (inlined).
func cscale(z complex64) complex64 { return z * (0.5 - 0.25i) }

func complexCalls(t cuda.Thread, z []complex128, w []complex64, out []complex128) {
	if i := t.Grid1(); i < len(z) {
		out[i] = cpowN(z[i], i%5)*rootsOfUnity[i%4] + csq(z[i])
		w[i] = cscale(csq(w[i]))
	}
}

// edgeC128 pairs edge values: zeros of both signs, infinities, NaN, tiny,
// huge and ordinary numbers.
func edgeC128(n int, shift int) []complex128 {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3.7, 1e-310, -1e300, 1e300, math.Inf(1), math.Inf(-1), math.NaN(), math.Pi}
	out := make([]complex128, n)
	for i := range out {
		k := i + shift
		out[i] = complex(vals[k%len(vals)], vals[(k/len(vals)+k)%len(vals)])
	}
	return out
}

func edgeC64(n int, shift int) []complex64 {
	src := edgeC128(n, shift)
	out := make([]complex64, n)
	for i, c := range src {
		out[i] = complex64(c)
	}
	return out
}

// gridC128 is n points of the square [-lim, lim]**2, off the axes and off
// the unit circle (where Log's real part cancels).
func gridC128(n int, lim float64) []complex128 {
	out := make([]complex128, n)
	side := int(math.Ceil(math.Sqrt(float64(n))))
	for i := range out {
		re := -lim + 2*lim*(float64(i%side)+0.31)/float64(side)
		im := -lim + 2*lim*(float64(i/side)+0.47)/float64(side)
		z := complex(re, im)
		if a := cmplx.Abs(z); a > 0.8 && a < 1.25 {
			z *= 1.7
		}
		out[i] = z
	}
	return out
}

func zc128(n int) []complex128 { return make([]complex128, n) }
func zc64(n int) []complex64   { return make([]complex64, n) }

var complexCases = []Case{
	c1("complex/arith128", complexArith128, func() []any {
		return []any{edgeC128(n1, 0), edgeC128(n1, 5), complex(0.5, -3), zc128(n1), zc128(n1), zc128(n1), zc128(n1), zeros[int32](n1)}
	}),
	c1("complex/arith64", complexArith64, func() []any {
		return []any{edgeC64(n1, 1), edgeC64(n1, 9), complex64(complex(1.25, 0.1)), zc64(n1), zc64(n1), zc128(n1), zeros[float32](n1), zeros[float32](n1)}
	}),
	{Name: "complex/div128_edges", Kernel: complexDiv128, Grid: grid1(n1, 128), Block: cuda.Dim1(128), Devmath: true, Args: func() []any {
		return []any{edgeC128(n1, 0), edgeC128(n1, 3), zc128(n1)}
	}},
	{Name: "complex/div64_edges", Kernel: complexDiv64, Grid: grid1(n1, 128), Block: cuda.Dim1(128), Devmath: true, Args: func() []any {
		return []any{edgeC64(n1, 2), edgeC64(n1, 7), zc64(n1)}
	}},
	{Name: "complex/mandelbrot", Kernel: complexMandel, Grid: cuda.Dim2(3, 2), Block: cuda.Dim2(16, 16), Args: func() []any {
		c := cuda.NewArray2[complex128](40, 35)
		for i := range 40 {
			for j := range 35 {
				c.Set(i, j, complex(-2.2+2.8*float64(j)/35, -1.3+2.6*float64(i)/40))
			}
		}
		return []any{c, cuda.NewArray2[int32](40, 35), int32(200)}
	}},
	{Name: "complex/dft64_shared", Kernel: complexDFT, Grid: cuda.Dim1(3), Block: cuda.Dim1(64), Args: func() []any {
		x := make([]complex64, 3*64)
		for i := range x {
			x[i] = complex(float32(math.Sin(float64(i)*0.37)), float32(i%7)-3)
		}
		w := make([]complex64, 64)
		for j := range w {
			w[j] = complex64(cmplx.Rect(1, -2*math.Pi*float64(j)/64))
		}
		return []any{x, w, zc64(len(x))}
	}},
	c1("complex/structs_locals", complexStructs, func() []any {
		ps := make([]cplxPoint, n1)
		for i := range ps {
			f := float32(i)
			ps[i] = cplxPoint{Z: complex(f, 1-f), Tag: int16(i), W: complex(0.1*float64(i), 2), Pairs: [2]complex64{complex(f/3, 0.5), 0}}
		}
		return []any{ps, zc128(n1), complex64(complex(0.5, 2))}
	}),
	c1("complex/calls_tables_generics", complexCalls, func() []any {
		z := gridC128(n1, 1.5)
		w := make([]complex64, n1)
		for i := range w {
			w[i] = complex64(z[(i*7)%n1])
		}
		return []any{z, w, zc128(n1)}
	}),
	// Each part within 8 ulp of Go's math/cmplx (measured: 4 at most on
	// this grid but for Log and Log10 near |z| = 1.3): the device
	// library's Exp, Log, Sincos, Sinh, Hypot and Atan2 are within 1-2
	// ulp of Go's, and cmplx combines two of them per part.
	{Name: "complex/cmplx_grid", Kernel: complexFuncs, Grid: grid1(n1, 128), Block: cuda.Dim1(128), MathULP: 8, Devmath: true, Args: func() []any {
		return []any{gridC128(n1, 3), zc128(n1), zc128(n1), zc128(n1), zc128(n1), zc128(n1), zc128(n1), zc128(n1), zc128(n1), zeros[float64](n1), zeros[float64](n1)}
	}},
	// Pow's and Rect's parts are r*cos(θ) and r*sin(θ) with θ computed
	// (from Phase, and Log for Pow): near a zero of cos or sin, an ulp of
	// θ is many ulps of the part (Go's own result is no closer to the true
	// value there), and Tanh divides by cosh(2x)+cos(2y). Measured on this
	// grid: 161 of 900 parts beyond 2 ulp, 3 beyond 64, none beyond 256.
	{Name: "complex/cmplx_pow_rect_tanh", Kernel: complexPowTanh, Grid: grid1(n1, 128), Block: cuda.Dim1(128), MathULP: 256, Devmath: true, Args: func() []any {
		return []any{gridC128(n1, 3), zc128(n1), zc128(n1), zc128(n1)}
	}},
	// The inverse functions are Log(i*x + Sqrt(1 - x*x)) and the like,
	// whose sums cancel in places, amplifying the library's ulps. Measured
	// on this grid: 45 of 1200 parts beyond 8 ulp, 11 beyond 16, none
	// beyond 64.
	{Name: "complex/cmplx_inverse", Kernel: complexInverse, Grid: grid1(n1, 128), Block: cuda.Dim1(128), MathULP: 64, Devmath: true, Args: func() []any {
		return []any{gridC128(n1, 3), zc128(n1), zc128(n1), zc128(n1), zc128(n1)}
	}},
	// Tan and Cot divide sin 2x and sinh 2y by cos 2x + cosh 2y (Cot:
	// cosh 2y - cos 2x), which cancels near the poles, and Atan's and
	// Atanh's real or imaginary part is a log of a ratio of sums that
	// cancel near ±i (±1). Measured on this grid: 12 of 1200
	// parts beyond 2 ulp (Tan 9, Cot 3), none beyond 8; 16 allows for
	// the device's real functions.
	{Name: "complex/cmplx_tan_atan", Kernel: complexTan, Grid: grid1(n1, 128), Block: cuda.Dim1(128), MathULP: 16, Devmath: true, Args: func() []any {
		return []any{gridC128(n1, 3), zc128(n1), zc128(n1), zc128(n1), zc128(n1)}
	}},
	// Special values bit for bit but for Exp(x+πi), whose imaginary part
	// is r*sin(π): Go's math.Sin(Pi) is 7 ulp off, the device library's
	// closer (the bound of math/transcendental).
	{Name: "complex/cmplx_special", Kernel: complexSpecial, Grid: grid1(n1, 128), Block: cuda.Dim1(128), MathULP: 16, Devmath: true, Args: func() []any {
		return []any{edgeC128(n1, 4), zeros[int32](n1), zc128(n1), zc128(n1), zc128(n1), zc128(n1)}
	}},
}
