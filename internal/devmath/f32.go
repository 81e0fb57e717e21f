package devmath

import "math"

// float32 functions. The polynomial work of Exp32, Exp232, Expm132, Log32,
// Log232, Log1032, Log1p32, Sin32, Cos32, Sincos32, Cosh32, Tanh32, Atan32
// and Atan232 is done in float32
// (GPUs run float32 much faster); their argument reductions, and the other
// functions, use float64 where float32 would exceed the error bound.

const (
	ln2HiF   = 0x1.62ep-1     // 12 bits: k*ln2HiF is exact for |k| < 2**12
	ln2LoF   = 0x1.0bfbe8p-15 // ln2 - ln2HiF
	log2eF   = 0x1.715476p+0  // 1/ln2 in float32
	ivln2HiF = 0x1.715p+0     // 1/ln2 = ivln2HiF + ivln2LoF
	ivln2LoF = 0x1.1d94aep-14 //
	lg10eHiF = 0x1.bcbp-2     // 1/ln10 = lg10eHiF + lg10eLoF
	lg10eLoF = 0x1.ec549cp-16 //
	lg102HiF = 0x1.344p-2     // log10(2) = lg102HiF + lg102LoF
	lg102LoF = 0x1.3509f8p-18 //
	rndCF    = 0x1.8p23       // adding and subtracting it rounds a float32
	maxF32   = 0x1.fffffep127 // math.MaxFloat32
	sqrt2F   = 0x1.6a09e6p+0  // sqrt(2)
	mantF    = 1<<23 - 1      // float32 mantissa bits
	expOneF  = 127 << 23      // float32 exponent field of 1
	f32Sign  = 1 << 31        // float32 sign bit
	nanBits  = 0x7fc00000     // a float32 NaN
	infBitsF = 0x7f800000     // float32 +Inf
)

func inf32(sign int) float32 {
	if sign < 0 {
		return math.Float32frombits(infBitsF | f32Sign)
	}
	return math.Float32frombits(infBitsF)
}

func nan32() float32 { return math.Float32frombits(nanBits) }

func isInf32(x float32) bool { return x > maxF32 || x < -maxF32 }

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ f32Sign) }

func copysign32(x, s float32) float32 {
	return math.Float32frombits(math.Float32bits(x)&^f32Sign | math.Float32bits(s)&f32Sign)
}

// pow2F returns 2**k as a float32 for -126 <= k <= 127.
func pow2F(k int) float32 { return math.Float32frombits(uint32(k+127) << 23) }

// scale32 returns x*2**k for |k| <= 300, x normal, with one rounding.
func scale32(x float32, k int) float32 {
	if k > 127 {
		x *= pow2F(127)
		k -= 127
		if k > 127 {
			k = 127
		}
	} else if k < -126 {
		x *= pow2F(-126 + 24)
		k += 126 - 24
		if k < -126 {
			x *= pow2F(-126 + 24)
			k += 126 - 24
			if k < -126 {
				k = -126
			}
		}
	}
	return x * pow2F(k)
}

// rint32 rounds x to the nearest integer for |x| < 2**22.
func rint32(x float32) float32 { return (x + rndCF) - rndCF }

// expm1PolyF returns e**r - 1 for |r| <= 0.35 in float32 (degree 8).
func expm1PolyF(r float32) float32 {
	p := float32(1.0 / 40320)
	p = p*r + 1.0/5040
	p = p*r + 1.0/720
	p = p*r + 1.0/120
	p = p*r + 1.0/24
	p = p*r + 1.0/6
	p = p*r + 0.5
	return r + r*r*p
}

// Exp32 returns e**x. Special cases as Exp.
func Exp32(x float32) float32 {
	switch {
	case x != x:
		return x
	case x > 88.72284:
		return inf32(1)
	case x < -103.97909:
		return 0
	}
	m, k := expCoreF(x)
	return scale32(m, k)
}

// expCoreF returns m, k with e**x = m * 2**k, 0.7 < m < 1.42, for
// |x| <= 104 (float32 throughout).
func expCoreF(x float32) (float32, int) {
	k := rint32(x * log2eF)
	r := (x - k*ln2HiF) - k*ln2LoF
	return 1 + expm1PolyF(r), int(k)
}

