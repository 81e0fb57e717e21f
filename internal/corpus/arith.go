package corpus

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// Operators with Go's edge semantics.

func arithDiv64(t cuda.Thread, a, b, q, r []int64) {
	i := t.Grid1()
	if i < len(a) {
		q[i] = a[i] / b[i]
		r[i] = a[i] % b[i]
	}
}

func arithDivU64(t cuda.Thread, a, b, q, r []uint64) {
	i := t.Grid1()
	if i < len(a) {
		q[i] = a[i] / b[i]
		r[i] = a[i] % b[i]
	}
}

func arithDiv32(t cuda.Thread, a, b, q, r []int32) {
	i := t.Grid1()
	if i < len(a) {
		q[i] = a[i] / b[i]
		r[i] = a[i] % b[i]
	}
}

func arithDiv8(t cuda.Thread, a, b, q, r []int8) {
	i := t.Grid1()
	if i < len(a) {
		q[i] = a[i] / b[i]
		r[i] = a[i] % b[i]
	}
}

func arithDivConst(t cuda.Thread, a, out []int64) {
	i := t.Grid1()
	if i < len(a) {
		x := a[i]
		out[i] = x/7 + x%7 + x/-1 + x%-1 + x/16 + x%16 + x/-8
	}
}

func arithDivPow2(t cuda.Thread, a []int32, b []int8, c []uint16, d []int64, out []int64) {
	i := t.Grid1()
	if i < len(a) {
		out[i] = int64(a[i]/4+a[i]%8+a[i]/1024) + int64(b[i]/2+b[i]%4+b[i]/64) + int64(c[i]/8+c[i]%16) + d[i]/1024 + d[i]%4096 + d[i]/(1<<62)
	}
}

func arithShift64(t cuda.Thread, a []int64, s []uint, l, rs []int64, ru []uint64) {
	i := t.Grid1()
	if i < len(a) {
		l[i] = a[i] << s[i]
		rs[i] = a[i] >> s[i]
		ru[i] = uint64(a[i]) >> s[i]
	}
}

func arithShift32(t cuda.Thread, a []int32, s []int, l, rs []int32, ru []uint32) {
	i := t.Grid1()
	if i < len(a) {
		l[i] = a[i] << s[i]
		rs[i] = a[i] >> s[i]
		ru[i] = uint32(a[i]) >> s[i]
	}
}

func arithShift8(t cuda.Thread, a []int8, s []uint8, l, rs []int8, ru []uint8) {
	i := t.Grid1()
	if i < len(a) {
		l[i] = a[i] << s[i]
		rs[i] = a[i] >> s[i]
		ru[i] = uint8(a[i]) >> s[i]
	}
}

func arithShiftConst(t cuda.Thread, a []uint16, out []uint16) {
	i := t.Grid1()
	if i < len(a) {
		x := a[i]
		out[i] = x<<3 | x>>13 ^ x<<15>>15
	}
}

func arithBitwise(t cuda.Thread, a, b []uint32, out []uint32, sa []int16, sout []int16) {
	i := t.Grid1()
	if i < len(a) {
		x, y := a[i], b[i]
		out[i] = x&y ^ x | y&^x + ^x
		sout[i] = ^sa[i] &^ 0x0F0F
	}
}

func arithUnary(t cuda.Thread, a []int64, f []float64, na []int64, nf []float64, u8 []uint8) {
	i := t.Grid1()
	if i < len(a) {
		na[i] = -a[i] + +a[i]*2
		nf[i] = -f[i]
		u8[i] = -uint8(a[i])
	}
}

func arithWrap(t cuda.Thread, a []int32, b []uint8, c []int64, oa []int32, ob []uint8, oc []int64) {
	i := t.Grid1()
	if i < len(a) {
		oa[i] = a[i]*65537 + math.MaxInt32
		ob[i] = b[i]*b[i] + 200
		oc[i] = c[i]*c[i] - math.MinInt64
	}
}

