package devmath

import "math"

// Double-double helpers. A value hi+lo with |lo| <= ulp(hi)/2 carries about
// 106 bits; the functions below keep the rounding errors of the main
// operations so that results can be rounded once at the end.

// twoSum returns s+e == a+b exactly, s = fl(a+b).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// fastTwoSum is twoSum for |a| >= |b| (or a == 0).
func fastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	e = b - (s - a)
	return s, e
}

// twoProd returns p+e == a*b exactly (barring underflow), p = fl(a*b).
func twoProd(a, b float64) (p, e float64) {
	p = a * b
	e = math.FMA(a, b, -p)
	return p, e
}

// ddMul returns (ah+al)*(bh+bl) as a double-double.
func ddMul(ah, al, bh, bl float64) (float64, float64) {
	p, e := twoProd(ah, bh)
	e += ah*bl + al*bh
	return fastTwoSum(p, e)
}

// ddMulF returns (ah+al)*b.
func ddMulF(ah, al, b float64) (float64, float64) {
	p, e := twoProd(ah, b)
	e += al * b
	return fastTwoSum(p, e)
}

// ddAdd returns (ah+al)+(bh+bl).
func ddAdd(ah, al, bh, bl float64) (float64, float64) {
	s, e := twoSum(ah, bh)
	e += al + bl
	return fastTwoSum(s, e)
}

// ddDiv returns (ah+al)/(bh+bl).
func ddDiv(ah, al, bh, bl float64) (float64, float64) {
	q := ah / bh
	// r = a - q*b, computed with the error of q*bh kept.
	r := math.FMA(-q, bh, ah) + al - q*bl
	return fastTwoSum(q, r/bh)
}

// ddSqrt returns sqrt(ah+al) for ah > 0.
func ddSqrt(ah, al float64) (float64, float64) {
	s := math.Sqrt(ah)
	r := math.FMA(-s, s, ah) + al
	return fastTwoSum(s, r/(2*s))
}

// pow2 returns 2**k for -1022 <= k <= 1023.
func pow2(k int) float64 {
	return math.Float64frombits(uint64(k+1023) << 52)
}

// scale returns x * 2**k with one rounding, for |k| <= 2200 and normal x.
func scale(x float64, k int) float64 {
	if k > 1023 {
		x *= pow2(1023)
		k -= 1023
		if k > 1023 {
			x *= pow2(1023)
			k -= 1023
			if k > 1023 {
				k = 1023
			}
		}
		return x * pow2(k)
	}
	if k < -1022 {
		// Keep the product normal until the last multiplication so that
		// a subnormal result is rounded once.
		x *= pow2(-1022 + 54) // 2**-968
		k += 1022 - 54
		if k < -1022 {
			x *= pow2(-1022 + 54)
			k += 1022 - 54
			if k < -1022 {
				// Too small to matter: the product underflows to 0 or
				// the smallest subnormals either way.
				return x * pow2(-1022) * pow2(-60)
			}
		}
		return x * pow2(k)
	}
	return x * pow2(k)
}

// frexp splits a finite nonzero x into m * 2**e with 1 <= |m| < 2.
func frexp(x float64) (m float64, e int) {
	b := math.Float64bits(x)
	ex := int(b>>52) & 0x7ff
	if ex == 0 {
		// subnormal: scale up by 2**64 first
		x *= 1.8446744073709552e19
		b = math.Float64bits(x)
		ex = int(b>>52)&0x7ff - 64
	}
	e = ex - 1023
	m = math.Float64frombits(b&^(uint64(0x7ff)<<52) | uint64(1023)<<52)
	return m, e
}
