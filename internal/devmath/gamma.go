package devmath

import "math"

const (
	eulerHi   = 0x1.2788cfc6fb619p-1 // Euler's gamma = eulerHi + eulerLo
	eulerLo   = -0x1.6cb90701fbfabp-58
	omEulerHi = 0x1.b0ee6072093cep-2 // 1 - gamma
	omEulerLo = 0x1.6cb90701fbfabp-58
	hl2piHi   = 0x1.d67f1c864beb5p-1 // log(2*pi)/2
	hl2piLo   = -0x1.65b5a1b7ff5dfp-55
	lnPiHi    = 0x1.250d048e7a1bdp+0 // log(pi)
	lnPiLo    = 0x1.7abf2ad8d5088p-57

	// lgTaylorR is the radius around 1 and 2 where lgamma is taken from
	// its Taylor series (the shifted Stirling sum would cancel there).
	lgTaylorR = 1.0 / 64
	// stirlingMin is where the Stirling series alone is accurate enough.
	stirlingMin = 32
)

// lgTaylor1 holds (-1)**k zeta(k)/k, k = 2..13: lgamma(1+e) = -gamma*e +
// sum lgTaylor1[k-2] e**k. lgTaylor2 holds (-1)**k (zeta(k)-1)/k for
// lgamma(2+e) = (1-gamma)*e + sum lgTaylor2[k-2] e**k (mpmath).
var lgTaylor1 = [12]float64{
	0x1.a51a6625307d3p-1, -0x1.9a4d55beab2d7p-2, 0x1.151322ac7d848p-2, -0x1.a8b9c17aa6149p-3,
	0x1.5b40cb100c306p-3, -0x1.2703a1dcea3aep-3, 0x1.010b36af86397p-3, -0x1.c806706d57db4p-4,
	0x1.9a01e385d5f8fp-4, -0x1.748c33114c6d6p-4, 0x1.556ad63243bc4p-4, -0x1.3b1d971fc5985p-4,
}

var lgTaylor2 = [12]float64{
	0x1.4a34cc4a60fa6p-2, -0x1.13e001a557607p-4, 0x1.51322ac7d8483p-6, -0x1.e404fc218f5f2p-8,
	0x1.7add6eadb6c30p-9, -0x1.38ac5c2bf8e08p-10, 0x1.0b36af86396e9p-11, -0x1.d3fd4c76d2fc8p-13,
	0x1.a127b0f17d65ap-14, -0x1.78de5bd7c81efp-15, 0x1.580dcee66eb02p-16, -0x1.3cbc963ce2243p-17,
}

// stirlingC holds B(2k)/(2k(2k-1)) for k = 2..10, the terms after 1/(12x)
// of Stirling's series for lgamma.
var stirlingC = [9]float64{
	-1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360,
	1.0 / 156, -3617.0 / 122400, 43867.0 / 244188, -174611.0 / 125400,
}

// lgNear returns lgamma(c+e) as a double-double for c = 1 or 2 and
// |e| <= 1/64 (e = eh+el): the linear term in double-double, the rest,
// below 2**-5 of it, in float64 (truncation below 2**-66 relative).
func lgNear(two bool, eh, el float64) (float64, float64) {
	ch, cl := -eulerHi, -eulerLo
	c := lgTaylor1[len(lgTaylor1)-1]
	if two {
		ch, cl = omEulerHi, omEulerLo
		c = lgTaylor2[len(lgTaylor2)-1]
	}
	for i := len(lgTaylor1) - 2; i >= 0; i-- {
		if two {
			c = c*eh + lgTaylor2[i]
		} else {
			c = c*eh + lgTaylor1[i]
		}
	}
	h, l := ddMulF(ch, cl, eh)
	l += ch * el
	return ddAdd(h, l, eh*eh*c, 0)
}

// logOf returns log(h+l) as a double-double, h > 0 finite.
func logOf(h, l float64) (float64, float64) {
	a, b := logDD(h)
	return fastTwoSum(a, b+l/h)
}

