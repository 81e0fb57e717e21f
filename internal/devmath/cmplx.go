package devmath

import "math"

// Complex arithmetic and math/cmplx for kernels. Each function follows the
// algorithm of Go's runtime (Cdiv128) or of its math/cmplx package, step
// for step, calling this library's real functions (Exp, Sincos, Hypot,
// ...) where Go's call math's: Cdiv128 is Go's division bit for bit, and
// the others differ from Go's math/cmplx only by the ulps between this
// library's real functions and Go's.

// log10E is 1/ln(10), math.Log10E rounded to float64.
const log10E = 1 / 2.30258509299404568401799145468436420760110148862877297603332790

// Cdiv128 returns the real and imaginary parts of (a+bi) / (c+di) as Go's
// runtime complex128div computes them: Smith's algorithm (Commun. ACM
// 5(8), 1962), then C99's G.5.1 fix-ups for infinities and zeros when both
// parts came out NaN. The compiler lowers complex division to a call of it
// (complex64 division widened to complex128 and rounded back, as Go does).
func Cdiv128(a, b, c, d float64) (float64, float64) {
	var e, f float64
	if math.Abs(c) >= math.Abs(d) {
		ratio := d / c
		denom := c + ratio*d
		e = (a + b*ratio) / denom
		f = (b - a*ratio) / denom
	} else {
		ratio := c / d
		denom := d + ratio*c
		e = (a*ratio + b) / denom
		f = (b*ratio - a) / denom
	}
	if math.IsNaN(e) && math.IsNaN(f) {
		inf := math.Inf(1)
		switch {
		case c == 0 && d == 0 && (!math.IsNaN(a) || !math.IsNaN(b)):
			e = math.Copysign(inf, c) * a
			f = math.Copysign(inf, c) * b
		case (math.IsInf(a, 0) || math.IsInf(b, 0)) && isFinite(c) && isFinite(d):
			a = inf2one(a)
			b = inf2one(b)
			e = inf * (a*c + b*d)
			f = inf * (b*c - a*d)
		case (math.IsInf(c, 0) || math.IsInf(d, 0)) && isFinite(a) && isFinite(b):
			c = inf2one(c)
			d = inf2one(d)
			e = 0 * (a*c + b*d)
			f = 0 * (b*c - a*d)
		}
	}
	return e, f
}

func isFinite(x float64) bool { return !math.IsNaN(x - x) }

// inf2one returns a 1 with the sign of f if f is an infinity, else a 0
// with its sign.
func inf2one(f float64) float64 {
	g := 0.0
	if math.IsInf(f, 0) {
		g = 1.0
	}
	return math.Copysign(g, f)
}

// CmplxAbs is cmplx.Abs.
func CmplxAbs(x complex128) float64 { return Hypot(real(x), imag(x)) }

// CmplxPhase is cmplx.Phase.
func CmplxPhase(x complex128) float64 { return Atan2(imag(x), real(x)) }

// CmplxPolar is cmplx.Polar.
func CmplxPolar(x complex128) (float64, float64) { return CmplxAbs(x), CmplxPhase(x) }

// CmplxRect is cmplx.Rect.
func CmplxRect(r, θ float64) complex128 {
	s, c := Sincos(θ)
	return complex(r*c, r*s)
}

// CmplxInf is cmplx.Inf.
func CmplxInf() complex128 {
	inf := math.Inf(1)
	return complex(inf, inf)
}

// CmplxNaN is cmplx.NaN.
func CmplxNaN() complex128 {
	nan := math.NaN()
	return complex(nan, nan)
}

// CmplxIsInf is cmplx.IsInf.
func CmplxIsInf(x complex128) bool {
	return math.IsInf(real(x), 0) || math.IsInf(imag(x), 0)
}

// CmplxIsNaN is cmplx.IsNaN: an infinity in either part makes it false.
func CmplxIsNaN(x complex128) bool {
	switch {
	case math.IsInf(real(x), 0) || math.IsInf(imag(x), 0):
		return false
	case math.IsNaN(real(x)) || math.IsNaN(imag(x)):
		return true
	}
	return false
}

// CmplxExp is cmplx.Exp.
func CmplxExp(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case math.IsInf(re, 0):
		switch {
		case re > 0 && im == 0:
			return x
		case math.IsInf(im, 0) || math.IsNaN(im):
			if re < 0 {
				return complex(0, math.Copysign(0, im))
			}
			return complex(math.Inf(1.0), math.NaN())
		}
	case math.IsNaN(re):
		if im == 0 {
			return complex(math.NaN(), im)
		}
	}
	r := Exp(re)
	s, c := Sincos(im)
	return complex(r*c, r*s)
}

// CmplxLog is cmplx.Log.
func CmplxLog(x complex128) complex128 {
	return complex(Log(CmplxAbs(x)), CmplxPhase(x))
}

