package devmath

import "math"

// halfExp returns e**a/2 for a > 22, where it is sinh(a) and cosh(a) to
// within 2**-63 relative. The halving is part of the final scaling, so the
// result overflows only where e**a/2 does, at asinh(MaxFloat64) =
// 710.4758600739439, not at ln(MaxFloat64) = 709.782712893384 where e**a
// does (Go's math.Sinh and math.Cosh return +Inf from there; CUDA's
// libdevice and Numba do not).
func halfExp(a float64) float64 {
	if a > 711 {
		return math.Inf(1)
	}
	h, l, k := expDD(a, 0)
	return scale(h+l, k-1)
}

// Sinh returns the hyperbolic sine of x. Special cases as Go's math.Sinh:
// Sinh(±0) = ±0, Sinh(±Inf) = ±Inf, Sinh(NaN) = NaN. It overflows at
// |x| > asinh(MaxFloat64), Go's at |x| > ln(MaxFloat64) (see halfExp).
func Sinh(x float64) float64 {
	a := math.Abs(x)
	switch {
	case a < 0x1p-28 || x != x || math.IsInf(x, 0):
		return x
	case a > 22:
		return math.Copysign(halfExp(a), x)
	case a < 1:
		// x + x**3/6 + x**5*(1/120 + ...), the cubic term kept exactly.
		z, zl := twoProd(a, a)
		c3 := a * z
		c3l := math.FMA(a, z, -c3) + a*zl
		const s6h = 0x1.5555555555555p-3 // 1/6 = s6h + s6l
		const s6l = 0x1.5555555555555p-57
		t := c3 * s6h
		tl := math.FMA(c3, s6h, -t) + c3l*s6h + c3*s6l
		s, e := fastTwoSum(a, t)
		p := 1.0 / 121645100408832000
		p = p*z + 1.0/355687428096000
		p = p*z + 1.0/1307674368000
		p = p*z + 1.0/6227020800
		p = p*z + 1.0/39916800
		p = p*z + 1.0/362880
		p = p*z + 1.0/5040
		p = p*z + 1.0/120
		e += tl + c3*z*p
		return math.Copysign(s+e, x)
	}
	h, l, k := expDD(a, 0)
	p := pow2(k)
	h, l = h*p, l*p
	ih, il := ddDiv(1, 0, h, l)
	h, l = ddAdd(h, l, -ih, -il)
	return math.Copysign(0.5*(h+l), x)
}

// Cosh returns the hyperbolic cosine of x. Special cases as Go's math.Cosh:
// Cosh(±0) = 1, Cosh(±Inf) = +Inf, Cosh(NaN) = NaN. It overflows at
// |x| > acosh(MaxFloat64), Go's at |x| > ln(MaxFloat64) (see halfExp).
func Cosh(x float64) float64 {
	a := math.Abs(x)
	switch {
	case x != x:
		return x
	case a > 22:
		return halfExp(a)
	case a < 0x1p-28:
		return 1
	}
	h, l, k := expDD(a, 0)
	p := pow2(k)
	h, l = h*p, l*p
	ih, il := ddDiv(1, 0, h, l)
	h, l = ddAdd(h, l, ih, il)
	return 0.5 * (h + l)
}

// Tanh returns the hyperbolic tangent of x. Special cases as Go's
// math.Tanh: Tanh(±0) = ±0, Tanh(±Inf) = ±1, Tanh(NaN) = NaN.
func Tanh(x float64) float64 {
	a := math.Abs(x)
	switch {
	case a < 0x1p-28 || x != x:
		return x
	case a > 22:
		return math.Copysign(1, x)
	}
	// tanh a = E/(E+2), E = expm1(2a)
	eh, el := expm1DD(2 * a)
	dh, dl := ddAdd(eh, el, 2, 0)
	h, l := ddDiv(eh, el, dh, dl)
	return math.Copysign(h+l, x)
}

// logOfDD returns log(uh+ul) for uh > 0 finite, |ul| <= ulp(uh).
func logOfDD(uh, ul float64) float64 {
	h, l := logDD(uh)
	return h + (l + ul/uh)
}

// Asinh returns the inverse hyperbolic sine of x. Special cases as Go's
// math.Asinh: Asinh(±0) = ±0, Asinh(±Inf) = ±Inf, Asinh(NaN) = NaN.
func Asinh(x float64) float64 {
	a := math.Abs(x)
	switch {
	case a < 0x1p-28 || x != x || math.IsInf(x, 0):
		return x
	case a > 0x1p28:
		h, l := logDD(a)
		h, l = ddAdd(h, l, ln2Hi, ln2Lo)
		return math.Copysign(h+l, x)
	}
	p, pe := twoProd(a, a)
	q, qe := fastTwoSum(1, p)
	if p > 1 {
		q, qe = fastTwoSum(p, 1)
	}
	qe += pe
	sh, sl := ddSqrt(q, qe)
	uh, ul := ddAdd(a, 0, sh, sl)
	return math.Copysign(logOfDD(uh, ul), x)
}

// Acosh returns the inverse hyperbolic cosine of x. Special cases as Go's
// math.Acosh: Acosh(+Inf) = +Inf, Acosh(x) = NaN if x < 1, Acosh(NaN) = NaN.
func Acosh(x float64) float64 {
	switch {
	case x != x || math.IsInf(x, 1):
		return x
	case x < 1:
		return math.NaN()
	case x == 1:
		return 0
	case x > 0x1p28:
		h, l := logDD(x)
		h, l = ddAdd(h, l, ln2Hi, ln2Lo)
		return h + l
	}
	p, pe := twoProd(x, x)
	q, qe := twoSum(p, -1)
	qe += pe
	q, qe = fastTwoSum(q, qe)
	sh, sl := ddSqrt(q, qe)
	uh, ul := ddAdd(x, 0, sh, sl)
	return logOfDD(uh, ul)
}

// Atanh returns the inverse hyperbolic tangent of x. Special cases as Go's
// math.Atanh: Atanh(1) = +Inf, Atanh(±0) = ±0, Atanh(-1) = -Inf,
// Atanh(x) = NaN if x < -1 or x > 1, Atanh(NaN) = NaN.
func Atanh(x float64) float64 {
	a := math.Abs(x)
	switch {
	case a < 0x1p-28 || x != x:
		return x
	case a > 1:
		return math.NaN()
	case a == 1:
		return math.Copysign(math.Inf(1), x)
	}
	nh, nl := fastTwoSum(1, a)
	dh, dl := fastTwoSum(1, -a)
	qh, ql := ddDiv(nh, nl, dh, dl)
	return math.Copysign(0.5*logOfDD(qh, ql), x)
}
