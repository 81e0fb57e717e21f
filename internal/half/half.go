// Package half is IEEE 754 binary16 arithmetic on bit patterns: the one
// implementation that package cuda's Float16 (the CPU backend) and the PTX
// interpreter (internal/ptxsim) share, so that both round every operation
// the same way, bit for bit.
//
// Every operation is correctly rounded to nearest even, as the GPU's .rn
// half instructions are, and every NaN result is the canonical NaN 0x7FFF,
// the NaN NVIDIA GPUs produce from f16 arithmetic and from cvt.rn.f16.f32.
// Conversions to float32 give float32's canonical NaN 0x7FFFFFFF for any NaN.
package half

import "math"

// Bit patterns of special values.
const (
	NaN     uint16 = 0x7FFF // canonical NaN
	PosInf  uint16 = 0x7C00
	NegInf  uint16 = 0xFC00
	signBit        = 0x8000
)

// nan32Bits are the bits of the float32 that a NaN half converts to (a
// constant: kernels that reach this package cannot read its variables).
const nan32Bits = 0x7FFFFFFF

// IsNaN reports whether h is a NaN.
func IsNaN(h uint16) bool { return h&0x7FFF > 0x7C00 }

// ToFloat32 converts h to float32 exactly (cvt.f32.f16).
func ToFloat32(h uint16) float32 {
	if e := h & 0x7C00; e != 0 && e != 0x7C00 { // normal: rebias 15 → 127
		return math.Float32frombits(uint32(h&signBit)<<16 | (uint32(h&0x7FFF)<<13 + 112<<23))
	}
	exp := int(h>>10) & 0x1F
	man := uint32(h & 0x3FF)
	sign := uint32(h&signBit) << 16
	switch {
	case exp == 0x1F:
		if man != 0 {
			return math.Float32frombits(nan32Bits)
		}
		return math.Float32frombits(sign | 0x7F800000)
	case exp == 0:
		// subnormal (or zero): man × 2^-24, exact in float32
		v := float32(man) * 0x1p-24
		return math.Float32frombits(sign | math.Float32bits(v))
	}
	return math.Float32frombits(sign | uint32(exp-15+127)<<23 | man<<13)
}

// FromFloat32 rounds x to the nearest half, ties to even (cvt.rn.f16.f32):
// magnitudes from 65520 up overflow to infinity, those below 2^-14 become
// subnormals, NaNs become the canonical NaN.
func FromFloat32(x float32) uint16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & signBit
	b &^= 1 << 31
	switch {
	case b > 0x7F800000:
		return NaN
	case b >= 0x477FF000: // 65520, halfway between 65504 (odd) and 2^16: up
		return sign | PosInf
	case b < 0x33000000: // below 2^-25, or the tie at 2^-25: to zero
		return sign
	case b < 0x38800000: // below 2^-14: a subnormal, in units of 2^-24
		e := b >> 23
		return sign | roundShift(uint64(b&0x7FFFFF|0x800000), uint(126-e))
	}
	// rebias the exponent (127 → 15) and drop 13 fraction bits; a carry out
	// of the fraction increments the exponent, as it should
	return sign | roundShift(uint64(b-112<<23), 13)
}

// FromFloat64 rounds x to the nearest half directly, ties to even
// (cvt.rn.f16.f64), as FromFloat32 does.
func FromFloat64(x float64) uint16 {
	b := math.Float64bits(x)
	sign := uint16(b>>48) & signBit
	b &^= 1 << 63
	switch {
	case b > 0x7FF0000000000000:
		return NaN
	case b >= 0x40EFFE0000000000: // 65520
		return sign | PosInf
	case b < 0x3E60000000000000: // 2^-25
		return sign
	case b < 0x3F10000000000000: // 2^-14
		e := b >> 52
		return sign | roundShift(b&(1<<52-1)|1<<52, uint(1051-e))
	}
	return sign | roundShift(b-1008<<52, 42)
}

