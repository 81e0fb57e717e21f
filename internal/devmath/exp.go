package devmath

import "math"

const (
	ln2Hi  = 0x1.62e42fefa39efp-1  // ln(2) rounded to float64
	ln2Lo  = 0x1.abc9e3b39803fp-56 // ln(2) - ln2Hi
	log2e  = 0x1.71547652b82fep+0  // 1/ln(2)
	log2eL = 0x1.777d0ffda0d24p-56 // 1/ln(2) - log2e
	rndC   = 0x1.8p52              // adding and subtracting it rounds to an integer
)

// rint rounds x to the nearest integer, ties to even, for |x| < 2**51.
func rint(x float64) float64 {
	return (x + rndC) - rndC
}

// expm1Poly returns e**(rh+rl) - 1 as a double-double for |rh| <= 0.35,
// |rl| <= 2**-50 |rh|: Taylor series to r**14 (truncation < 2**-62 |r|),
// with r + r*r/2 kept exactly.
func expm1Poly(rh, rl float64) (float64, float64) {
	s, se := twoProd(rh, rh)
	a, ae := fastTwoSum(rh, 0.5*s)
	q := 1.0 / 87178291200
	q = q*rh + 1.0/6227020800
	q = q*rh + 1.0/479001600
	q = q*rh + 1.0/39916800
	q = q*rh + 1.0/3628800
	q = q*rh + 1.0/362880
	q = q*rh + 1.0/40320
	q = q*rh + 1.0/5040
	q = q*rh + 1.0/720
	q = q*rh + 1.0/120
	q = q*rh + 1.0/24
	q = q*rh + 1.0/6
	tail := ae + 0.5*se + s*rh*q + rl*(1+a)
	return fastTwoSum(a, tail)
}

// expDD returns k, hi, lo with e**(xh+xl) = 2**k * (hi+lo), 0.7 < hi < 1.42,
// for |xh| <= 750.
func expDD(xh, xl float64) (float64, float64, int) {
	kf := rint(xh * log2e)
	r := math.FMA(-kf, ln2Hi, xh) // exact, see the package notes
	t, te := twoProd(kf, ln2Lo)
	rh, re := twoSum(r, -t)
	rl := re - te + xl
	rh, rl = fastTwoSum(rh, rl)
	p, pl := expm1Poly(rh, rl)
	h, l := fastTwoSum(1, p)
	return h, l + pl, int(kf)
}

// Exp returns e**x. Special cases as Go's math.Exp: Exp(+Inf) = +Inf,
// Exp(NaN) = NaN, Exp(x) = 0 for x below about -745.13, +Inf above about 709.78.
func Exp(x float64) float64 {
	const (
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
	)
	switch {
	case x != x:
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	}
	h, l, k := expDD(x, 0)
	return scale(h+l, k)
}

// Exp2 returns 2**x. Special cases as Go's math.Exp2.
func Exp2(x float64) float64 {
	switch {
	case x != x:
		return x
	case x >= 1024:
		return math.Inf(1)
	case x < -1074:
		return 0
	}
	kf := rint(x)
	r := x - kf
	rh, rl := twoProd(r, ln2Hi)
	rl += r * ln2Lo
	p, pl := expm1Poly(rh, rl)
	h, l := fastTwoSum(1, p)
	return scale(h+(l+pl), int(kf))
}

// expm1DD returns e**x - 1 as a double-double for |x| <= 50.
func expm1DD(x float64) (float64, float64) {
	if math.Abs(x) <= 0.34 {
		return expm1Poly(x, 0)
	}
	h, l, k := expDD(x, 0)
	p := pow2(k)
	s, e := twoSum(h*p, -1)
	e += l * p
	return fastTwoSum(s, e)
}

// Expm1 returns e**x - 1, accurate also for x near 0. Special cases as Go's
// math.Expm1: Expm1(+Inf) = +Inf, Expm1(-Inf) = -1, Expm1(NaN) = NaN;
// x above about 709.78 gives +Inf, x below about -38.8 gives -1.
func Expm1(x float64) float64 {
	const (
		othreshold = 7.09782712893383973096e+02
		ln2X56     = 3.88162421113569373274e+01
	)
	switch {
	case x != x:
		return x
	case x > othreshold:
		return math.Inf(1)
	case x < -ln2X56:
		return -1
	case math.Abs(x) < 0x1p-54:
		return x
	case x > 40:
		return Exp(x)
	}
	h, l := expm1DD(x)
	return h + l
}