// CmplxLog10 is cmplx.Log10.
func CmplxLog10(x complex128) complex128 {
	z := CmplxLog(x)
	return complex(log10E*real(z), log10E*imag(z))
}

// CmplxSqrt is cmplx.Sqrt: scaled so that Hypot neither overflows nor
// loses the low bits of tiny parts.
func CmplxSqrt(x complex128) complex128 {
	if imag(x) == 0 {
		if real(x) == 0 {
			return complex(0, imag(x))
		}
		if real(x) < 0 {
			return complex(0, math.Copysign(math.Sqrt(-real(x)), imag(x)))
		}
		return complex(math.Sqrt(real(x)), imag(x))
	} else if math.IsInf(imag(x), 0) {
		return complex(math.Inf(1.0), imag(x))
	}
	if real(x) == 0 {
		if imag(x) < 0 {
			r := math.Sqrt(-0.5 * imag(x))
			return complex(r, -r)
		}
		r := math.Sqrt(0.5 * imag(x))
		return complex(r, r)
	}
	a := real(x)
	b := imag(x)
	var scale float64
	if math.Abs(a) > 4 || math.Abs(b) > 4 {
		a *= 0.25
		b *= 0.25
		scale = 2
	} else {
		a *= 1.8014398509481984e16 // 2**54
		b *= 1.8014398509481984e16
		scale = 7.450580596923828125e-9 // 2**-27
	}
	r := Hypot(a, b)
	var t float64
	if a > 0 {
		t = math.Sqrt(0.5*r + 0.5*a)
		r = scale * math.Abs((0.5*b)/t)
		t *= scale
	} else {
		r = math.Sqrt(0.5*r - 0.5*a)
		t = scale * math.Abs((0.5*b)/r)
		r *= scale
	}
	if b < 0 {
		return complex(t, -r)
	}
	return complex(t, r)
}

// CmplxPow is cmplx.Pow: 0**y by C99's rules, else exp(y log x) through
// the modulus and the phase.
func CmplxPow(x, y complex128) complex128 {
	if x == 0 {
		if CmplxIsNaN(y) {
			return CmplxNaN()
		}
		r, i := real(y), imag(y)
		switch {
		case r == 0:
			return 1
		case r < 0:
			if i == 0 {
				return complex(math.Inf(1), 0)
			}
			return CmplxInf()
		}
		return 0
	}
	modulus := CmplxAbs(x)
	if modulus == 0 {
		return complex(0, 0)
	}
	r := Pow(modulus, real(y))
	arg := CmplxPhase(x)
	theta := real(y) * arg
	if imag(y) != 0 {
		r *= Exp(-imag(y) * arg)
		theta += imag(y) * Log(modulus)
	}
	s, c := Sincos(theta)
	return complex(r*c, r*s)
}

// CmplxSin is cmplx.Sin.
func CmplxSin(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case im == 0 && (math.IsInf(re, 0) || math.IsNaN(re)):
		return complex(math.NaN(), im)
	case math.IsInf(im, 0):
		switch {
		case re == 0:
			return x
		case math.IsInf(re, 0) || math.IsNaN(re):
			return complex(math.NaN(), im)
		}
	case re == 0 && math.IsNaN(im):
		return x
	}
	s, c := Sincos(re)
	sh, ch := sinhcosh(im)
	return complex(s*ch, c*sh)
}

// CmplxSinh is cmplx.Sinh.
func CmplxSinh(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case re == 0 && (math.IsInf(im, 0) || math.IsNaN(im)):
		return complex(re, math.NaN())
	case math.IsInf(re, 0):
		switch {
		case im == 0:
			return complex(re, im)
		case math.IsInf(im, 0) || math.IsNaN(im):
			return complex(re, math.NaN())
		}
	case im == 0 && math.IsNaN(re):
		return complex(math.NaN(), im)
	}
	s, c := Sincos(im)
	sh, ch := sinhcosh(re)
	return complex(c*sh, s*ch)
}

// CmplxCos is cmplx.Cos.
func CmplxCos(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case im == 0 && (math.IsInf(re, 0) || math.IsNaN(re)):
		return complex(math.NaN(), -im*math.Copysign(0, re))
	case math.IsInf(im, 0):
		switch {
		case re == 0:
			return complex(math.Inf(1), -re*math.Copysign(0, im))
		case math.IsInf(re, 0) || math.IsNaN(re):
			return complex(math.Inf(1), math.NaN())
		}
	case re == 0 && math.IsNaN(im):
		return complex(math.NaN(), 0)
	}
	s, c := Sincos(re)
	sh, ch := sinhcosh(im)
	return complex(c*ch, -s*sh)
}

