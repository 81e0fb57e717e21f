package cuda

import (
	"math"
	"strconv"
	"strings"

	"github.com/nugo-dev/nugo/internal/half"
	"github.com/nugo-dev/nugo/math32"
)

// Float16 is an IEEE 754 half-precision (binary16) float, the element type
// of Numba's float16 arrays: 1 sign bit, 5 exponent bits, 10 fraction bits,
// 2 bytes in memory. Kernels take []Float16, *DeviceArray[Float16] and
// Float16 scalars, and compute with HAdd, HMul, HFma and the other H
// functions; on the GPU it lives in a .b16 register and every operation is
// one PTX instruction (sm_53 and newer) or a float32 computation rounded
// back.
//
// Float16 is a struct so that Go's operators do not compile on it: a
// uint16 type would let a+b silently add bit patterns. == compiles on the
// CPU (it compares bit patterns, so -0 != +0 and a NaN equals a NaN with
// the same bits) but is refused in kernels: compare with HEq, HLt, ... or
// compare Bits. The zero value is +0.
//
// Every arithmetic result is correctly rounded to nearest even, on every
// backend, and every NaN result is the canonical NaN 0x7FFF that NVIDIA
// GPUs produce; the CPU backend computes the same bits as the GPU.
type Float16 struct{ bits uint16 }

// F16 rounds x to the nearest Float16, ties to even (PTX cvt.rn.f16.f32):
// magnitudes of 65520 and more become ±Inf, those below 2^-14 subnormals
// (down to 2^-24), NaN the canonical NaN 0x7FFF. A constant argument is
// converted at compile time.
func F16(x float32) Float16 { return Float16{half.FromFloat32(x)} }

// F16FromFloat64 rounds x to the nearest Float16 directly, ties to even,
// without rounding to float32 first (PTX cvt.rn.f16.f64).
func F16FromFloat64(x float64) Float16 { return Float16{half.FromFloat64(x)} }

// Float16FromBits returns the Float16 with IEEE 754 binary16 bit pattern b
// (the inverse of Bits).
func Float16FromBits(b uint16) Float16 { return Float16{b} }

// Bits returns h's IEEE 754 binary16 bit pattern.
func (h Float16) Bits() uint16 { return h.bits }

// Float32 converts h to float32, exactly (PTX cvt.f32.f16); a NaN becomes
// float32's canonical NaN 0x7FFFFFFF.
func (h Float16) Float32() float32 { return half.ToFloat32(h.bits) }

// Float64 converts h to float64, exactly (PTX cvt.f32.f16 and cvt.f64.f32).
func (h Float16) Float64() float64 { return float64(half.ToFloat32(h.bits)) }

