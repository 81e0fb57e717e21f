package devmath

import "math"

const (
	twoOSqrtPiHi = 0x1.20dd750429b6dp+0 // 2/sqrt(pi) = twoOSqrtPiHi + twoOSqrtPiLo
	twoOSqrtPiLo = 0x1.1ae3a914fed80p-56
)

// erfSmall returns erf(x) for |x| < 1: x*(2/sqrt(pi) + z*R(z)), z = x*x,
// R fitted in erfCoef.
func erfSmall(x float64) float64 {
	z := x * x
	p := erfCoef[0]
	for i := 1; i < len(erfCoef); i++ {
		p = p*z + erfCoef[i]
	}
	return math.FMA(x, twoOSqrtPiHi, x*(twoOSqrtPiLo+z*p))
}

// erfcLarge returns erfc(x) for 0.5 <= x < 28 as exp(-x*x)*g(x), g fitted
// per interval (erfcCoef); the constant term and the product are kept in
// double-double.
func erfcLarge(x float64) float64 {
	i := 0
	for i < len(erfcMid)-1 && x >= erfcLo[i+1] {
		i++
	}
	t := (x - erfcMid[i]) * erfcInvHalf[i]
	lo, hi := erfcOff[i], erfcOff[i+1]
	g := erfcCoef[lo]
	for k := lo + 1; k < hi-1; k++ {
		g = g*t + erfcCoef[k]
	}
	p, pe := twoProd(g, t)
	gh, gl := twoSum(erfcCoef[hi-1], p)
	gl += pe + erfcC0Lo[i]
	s, se := twoProd(x, x)
	h, l, k := expDD(-s, -se)
	h, l = ddMul(h, l, gh, gl)
	return scale(h+l, k)
}

// Erf returns the error function of x. Special cases as Go's math.Erf:
// Erf(+Inf) = 1, Erf(-Inf) = -1, Erf(NaN) = NaN.
func Erf(x float64) float64 {
	a := math.Abs(x)
	switch {
	case x != x:
		return x
	case a >= 6:
		return math.Copysign(1, x)
	case a < 1:
		return erfSmall(x)
	}
	return math.Copysign(1-erfcLarge(a), x)
}

// Erfc returns the complementary error function of x, 1-Erf(x). Special
// cases as Go's math.Erfc: Erfc(+Inf) = 0, Erfc(-Inf) = 2, Erfc(NaN) = NaN.
func Erfc(x float64) float64 {
	switch {
	case x != x:
		return x
	case x >= 28:
		return 0
	case x <= -6:
		return 2
	case x < -0.5:
		return 2 - erfcLarge(-x)
	case x < 0.5:
		return 1 - erfSmall(x)
	}
	return erfcLarge(x)
}
