package ptxsim

import (
	"math"
	"math/big"
)

// ftz32 flushes a float32 subnormal to a zero of the same sign.
func ftz32(x float32) float32 {
	if x != 0 && math.Abs(float64(x)) < 0x1p-126 {
		return float32(math.Copysign(0, float64(x)))
	}
	return x
}

// round32 rounds x + r, where r is a residual much smaller than an ulp of x
// known only by its sign (sticky), to float32 with rounding mode mode.
func round32(x float64, sticky int, mode uint8) float32 {
	c := float32(x) // round to nearest even
	switch mode {
	case rnDefault, rnRN, rnRNI:
		if sticky != 0 && float64(c) != x {
			// a tie at float32 precision is broken by the residual
			lo, hi := float64(c), float64(c)
			if float64(c) < x {
				hi = float64(math.Nextafter32(c, float32(math.Inf(1))))
			} else {
				lo = float64(math.Nextafter32(c, float32(math.Inf(-1))))
			}
			if x-lo == hi-x {
				if sticky > 0 {
					return float32(hi)
				}
				return float32(lo)
			}
		}
		return c
	}
	if x != x {
		return c
	}
	// direction of the exact value relative to c
	var above bool // exact > c
	switch {
	case float64(c) < x:
		above = true
	case float64(c) > x:
		above = false
	default:
		if sticky == 0 {
			return c
		}
		above = sticky > 0
	}
	up := float32(math.Inf(1))
	down := float32(math.Inf(-1))
	switch mode {
	case rnRZ, rnRZI:
		// toward zero: if c is farther from zero than the exact value, step back
		if c > 0 && !above || c < 0 && above {
			return math.Nextafter32(c, 0)
		}
		return c
	case rnRM, rnRMI:
		if !above {
			return math.Nextafter32(c, down)
		}
		return c
	case rnRP, rnRPI:
		if above {
			return math.Nextafter32(c, up)
		}
		return c
	}
	return c
}

// round64 applies a directed rounding to a round-to-nearest float64 result s
// whose exact value is s + residual (sign given by sticky).
func round64(s float64, sticky int, mode uint8) float64 {
	if sticky == 0 || s != s {
		return s
	}
	switch mode {
	case rnRZ, rnRZI:
		if s > 0 && sticky < 0 || s < 0 && sticky > 0 {
			return math.Nextafter(s, 0)
		}
	case rnRM, rnRMI:
		if sticky < 0 {
			return math.Nextafter(s, math.Inf(-1))
		}
	case rnRP, rnRPI:
		if sticky > 0 {
			return math.Nextafter(s, math.Inf(1))
		}
	}
	return s
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// twoSum returns s = fl(a+b) and the exact error a+b-s.
func twoSum(a, b float64) (float64, float64) {
	s := a + b
	bb := s - a
	e := (a - (s - bb)) + (b - bb)
	return s, e
}

// zeroSumRM gives the sign of an exact zero sum when rounding toward -Inf:
// -0 unless both addends are +0 (IEEE 754 6.3). For sub, b is already negated.
func zeroSumRM(s, a, b, c float64, op uint8) float64 {
	x, y := a, b
	if op == fFma {
		x, y = a*b, c
	}
	if x == 0 && y == 0 && !math.Signbit(x) && !math.Signbit(y) {
		return 0
	}
	return math.Copysign(0, -1)
}

// fma32 is a correctly rounded float32 fused multiply-add.
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b) // exact
	s, e := twoSum(p, float64(c))
	return round32(s, sign(e), rnRN)
}

// arith64 computes a float64 operation with rounding mode mode. Round to
// nearest uses the host's IEEE arithmetic; the directed modes compute the
// exact result with math/big and round it, subnormals and overflow included.
func arith64(op uint8, a, b, c float64, mode uint8) float64 {
	var s float64
	switch op {
	case fAdd:
		s = a + b
	case fSub:
		s = a - b
	case fMul:
		s = a * b
	case fFma:
		s = math.FMA(a, b, c)
	case fDiv:
		s = a / b
	case fSqrt:
		s = math.Sqrt(a)
	}
	if mode == rnRN || mode == rnDefault || math.IsInf(s, 0) && (math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsInf(c, 0)) || s != s {
		return s
	}
	if op == fDiv && (b == 0 || math.IsInf(a, 0) || math.IsInf(b, 0)) || op == fSqrt && (a == 0 || math.IsInf(a, 0)) {
		return s
	}
	if op == fFma && (math.IsInf(a, 0) || math.IsInf(b, 0)) {
		return s
	}
	exact := func(v float64) *big.Float { return new(big.Float).SetPrec(4000).SetFloat64(v) }
	z := new(big.Float).SetPrec(4000).SetMode(bigMode(mode))
	switch op {
	case fAdd:
		z.Add(exact(a), exact(b))
	case fSub:
		z.Sub(exact(a), exact(b))
	case fMul:
		z.Mul(exact(a), exact(b))
	case fFma:
		z.Mul(exact(a), exact(b))
		z.Add(z, exact(c))
	case fDiv:
		z.SetPrec(400).Quo(exact(a), exact(b))
	case fSqrt:
		z.SetPrec(400).Sqrt(exact(a))
	}
	return roundBig(z, 53, -1074, math.MaxFloat64, mode)
}