// stirling returns lgamma(y) for y = yh+yl >= 32 as a double-double:
// (y-1/2)log(y) - y + log(2pi)/2 + 1/(12y) + sum C_k y**(1-2k).
func stirling(yh, yl float64) (float64, float64) {
	lh, ll := logOf(yh, yl)
	if yh > 0x1p900 {
		// Only y*(log(y)-1) is visible; scaled so that the product does
		// not overflow before its rounding.
		mh, ml := ddAdd(lh, ll, -1, 0)
		h, l := ddMul(yh*0x1p-64, yl*0x1p-64, mh, ml)
		return scale(h+l, 64), 0
	}
	ah, al := twoSum(yh, -0.5)
	al += yl
	h, l := ddMul(ah, al, lh, ll)
	h, l = ddAdd(h, l, -yh, -yl)
	h, l = ddAdd(h, l, hl2piHi, hl2piLo)
	th, tl := ddDiv(1, 0, yh, yl)
	sh, sl := ddDiv(th, tl, 12, 0)
	t2 := th * th
	p := stirlingC[len(stirlingC)-1]
	for i := len(stirlingC) - 2; i >= 0; i-- {
		p = p*t2 + stirlingC[i]
	}
	sl += th * t2 * p
	return ddAdd(h, l, sh, sl)
}

// lgammaPos returns lgamma(x) as a double-double for x = xh+xl >= 1/64.
func lgammaPos(xh, xl float64) (float64, float64) {
	if e := xh - 1; math.Abs(e) < lgTaylorR {
		return lgNear(false, e, xl)
	}
	if e := xh - 2; math.Abs(e) < lgTaylorR {
		return lgNear(true, e, xl)
	}
	if xh >= stirlingMin {
		return stirling(xh, xl)
	}
	// lgamma(x) = lgamma(x+n) - log(x(x+1)...(x+n-1)), x+n >= 32.
	ph, pl := xh, xl
	yh, yl := xh, xl
	for yh+1 < stirlingMin {
		s, e := twoSum(yh, 1)
		yh, yl = fastTwoSum(s, e+yl)
		ph, pl = ddMul(ph, pl, yh, yl)
	}
	yh, yl = ddAdd(yh, yl, 1, 0)
	h, l := stirling(yh, yl)
	qh, ql := logOf(ph, pl)
	return ddAdd(h, l, -qh, -ql)
}

// sinPiAbs returns |sin(pi*a)| as a double-double and whether sin(pi*a) is
// negative, for 1/64 <= a < 2**52 not an integer.
func sinPiAbs(a float64) (float64, float64, bool) {
	n := math.Floor(a + 0.5)
	r := a - n // exact; |r| <= 1/2 (a hair more where a+0.5 rounds up)
	neg := r < 0
	if math.Trunc(n*0.5) != n*0.5 { // n odd
		neg = !neg
	}
	r = math.Abs(r)
	useCos := r > 0.25
	if useCos {
		r = 0.5 - r // exact
	}
	rh, rl := twoProd(r, piHi)
	rl += r * piLo
	rh, rl = fastTwoSum(rh, rl)
	var h, l float64
	if useCos {
		h, l = cosKernel(rh, rl)
	} else {
		h, l = sinKernel(rh, rl)
	}
	return h, l, neg
}

// lgNearZero returns lgamma(x0+d) as a double-double for the zero x0 =
// lgZeroHi[i]+lgZeroLo[i] of lgamma and |d| < lgZeroR[i], d = x-lgZeroHi[i]
// (exact): the Taylor series of lgamma at x0, its linear term in
// double-double, so that the result keeps its relative accuracy however
// close x is to the zero (the reflection formula cancels there).
func lgNearZero(i int, d float64) (float64, float64) {
	dh, dl := twoSum(d, -lgZeroLo[i])
	o := i * lgZeroTerms
	p := lgZeroC[o+lgZeroTerms-1]
	for k := lgZeroTerms - 2; k >= 1; k-- {
		p = p*dh + lgZeroC[o+k]
	}
	h, l := ddMul(lgZeroC[o], lgZeroC1Lo[i], dh, dl)
	return ddAdd(h, l, dh*dh*p, 0)
}

