package devmath

import "math"

// pio2Lo1 completes pi/2 as a double-double: pio2Hi + pio2Lo1.
const pio2Lo1 = pio2Mid

// atanDD returns atan(qh+ql) as a double-double for 0 <= qh <= 1.
// With c = j/8 nearest q, atan(q) = atan(c) + atan(t), t = (q-c)/(1+q*c),
// |t| <= 1/16; atan(c) comes from atanTH/atanTL.
func atanDD(qh, ql float64) (float64, float64) {
	j := int(qh*8 + 0.5)
	th, tl := qh, ql
	if j != 0 {
		c := float64(j) * 0.125
		nh, nl := twoSum(qh-c, ql) // qh-c is exact (Sterbenz)
		p, pe := twoProd(qh, c)
		d, de := fastTwoSum(1, p)
		de += pe + ql*c
		th, tl = ddDiv(nh, nl, d, de)
	}
	z := th * th
	p := 1.0 / 17
	p = p*z - 1.0/15
	p = p*z + 1.0/13
	p = p*z - 1.0/11
	p = p*z + 1.0/9
	p = p*z - 1.0/7
	p = p*z + 1.0/5
	p = p*z - 1.0/3
	s, e := twoSum(atanTH[j], th)
	e += atanTL[j] + tl + th*z*p
	return fastTwoSum(s, e)
}

// atan2DD returns atan((ah+al)/(bh+bl)) in [0, pi/2] as a double-double,
// for a, b >= 0 finite, not both zero.
func atan2DD(ah, al, bh, bl float64) (float64, float64) {
	if bh == 0 {
		return pio2Hi, pio2Lo1
	}
	if ah <= bh {
		qh, ql := ddDiv(ah, al, bh, bl)
		if qh < 0x1p-900 {
			// atan q = q; the low part would be noise among subnormals
			return ah / bh, 0
		}
		return atanDD(qh, ql)
	}
	qh, ql := ddDiv(bh, bl, ah, al)
	h, l := atanDD(qh, ql)
	return ddAdd(pio2Hi, pio2Lo1, -h, -l)
}

// Atan returns the arctangent, in radians, of x. Special cases as Go's
// math.Atan: Atan(±0) = ±0, Atan(±Inf) = ±Pi/2.
func Atan(x float64) float64 {
	if x == 0 || x != x {
		return x
	}
	a := math.Abs(x)
	var h, l float64
	switch {
	case math.IsInf(x, 0):
		h, l = pio2Hi, 0
	case a <= 1:
		h, l = atanDD(a, 0)
	default:
		q := 1 / a
		ql := math.FMA(-q, a, 1) / a
		h, l = atanDD(q, ql)
		h, l = ddAdd(pio2Hi, pio2Lo1, -h, -l)
	}
	return math.Copysign(h+l, x)
}

// atan2Special returns Atan2(y, x) and true where a special case applies.
func atan2Special(y, x float64) (float64, bool) {
	switch {
	case x != x || y != y:
		return math.NaN(), true
	case y == 0:
		if x >= 0 && !math.Signbit(x) {
			return math.Copysign(0, y), true
		}
		return math.Copysign(math.Pi, y), true
	case x == 0:
		return math.Copysign(math.Pi/2, y), true
	case math.IsInf(x, 0):
		if math.IsInf(x, 1) {
			if math.IsInf(y, 0) {
				return math.Copysign(math.Pi/4, y), true
			}
			return math.Copysign(0, y), true
		}
		if math.IsInf(y, 0) {
			return math.Copysign(3*math.Pi/4, y), true
		}
		return math.Copysign(math.Pi, y), true
	case math.IsInf(y, 0):
		return math.Copysign(math.Pi/2, y), true
	}
	return 0, false
}

// Atan2 returns the arc tangent of y/x, using the signs of the two to
// determine the quadrant of the return value. Special cases as Go's
// math.Atan2 (in order):
//
//	Atan2(y, NaN) = NaN
//	Atan2(NaN, x) = NaN
//	Atan2(+0, x>=0) = +0
//	Atan2(-0, x>=0) = -0
//	Atan2(+0, x<=-0) = +Pi
//	Atan2(-0, x<=-0) = -Pi
//	Atan2(y>0, 0) = +Pi/2
//	Atan2(y<0, 0) = -Pi/2
//	Atan2(+Inf, +Inf) = +Pi/4
//	Atan2(-Inf, +Inf) = -Pi/4
//	Atan2(+Inf, -Inf) = 3Pi/4
//	Atan2(-Inf, -Inf) = -3Pi/4
//	Atan2(y, +Inf) = 0
//	Atan2(y>0, -Inf) = +Pi
//	Atan2(y<0, -Inf) = -Pi
//	Atan2(+Inf, x) = +Pi/2
//	Atan2(-Inf, x) = -Pi/2
func Atan2(y, x float64) float64 {
	if v, ok := atan2Special(y, x); ok {
		return v
	}
	h, l := atan2DD(math.Abs(y), 0, math.Abs(x), 0)
	if x < 0 {
		h, l = ddAdd(piHi, piLo, -h, -l)
	}
	return math.Copysign(h+l, y)
}

// sqrt1mx2 returns sqrt(1-a*a) as a double-double for 0 <= a < 1.
func sqrt1mx2(a float64) (float64, float64) {
	p, pe := twoProd(a, a)
	d, de := twoSum(1, -p)
	de -= pe
	d, de = fastTwoSum(d, de)
	return ddSqrt(d, de)
}

// Asin returns the arcsine, in radians, of x. Special cases as Go's
// math.Asin: Asin(±0) = ±0, Asin(x) = NaN if x < -1 or x > 1.
func Asin(x float64) float64 {
	if x == 0 || x != x {
		return x
	}
	a := math.Abs(x)
	switch {
	case a > 1:
		return math.NaN()
	case a == 1:
		return math.Copysign(math.Pi/2, x)
	}
	sh, sl := sqrt1mx2(a)
	h, l := atan2DD(a, 0, sh, sl)
	return math.Copysign(h+l, x)
}

// Acos returns the arccosine, in radians, of x. Special case as Go's
// math.Acos: Acos(x) = NaN if x < -1 or x > 1.
func Acos(x float64) float64 {
	a := math.Abs(x)
	switch {
	case x != x || a > 1:
		return math.NaN()
	case x == 1:
		return 0
	case x == -1:
		return math.Pi
	}
	sh, sl := sqrt1mx2(a)
	h, l := atan2DD(sh, sl, a, 0)
	if x < 0 {
		h, l = ddAdd(piHi, piLo, -h, -l)
	}
	return h + l
}