// roundShift is v >> s rounded to nearest, ties to even.
func roundShift(v uint64, s uint) uint16 {
	q := v >> s
	rem := v & (1<<s - 1)
	half := uint64(1) << (s - 1)
	if rem > half || rem == half && q&1 != 0 {
		q++
	}
	return uint16(q)
}

// Neg flips the sign bit (a NaN keeps its payload).
func Neg(a uint16) uint16 { return a ^ signBit }

// Abs clears the sign bit (a NaN keeps its payload).
func Abs(a uint16) uint16 { return a &^ signBit }

// Add is a+b rounded to half. Computing in float32 and rounding again is
// exact: float32's 24 bits are at least 2×11+2, so the double rounding of
// +, -, ×, ÷ and √ is innocuous (Figueroa, 1995).
func Add(a, b uint16) uint16 { return FromFloat32(ToFloat32(a) + ToFloat32(b)) }

// Sub is a-b rounded to half.
func Sub(a, b uint16) uint16 { return FromFloat32(ToFloat32(a) - ToFloat32(b)) }

// Mul is a×b rounded to half.
func Mul(a, b uint16) uint16 { return FromFloat32(ToFloat32(a) * ToFloat32(b)) }

// Div is a÷b rounded to half.
func Div(a, b uint16) uint16 { return FromFloat32(ToFloat32(a) / ToFloat32(b)) }

// Sqrt is √a rounded to half.
func Sqrt(a uint16) uint16 { return FromFloat32(sqrt32(ToFloat32(a))) }

// sqrt32 is the correctly rounded float32 square root (sqrt.rn.f32):
// float64's 53 bits make the double rounding innocuous.
func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// Fma is a×b+c with one rounding to half (fma.rn.f16). The product is exact
// in float64; the sum is rounded to odd in float64 (53 >= 11+2 bits), after
// which rounding to half to nearest even is correct.
func Fma(a, b, c uint16) uint16 {
	p := float64(ToFloat32(a)) * float64(ToFloat32(b))
	s, e := twoSum(p, float64(ToFloat32(c)))
	if e != 0 && !math.IsInf(s, 0) && s == s && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, s+e) // the odd neighbour on the exact side
	}
	return FromFloat64(s)
}

// twoSum returns s = fl(a+b) and the exact error a+b-s.
func twoSum(a, b float64) (float64, float64) {
	s := a + b
	bb := s - a
	e := (a - (s - bb)) + (b - bb)
	return s, e
}

// Min is the smaller of a and b as PTX's min.f16 computes it: a NaN operand
// yields the other one (two NaNs the canonical NaN), and -0 is below +0.
func Min(a, b uint16) uint16 { return minMax(a, b, false) }

// Max is the larger of a and b as PTX's max.f16 computes it.
func Max(a, b uint16) uint16 { return minMax(a, b, true) }

func minMax(a, b uint16, isMax bool) uint16 {
	switch an, bn := IsNaN(a), IsNaN(b); {
	case an && bn:
		return NaN
	case an:
		return b
	case bn:
		return a
	}
	x, y := ToFloat32(a), ToFloat32(b)
	if x == y { // -0 below +0
		if (a&signBit != 0) == isMax {
			return b
		}
		return a
	}
	if (x < y) != isMax {
		return a
	}
	return b
}

// Comparison operators of setp.<op>.f16, ordered: a NaN operand makes every
// one of them false, NE included (CUDA's __hne).
const (
	EQ = iota
	NE
	LT
	LE
	GT
	GE
)

// Compare evaluates the ordered comparison op of a and b.
func Compare(op int, a, b uint16) bool {
	x, y := ToFloat32(a), ToFloat32(b)
	if x != x || y != y {
		return false
	}
	switch op {
	case EQ:
		return x == y
	case NE:
		return x != y
	case LT:
		return x < y
	case LE:
		return x <= y
	case GT:
		return x > y
	case GE:
		return x >= y
	}
	return false
}
