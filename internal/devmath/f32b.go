package devmath

import "math"

// Float32 functions computed in float64 (their results need more than
// float32 precision inside), with short float64 kernels: errors of a few
// float64 ulp are far below a float32 ulp.

// expS returns e**x with a relative error below 2**-50, |x| <= 745.
func expS(x float64) float64 {
	kf := rint(x * log2e)
	r := math.FMA(-kf, ln2Hi, x) - kf*ln2Lo
	p := 1.0 / 39916800
	p = p*r + 1.0/3628800
	p = p*r + 1.0/362880
	p = p*r + 1.0/40320
	p = p*r + 1.0/5040
	p = p*r + 1.0/720
	p = p*r + 1.0/120
	p = p*r + 1.0/24
	p = p*r + 1.0/6
	p = p*r + 0.5
	return scale(1+(r+r*r*p), int(kf))
}

// expm1S returns e**x - 1 with a relative error below 2**-50, |x| <= 745.
func expm1S(x float64) float64 {
	if math.Abs(x) > 0.34 {
		return expS(x) - 1
	}
	p := 1.0 / 479001600
	p = p*x + 1.0/39916800
	p = p*x + 1.0/3628800
	p = p*x + 1.0/362880
	p = p*x + 1.0/40320
	p = p*x + 1.0/5040
	p = p*x + 1.0/720
	p = p*x + 1.0/120
	p = p*x + 1.0/24
	p = p*x + 1.0/6
	p = p*x + 0.5
	return x + x*x*p
}

// logS returns log(x) for x > 0 finite (normal) with an absolute error
// below 2**-52 near 1 and a relative one below 2**-51 elsewhere.
func logS(x float64) float64 {
	b := math.Float64bits(x)
	k := int(b>>52) - 1023
	j := int((b>>44)&0xff+1) >> 1
	m := math.Float64frombits(b&mantMask | expOneBit)
	r := math.FMA(m, logC[j], -1)
	p := -1.0 / 6
	p = p*r + 1.0/5
	p = p*r - 1.0/4
	p = p*r + 1.0/3
	p = p*r - 0.5
	kf := float64(k)
	return kf*ln2Hi + (logTH[j] + (r + r*r*p + (kf*ln2Lo + logTL[j])))
}

// log1pS returns log(1+v) for v > -1 finite, as logS.
func log1pS(v float64) float64 {
	u := 1 + v
	c := (v - (u - 1)) / u
	if u > 0x1p54 {
		c = 0
	}
	return logS(u) + c
}

// atanS returns atan(q) for 0 <= q <= 1, relative error below 2**-50.
func atanS(q float64) float64 {
	j := int(q*8 + 0.5)
	t := q
	if j != 0 {
		c := float64(j) * 0.125
		t = (q - c) / (1 + q*c)
	}
	z := t * t
	p := 1.0 / 13
	p = p*z - 1.0/11
	p = p*z + 1.0/9
	p = p*z - 1.0/7
	p = p*z + 1.0/5
	p = p*z - 1.0/3
	return atanTH[j] + (t + (t*z*p + atanTL[j]))
}

// atan2S returns atan(a/b) in [0, pi/2] for a, b >= 0 finite, not both 0.
func atan2S(a, b float64) float64 {
	if a <= b {
		return atanS(a / b)
	}
	return pio2Hi - (atanS(b/a) - pio2Lo1)
}

// Asin32 returns the arcsine of x. Special cases as Asin.
func Asin32(x float32) float32 {
	if x == 0 || x != x {
		return x
	}
	a := math.Abs(float64(x))
	if a > 1 {
		return nan32()
	}
	s := math.Sqrt(1 - a*a) // 1-a*a is exact for float32 a
	return copysign32(float32(atan2S(a, s)), x)
}