// Cosh32 returns the hyperbolic cosine of x. Special cases as Cosh.
func Cosh32(x float32) float32 {
	a := abs32(x)
	switch {
	case x != x:
		return x
	case a > 90:
		return inf32(1)
	}
	m, k := expCoreF(a)
	if k > 30 { // 1/e is below half an ulp of e
		return scale32(m, k-1)
	}
	e := scale32(m, k)
	return 0.5 * (e + 1/e)
}

// Tanh32 returns the hyperbolic tangent of x. Special cases as Tanh.
func Tanh32(x float32) float32 {
	a := abs32(x)
	switch {
	case a < 0x1p-12 || x != x:
		return x
	case a > 9.1: // tanh rounds to ±1
		return copysign32(1, x)
	case a < 0.55:
		// (tanh(a) - a)/a**3 as a polynomial in a*a (mpmath chebyfit on
		// [0, 0.3025], error below 4e-10)
		z := a * a
		p := float32(0x1.4b239af529f53p-9)
		p = p*z - 0x1.176410d1abf68p-7
		p = p*z + 0x1.6579355d3ea33p-6
		p = p*z - 0x1.ba142df19ccecp-5
		p = p*z + 0x1.111104cee136cp-3
		p = p*z - 0x1.5555554ec08e1p-2
		return copysign32(a+a*z*p, x)
	}
	return copysign32(1-2/(Exp32(2*a)+1), x)
}

// Exp232 returns 2**x. Special cases as Exp2.
func Exp232(x float32) float32 {
	switch {
	case x != x:
		return x
	case x >= 128:
		return inf32(1)
	case x < -150:
		return 0
	}
	k := rint32(x)
	r := x - k // exact
	// 2**r = e**(r*ln2): 1 + sum ln2**n/n! r**n, n <= 8
	p := float32(0x1.62c0223a5c824p-20) // ln2**8/8!
	p = p*r + 0x1.ffcbfc588b0c7p-17
	p = p*r + 0x1.430912f86c787p-13
	p = p*r + 0x1.5d87fe78a6731p-10
	p = p*r + 0x1.3b2ab6fba4e77p-7
	p = p*r + 0x1.c6b08d704a0c0p-5
	p = p*r + 0x1.ebfbdff82c58fp-3
	p = p*r + 0x1.62e42fefa39efp-1
	return scale32(1+r*p, int(k))
}

// Expm132 returns e**x - 1. Special cases as Expm1.
func Expm132(x float32) float32 {
	a := abs32(x)
	switch {
	case x != x:
		return x
	case x > 88.72284:
		return inf32(1)
	case x < -17.4:
		return -1
	case a < 0x1p-25:
		return x
	case a <= 0.34:
		return expm1PolyF(x)
	}
	k := rint32(x * log2eF)
	r := (x - k*ln2HiF) - k*ln2LoF
	s := expm1PolyF(r)
	ki := int(k)
	if ki > 24 {
		return scale32(1+s, ki)
	}
	p := pow2F(ki)
	return (p - 1) + p*s
}

// logCoreF returns k and f, hfsq, s*(hfsq+R) for x > 0 finite (float32):
// x = 2**k*(1+f), sqrt(1/2) <= 1+f < sqrt(2), log(1+f) = f - hfsq + sr.
func logCoreF(x float32) (int, float32, float32, float32) {
	b := math.Float32bits(x)
	k := 0
	if b < 1<<23 { // subnormal
		b = math.Float32bits(x * 0x1p25)
		k = -25
	}
	k += int(b>>23) - 127
	m := math.Float32frombits(b&mantF | expOneF)
	if m > sqrt2F {
		m *= 0.5
		k++
	}
	f := m - 1
	s := f / (2 + f)
	z := s * s
	r := float32(2.0 / 11)
	r = r*z + 2.0/9
	r = r*z + 2.0/7
	r = r*z + 2.0/5
	r = r*z + 2.0/3
	r *= z
	hfsq := 0.5 * f * f
	return k, f, hfsq, s * (hfsq + r)
}

// logSpecialF handles the arguments of the float32 logarithms that need
// no computation.
func logSpecialF(x float32) (float32, bool) {
	switch {
	case x != x || x > maxF32:
		return x, true
	case x < 0:
		return nan32(), true
	case x == 0:
		return inf32(-1), true
	}
	return 0, false
}

// Log32 returns the natural logarithm of x. Special cases as Log.
func Log32(x float32) float32 {
	if v, ok := logSpecialF(x); ok {
		return v
	}
	k, f, hfsq, sr := logCoreF(x)
	kf := float32(k)
	return kf*ln2HiF + (f - (hfsq - (sr + kf*ln2LoF)))
}