// arithFloat checks that a*b+c is rounded twice, not fused.
func arithFloat(t cuda.Thread, a, b, c, out []float64, a32, b32, out32 []float32) {
	i := t.Grid1()
	if i < len(a) {
		out[i] = a[i]*b[i] + c[i] - a[i]/b[i]
		out32[i] = a32[i]*b32[i] + a32[i] - b32[i]/a32[i]
	}
}

func arithFloatCompare(t cuda.Thread, a, b []float64, out []int32) {
	i := t.Grid1()
	if i < len(a) {
		x, y := a[i], b[i]
		var r int32
		if x < y {
			r |= 1
		}
		if x <= y {
			r |= 2
		}
		if x > y {
			r |= 4
		}
		if x >= y {
			r |= 8
		}
		if x == y {
			r |= 16
		}
		if x != y {
			r |= 32
		}
		if x != x {
			r |= 64
		}
		out[i] = r
	}
}

const (
	big   = 1 << 40
	scale = big / 1024
	third = 1.0 / 3
)

func arithConsts(t cuda.Thread, out []int64, fout []float64) {
	i := t.Grid1()
	if i < len(out) {
		out[i] = scale*int64(i) + (big>>30)%7 - math.MaxInt8
		fout[i] = third*float64(i) + math.Pi/4 + 1e-300*1e-10
	}
}

// Division by constants: multiply-high sequences in compiled engines
// (corpus "arith/div_const_*"). Each element gives divConstN quotients and
// remainders, by positive and negative divisors, powers of two, 1, -1 and
// the extremes of the type.

const divConstN = 20

func arithDivConstI64(t cuda.Thread, a, q, r []int64) {
	i := t.Grid1()
	if i < len(a) {
		x, k := a[i], i*divConstN
		q[k+0], r[k+0] = x/1, x%1
		q[k+1], r[k+1] = x/-1, x%-1
		q[k+2], r[k+2] = x/2, x%2
		q[k+3], r[k+3] = x/-2, x%-2
		q[k+4], r[k+4] = x/3, x%3
		q[k+5], r[k+5] = x/-3, x%-3
		q[k+6], r[k+6] = x/7, x%7
		q[k+7], r[k+7] = x/-7, x%-7
		q[k+8], r[k+8] = x/10, x%10
		q[k+9], r[k+9] = x/-10, x%-10
		q[k+10], r[k+10] = x/641, x%641
		q[k+11], r[k+11] = x/-16, x%-16
		q[k+12], r[k+12] = x/(1e9+7), x%(1e9+7)
		q[k+13], r[k+13] = x/-(1e9+7), x%-(1e9+7)
		q[k+14], r[k+14] = x/math.MaxInt64, x%math.MaxInt64
		q[k+15], r[k+15] = x/math.MinInt64, x%math.MinInt64
		q[k+16], r[k+16] = x/(1<<62), x%(1<<62)
		q[k+17], r[k+17] = x/(1<<32+1), x%(1<<32+1)
		q[k+18], r[k+18] = x/-(1<<40), x%-(1<<40)
		q[k+19], r[k+19] = x/1000000, x%1000000
	}
}

func arithDivConstU64(t cuda.Thread, a, q, r []uint64) {
	i := t.Grid1()
	if i < len(a) {
		x, k := a[i], i*divConstN
		q[k+0], r[k+0] = x/1, x%1
		q[k+1], r[k+1] = x/2, x%2
		q[k+2], r[k+2] = x/3, x%3
		q[k+3], r[k+3] = x/5, x%5
		q[k+4], r[k+4] = x/6, x%6
		q[k+5], r[k+5] = x/7, x%7
		q[k+6], r[k+6] = x/10, x%10
		q[k+7], r[k+7] = x/641, x%641
		q[k+8], r[k+8] = x/(1e9+7), x%(1e9+7)
		q[k+9], r[k+9] = x/math.MaxInt64, x%math.MaxInt64
		q[k+10], r[k+10] = x/(1<<63), x%(1<<63)
		q[k+11], r[k+11] = x/(1<<63+1), x%(1<<63+1)
		q[k+12], r[k+12] = x/math.MaxUint64, x%math.MaxUint64
		q[k+13], r[k+13] = x/(1<<32+1), x%(1<<32+1)
		q[k+14], r[k+14] = x/math.MaxUint32, x%math.MaxUint32
		q[k+15], r[k+15] = x/1000000, x%1000000
		q[k+16], r[k+16] = x/12345678901, x%12345678901
		q[k+17], r[k+17] = x/(1<<62+3), x%(1<<62+3)
		q[k+18], r[k+18] = x/25, x%25
		q[k+19], r[k+19] = x/1e19, x%1e19
	}
}