// lgammaCore returns lgamma(x) as a double-double and the sign of
// Gamma(x), for finite x that is neither 0 nor a negative integer.
func lgammaCore(x float64) (float64, float64, int) {
	a := math.Abs(x)
	if a < lgTaylorR {
		// lgamma(x) = lgamma(1+x) - log|x|
		h, l := lgNear(false, x, 0)
		qh, ql := logDD(a)
		h, l = ddAdd(h, l, -qh, -ql)
		if x < 0 {
			return h, l, -1
		}
		return h, l, 1
	}
	if x > 0 {
		h, l := lgammaPos(x, 0)
		return h, l, 1
	}
	if x > -5 && x < -2 {
		for i := 0; i < len(lgZeroHi); i++ {
			if d := x - lgZeroHi[i]; math.Abs(d) < lgZeroR[i] {
				h, l := lgNearZero(i, d)
				// Gamma is negative on (-3, -2) and (-5, -4).
				if x > -3 || x < -4 {
					return h, l, -1
				}
				return h, l, 1
			}
		}
	}
	// Reflection: Gamma(x) Gamma(1-x) = pi / sin(pi x), Gamma(1-x) > 0.
	sh, sl, neg := sinPiAbs(a)
	bh, bl := twoSum(1, a)
	gh, gl := lgammaPos(bh, bl)
	qh, ql := logOf(sh, sl)
	h, l := ddAdd(lnPiHi, lnPiLo, -qh, -ql)
	h, l = ddAdd(h, l, -gh, -gl)
	// sin(pi x) = -sin(pi a)
	if neg {
		return h, l, 1
	}
	return h, l, -1
}

// isNegInt reports whether x < 0 is an integer (every x <= -2**52 is).
func isNegInt(x float64) bool {
	return x < 0 && (x <= -0x1p52 || math.Trunc(x) == x)
}

// Gamma returns the Gamma function of x. Special cases as Go's math.Gamma:
// Gamma(+Inf) = +Inf, Gamma(+0) = +Inf, Gamma(-0) = -Inf, Gamma(x) = NaN
// for integer x < 0, Gamma(-Inf) = NaN, Gamma(NaN) = NaN. Computed as
// exp(lgamma(x)) with lgamma in double-double (Stirling's series above 32,
// shifted below, Taylor series around 1 and 2, reflection for x < 0).
func Gamma(x float64) float64 {
	switch {
	case x != x || isNegInt(x) || math.IsInf(x, -1):
		return math.NaN()
	case math.IsInf(x, 1):
		return x
	case x == 0:
		return 1 / x // ±Inf with the sign of the zero
	case x > 172:
		return math.Inf(1)
	case x < -200:
		// |Gamma(x)| < 2**-1250 underflows; the sign alternates: Gamma
		// is negative on (-k-1, -k) for even k.
		if p := math.Floor(-x); math.Trunc(p*0.5) == p*0.5 {
			return math.Copysign(0, -1)
		}
		return 0
	}
	h, l, s := lgammaCore(x)
	if h > 710 {
		return math.Inf(s)
	}
	if h < -746 {
		if s < 0 {
			return math.Copysign(0, -1)
		}
		return 0
	}
	eh, el, k := expDD(h, l)
	return float64(s) * scale(eh+el, k)
}

// Lgamma returns the natural logarithm and sign (-1 or +1) of Gamma(x).
// Special cases as Go's math.Lgamma: Lgamma(+Inf) = +Inf, Lgamma(0) =
// +Inf, Lgamma(-integer) = +Inf, Lgamma(-Inf) = -Inf, Lgamma(NaN) = NaN,
// each with sign 1.
func Lgamma(x float64) (lgamma float64, sign int) {
	switch {
	case x != x || math.IsInf(x, 0):
		return x, 1
	case x == 0 || isNegInt(x):
		return math.Inf(1), 1
	}
	h, l, s := lgammaCore(x)
	return h + l, s
}

// Gamma32 returns the Gamma function of x, the float64 Gamma rounded to
// float32. Special cases as Gamma.
func Gamma32(x float32) float32 { return float32(Gamma(float64(x))) }

// Lgamma32 returns the natural logarithm and sign of Gamma(x), the float64
// Lgamma rounded to float32. Special cases as Lgamma.
func Lgamma32(x float32) (lgamma float32, sign int) {
	l, s := Lgamma(float64(x))
	return float32(l), s
}
