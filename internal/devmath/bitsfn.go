package devmath

import "math"

// Frexp breaks f into a normalized fraction and an integral power of two:
// f == frac × 2**exp, |frac| in [½, 1). Special cases as Go's math.Frexp:
// Frexp(±0) = ±0, 0; Frexp(±Inf) = ±Inf, 0; Frexp(NaN) = NaN, 0.
func Frexp(f float64) (frac float64, exp int) {
	if f == 0 || f != f || math.IsInf(f, 0) {
		return f, 0
	}
	m, e := frexp(f)
	return m * 0.5, e + 1
}

// Ldexp returns frac × 2**exp, rounded once. Special cases as Go's
// math.Ldexp: Ldexp(±0, exp) = ±0, Ldexp(±Inf, exp) = ±Inf,
// Ldexp(NaN, exp) = NaN.
func Ldexp(frac float64, exp int) float64 {
	if frac == 0 || frac != frac || math.IsInf(frac, 0) {
		return frac
	}
	m, e := frexp(frac)
	k := exp + e
	if k > 2200 {
		k = 2200
	} else if k < -2200 {
		k = -2200
	}
	return scale(m, k)
}

// Modf returns integer and fractional floating-point numbers that sum to f;
// both have f's sign. Special cases as Go's math.Modf: Modf(±Inf) = ±Inf,
// NaN; Modf(NaN) = NaN, NaN.
func Modf(f float64) (integer float64, fractional float64) {
	if math.Abs(f) < 1 {
		return math.Copysign(0, f), f
	}
	i := math.Trunc(f)
	return i, math.Copysign(f-i, f)
}

// Frexp32 is Frexp for float32.
func Frexp32(f float32) (frac float32, exp int) {
	fr, e := Frexp(float64(f))
	return float32(fr), e
}

// Ldexp32 is Ldexp for float32, rounded once.
func Ldexp32(frac float32, exp int) float32 {
	if exp > 400 {
		exp = 400
	} else if exp < -400 {
		exp = -400
	}
	return float32(Ldexp(float64(frac), exp))
}

// Modf32 is Modf for float32.
func Modf32(f float32) (integer float32, fractional float32) {
	i, fr := Modf(float64(f))
	return float32(i), float32(fr)
}