// String formats h as the shortest decimal that reads back as h (parsed
// and rounded to half), as strconv formats float32 and float64, and of
// those the nearest to h: F16(0.1) is "0.1", not float32's
// "0.099975586".
func (h Float16) String() string {
	x := h.Float64()
	if x != x || math.IsInf(x, 0) || x == 0 {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	// Five significant digits tell every half apart (10^4 > 2^11).
	for p := 1; ; p++ {
		if d, ok := halfDecimal(HAbs(h), x, p); ok || p == 5 {
			f, _ := strconv.ParseFloat(d, 64)
			return sign + strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
}

// halfDecimal returns a decimal of p significant digits that reads back as
// the positive half h of value x: the nearest to x if it does, else the
// nearest on x's other side (the only other candidate: every decimal that
// reads back as h lies in an interval around x).
func halfDecimal(h Float16, x float64, p int) (string, bool) {
	near := strconv.FormatFloat(x, 'e', p-1, 64)
	if readsBack(near, h) {
		return near, true
	}
	mant, exp, _ := strings.Cut(near, "e")
	m, _ := strconv.Atoi(strings.Replace(mant, ".", "", 1))
	q, _ := strconv.Atoi(exp)
	q -= p - 1 // near is m·10^q
	if y, _ := strconv.ParseFloat(near, 64); y > x {
		if m--; m < pow10(p-1) { // below 10^(p-1+q): p nines, one place lower
			m, q = pow10(p)-1, q-1
		}
	} else {
		m++
	}
	other := strconv.Itoa(m) + "e" + strconv.Itoa(q)
	return other, readsBack(other, h)
}

// readsBack reports whether the decimal d rounds to h.
func readsBack(d string, h Float16) bool {
	f, err := strconv.ParseFloat(d, 64)
	return err == nil && F16FromFloat64(f) == h
}

// pow10 is 10^n for small n >= 0.
func pow10(n int) int {
	r := 1
	for range n {
		r *= 10
	}
	return r
}

// HAdd returns a+b rounded to half (PTX add.rn.f16; Numba's cuda.fp16.hadd).
func HAdd(a, b Float16) Float16 { return Float16{half.Add(a.bits, b.bits)} }

// HSub returns a-b rounded to half (PTX sub.rn.f16; cuda.fp16.hsub).
func HSub(a, b Float16) Float16 { return Float16{half.Sub(a.bits, b.bits)} }

// HMul returns a×b rounded to half (PTX mul.rn.f16; cuda.fp16.hmul).
func HMul(a, b Float16) Float16 { return Float16{half.Mul(a.bits, b.bits)} }

// HDiv returns a÷b correctly rounded to half (PTX: div.rn.f32 of the
// float32 values, then cvt.rn.f16.f32, which is exact: float32 carries
// enough bits for the double rounding to be innocuous; cuda.fp16.hdiv).
func HDiv(a, b Float16) Float16 { return Float16{half.Div(a.bits, b.bits)} }

// HFma returns a×b+c with a single rounding to half (PTX fma.rn.f16;
// cuda.fp16.hfma).
func HFma(a, b, c Float16) Float16 { return Float16{half.Fma(a.bits, b.bits, c.bits)} }

// HNeg returns -a: the sign bit flipped, as Go's unary minus on floats
// (PTX xor.b16; cuda.fp16.hneg). A NaN keeps its payload.
func HNeg(a Float16) Float16 { return Float16{half.Neg(a.bits)} }

// HAbs returns |a|: the sign bit cleared, as math.Abs (PTX and.b16;
// cuda.fp16.habs).
func HAbs(a Float16) Float16 { return Float16{half.Abs(a.bits)} }

// HMax returns the larger of a and b with PTX max's semantics: a NaN
// operand yields the other operand (two NaNs the canonical NaN), and +0 is
// larger than -0 (PTX max.f32 of the exact float32 values, as max.f16
// needs sm_80; cuda.fp16.hmax).
func HMax(a, b Float16) Float16 { return Float16{half.Max(a.bits, b.bits)} }

// HMin returns the smaller of a and b, as HMax does the larger
// (cuda.fp16.hmin).
func HMin(a, b Float16) Float16 { return Float16{half.Min(a.bits, b.bits)} }

// HEq reports whether a == b as IEEE numbers: -0 equals +0, a NaN equals
// nothing (PTX setp.eq.f16; cuda.fp16.heq).
func HEq(a, b Float16) bool { return half.Compare(half.EQ, a.bits, b.bits) }

// HNe reports whether a != b, ordered as CUDA's __hne and Numba's hne: false
// when either is a NaN, unlike Go's != on floats (PTX setp.ne.f16).
func HNe(a, b Float16) bool { return half.Compare(half.NE, a.bits, b.bits) }

// HLt reports whether a < b; false when either is a NaN (PTX setp.lt.f16;
// cuda.fp16.hlt).
func HLt(a, b Float16) bool { return half.Compare(half.LT, a.bits, b.bits) }

// HLe reports whether a <= b; false when either is a NaN (PTX setp.le.f16;
// cuda.fp16.hle).
func HLe(a, b Float16) bool { return half.Compare(half.LE, a.bits, b.bits) }

// HGt reports whether a > b; false when either is a NaN (PTX setp.gt.f16;
// cuda.fp16.hgt).
func HGt(a, b Float16) bool { return half.Compare(half.GT, a.bits, b.bits) }

// HGe reports whether a >= b; false when either is a NaN (PTX setp.ge.f16;
// cuda.fp16.hge).
func HGe(a, b Float16) bool { return half.Compare(half.GE, a.bits, b.bits) }

// The math functions compute in float32 and round to half. Those that
// float32 computes exactly (square root, reciprocal, the roundings) give
// the correctly rounded half; the transcendental ones take math32's result
// (nugo's device math library, within 1-2 float32 ulps), which rounds to
// the correctly rounded half or, rarely, to its neighbour: within 1 half
// ulp, off on at most 5 of the 63488 finite inputs per function (tests
// check every input). The CPU and the GPU compute the same float32 code,
// so they agree bit for bit.

// HSqrt returns √a correctly rounded (PTX sqrt.rn.f32 between cvts;
// cuda.fp16.hsqrt).
func HSqrt(a Float16) Float16 { return Float16{half.Sqrt(a.bits)} }

// HRsqrt returns 1/√a: the float32 square root and reciprocal, each
// correctly rounded, then rounded to half, which gives the correctly
// rounded half for every input (checked over all of them;
// cuda.fp16.hrsqrt).
func HRsqrt(a Float16) Float16 {
	s := float32(math.Sqrt(float64(a.Float32())))
	return F16(1 / s)
}

// HRcp returns 1/a correctly rounded (PTX rcp.rn.f32 between cvts;
// cuda.fp16.hrcp).
func HRcp(a Float16) Float16 { return F16(1 / a.Float32()) }

// HExp returns e**a (math32.Exp, rounded; cuda.fp16.hexp).
func HExp(a Float16) Float16 { return F16(math32.Exp(a.Float32())) }

// HExp2 returns 2**a (math32.Exp2, rounded; cuda.fp16.hexp2).
func HExp2(a Float16) Float16 { return F16(math32.Exp2(a.Float32())) }

// HExp10 returns 10**a (math32.Pow(10, a), rounded; cuda.fp16.hexp10).
func HExp10(a Float16) Float16 { return F16(math32.Pow(10, a.Float32())) }

// HLog returns the natural logarithm of a (math32.Log, rounded;
// cuda.fp16.hlog).
func HLog(a Float16) Float16 { return F16(math32.Log(a.Float32())) }

// HLog2 returns the binary logarithm of a (math32.Log2, rounded;
// cuda.fp16.hlog2).
func HLog2(a Float16) Float16 { return F16(math32.Log2(a.Float32())) }

// HLog10 returns the decimal logarithm of a (math32.Log10, rounded;
// cuda.fp16.hlog10).
func HLog10(a Float16) Float16 { return F16(math32.Log10(a.Float32())) }

// HSin returns the sine of a, in radians (math32.Sin, rounded;
// cuda.fp16.hsin).
func HSin(a Float16) Float16 { return F16(math32.Sin(a.Float32())) }

// HCos returns the cosine of a, in radians (math32.Cos, rounded;
// cuda.fp16.hcos).
func HCos(a Float16) Float16 { return F16(math32.Cos(a.Float32())) }

// HFloor returns the greatest integer value <= a, exactly (PTX
// cvt.rmi.f32.f32 between cvts; cuda.fp16.hfloor).
func HFloor(a Float16) Float16 { return F16(float32(math.Floor(float64(a.Float32())))) }

// HCeil returns the least integer value >= a, exactly (PTX cvt.rpi;
// cuda.fp16.hceil).
func HCeil(a Float16) Float16 { return F16(float32(math.Ceil(float64(a.Float32())))) }

// HTrunc returns a's integer part, exactly (PTX cvt.rzi; cuda.fp16.htrunc).
func HTrunc(a Float16) Float16 { return F16(float32(math.Trunc(float64(a.Float32())))) }

// HRint returns a rounded to the nearest integer, ties to even, exactly
// (PTX cvt.rni; cuda.fp16.hrint).
func HRint(a Float16) Float16 { return F16(float32(math.RoundToEven(float64(a.Float32())))) }
