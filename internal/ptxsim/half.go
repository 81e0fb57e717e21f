package ptxsim

import (
	"github.com/nugo-dev/nugo/internal/half"
)

// Half precision: .f16 values are binary16 bits in .b16 registers. The
// arithmetic and conversions are internal/half's, the same code the CPU
// backend runs, so a kernel's half results match the CPU bit for bit: each
// operation correctly rounded to nearest even, every NaN result the
// canonical 0x7FFF (what NVIDIA GPUs produce), and a NaN converted to
// float32 the canonical 0x7FFFFFFF.

func halfOp(fop uint8, a, b, c uint16) uint16 {
	switch fop {
	case fAdd:
		return half.Add(a, b)
	case fSub:
		return half.Sub(a, b)
	case fMul:
		return half.Mul(a, b)
	}
	return half.Fma(a, b, c)
}

func cvtHalf(fop uint8, v uint64) uint64 {
	switch fop {
	case cvtHToF32:
		return u32f(half.ToFloat32(uint16(v)))
	case cvtHToF64:
		return u64f(float64(half.ToFloat32(uint16(v))))
	case cvtF32ToH:
		return uint64(half.FromFloat32(f32(v)))
	}
	return uint64(half.FromFloat64(f64(v)))
}
