package corpus

import (
	"math/bits"

	"github.com/nugo-dev/nugo/cuda"
)

// math/bits on PTX's clz, popc, brev.

func bitsCounts(t cuda.Thread, a []uint64, lz, tz, oc, ln []int32) {
	if i := t.Grid1(); i < len(a) {
		x := a[i]
		lz[i] = int32(bits.LeadingZeros64(x)) + int32(bits.LeadingZeros32(uint32(x)))<<8 + int32(bits.LeadingZeros16(uint16(x)))<<16 + int32(bits.LeadingZeros8(uint8(x)))<<24
		tz[i] = int32(bits.TrailingZeros64(x)) + int32(bits.TrailingZeros32(uint32(x)))<<8 + int32(bits.TrailingZeros16(uint16(x)))<<16 + int32(bits.TrailingZeros8(uint8(x)))<<24
		oc[i] = int32(bits.OnesCount64(x)) + int32(bits.OnesCount32(uint32(x)))<<8 + int32(bits.OnesCount(uint(x)))<<16 + int32(bits.OnesCount8(uint8(x)))<<24
		ln[i] = int32(bits.Len64(x)) + int32(bits.Len32(uint32(x)))<<8 + int32(bits.Len(uint(x)))<<16 + int32(bits.Len16(uint16(x)))<<24
	}
}

func bitsReverse(t cuda.Thread, a []uint64, r64 []uint64, r32 []uint32, r16 []uint16, r8 []uint8, rb []uint64, rb32 []uint32) {
	if i := t.Grid1(); i < len(a) {
		x := a[i]
		r64[i] = bits.Reverse64(x)
		r32[i] = bits.Reverse32(uint32(x))
		r16[i] = bits.Reverse16(uint16(x))
		r8[i] = bits.Reverse8(uint8(x))
		rb[i] = bits.ReverseBytes64(x)
		rb32[i] = bits.ReverseBytes32(uint32(x)) ^ uint32(bits.ReverseBytes16(uint16(x)))
	}
}

func bitsRotate(t cuda.Thread, a []uint64, k []int, r64 []uint64, r32 []uint32, r8 []uint8) {
	if i := t.Grid1(); i < len(a) {
		r64[i] = bits.RotateLeft64(a[i], k[i])
		r32[i] = bits.RotateLeft32(uint32(a[i]), k[i])
		r8[i] = bits.RotateLeft8(uint8(a[i]), k[i])
	}
}

func bitsArith(t cuda.Thread, a, b []uint64, hi, lo, sum, carry, diff, borrow []uint64) {
	if i := t.Grid1(); i < len(a) {
		hi[i], lo[i] = bits.Mul64(a[i], b[i])
		sum[i], carry[i] = bits.Add64(a[i], b[i], uint64(i%2))
		diff[i], borrow[i] = bits.Sub64(a[i], b[i], uint64(i%2))
	}
}

func rotCounts(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i%150 - 75
	}
	return out
}

var bitsCases = []Case{
	c1("bits/counts", bitsCounts, func() []any {
		return []any{cycleOf[uint64](n1), zeros[int32](n1), zeros[int32](n1), zeros[int32](n1), zeros[int32](n1)}
	}),
	c1("bits/reverse", bitsReverse, func() []any {
		return []any{cycleOf[uint64](n1), zeros[uint64](n1), zeros[uint32](n1), zeros[uint16](n1), zeros[uint8](n1), zeros[uint64](n1), zeros[uint32](n1)}
	}),
	c1("bits/rotate", bitsRotate, func() []any {
		return []any{cycleOf[uint64](n1), rotCounts(n1), zeros[uint64](n1), zeros[uint32](n1), zeros[uint8](n1)}
	}),
	c1("bits/mul_add_sub", bitsArith, func() []any {
		return []any{cycleOf[uint64](n1), cycleOf[uint64](n1 + 5)[5:], zeros[uint64](n1), zeros[uint64](n1), zeros[uint64](n1), zeros[uint64](n1), zeros[uint64](n1), zeros[uint64](n1)}
	}),
}
