package devmath

import (
	"math"
	"math/cmplx"
	"math/rand"
	"testing"
)

// sameBits reports whether two floats are equal bit for bit, any NaN
// matching any NaN.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

// Cdiv128 is Go's complex128 division bit for bit: on every pair of edge
// values (zeros of both signs, infinities, NaN, subnormals, huge) and on
// random operands of wide range.
func TestCdiv128MatchesGo(t *testing.T) {
	edges := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 3, -7.25, 1e-310, -4e-320, 1e300, -1e308,
		math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	var zs []complex128
	for _, re := range edges {
		for _, im := range edges {
			zs = append(zs, complex(re, im))
		}
	}
	r := rand.New(rand.NewSource(1))
	for range 2000 {
		zs = append(zs, complex(math.Ldexp(r.NormFloat64(), r.Intn(200)-100), math.Ldexp(r.NormFloat64(), r.Intn(200)-100)))
	}
	bad := 0
	for _, n := range zs {
		for k, m := range zs {
			if k%7 != 0 && len(zs) > 300 && k > 300 {
				continue // random divisors: a sample suffices
			}
			want := n / m
			e, f := Cdiv128(real(n), imag(n), real(m), imag(m))
			if !sameBits(e, real(want)) || !sameBits(f, imag(want)) {
				if bad++; bad < 10 {
					t.Errorf("(%v) / (%v): got (%v, %v), want %v", n, m, e, f, want)
				}
			}
		}
	}
}

// The cmplx functions give math/cmplx's special values, and ordinary
// values within a few ulp of it (this library's real functions are not
// Go's bit for bit).
func TestCmplxMatchesGo(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	// No subnormals: Go's math.Log is wrong for them on amd64 (see doc.go).
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3.7, 1e-300, 1e300, -1e300, inf, -inf, nan}
	funcs := []struct {
		name      string
		got, want func(complex128) complex128
	}{
		{"Exp", CmplxExp, cmplx.Exp},
		{"Log", CmplxLog, cmplx.Log},
		{"Log10", CmplxLog10, cmplx.Log10},
		{"Sqrt", CmplxSqrt, cmplx.Sqrt},
		{"Sin", CmplxSin, cmplx.Sin},
		{"Cos", CmplxCos, cmplx.Cos},
		{"Sinh", CmplxSinh, cmplx.Sinh},
		{"Cosh", CmplxCosh, cmplx.Cosh},
		{"Tanh", CmplxTanh, cmplx.Tanh},
		{"Tan", CmplxTan, cmplx.Tan},
		{"Cot", CmplxCot, cmplx.Cot},
		{"Atan", CmplxAtan, cmplx.Atan},
		{"Atanh", CmplxAtanh, cmplx.Atanh},
		{"Asin", CmplxAsin, cmplx.Asin},
		{"Acos", CmplxAcos, cmplx.Acos},
		{"Asinh", CmplxAsinh, cmplx.Asinh},
		{"Acosh", CmplxAcosh, cmplx.Acosh},
		{"Pow", func(z complex128) complex128 { return CmplxPow(z, 0.5-1.5i) }, func(z complex128) complex128 { return cmplx.Pow(z, 0.5-1.5i) }},
		{"Pow0", func(z complex128) complex128 { return CmplxPow(0, z) }, func(z complex128) complex128 { return cmplx.Pow(0, z) }},
		{"Rect", func(z complex128) complex128 { return CmplxRect(CmplxPolar(z)) }, func(z complex128) complex128 { return cmplx.Rect(cmplx.Polar(z)) }},
		{"Abs", func(z complex128) complex128 { return complex(CmplxAbs(z), CmplxPhase(z)) }, func(z complex128) complex128 { return complex(cmplx.Abs(z), cmplx.Phase(z)) }},
	}
	close := func(a, b float64) bool {
		if sameBits(a, b) {
			return true
		}
		if a != a || b != b || math.IsInf(a, 0) || math.IsInf(b, 0) || math.Signbit(a) != math.Signbit(b) {
			return false
		}
		d := math.Abs(a - b)
		return d <= 1e-13*math.Abs(b) || d < 1e-300
	}
	for _, fn := range funcs {
		for _, re := range vals {
			for _, im := range vals {
				z := complex(re, im)
				if fn.name == "Pow0" && re != re && math.IsInf(im, 0) {
					continue // Go's Pow(0, y) panics "not reached" for these y
				}
				got, want := fn.got(z), fn.want(z)
				if !close(real(got), real(want)) || !close(imag(got), imag(want)) {
					t.Errorf("%s(%v) = %v, want %v", fn.name, z, got, want)
				}
			}
		}
	}
	if !CmplxIsNaN(complex(nan, 1)) || CmplxIsNaN(complex(nan, inf)) || !CmplxIsInf(complex(nan, inf)) || CmplxIsInf(1) {
		t.Error("IsNaN/IsInf disagree with math/cmplx on (NaN, 1), (NaN, Inf), 1")
	}
	if z := CmplxInf(); !cmplx.IsInf(z) || real(z) != inf || imag(z) != inf {
		t.Errorf("Inf() = %v", z)
	}
	if z := CmplxNaN(); !cmplx.IsNaN(z) {
		t.Errorf("NaN() = %v", z)
	}
}