// Acos32 returns the arccosine of x. Special cases as Acos.
func Acos32(x float32) float32 {
	xd := float64(x)
	a := math.Abs(xd)
	if x != x || a > 1 {
		return nan32()
	}
	v := atan2S(math.Sqrt(1-a*a), a)
	if xd < 0 {
		v = piHi - (v - piLo)
	}
	return float32(v)
}

// Sinh32 returns the hyperbolic sine of x. Special cases as Sinh.
func Sinh32(x float32) float32 {
	a := math.Abs(float64(x))
	switch {
	case a < 0x1p-12 || x != x || isInf32(x):
		return x
	case a > 100:
		return copysign32(inf32(1), x)
	case a < 1:
		z := a * a
		p := 1.0 / 39916800
		p = p*z + 1.0/362880
		p = p*z + 1.0/5040
		p = p*z + 1.0/120
		p = p*z + 1.0/6
		return copysign32(float32(a+a*z*p), x)
	}
	e := expS(a)
	return copysign32(float32(0.5*(e-1/e)), x)
}

// Asinh32 returns the inverse hyperbolic sine of x. Special cases as Asinh.
func Asinh32(x float32) float32 {
	a := math.Abs(float64(x))
	switch {
	case a < 0x1p-12 || x != x || isInf32(x):
		return x
	case a > 0x1p20:
		return copysign32(float32(logS(a)+ln2Hi), x)
	}
	// asinh a = log1p(a + a*a/(1+sqrt(1+a*a)))
	z := a * a
	return copysign32(float32(log1pS(a+z/(1+math.Sqrt(1+z)))), x)
}

// Acosh32 returns the inverse hyperbolic cosine of x. Special cases as
// Acosh.
func Acosh32(x float32) float32 {
	xd := float64(x)
	switch {
	case x != x || isInf32(x) && x > 0:
		return x
	case xd < 1:
		return nan32()
	case xd > 0x1p20:
		return float32(logS(xd) + ln2Hi)
	}
	t := xd - 1 // exact
	return float32(log1pS(t + math.Sqrt(t*(xd+1))))
}

// Atanh32 returns the inverse hyperbolic tangent of x. Special cases as
// Atanh.
func Atanh32(x float32) float32 {
	a := math.Abs(float64(x))
	switch {
	case a < 0x1p-12 || x != x:
		return x
	case a > 1:
		return nan32()
	case a == 1:
		return copysign32(inf32(1), x)
	}
	return copysign32(float32(0.5*log1pS(2*a/(1-a))), x)
}

// Pow32 returns x**y. Special cases as Pow.
func Pow32(x, y float32) float32 {
	xd, yd := float64(x), float64(y)
	if v, ok := powSpecial(xd, yd); ok {
		return float32(v)
	}
	sign := 1.0
	if xd < 0 {
		if math.Trunc(yd) != yd {
			return nan32()
		}
		if isOddInt(yd) {
			sign = -1
		}
		xd = -xd
	}
	if yd == math.Trunc(yd) && math.Abs(yd) <= 1<<20 {
		// Exact results must round once (ties to even): try the exact
		// product first.
		if v, ok := powIntExact(xd, int(yd)); ok {
			return float32(sign * v)
		}
	}
	z := yd * logS(xd)
	switch {
	case z > 89:
		return float32(sign * math.Inf(1))
	case z < -104:
		return float32(sign * 0)
	}
	return float32(sign * expS(z))
}

// powIntExact returns x**n and true when it can be computed exactly in
// float64 (x > 0 finite, |n| <= 2**20): a power of two, or 0 < n <= 64 with
// every product of the binary powering exact.
func powIntExact(x float64, n int) (float64, bool) {
	b := math.Float64bits(x)
	if b&mantMask == 0 && b>>52 != 0 { // a normal power of two
		e := int(b>>52) - 1023
		return scale(1, e*n), true
	}
	if n <= 0 || n > 64 {
		return 0, false
	}
	r := 1.0
	for n > 0 {
		if n&1 != 0 {
			p := r * x
			if math.FMA(r, x, -p) != 0 || p > 0x1p1000 {
				return 0, false
			}
			r = p
		}
		n >>= 1
		if n > 0 {
			p := x * x
			if math.FMA(x, x, -p) != 0 || p > 0x1p1000 {
				return 0, false
			}
			x = p
		}
	}
	return r, true
}