// CmplxCosh is cmplx.Cosh.
func CmplxCosh(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case re == 0 && (math.IsInf(im, 0) || math.IsNaN(im)):
		return complex(math.NaN(), re*math.Copysign(0, im))
	case math.IsInf(re, 0):
		switch {
		case im == 0:
			return complex(math.Inf(1), im*math.Copysign(0, re))
		case math.IsInf(im, 0) || math.IsNaN(im):
			return complex(math.Inf(1), math.NaN())
		}
	case im == 0 && math.IsNaN(re):
		return complex(math.NaN(), im)
	}
	s, c := Sincos(im)
	sh, ch := sinhcosh(re)
	return complex(c*ch, s*sh)
}

// CmplxTanh is cmplx.Tanh.
func CmplxTanh(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case math.IsInf(re, 0):
		if math.IsInf(im, 0) || math.IsNaN(im) {
			return complex(math.Copysign(1, re), math.Copysign(0, im))
		}
		return complex(math.Copysign(1, re), math.Copysign(0, Sin(2*im)))
	case im == 0 && math.IsNaN(re):
		return x
	}
	d := Cosh(2*re) + Cos(2*im)
	if d == 0 {
		return CmplxInf()
	}
	return complex(Sinh(2*re)/d, Sin(2*im)/d)
}

// sinhcosh returns sinh(x) and cosh(x), from one Exp beyond |x| = 0.5.
func sinhcosh(x float64) (float64, float64) {
	if math.Abs(x) <= 0.5 {
		return Sinh(x), Cosh(x)
	}
	e := Exp(x)
	ei := 0.5 / e
	e *= 0.5
	return e - ei, e + ei
}

// CmplxAsin is cmplx.Asin: -i log(ix + sqrt(1 - x*x)).
func CmplxAsin(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case im == 0 && math.Abs(re) <= 1:
		return complex(Asin(re), im)
	case re == 0 && math.Abs(im) <= 1:
		return complex(re, Asinh(im))
	case math.IsNaN(im):
		switch {
		case re == 0:
			return complex(re, math.NaN())
		case math.IsInf(re, 0):
			return complex(math.NaN(), re)
		}
		return CmplxNaN()
	case math.IsInf(im, 0):
		switch {
		case math.IsNaN(re):
			return x
		case math.IsInf(re, 0):
			return complex(math.Copysign(math.Pi/4, re), im)
		}
		return complex(math.Copysign(0, re), im)
	case math.IsInf(re, 0):
		return complex(math.Copysign(math.Pi/2, re), math.Copysign(re, im))
	}
	ct := complex(-im, re)
	xx := x * x
	x1 := complex(1-real(xx), -imag(xx))
	x2 := CmplxSqrt(x1)
	w := CmplxLog(ct + x2)
	return complex(imag(w), -real(w))
}

// CmplxAsinh is cmplx.Asinh: log(x + sqrt(1 + x*x)).
func CmplxAsinh(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case im == 0 && math.Abs(re) <= 1:
		return complex(Asinh(re), im)
	case re == 0 && math.Abs(im) <= 1:
		return complex(re, Asin(im))
	case math.IsInf(re, 0):
		switch {
		case math.IsInf(im, 0):
			return complex(re, math.Copysign(math.Pi/4, im))
		case math.IsNaN(im):
			return x
		}
		return complex(re, math.Copysign(0.0, im))
	case math.IsNaN(re):
		switch {
		case im == 0:
			return x
		case math.IsInf(im, 0):
			return complex(im, re)
		}
		return CmplxNaN()
	case math.IsInf(im, 0):
		return complex(math.Copysign(im, re), math.Copysign(math.Pi/2, im))
	}
	xx := x * x
	x1 := complex(1+real(xx), imag(xx))
	return CmplxLog(x + CmplxSqrt(x1))
}

// CmplxAcos is cmplx.Acos: π/2 - Asin(x).
func CmplxAcos(x complex128) complex128 {
	w := CmplxAsin(x)
	return complex(math.Pi/2-real(w), -imag(w))
}

// CmplxAcosh is cmplx.Acosh: ±i Acos(x), the sign making the real part
// non-negative.
func CmplxAcosh(x complex128) complex128 {
	if x == 0 {
		return complex(0, math.Copysign(math.Pi/2, imag(x)))
	}
	w := CmplxAcos(x)
	if imag(w) <= 0 {
		return complex(-imag(w), real(w))
	}
	return complex(imag(w), -real(w))
}

// CmplxTan is cmplx.Tan: (sin 2x + i sinh 2y) / (cos 2x + cosh 2y), the
// denominator from a Taylor series where it is small (near the real axis
// at odd multiples of π/2).
func CmplxTan(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case math.IsInf(im, 0):
		if math.IsInf(re, 0) || math.IsNaN(re) {
			return complex(math.Copysign(0, re), math.Copysign(1, im))
		}
		return complex(math.Copysign(0, Sin(2*re)), math.Copysign(1, im))
	case re == 0 && math.IsNaN(im):
		return x
	}
	d := Cos(2*re) + Cosh(2*im)
	if math.Abs(d) < 0.25 {
		d = tanSeries(x)
	}
	if d == 0 {
		return CmplxInf()
	}
	return complex(Sin(2*re)/d, Sinh(2*im)/d)
}