// Tan and Cot take their denominator from a Taylor series near the real
// axis's poles and zeros, whose argument is reduced modulo π: below 2**30
// as Go reduces it (bit for bit), above with Payne-Hanek. On points near
// k·π/2 for small and huge k, and on Atan's and Atanh's quadrant edges,
// every part is within 1e-12 relative of Go's (or both are tiny), plus
// the conditioning near a pole: an ulp of 2x moves tan or cot by about
// |2x|·2**-53·|w|² (so 1e-15·|x|·|w| relative). Neither library is the
// closer there: sin 2x and the series' reduced argument both carry an ulp
// of a huge 2x (checked against x mod π in 400 bits while writing this).
func TestCmplxTanSeriesMatchesGo(t *testing.T) {
	var zs []complex128
	for _, k := range []float64{1, 2, 3, 7, 1000, 12345, 1 << 29, 1 << 31, 1 << 40, 1e17, 1e300} {
		for _, dx := range []float64{0, 1e-9, -3e-7, 0.01} {
			for _, y := range []float64{0, 1e-8, -0.05, 0.1} {
				x := k*math.Pi/2 + dx
				zs = append(zs, complex(x, y), complex(-x, y), complex(x/2, y))
			}
		}
	}
	for _, re := range []float64{0, 1e-20, -0.3, 0.999} {
		for _, im := range []float64{1, -1, 1 + 1e-15, 0.5, -2, 1e10} {
			zs = append(zs, complex(re, im), complex(im, re))
		}
	}
	var tol float64
	near := func(a, b float64) bool {
		if sameBits(a, b) {
			return true
		}
		d := math.Abs(a - b)
		return d <= tol*math.Abs(b) || d < 1e-300
	}
	funcs := []struct {
		name      string
		got, want func(complex128) complex128
	}{
		{"Tan", CmplxTan, cmplx.Tan},
		{"Cot", CmplxCot, cmplx.Cot},
		{"Atan", CmplxAtan, cmplx.Atan},
		{"Atanh", CmplxAtanh, cmplx.Atanh},
	}
	for _, fn := range funcs {
		for _, z := range zs {
			got, want := fn.got(z), fn.want(z)
			tol = 1e-12 + 1e-15*math.Abs(real(z))*max(cmplx.Abs(want), 1)
			if !near(real(got), real(want)) || !near(imag(got), imag(want)) {
				t.Errorf("%s(%v) = %v, want %v", fn.name, z, got, want)
			}
		}
	}
	// Below 2**30 reducePi is Go's Cody-Waite reduction bit for bit: the
	// series sees the same argument, so a point on the real axis near a
	// pole gives Go's denominator.
	tol = 0
	for _, x := range []float64{math.Pi / 2, 3 * math.Pi / 2, 1001 * math.Pi / 2} {
		if got, want := tanSeries(complex(x, 1e-3)), goTanSeries(complex(x, 1e-3)); !sameBits(got, want) {
			t.Errorf("Tan(%v) = %v, want %v", x, got, want)
		}
	}
}

// goTanSeries is cmplx.Tan's denominator recovered from Go's result: for
// y small and x near a pole, Tan's imaginary part is sinh(2y)/d.
func goTanSeries(z complex128) float64 {
	return math.Sinh(2*imag(z)) / imag(cmplx.Tan(z))
}
