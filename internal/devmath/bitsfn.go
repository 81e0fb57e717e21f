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

// Nextafter returns the next representable float64 value after x towards
// y. Special cases as Go's math.Nextafter: Nextafter(x, x) = x,
// Nextafter(NaN, y) = NaN, Nextafter(x, NaN) = NaN.
func Nextafter(x, y float64) (r float64) {
	switch {
	case x != x || y != y:
		return math.NaN()
	case x == y:
		return x
	case x == 0:
		return math.Copysign(math.Float64frombits(1), y)
	case (y > x) == (x > 0):
		return math.Float64frombits(math.Float64bits(x) + 1)
	}
	return math.Float64frombits(math.Float64bits(x) - 1)
}

// Nextafter32 returns the next representable float32 value after x
// towards y. Special cases as Go's math.Nextafter32.
func Nextafter32(x, y float32) (r float32) {
	switch {
	case x != x || y != y:
		return nan32()
	case x == y:
		return x
	case x == 0:
		return copysign32(math.Float32frombits(1), y)
	case (y > x) == (x > 0):
		return math.Float32frombits(math.Float32bits(x) + 1)
	}
	return math.Float32frombits(math.Float32bits(x) - 1)
}

// Logb returns the binary exponent of x. Special cases as Go's math.Logb:
// Logb(±Inf) = +Inf, Logb(0) = -Inf, Logb(NaN) = NaN.
func Logb(x float64) float64 {
	switch {
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 0):
		return math.Inf(1)
	case x != x:
		return x
	}
	_, e := frexp(x)
	return float64(e)
}

// Ilogb returns the binary exponent of x as an integer. Special cases as
// Go's math.Ilogb: Ilogb(±Inf) = MaxInt32, Ilogb(0) = MinInt32,
// Ilogb(NaN) = MaxInt32.
func Ilogb(x float64) int {
	switch {
	case x == 0:
		return math.MinInt32
	case x != x || math.IsInf(x, 0):
		return math.MaxInt32
	}
	_, e := frexp(x)
	return e
}

// Pow10 returns 10**n, within 1 ulp (Go's math.Pow10 can be 2 ulp off).
// Special cases as Go's math.Pow10: Pow10(n) = 0 for n < -323,
// Pow10(n) = +Inf for n > 308.
func Pow10(n int) float64 {
	switch {
	case n < -323:
		return 0
	case n > 308:
		return math.Inf(1)
	}
	return Pow(10, float64(n))
}