func bigMode(mode uint8) big.RoundingMode {
	switch mode {
	case rnRZ, rnRZI:
		return big.ToZero
	case rnRM, rnRMI:
		return big.ToNegativeInf
	case rnRP, rnRPI:
		return big.ToPositiveInf
	}
	return big.ToNearestEven
}

// roundBig rounds z (exact, or already rounded in the same direction at a
// much higher precision) to a binary format with mant significand bits,
// smallest ulp 2^minExp and largest finite value maxv.
func roundBig(z *big.Float, mant, minExp int, maxv float64, mode uint8) float64 {
	if z.Sign() == 0 || z.IsInf() {
		f, _ := z.Float64()
		return f
	}
	ulp := max(z.MantExp(nil)-mant, minExp)
	scaled := new(big.Float).SetPrec(z.Prec()).SetMantExp(z, -ulp)
	iv, _ := scaled.Int(nil) // toward zero
	frac := new(big.Float).SetPrec(scaled.Prec()).Sub(scaled, new(big.Float).SetInt(iv))
	away := false
	switch bigMode(mode) {
	case big.ToNearestEven:
		c := new(big.Float).Abs(frac).Cmp(big.NewFloat(0.5))
		away = c > 0 || c == 0 && iv.Bit(0) == 1
	case big.ToNegativeInf:
		away = frac.Sign() < 0
	case big.ToPositiveInf:
		away = frac.Sign() > 0
	}
	if away {
		if scaled.Sign() < 0 {
			iv.Sub(iv, big.NewInt(1))
		} else {
			iv.Add(iv, big.NewInt(1))
		}
	}
	r := new(big.Float).SetPrec(uint(mant) + 8).SetInt(iv)
	f, _ := r.SetMantExp(r, ulp).Float64()
	if math.Abs(f) > maxv {
		m := bigMode(mode)
		if m == big.ToZero || m == big.ToNegativeInf && f > 0 || m == big.ToPositiveInf && f < 0 {
			return math.Copysign(maxv, f)
		}
		return math.Copysign(math.Inf(1), f)
	}
	if f == 0 {
		return math.Copysign(0, float64(z.Sign()))
	}
	return f
}

// arith32 computes a float32 operation with rounding mode mode.
func arith32(op uint8, a, b, c float32, mode uint8) float32 {
	x, y, z := float64(a), float64(b), float64(c)
	var s float64
	st := 0
	switch op {
	case fAdd, fSub:
		if op == fSub {
			y = -y
		}
		var e float64
		s, e = twoSum(x, y)
		st = sign(e)
	case fMul:
		s = x * y // exact
	case fFma:
		p := x * y
		var e float64
		s, e = twoSum(p, z)
		st = sign(e)
	case fDiv:
		s = x / y
		if !math.IsInf(s, 0) && s == s && s != 0 {
			st = sign(math.FMA(-s, y, x)) * sign(y)
		}
	case fSqrt:
		s = math.Sqrt(x)
		if !math.IsInf(s, 0) && s == s && s != 0 {
			st = sign(math.FMA(-s, s, x))
		}
	}
	if math.IsInf(s, 0) || s != s {
		st = 0
	}
	if s == 0 && st == 0 && (mode == rnRM) && (op == fAdd || op == fSub || op == fFma) {
		return float32(zeroSumRM(s, x, y, z, op))
	}
	return round32(s, st, mode)
}

func floatMin(a, b float64, isMax bool) float64 {
	if a != a {
		return b
	}
	if b != b {
		return a
	}
	if a == b { // order -0 below +0
		if isMax == math.Signbit(a) {
			return b
		}
		return a
	}
	if (a < b) != isMax {
		return a
	}
	return b
}