// splitHiLo returns log(1+f) as hi+lo with hi holding 12 bits, so that
// products with the 12-bit constant halves are exact.
func splitHiLo(f, hfsq, sr float32) (float32, float32) {
	hi := f - hfsq
	hi = math.Float32frombits(math.Float32bits(hi) &^ 0xfff)
	lo := (f - hi) - hfsq + sr
	return hi, lo
}

// Log232 returns the binary logarithm of x. Special cases as Log2.
func Log232(x float32) float32 {
	if v, ok := logSpecialF(x); ok {
		return v
	}
	k, f, hfsq, sr := logCoreF(x)
	hi, lo := splitHiLo(f, hfsq, sr)
	return (lo*(ivln2HiF+ivln2LoF) + hi*ivln2LoF) + hi*ivln2HiF + float32(k)
}

// Log1032 returns the decimal logarithm of x. Special cases as Log10.
func Log1032(x float32) float32 {
	if v, ok := logSpecialF(x); ok {
		return v
	}
	k, f, hfsq, sr := logCoreF(x)
	hi, lo := splitHiLo(f, hfsq, sr)
	kf := float32(k)
	return (kf*lg102LoF + (lo*(lg10eHiF+lg10eLoF) + hi*lg10eLoF)) + hi*lg10eHiF + kf*lg102HiF
}

// Log1p32 returns log(1+x). Special cases as Log1p.
func Log1p32(x float32) float32 {
	switch {
	case x != x || x > maxF32:
		return x
	case x < -1:
		return nan32()
	case x == -1:
		return inf32(-1)
	case abs32(x) < 0x1p-25:
		return x
	}
	u := 1 + x
	// log(1+x) = log(u) + c, c = (x - (u-1))/u: the rounding error of u
	c := (x - (u - 1)) / u
	if u > 0x1p25 {
		c = 0
	}
	k, f, hfsq, sr := logCoreF(u)
	kf := float32(k)
	return kf*ln2HiF + (f - (hfsq - (sr + (kf*ln2LoF + c))))
}

// trigReduce32 reduces float32 x modulo pi/2 (in float64: r = rh + rl).
func trigReduce32(x float32) (int, float32, float32) {
	xd := float64(x)
	if abs32(x) < 0x1p28 {
		kf := rint(xd * twoOPi)
		r1 := math.FMA(-kf, pio2Hi, xd) // exact
		r := r1 - kf*pio2Mid
		rh := float32(r)
		return int(kf) & 3, rh, float32(r - float64(rh))
	}
	n, h, l := payneHanek(math.Abs(xd))
	r := h + l
	if x < 0 {
		n, r = (-n)&3, -r
	}
	rh := float32(r)
	return n, rh, float32(r - float64(rh))
}

// sinKernelF returns sin(r+rl) for |r| <= pi/4 in float32.
func sinKernelF(r, rl float32) float32 {
	z := r * r
	p := float32(-1.0 / 39916800)
	p = p*z + 1.0/362880
	p = p*z - 1.0/5040
	p = p*z + 1.0/120
	p = p*z - 1.0/6
	return r + (r*z*p + rl*(1-0.5*z))
}

// cosKernelF returns cos(r+rl) for |r| <= pi/4 in float32.
func cosKernelF(r, rl float32) float32 {
	z := r * r
	hz := 0.5 * z
	w := 1 - hz
	p := float32(1.0 / 479001600)
	p = p*z - 1.0/3628800
	p = p*z + 1.0/40320
	p = p*z - 1.0/720
	p = p*z + 1.0/24
	return w + (((1 - w) - hz) + (z*z*p - r*rl))
}

// Sin32 returns the sine of x. Special cases as Sin.
func Sin32(x float32) float32 {
	if x == 0 || x != x {
		return x
	}
	if isInf32(x) {
		return nan32()
	}
	n, r, rl := trigReduce32(x)
	var v float32
	if n&1 == 0 {
		v = sinKernelF(r, rl)
	} else {
		v = cosKernelF(r, rl)
	}
	if n&2 != 0 {
		return -v
	}
	return v
}

// Cos32 returns the cosine of x. Special cases as Cos.
func Cos32(x float32) float32 {
	if x != x || isInf32(x) {
		return nan32()
	}
	n, r, rl := trigReduce32(x)
	var v float32
	if n&1 == 0 {
		v = cosKernelF(r, rl)
	} else {
		v = sinKernelF(r, rl)
	}
	if (n+1)&2 != 0 {
		return -v
	}
	return v
}

