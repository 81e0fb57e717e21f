package devmath

import "math"

// Hypot returns Sqrt(p*p + q*q), taking care to avoid unnecessary overflow
// and underflow. Special cases as Go's math.Hypot: Hypot(±Inf, q) = +Inf,
// Hypot(p, ±Inf) = +Inf, Hypot(NaN, q) = NaN, Hypot(p, NaN) = NaN.
func Hypot(p, q float64) float64 {
	a, b := math.Abs(p), math.Abs(q)
	switch {
	case math.IsInf(a, 1) || math.IsInf(b, 1):
		return math.Inf(1)
	case a != a || b != b:
		return math.NaN()
	}
	if a < b {
		a, b = b, a
	}
	if b == 0 {
		return a
	}
	// Scale a into [1, 2); b shrinks by the same power of two.
	_, e := frexp(a)
	a = scale(a, -e)
	b = scale(b, -e)
	a2, a2e := twoProd(a, a)
	b2, b2e := twoProd(b, b)
	s, se := fastTwoSum(a2, b2)
	se += a2e + b2e
	h, l := ddSqrt(s, se)
	return scale(h+l, e)
}

// Cbrt returns the cube root of x. Special cases as Go's math.Cbrt:
// Cbrt(±0) = ±0, Cbrt(±Inf) = ±Inf, Cbrt(NaN) = NaN.
func Cbrt(x float64) float64 {
	if x == 0 || x != x || math.IsInf(x, 0) {
		return x
	}
	m, e := frexp(math.Abs(x))
	// e = 3q + rem, 0 <= rem < 3 (shifted to divide a positive number).
	q := (e+1200)/3 - 400
	m = scale(m, e-3*q) // m in [1, 8)
	// Initial guess: a line through the ends of [1, 8], then Halley steps
	// y <- y*(y**3 + 2m)/(2y**3 + m), each tripling the correct digits.
	y := 0.8 + 0.16*m
	for i := 0; i < 4; i++ {
		y3 := y * y * y
		y = y * (y3 + 2*m) / (2*y3 + m)
	}
	// Final Newton correction with the residual m - y**3 computed exactly.
	y2, y2e := twoProd(y, y)
	y3, y3e := ddMulF(y2, y2e, y)
	r := (m - y3) - y3e
	y += r / (3 * y2)
	return math.Copysign(scale(y, q), x)
}

// mant returns the integer significand and exponent of finite nonzero a > 0,
// a = m * 2**e with 2**52 <= m < 2**53 (subnormals normalized).
func mant(a float64) (uint64, int) {
	b := math.Float64bits(a)
	ex := int(b >> 52)
	m := b & mantMask
	if ex == 0 {
		// subnormal: shift the leading one up to bit 52
		e := -1074
		for m < 1<<52 {
			m <<= 1
			e--
		}
		return m, e
	}
	return m | 1<<52, ex - 1075
}

// Mod returns the floating-point remainder of x/y, exactly. The magnitude
// of the result is less than y and its sign agrees with that of x. Special
// cases as Go's math.Mod: Mod(±Inf, y) = NaN, Mod(NaN, y) = NaN,
// Mod(x, 0) = NaN, Mod(x, ±Inf) = x, Mod(x, NaN) = NaN.
func Mod(x, y float64) float64 {
	if y == 0 || math.IsInf(x, 0) || x != x || y != y {
		return math.NaN()
	}
	a, b := math.Abs(x), math.Abs(y)
	if a < b || math.IsInf(y, 0) {
		return x
	}
	ma, ea := mant(a)
	mb, eb := mant(b)
	r := ma % mb
	for d := ea - eb; d > 0 && r != 0; {
		s := d
		if s > 11 {
			s = 11
		}
		r = (r << uint(s)) % mb
		d -= s
	}
	if r == 0 {
		return math.Copysign(0, x)
	}
	// The result is a multiple of the smaller ulp below b: exact.
	return math.Copysign(scale(float64(r), eb), x)
}

// Remainder returns the IEEE 754 floating-point remainder of x/y: x - n*y
// with n the integer nearest x/y, ties to even. Special cases as Go's
// math.Remainder: Remainder(±Inf, y) = NaN, Remainder(NaN, y) = NaN,
// Remainder(x, 0) = NaN, Remainder(x, ±Inf) = x, Remainder(x, NaN) = NaN.
func Remainder(x, y float64) float64 {
	if y == 0 || math.IsInf(x, 0) || x != x || y != y {
		return math.NaN()
	}
	if math.IsInf(y, 0) {
		return x
	}
	b := math.Abs(y)
	r := math.Abs(x)
	if b <= math.MaxFloat64/2 {
		r = math.Abs(Mod(r, 2*b)) // r in [0, 2b)
	}
	// Now x/y = 2m + r/b; round r/b to 0, 1 or 2 (ties to even).
	if r >= b {
		r -= b // exact; now compare with b/2 with quotient 1
		if r == 0 {
			return math.Copysign(0, x)
		}
		if gtHalf(r, b, true) {
			r -= b
		}
	} else if gtHalf(r, b, false) {
		r -= b
	}
	if math.Signbit(x) {
		return -r
	}
	return r
}

// gtHalf reports whether r > b/2, or r >= b/2 when tieUp (0 <= r < b).
func gtHalf(r, b float64, tieUp bool) bool {
	var c, d float64
	if b >= 0x1p-1021 {
		c, d = r, 0.5*b
	} else {
		c, d = 2*r, b
	}
	if tieUp {
		return c >= d
	}
	return c > d
}

// Round returns the nearest integer, rounding half away from zero. Special
// cases as Go's math.Round: Round(±0) = ±0, Round(±Inf) = ±Inf,
// Round(NaN) = NaN.
func Round(x float64) float64 {
	b := math.Float64bits(x)
	e := int(b>>52)&0x7ff - 1023
	switch {
	case e < -1:
		return math.Float64frombits(b & (1 << 63)) // ±0
	case e == -1:
		return math.Float64frombits(b&(1<<63) | expOneBit) // ±1
	case e >= 52:
		return x // integer, Inf or NaN
	}
	b += 1 << uint(51-e)
	b &^= 1<<uint(52-e) - 1
	return math.Float64frombits(b)
}