func arithDivConstI32(t cuda.Thread, a, q, r []int32) {
	i := t.Grid1()
	if i < len(a) {
		x, k := a[i], i*divConstN
		q[k+0], r[k+0] = x/1, x%1
		q[k+1], r[k+1] = x/-1, x%-1
		q[k+2], r[k+2] = x/3, x%3
		q[k+3], r[k+3] = x/-3, x%-3
		q[k+4], r[k+4] = x/7, x%7
		q[k+5], r[k+5] = x/-7, x%-7
		q[k+6], r[k+6] = x/10, x%10
		q[k+7], r[k+7] = x/641, x%641
		q[k+8], r[k+8] = x/-16, x%-16
		q[k+9], r[k+9] = x/(1e9+7), x%(1e9+7)
		q[k+10], r[k+10] = x/math.MaxInt32, x%math.MaxInt32
		q[k+11], r[k+11] = x/math.MinInt32, x%math.MinInt32
	}
}

// arithDivConstNarrow divides ints known to fit in 32 bits (converted from
// int32, so possibly negative): 32-bit multiply-high sequences.
func arithDivConstNarrow(t cuda.Thread, a []int32, q, r []int) {
	i := t.Grid1()
	if i < len(a) {
		x, k := int(a[i]), i*divConstN
		y := int(int16(a[i])) - 5 // in [-32773, 32762]
		q[k+0], r[k+0] = x/3, x%3
		q[k+1], r[k+1] = x/-3, x%-3
		q[k+2], r[k+2] = x/7, x%7
		q[k+3], r[k+3] = x/-7, x%-7
		q[k+4], r[k+4] = x/10, x%10
		q[k+5], r[k+5] = x/641, x%641
		q[k+6], r[k+6] = x/-16, x%-16
		q[k+7], r[k+7] = x/(1e9+7), x%(1e9+7)
		q[k+8], r[k+8] = x/math.MaxInt32, x%math.MaxInt32
		q[k+9], r[k+9] = x/math.MinInt32, x%math.MinInt32
		q[k+10], r[k+10] = x/1, x%1
		q[k+11], r[k+11] = x/-1, x%-1
		q[k+12], r[k+12] = y/3, y%3
		q[k+13], r[k+13] = y/-7, y%-7
		q[k+14], r[k+14] = y/-1, y%-1
		q[k+15], r[k+15] = y/1000, y%1000
		q[k+16], r[k+16] = y/-32768, y%-32768
		q[k+17], r[k+17] = y/6, y%6
		q[k+18], r[k+18] = y/8, y%8
		q[k+19], r[k+19] = y/-100, y%-100
	}
}

// arithDivConstSmall divides int8 and int16 values (held sign-extended in
// 32-bit registers) by constants: MinInt8 / -1 wraps to MinInt8.
func arithDivConstSmall(t cuda.Thread, a []int8, b []int16, q8, r8 []int8, q16, r16 []int16) {
	i := t.Grid1()
	if i < len(a) {
		x, y, k := a[i], b[i], i*divConstN
		q8[k+0], r8[k+0] = x/-1, x%-1
		q8[k+1], r8[k+1] = x/3, x%3
		q8[k+2], r8[k+2] = x/-7, x%-7
		q8[k+3], r8[k+3] = x/127, x%127
		q8[k+4], r8[k+4] = x/-128, x%-128
		q8[k+5], r8[k+5] = x/100, x%100
		q8[k+6], r8[k+6] = x/1, x%1
		q8[k+7], r8[k+7] = x/-4, x%-4
		q16[k+0], r16[k+0] = y/-1, y%-1
		q16[k+1], r16[k+1] = y/3, y%3
		q16[k+2], r16[k+2] = y/-7, y%-7
		q16[k+3], r16[k+3] = y/1000, y%1000
		q16[k+4], r16[k+4] = y/-32768, y%-32768
		q16[k+5], r16[k+5] = y/32767, y%32767
		q16[k+6], r16[k+6] = y/641, y%641
		q16[k+7], r16[k+7] = y/-10, y%-10
	}
}

