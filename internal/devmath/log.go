package devmath

import "math"

const (
	invLn2Hi  = log2e
	invLn2Lo  = log2eL
	log10eHi  = 0x1.bcb7b1526e50ep-2  // 1/ln(10)
	log10eLo  = 0x1.95355baaafad3p-57 // 1/ln(10) - log10eHi
	mantMask  = 1<<52 - 1
	expOneBit = 1023 << 52
)

// logParts splits log(x), x > 0 finite, into k*ln2 + (th+tl), |th| < 0.36.
// x = 2**k * m, 1 <= m < 2; j = round((m-1)*128); r = m*c_j - 1 is exact
// (|r| < 2**-7, see TestLogReductionExact); log(m) = -log(c_j) + log1p(r).
func logParts(x float64) (float64, float64, float64) {
	b := math.Float64bits(x)
	k := int(b>>52) - 1023
	if b>>52 == 0 { // subnormal
		b = math.Float64bits(x * 0x1p64)
		k = int(b>>52) - 1023 - 64
	}
	j := int((b>>44)&0xff+1) >> 1
	m := math.Float64frombits(b&mantMask | expOneBit)
	r := math.FMA(m, logC[j], -1)
	// log1p(r) = r - r*r/2 + r**3*(1/3 - r/4 + ...), |r| < 2**-7
	s, se := twoProd(r, r)
	a, ae := fastTwoSum(r, -0.5*s)
	p := -1.0 / 12
	p = p*r + 1.0/11
	p = p*r - 1.0/10
	p = p*r + 1.0/9
	p = p*r - 1.0/8
	p = p*r + 1.0/7
	p = p*r - 1.0/6
	p = p*r + 1.0/5
	p = p*r - 1.0/4
	p = p*r + 1.0/3
	tail := ae - 0.5*se + s*r*p
	th, tl := twoSum(logTH[j], a)
	tl += logTL[j] + tail
	return float64(k), th, tl
}

// logDD returns log(x) as a double-double, x > 0 finite, relative error
// below 2**-66.
func logDD(x float64) (float64, float64) {
	kf, th, tl := logParts(x)
	p, pe := twoProd(kf, ln2Hi)
	pe += kf * ln2Lo
	s, e := twoSum(p, th)
	e += pe + tl
	return fastTwoSum(s, e)
}

// logSpecial handles the arguments of Log, Log2 and Log10 that need no
// computation; ok is false where x > 0 is finite.
func logSpecial(x float64) (float64, bool) {
	switch {
	case x != x || math.IsInf(x, 1):
		return x, true
	case x < 0:
		return math.NaN(), true
	case x == 0:
		return math.Inf(-1), true
	}
	return 0, false
}

// Log returns the natural logarithm of x. Special cases as Go's math.Log:
// Log(+Inf) = +Inf, Log(0) = -Inf, Log(x < 0) = NaN, Log(NaN) = NaN.
func Log(x float64) float64 {
	if v, ok := logSpecial(x); ok {
		return v
	}
	h, l := logDD(x)
	return h + l
}

// Log2 returns the binary logarithm of x; exact for powers of two.
// Special cases as Log.
func Log2(x float64) float64 {
	if v, ok := logSpecial(x); ok {
		return v
	}
	kf, th, tl := logParts(x)
	u, ue := ddMul(th, tl, invLn2Hi, invLn2Lo)
	s, e := twoSum(kf, u)
	return s + (e + ue)
}

// Log10 returns the decimal logarithm of x. Special cases as Log.
func Log10(x float64) float64 {
	if v, ok := logSpecial(x); ok {
		return v
	}
	h, l := logDD(x)
	h, l = ddMul(h, l, log10eHi, log10eLo)
	return h + l
}

// Log1p returns log(1+x), accurate also for x near 0. Special cases as Go's
// math.Log1p: Log1p(+Inf) = +Inf, Log1p(±0) = ±0, Log1p(-1) = -Inf,
// Log1p(x < -1) = NaN, Log1p(NaN) = NaN.
func Log1p(x float64) float64 {
	switch {
	case x != x || math.IsInf(x, 1):
		return x
	case x < -1:
		return math.NaN()
	case x == -1:
		return math.Inf(-1)
	case math.Abs(x) < 0x1p-54:
		return x
	}
	u, ue := twoSum(1, x)
	h, l := logDD(u)
	return h + (l + ue/u)
}