func testp(cl uint8, x float64, is32 bool) bool {
	switch cl {
	case tpFinite:
		return !math.IsInf(x, 0) && x == x
	case tpInfinite:
		return math.IsInf(x, 0)
	case tpNumber:
		return x == x
	case tpNotANumber:
		return x != x
	case tpNormal, tpSubnormal:
		if x == 0 || x != x || math.IsInf(x, 0) {
			return false
		}
		min := 0x1p-1022
		if is32 {
			min = 0x1p-126
		}
		sub := math.Abs(x) < min
		return sub == (cl == tpSubnormal)
	}
	return false
}

// floatOp executes every float operation without a fast path.
func floatOp(in *inst, ra, rb, rc uint64) uint64 {
	ftz := in.flags&flFtz != 0
	if in.ty == tF64 {
		a, b, c := f64(ra), f64(rb), f64(rc)
		var r float64
		switch in.fop {
		case fAdd, fSub, fMul, fFma, fDiv, fSqrt:
			if in.flags&flApprox != 0 && in.fop != fDiv {
				r = arith64(in.fop, a, b, c, rnRN)
			} else {
				r = arith64(in.fop, a, b, c, in.rnd)
			}
		case fMin:
			r = floatMin(a, b, false)
		case fMax:
			r = floatMin(a, b, true)
		case fAbs:
			r = math.Abs(a)
		case fNeg:
			r = -a
		case fRcp:
			if in.flags&flApprox != 0 {
				r = 1 / a
			} else {
				r = arith64(fDiv, 1, a, 0, in.rnd)
			}
		case fRsqrt:
			r = 1 / math.Sqrt(a)
		case fCopysign:
			r = math.Copysign(b, a)
		case fTestp:
			return b2u(testp(in.cmp, a, false))
		default:
			r = approx64(in.fop, a)
		}
		if in.flags&flSat != 0 {
			r = sat(r)
		}
		return u64f(r)
	}
	a, b, c := f32(ra), f32(rb), f32(rc)
	if ftz {
		a, b, c = ftz32(a), ftz32(b), ftz32(c)
	}
	var r float32
	switch in.fop {
	case fAdd, fSub, fMul, fFma, fSqrt:
		mode := in.rnd
		if in.flags&flApprox != 0 {
			mode = rnRN
		}
		r = arith32(in.fop, a, b, c, mode)
	case fDiv:
		if in.flags&flApprox != 0 {
			r = float32(float64(a) / float64(b))
		} else {
			r = arith32(fDiv, a, b, 0, in.rnd)
		}
	case fMin:
		r = float32(floatMin(float64(a), float64(b), false))
	case fMax:
		r = float32(floatMin(float64(a), float64(b), true))
	case fAbs:
		r = float32(math.Abs(float64(a)))
	case fNeg:
		r = -a
	case fRcp:
		if in.flags&flApprox != 0 {
			r = float32(1 / float64(a))
		} else {
			r = arith32(fDiv, 1, a, 0, in.rnd)
		}
	case fRsqrt:
		r = float32(1 / math.Sqrt(float64(a)))
	case fCopysign:
		r = float32(math.Copysign(float64(b), float64(a)))
	case fTestp:
		return b2u(testp(in.cmp, float64(a), true))
	default:
		r = float32(approx64(in.fop, float64(a)))
	}
	if in.flags&flSat != 0 {
		r = float32(sat(float64(r)))
	}
	if ftz {
		r = ftz32(r)
	}
	return u32f(r)
}

func sat(x float64) float64 {
	switch {
	case x != x:
		return 0
	case x <= 0: // -0 saturates to +0
		return 0
	case x > 1:
		return 1
	}
	return x
}

// approx64 computes the .approx transcendental functions accurately.
func approx64(op uint8, x float64) float64 {
	switch op {
	case fEx2:
		return math.Exp2(x)
	case fLg2:
		return math.Log2(x)
	case fSin:
		return math.Sin(x)
	case fCos:
		return math.Cos(x)
	case fTanh:
		return math.Tanh(x)
	}
	return math.NaN()
}

// roundInt rounds a float64 to an integral value with an integer rounding mode.
func roundInt(x float64, mode uint8) float64 {
	switch mode {
	case rnRNI:
		return math.RoundToEven(x)
	case rnRZI:
		return math.Trunc(x)
	case rnRMI:
		return math.Floor(x)
	case rnRPI:
		return math.Ceil(x)
	}
	return x
}