// arithDivConstU32 divides uint32, uint16 and uint8 values by constants.
func arithDivConstU32(t cuda.Thread, a []uint32, q, r []uint32, q16, r16 []uint16, q8, r8 []uint8) {
	i := t.Grid1()
	if i < len(a) {
		x, y, z, k := a[i], uint16(a[i]), uint8(a[i]), i*divConstN
		q[k+0], r[k+0] = x/1, x%1
		q[k+1], r[k+1] = x/3, x%3
		q[k+2], r[k+2] = x/7, x%7
		q[k+3], r[k+3] = x/10, x%10
		q[k+4], r[k+4] = x/641, x%641
		q[k+5], r[k+5] = x/(1e9+7), x%(1e9+7)
		q[k+6], r[k+6] = x/math.MaxUint32, x%math.MaxUint32
		q[k+7], r[k+7] = x/(1<<31), x%(1<<31)
		q[k+8], r[k+8] = x/(1<<31+1), x%(1<<31+1)
		q[k+9], r[k+9] = x/(1<<31-1), x%(1<<31-1)
		q[k+10], r[k+10] = x/25, x%25
		q[k+11], r[k+11] = x/6, x%6
		q16[k+0], r16[k+0] = y/3, y%3
		q16[k+1], r16[k+1] = y/7, y%7
		q16[k+2], r16[k+2] = y/1000, y%1000
		q16[k+3], r16[k+3] = y/65535, y%65535
		q16[k+4], r16[k+4] = y/32769, y%32769
		q8[k+0], r8[k+0] = z/3, z%3
		q8[k+1], r8[k+1] = z/7, z%7
		q8[k+2], r8[k+2] = z/255, z%255
		q8[k+3], r8[k+3] = z/129, z%129
		q8[k+4], r8[k+4] = z/100, z%100
	}
}

func nonzero64(n int) []int64 {
	v := cycleI64(n + 11)[11:]
	for i := range v {
		if v[i] == 0 {
			v[i] = 3
		}
	}
	v[0], v[1] = -1, -1 // MinInt64 / -1 at a[?] too
	return v
}

func shiftCounts[T cuda.Integer](n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = T(i % 70)
	}
	return out
}

func withMin[T cuda.Integer](v []T, min T) []T {
	v[0], v[1] = min, min
	return v
}

func nonzeroOf[T cuda.Integer](n int) []T {
	v := cycleOf[T](n + 13)[13:]
	for i := range v {
		if v[i] == 0 {
			v[i] = 5
		}
	}
	v[0], v[1] = 0, 0
	v[0]--
	v[1]--
	return v
}

