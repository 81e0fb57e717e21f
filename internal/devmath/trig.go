package devmath

import (
	"math"
	"math/bits"
)

const (
	pio2Hi  = 0x1.921fb54442d18p+0 // pi/2 = pio2Hi + pio2Mid + pio2Lo
	pio2Mid = 0x1.1a62633145c07p-54
	pio2Lo  = -0x1.f1976b7ed8fbcp-110
	twoOPi  = 0x1.45f306dc9c883p-1 // 2/pi
	piHi    = 0x1.921fb54442d18p+1 // pi = piHi + piLo
	piLo    = 0x1.1a62633145c07p-53
	pio4Hi  = 0x1.921fb54442d18p-1

	// cwLimit is where Cody-Waite reduction hands over to Payne-Hanek.
	cwLimit = 0x1p20
)

// trigReduce returns n and r = rh+rl with x = n*pi/2 + r, |r| <= pi/4
// (slightly more), n taken mod 4; x finite.
func trigReduce(x float64) (int, float64, float64) {
	a := math.Abs(x)
	if a <= pio4Hi {
		return 0, x, 0
	}
	if a < cwLimit {
		kf := rint(x * twoOPi)
		// x - kf*pio2Hi is exact: both are multiples of 2**-53 and the
		// difference is below 1 in magnitude.
		r1 := math.FMA(-kf, pio2Hi, x)
		t, te := twoProd(kf, pio2Mid)
		r2, e2 := twoSum(r1, -t)
		rl := e2 - te - kf*pio2Lo
		rh, rl := twoSum(r2, rl)
		return int(kf) & 3, rh, rl
	}
	n, rh, rl := payneHanek(a)
	if x < 0 {
		return (-n) & 3, -rh, -rl
	}
	return n, rh, rl
}

// payneHanek reduces a >= 2**20 (finite) modulo pi/2 with the digits of
// 2/pi in twoOverPi: a = M*2**E with M a 53-bit integer; only the 192
// digits of 2/pi that can reach the fractional part or the two lowest
// integer bits of a*2/pi are multiplied in.
func payneHanek(a float64) (int, float64, float64) {
	b := math.Float64bits(a)
	e := int(b>>52) - 1023 - 52
	m := b&mantMask | 1<<52
	// Digit i (i >= 1) of 2/pi sits at bit position i+63 of the table.
	// The window starts at digit e-1, i.e. position e+62.
	p := e + 62
	q := p >> 6
	s := uint(p & 63)
	w0, w1, w2 := twoOverPi[q], twoOverPi[q+1], twoOverPi[q+2]
	if s != 0 {
		w3 := twoOverPi[q+3]
		w0 = w0<<s | w1>>(64-s)
		w1 = w1<<s | w2>>(64-s)
		w2 = w2<<s | w3>>(64-s)
	}
	// m*W mod 2**192, scaled by 2**-190: two integer bits, 190 fraction bits.
	h2, l0 := bits.Mul64(m, w2)
	h1, l1 := bits.Mul64(m, w1)
	l1, c := bits.Add64(h2, l1, 0)
	l2 := h1 + m*w0 + c
	n := int(l2 >> 62)
	fh := l2<<2 | l1>>62
	fl := l1<<2 | l0>>62
	sign := 1.0
	if fh>>63 != 0 { // fraction >= 1/2: take fraction-1
		n++
		fh, fl = ^fh, ^fl
		var cc uint64
		fl, cc = bits.Add64(fl, 1, 0)
		fh += cc
		sign = -1
	}
	if fh == 0 { // cannot happen for float64 inputs; be safe
		return n & 3, 0, 0
	}
	lz := uint(bits.LeadingZeros64(fh))
	if lz != 0 {
		fh = fh<<lz | fl>>(64-lz)
		fl <<= lz
	}
	sc := int(lz)
	vh := float64(fh>>11) * pow2(-53-sc)
	vl := float64(fh&0x7ff)*pow2(-64-sc) + float64(fl>>11)*pow2(-117-sc)
	rh, rl := ddMul(vh, vl, pio2Hi, pio2Mid)
	return n & 3, sign * rh, sign * rl
}