// cvt executes every conversion except plain integer-to-integer.
func cvt(in *inst, v uint64) uint64 {
	dt, st := in.ty, in.ty2
	switch {
	case st.isInt() && dt.isInt(): // with .sat
		var sv int64
		var uv uint64
		neg := false
		if st.signed() {
			sv = sx(v, in.sh2)
			neg = sv < 0
			uv = uint64(sv)
		} else {
			uv = v << in.sh2 >> in.sh2
		}
		w := dt.bits()
		var r uint64
		if dt.signed() {
			hi := int64(1)<<(w-1) - 1
			lo := -hi - 1
			switch {
			case neg && sv < lo:
				r = uint64(lo)
			case neg:
				r = uint64(sv)
			case uv > uint64(hi):
				r = uint64(hi)
			default:
				r = uv
			}
		} else {
			hi := maskOf(w)
			switch {
			case neg:
				r = 0
			case uv > hi:
				r = hi
			default:
				r = uv
			}
		}
		if dt.signed() {
			r = uint64(sx(r, in.sh))
		}
		return r & in.mask
	case st.isFloat() && dt.isFloat():
		var x float64
		if st == tF32 {
			f := f32(v)
			if in.flags&flFtz != 0 {
				f = ftz32(f)
			}
			x = float64(f)
		} else {
			x = f64(v)
		}
		if in.rnd >= rnRNI {
			x = roundInt(x, in.rnd)
		}
		if in.flags&flSat != 0 {
			x = sat(x)
		}
		if dt == tF32 {
			var r float32
			if st == tF64 && in.rnd < rnRNI {
				r = round32(x, 0, in.rnd)
			} else {
				r = float32(x)
			}
			if in.flags&flSat != 0 {
				r = float32(sat(float64(r)))
			}
			if in.flags&flFtz != 0 {
				r = ftz32(r)
			}
			return u32f(r)
		}
		return u64f(x)
	case st.isFloat(): // float -> int
		var x float64
		if st == tF32 {
			f := f32(v)
			if in.flags&flFtz != 0 {
				f = ftz32(f)
			}
			x = float64(f)
		} else {
			x = f64(v)
		}
		if x != x {
			return 0
		}
		x = roundInt(x, in.rnd)
		w := dt.bits()
		var r uint64
		if dt.signed() {
			hi := math.Ldexp(1, w-1)
			switch {
			case x >= hi:
				r = uint64(int64(1)<<(w-1) - 1)
			case x < -hi:
				r = uint64(-(int64(1) << (w - 1)))
			default:
				r = uint64(int64(x))
			}
		} else {
			hi := math.Ldexp(1, w)
			switch {
			case x <= 0:
				r = 0
			case x >= hi:
				r = maskOf(w)
			default:
				r = uint64(x)
			}
		}
		if dt.signed() {
			r = uint64(sx(r, uint8(64-w)))
		}
		return r & in.mask
	default: // int -> float
		var sv int64
		var uv uint64
		signed := st.signed()
		if signed {
			sv = sx(v, in.sh2)
		} else {
			uv = v << in.sh2 >> in.sh2
		}
		mode := in.rnd
		if dt == tF32 {
			var r float32
			if mode == rnDefault || mode == rnRN {
				if signed {
					r = float32(sv)
				} else {
					r = float32(uv)
				}
			} else {
				r = intToF32Directed(signed, sv, uv, mode)
			}
			if in.flags&flSat != 0 {
				r = float32(sat(float64(r)))
			}
			return u32f(r)
		}
		var r float64
		if signed {
			r = float64(sv)
			if mode != rnDefault && mode != rnRN {
				r = round64(r, cmpI64F(sv, r), mode)
			}
		} else {
			r = float64(uv)
			if mode != rnDefault && mode != rnRN {
				r = round64(r, cmpU64F(uv, r), mode)
			}
		}
		if in.flags&flSat != 0 {
			r = sat(r)
		}
		return u64f(r)
	}
}

// cmpI64F returns the sign of v - f exactly (f integral).
func cmpI64F(v int64, f float64) int {
	if f >= 0x1p63 {
		return -1
	}
	if f < -0x1p63 {
		return 1
	}
	fi := int64(f)
	switch {
	case v > fi:
		return 1
	case v < fi:
		return -1
	}
	return 0
}

func cmpU64F(v uint64, f float64) int {
	if f >= 0x1p64 {
		return -1
	}
	fi := uint64(f)
	switch {
	case v > fi:
		return 1
	case v < fi:
		return -1
	}
	return 0
}

func intToF32Directed(signed bool, sv int64, uv uint64, mode uint8) float32 {
	// float64 of a 64-bit integer may round; its residual sign is exact
	var x float64
	var st int
	if signed {
		x = float64(sv)
		st = cmpI64F(sv, x)
	} else {
		x = float64(uv)
		st = cmpU64F(uv, x)
	}
	return round32(x, st, mode)
}