var arithCases = []Case{
	c1("arith/div_int64", arithDiv64, func() []any {
		return []any{withMin(cycleI64(n1), math.MinInt64), nonzero64(n1), zeros[int64](n1), zeros[int64](n1)}
	}),
	c1("arith/div_uint64", arithDivU64, func() []any {
		return []any{cycleOf[uint64](n1), nonzeroOf[uint64](n1), zeros[uint64](n1), zeros[uint64](n1)}
	}),
	c1("arith/div_int32", arithDiv32, func() []any {
		return []any{withMin(cycleOf[int32](n1), math.MinInt32), nonzeroOf[int32](n1), zeros[int32](n1), zeros[int32](n1)}
	}),
	c1("arith/div_int8", arithDiv8, func() []any {
		return []any{withMin(cycleOf[int8](n1), math.MinInt8), nonzeroOf[int8](n1), zeros[int8](n1), zeros[int8](n1)}
	}),
	c1("arith/div_const", arithDivConst, func() []any { return []any{cycleI64(n1), zeros[int64](n1)} }),
	c1("arith/div_const_int64", arithDivConstI64, func() []any {
		return []any{cycleI64(n1), zeros[int64](n1 * divConstN), zeros[int64](n1 * divConstN)}
	}),
	c1("arith/div_const_uint64", arithDivConstU64, func() []any {
		return []any{cycleOf[uint64](n1), zeros[uint64](n1 * divConstN), zeros[uint64](n1 * divConstN)}
	}),
	c1("arith/div_const_int32", arithDivConstI32, func() []any {
		return []any{cycleOf[int32](n1), zeros[int32](n1 * divConstN), zeros[int32](n1 * divConstN)}
	}),
	c1("arith/div_const_narrow", arithDivConstNarrow, func() []any {
		return []any{cycleOf[int32](n1), zeros[int](n1 * divConstN), zeros[int](n1 * divConstN)}
	}),
	c1("arith/div_const_small", arithDivConstSmall, func() []any {
		return []any{withMin(cycleOf[int8](n1), math.MinInt8), withMin(cycleOf[int16](n1), math.MinInt16),
			zeros[int8](n1 * divConstN), zeros[int8](n1 * divConstN), zeros[int16](n1 * divConstN), zeros[int16](n1 * divConstN)}
	}),
	c1("arith/div_const_uint32", arithDivConstU32, func() []any {
		return []any{cycleOf[uint32](n1), zeros[uint32](n1 * divConstN), zeros[uint32](n1 * divConstN),
			zeros[uint16](n1 * divConstN), zeros[uint16](n1 * divConstN), zeros[uint8](n1 * divConstN), zeros[uint8](n1 * divConstN)}
	}),
	c1("arith/div_pow2", arithDivPow2, func() []any {
		return []any{cycleOf[int32](n1), cycleOf[int8](n1), cycleOf[uint16](n1), cycleI64(n1), zeros[int64](n1)}
	}),
	c1("arith/shift_int64", arithShift64, func() []any {
		return []any{cycleI64(n1), shiftCounts[uint](n1), zeros[int64](n1), zeros[int64](n1), zeros[uint64](n1)}
	}),
	c1("arith/shift_int32", arithShift32, func() []any {
		return []any{cycleOf[int32](n1), shiftCounts[int](n1), zeros[int32](n1), zeros[int32](n1), zeros[uint32](n1)}
	}),
	c1("arith/shift_int8", arithShift8, func() []any {
		return []any{cycleOf[int8](n1), shiftCounts[uint8](n1), zeros[int8](n1), zeros[int8](n1), zeros[uint8](n1)}
	}),
	c1("arith/shift_const", arithShiftConst, func() []any { return []any{cycleOf[uint16](n1), zeros[uint16](n1)} }),
	c1("arith/bitwise", arithBitwise, func() []any {
		return []any{cycleOf[uint32](n1), cycleOf[uint32](n1 + 9)[9:], zeros[uint32](n1), cycleOf[int16](n1), zeros[int16](n1)}
	}),
	c1("arith/unary", arithUnary, func() []any {
		return []any{cycleI64(n1), cycleF64(n1), zeros[int64](n1), zeros[float64](n1), zeros[uint8](n1)}
	}),
	c1("arith/wrap", arithWrap, func() []any {
		return []any{cycleOf[int32](n1), cycleOf[uint8](n1), cycleI64(n1), zeros[int32](n1), zeros[uint8](n1), zeros[int64](n1)}
	}),
	c1("arith/float_no_fma", arithFloat, func() []any {
		return []any{cycleF64(n1), cycleF64(n1 + 1)[1:], cycleF64(n1 + 2)[2:], zeros[float64](n1), cycleF32(n1), cycleF32(n1 + 3)[3:], zeros[float32](n1)}
	}),
	c1("arith/float_compare", arithFloatCompare, func() []any {
		return []any{cycleF64(n1), cycleF64(n1 + 15)[15:], zeros[int32](n1)}
	}),
	c1("arith/constants", arithConsts, func() []any { return []any{zeros[int64](n1), zeros[float64](n1)} }),
}