// sinKernel returns sin(rh+rl) as hi+lo for |rh| <= pi/4 (+ slack).
func sinKernel(rh, rl float64) (float64, float64) {
	z, zl := twoProd(rh, rh)
	c3 := rh * z
	c3l := math.FMA(rh, z, -c3) + rh*zl
	const m6h = -0x1.5555555555555p-3 // -1/6 = m6h + m6l
	const m6l = -0x1.5555555555555p-57
	t := c3 * m6h
	tl := math.FMA(c3, m6h, -t) + c3l*m6h + c3*m6l
	s, e := fastTwoSum(rh, t)
	p := -1.0 / 355687428096000
	p = p*z + 1.0/1307674368000
	p = p*z - 1.0/6227020800
	p = p*z + 1.0/39916800
	p = p*z - 1.0/362880
	p = p*z + 1.0/5040
	p = p*z - 1.0/120
	// sin r = r - r**3/6 + r**5*(1/120 - ...); p holds -(...), see sign below.
	e += tl - c3*z*p + rl*(1-0.5*z)
	return fastTwoSum(s, e)
}

// cosKernel returns cos(rh+rl) as hi+lo for |rh| <= pi/4 (+ slack).
func cosKernel(rh, rl float64) (float64, float64) {
	z, zl := twoProd(rh, rh)
	hz := 0.5 * z
	w, we := fastTwoSum(1, -hz)
	we += -0.5*zl - rh*rl
	p := 1.0 / 6402373705728000
	p = p*z - 1.0/20922789888000
	p = p*z + 1.0/87178291200
	p = p*z - 1.0/479001600
	p = p*z + 1.0/3628800
	p = p*z - 1.0/40320
	p = p*z + 1.0/720
	p = p*z - 1.0/24
	// cos r = 1 - r**2/2 + r**4/24 - ...; p = -(1/24 - r**2/720 + ...)
	we -= z * z * p
	return fastTwoSum(w, we)
}

// Sin returns the sine of the radian argument x. Special cases as Go's
// math.Sin: Sin(±0) = ±0, Sin(±Inf) = NaN, Sin(NaN) = NaN.
func Sin(x float64) float64 {
	if x == 0 || x != x {
		return x
	}
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	n, rh, rl := trigReduce(x)
	var h, l float64
	if n&1 == 0 {
		h, l = sinKernel(rh, rl)
	} else {
		h, l = cosKernel(rh, rl)
	}
	if n&2 != 0 {
		return -(h + l)
	}
	return h + l
}

// Cos returns the cosine of the radian argument x. Special cases as Go's
// math.Cos: Cos(±Inf) = NaN, Cos(NaN) = NaN.
func Cos(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return math.NaN()
	}
	n, rh, rl := trigReduce(x)
	var h, l float64
	if n&1 == 0 {
		h, l = cosKernel(rh, rl)
	} else {
		h, l = sinKernel(rh, rl)
	}
	if (n+1)&2 != 0 {
		return -(h + l)
	}
	return h + l
}

// Sincos returns Sin(x), Cos(x) with one argument reduction. Special cases
// as Sin and Cos.
func Sincos(x float64) (sin, cos float64) {
	if x == 0 {
		return x, 1
	}
	if x != x || math.IsInf(x, 0) {
		return math.NaN(), math.NaN()
	}
	n, rh, rl := trigReduce(x)
	sh, sl := sinKernel(rh, rl)
	ch, cl := cosKernel(rh, rl)
	s, c := sh+sl, ch+cl
	if n&1 != 0 {
		s, c = c, -s
	}
	if n&2 != 0 {
		s, c = -s, -c
	}
	return s, c
}

// Tan returns the tangent of the radian argument x. Special cases as Go's
// math.Tan: Tan(±0) = ±0, Tan(±Inf) = NaN, Tan(NaN) = NaN.
func Tan(x float64) float64 {
	if x == 0 || x != x {
		return x
	}
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	n, rh, rl := trigReduce(x)
	sh, sl := sinKernel(rh, rl)
	ch, cl := cosKernel(rh, rl)
	if n&1 == 0 {
		h, l := ddDiv(sh, sl, ch, cl)
		return h + l
	}
	h, l := ddDiv(ch, cl, sh, sl)
	return -(h + l)
}