// Hypot32 returns Sqrt(p*p + q*q). Special cases as Hypot.
func Hypot32(p, q float32) float32 {
	switch {
	case isInf32(p) || isInf32(q):
		return inf32(1)
	case p != p || q != q:
		return nan32()
	}
	a, b := float64(p), float64(q)
	return float32(math.Sqrt(a*a + b*b))
}

// Cbrt32 returns the cube root of x. Special cases as Cbrt.
func Cbrt32(x float32) float32 {
	if x == 0 || x != x || isInf32(x) {
		return x
	}
	m, e := frexp(math.Abs(float64(x)))
	q := (e+300)/3 - 100
	m = scale(m, e-3*q)
	y := 0.8 + 0.16*m
	for i := 0; i < 3; i++ {
		y3 := y * y * y
		y = y * (y3 + 2*m) / (2*y3 + m)
	}
	return copysign32(float32(scale(y, q)), x)
}

// Mod32 returns the floating-point remainder of x/y, exactly. Special
// cases as Mod.
func Mod32(x, y float32) float32 { return float32(Mod(float64(x), float64(y))) }

// Remainder32 returns the IEEE 754 remainder of x/y, exactly. Special
// cases as Remainder.
func Remainder32(x, y float32) float32 {
	return float32(Remainder(float64(x), float64(y)))
}

// Erf32 returns the error function of x. Special cases as Erf.
func Erf32(x float32) float32 {
	xd := float64(x)
	a := math.Abs(xd)
	switch {
	case x != x:
		return x
	case a >= 4:
		return copysign32(1, x)
	case a < 1:
		return float32(erf32Small(xd))
	}
	return copysign32(float32(1-erfc32Large(a)), x)
}

// Erfc32 returns the complementary error function of x. Special cases as
// Erfc.
func Erfc32(x float32) float32 {
	xd := float64(x)
	switch {
	case x != x:
		return x
	case xd >= 10.1:
		return 0
	case xd <= -4:
		return 2
	case xd < -0.5:
		return float32(2 - erfc32Large(-xd))
	case xd < 0.5:
		return float32(1 - erf32Small(xd))
	}
	return float32(erfc32Large(xd))
}

// Round32 returns the nearest integer, rounding half away from zero.
// Special cases as Round.
func Round32(x float32) float32 {
	b := math.Float32bits(x)
	e := int(b>>23)&0xff - 127
	switch {
	case e < -1:
		return math.Float32frombits(b & f32Sign)
	case e == -1:
		return math.Float32frombits(b&f32Sign | expOneF)
	case e >= 23:
		return x
	}
	b += 1 << uint(22-e)
	b &^= 1<<uint(23-e) - 1
	return math.Float32frombits(b)
}

// erf32Small returns erf(x) for |x| < 1 (float64, relative error < 2**-36).
func erf32Small(x float64) float64 {
	z := x * x
	p := erf32Coef[0]
	for i := 1; i < len(erf32Coef); i++ {
		p = p*z + erf32Coef[i]
	}
	return x * p
}

// erfc32Large returns erfc(x) for 0.5 <= x < 10.1 (float64, relative error
// < 2**-34): exp(-x*x) times the fit of erfc32Coef.
func erfc32Large(x float64) float64 {
	i := 0
	for i < len(erfc32Mid)-1 && x >= erfc32Lo[i+1] {
		i++
	}
	t := (x - erfc32Mid[i]) * erfc32InvHalf[i]
	g := erfc32Coef[erfc32Off[i]]
	for k := erfc32Off[i] + 1; k < erfc32Off[i+1]; k++ {
		g = g*t + erfc32Coef[k]
	}
	return expS(-x*x) * g // x*x is exact for float32 x
}