// CmplxCot is cmplx.Cot: (sin 2x - i sinh 2y) / (cosh 2y - cos 2x), the
// denominator from a Taylor series where it is small.
func CmplxCot(x complex128) complex128 {
	re, im := real(x), imag(x)
	d := Cosh(2*im) - Cos(2*re)
	if math.Abs(d) < 0.25 {
		d = tanSeries(x)
	}
	if d == 0 {
		return CmplxInf()
	}
	return complex(Sin(2*re)/d, -Sinh(2*im)/d)
}

// CmplxAtan is cmplx.Atan: real part ½·atan2(2x, 1-x²-y²) brought into
// (-π/2, π/2], imaginary part ¼·log(((y+1)²+x²) / ((y-1)²+x²)).
func CmplxAtan(x complex128) complex128 {
	re, im := real(x), imag(x)
	switch {
	case im == 0:
		return complex(Atan(re), im)
	case re == 0 && math.Abs(im) <= 1:
		return complex(re, Atanh(im))
	case math.IsInf(im, 0) || math.IsInf(re, 0):
		if math.IsNaN(re) {
			return complex(math.NaN(), math.Copysign(0, im))
		}
		return complex(math.Copysign(math.Pi/2, re), math.Copysign(0, im))
	case math.IsNaN(re) || math.IsNaN(im):
		return CmplxNaN()
	}
	x2 := re * re
	a := 1 - x2 - im*im
	if a == 0 {
		return CmplxNaN()
	}
	w := reducePi(0.5 * Atan2(2*re, a))
	t := im - 1
	b := x2 + t*t
	if b == 0 {
		return CmplxNaN()
	}
	t = im + 1
	c := (x2 + t*t) / b
	return complex(w, 0.25*Log(c))
}

// CmplxAtanh is cmplx.Atanh: -i Atan(ix).
func CmplxAtanh(x complex128) complex128 {
	z := CmplxAtan(complex(-imag(x), real(x)))
	return complex(imag(z), -real(z))
}

// reducePi returns x mod π in (-π/2, π/2] as Go's math/cmplx computes it
// for x >= 0 (and for the |x| < π/2 Atan passes): below 2**30 Cody-Waite
// with π in three parts, the multiple truncated as Go truncates it, which
// is Go's result bit for bit; above, this library's Payne-Hanek reduction
// modulo π/2 (payneHanek, good to the last bit where Go's keeps 53 bits of
// the fraction before multiplying by π), the odd quadrants folded by π/2.
func reducePi(x float64) float64 {
	const (
		reduceThreshold = 1 << 30
		// π = pi1 + pi2 + pi3: pi1 and pi2 have 30 and 32 trailing zero
		// bits, so t*pi1 and t*pi2 are exact for t < 2**30.
		pi1 = 0x1.921fb4p+1         // 0x400921fb40000000
		pi2 = 0x1.4442dp-23         // 0x3e84442d00000000
		pi3 = 0x1.8469898cc5170p-47 // 0x3d08469898cc5170
	)
	if math.Abs(x) < reduceThreshold {
		t := x/math.Pi + 0.5
		t = float64(int64(t))
		return ((x - t*pi1) - t*pi2) - t*pi3
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	n, rh, rl := payneHanek(x)
	if n&1 == 0 {
		return rh + rl
	}
	// Odd multiple of π/2: r ± π/2 lands in (-π/2, π/2].
	if rh > 0 {
		return (rh - pio2Hi) + (rl - pio2Mid)
	}
	return (rh + pio2Hi) + (rl + pio2Mid)
}

// tanSeries is Go's Taylor series for cosh(2y) - cos(2x), summed until a
// term adds less than 2**-53 relative.
func tanSeries(z complex128) float64 {
	const machEp = 1.0 / (1 << 53)
	x := reducePi(math.Abs(2 * real(z)))
	y := math.Abs(2 * imag(z))
	x *= x
	y *= y
	x2, y2, f, rn, d := 1.0, 1.0, 1.0, 0.0, 0.0
	for {
		rn++
		f *= rn
		rn++
		f *= rn
		x2 *= x
		y2 *= y
		t := (y2 + x2) / f
		d += t

		rn++
		f *= rn
		rn++
		f *= rn
		x2 *= x
		y2 *= y
		t = (y2 - x2) / f
		d += t
		// !(>) rather than <=: a NaN ratio ends the loop (Go's issue 17577).
		if !(math.Abs(t/d) > machEp) {
			return d
		}
	}
}