// Sincos32 returns Sin32(x), Cos32(x) with one argument reduction.
func Sincos32(x float32) (sin, cos float32) {
	if x == 0 {
		return x, 1
	}
	if x != x || isInf32(x) {
		return nan32(), nan32()
	}
	n, r, rl := trigReduce32(x)
	s, c := sinKernelF(r, rl), cosKernelF(r, rl)
	if n&1 != 0 {
		s, c = c, -s
	}
	if n&2 != 0 {
		s, c = -s, -c
	}
	return s, c
}

// Tan32 returns the tangent of x. Special cases as Tan. The quotient is
// formed in float64.
func Tan32(x float32) float32 {
	if x == 0 || x != x {
		return x
	}
	if isInf32(x) {
		return nan32()
	}
	xd := float64(x)
	var n int
	var r float64
	if abs32(x) < 0x1p28 {
		kf := rint(xd * twoOPi)
		r = math.FMA(-kf, pio2Hi, xd) - kf*pio2Mid
		n = int(kf) & 3
	} else {
		var h, l float64
		n, h, l = payneHanek(math.Abs(xd))
		r = h + l
		if x < 0 {
			n, r = (-n)&3, -r
		}
	}
	z := r * r
	s := -1.0 / 39916800
	s = s*z + 1.0/362880
	s = s*z - 1.0/5040
	s = s*z + 1.0/120
	s = s*z - 1.0/6
	sv := r + r*z*s
	c := -1.0 / 87178291200
	c = c*z + 1.0/479001600
	c = c*z - 1.0/3628800
	c = c*z + 1.0/40320
	c = c*z - 1.0/720
	c = c*z + 1.0/24
	c = c*z - 0.5
	cv := 1 + z*c
	if n&1 == 0 {
		return float32(sv / cv)
	}
	return float32(-cv / sv)
}

// atanCoreF returns atan(q) for 0 <= q <= 1 in float32: below 0.1875 the
// series to q**13; above, atan(j/8) + atan(t), t = (q-j/8)/(1+q*j/8),
// |t| <= 1/16, with atan(j/8) from atanTH32/atanTL32.
func atanCoreF(q float32) float32 {
	j := int(q*8 + 0.5)
	if q < 0.1875 {
		j = 0
	}
	t := q
	if j != 0 {
		c := float32(j) * 0.125
		t = (q - c) / (1 + q*c) // q-c is exact
	}
	z := t * t
	p := float32(1.0 / 13)
	p = p*z - 1.0/11
	p = p*z + 1.0/9
	p = p*z - 1.0/7
	p = p*z + 1.0/5
	p = p*z - 1.0/3
	return atanTH32[j] + (t + (t*z*p + atanTL32[j]))
}

// atan2CoreF returns atan(a/b) in [0, pi/2] for a, b >= 0 finite, not
// both 0, in float32.
func atan2CoreF(a, b float32) float32 {
	if a <= b {
		return atanCoreF(a / b)
	}
	return pio2HiF - (atanCoreF(b/a) - pio2LoF)
}

// Atan32 returns the arctangent of x. Special cases as Atan.
func Atan32(x float32) float32 {
	if x == 0 || x != x {
		return x
	}
	a := abs32(x)
	var v float32
	if a <= 1 {
		v = atanCoreF(a)
	} else {
		v = pio2HiF - (atanCoreF(1/a) - pio2LoF) // 1/Inf = 0 gives pi/2
	}
	return copysign32(v, x)
}

// Atan232 returns the arc tangent of y/x in the quadrant of (x, y).
// Special cases as Atan2.
func Atan232(y, x float32) float32 {
	if v, ok := atan2Special(float64(y), float64(x)); ok {
		return float32(v)
	}
	v := atan2CoreF(abs32(y), abs32(x))
	if x < 0 {
		v = piHiF - (v - piLoF)
	}
	return copysign32(v, y)
}

const (
	pio2HiF = float32(math.Pi / 2) // pi/2 = pio2HiF + pio2LoF
	pio2LoF = float32(math.Pi/2 - float64(pio2HiF))
	piHiF   = float32(math.Pi) // pi = piHiF + piLoF
	piLoF   = float32(math.Pi - float64(piHiF))
)
