package corpus

import (
	"math"
	"math/bits"

	"github.com/nugo-dev/nugo/cuda"
)

// Warp primitives over full warps (blocks of 128 threads, every lane
// present), whose results CUDA defines exactly, and the match and lane
// mask operations, also over partial warps and returned lanes (absent
// lanes are in no match mask).

// warpSum sums each block's elements with a ShflDownSync tree per warp and
// the warps' partial sums through shared memory.
func warpSum(t cuda.Thread, in []float32, out []float32) {
	i := t.Grid1()
	var v float32
	if i < len(in) {
		v = in[i]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	partial := cuda.SharedArray[float32](t, 4)
	lane, w := t.LaneID(), t.ThreadIdx().X/32
	if lane == 0 {
		partial[w] = v
	}
	t.SyncThreads()
	if t.ThreadIdx().X == 0 {
		out[t.BlockIdx().X] = partial[0] + partial[1] + partial[2] + partial[3]
	}
}

// warpShuffles broadcasts lane 0's 64-bit value, rotates 32-bit values by
// one lane and shifts doubles up by three lanes.
func warpShuffles(t cuda.Thread, in []int64, f []float64, out []int64, rot []uint32, up []float64) {
	i := t.Grid1()
	var v int64
	var x float64
	if i < len(in) {
		v, x = in[i], f[i]
	}
	b := cuda.ShflSync(t, v, 0)
	r := cuda.ShflSync(t, uint32(v), t.LaneID()+1)
	u := cuda.ShflUpSync(t, x, 3)
	if i < len(out) {
		out[i], rot[i], up[i] = b, r, u
	}
}

// warpXorSum leaves its warp's sum in every lane by a butterfly.
func warpXorSum(t cuda.Thread, in []int64, out []int64) {
	i := t.Grid1()
	var v int64
	if i < len(in) {
		v = in[i]
	}
	for m := 16; m > 0; m /= 2 {
		v += cuda.ShflXorSync(t, v, m)
	}
	if i < len(out) {
		out[i] = v
	}
}

// warpVotes records Ballot, Any and All of a predicate per lane.
func warpVotes(t cuda.Thread, in []int32, ballot []uint32, anyAll []int32) {
	i := t.Grid1()
	p := i < len(in) && in[i]%3 == 0
	q := i >= len(in) || in[i] > -1000
	bal := cuda.BallotSync(t, p)
	a, l := cuda.AnySync(t, p), cuda.AllSync(t, q)
	t.SyncWarp()
	if i < len(ballot) {
		ballot[i] = bal
		var v int32
		if a {
			v |= 1
		}
		if l {
			v |= 2
		}
		anyAll[i] = v
	}
}

// matchAnyFew: in blocks of 70 threads (each with a partial third warp),
// threads past the data and those whose value is 1 mod 5 return first;
// the others group their warp's live lanes by the value's low two bits, as
// int32, and as int64 whose high halves split each group in two.
func matchAnyFew(t cuda.Thread, a []int32, m32, m64 []uint32) {
	i := t.Grid1()
	if i >= len(a) || a[i]%5 == 1 {
		return
	}
	v := a[i] & 3
	m32[i] = cuda.MatchAnySync(t, v)
	m64[i] = cuda.MatchAnySync(t, uint64(i&1)<<32|uint64(v))
}

// matchFloats groups lanes by float bits: -0 and +0 differ, a NaN matches
// the same NaN but not one with another payload. Threads past the data
// take part with +0.
func matchFloats(t cuda.Thread, f []float64, g []float32, m64, m32 []uint32) {
	i := t.Grid1()
	var x float64
	var y float32
	if i < len(f) {
		x, y = f[i], g[i]
	}
	a := cuda.MatchAnySync(t, x)
	b := cuda.MatchAnySync(t, y)
	if i < len(m64) {
		m64[i], m32[i] = a, b
	}
}

// matchAll runs MatchAllSync on int64 values and on their low halves, in
// blocks of 96 whose warps are uniform, uniform but for one lane (whose
// value differs in the high half only), or uniform among the lanes that
// did not return (negative values return first).
func matchAll(t cuda.Thread, a []int64, masks []uint32, flags []int32) {
	i := t.Grid1()
	if i >= len(a) || a[i] < 0 {
		return
	}
	m, ok := cuda.MatchAllSync(t, a[i])
	m32, ok32 := cuda.MatchAllSync(t, uint32(a[i]))
	var f int32
	if ok {
		f |= 1
	}
	if ok32 {
		f |= 2
	}
	masks[2*i], masks[2*i+1], flags[i] = m, m32, f
}

// warpLanemasks stores the five lane masks of every thread of 10x7 blocks
// and its rank among its warp's lanes whose value is positive (a ballot
// masked with LanemaskLt), or -1.
func warpLanemasks(t cuda.Thread, a []int32, out []uint32, rank []int32) {
	tid, d := t.ThreadIdx(), t.BlockDim()
	i := t.BlockIdx().X*d.X*d.Y + tid.Y*d.X + tid.X
	o := out[5*i : 5*i+5]
	o[0], o[1], o[2], o[3], o[4] = t.LanemaskLt(), t.LanemaskLe(), t.LanemaskEq(), t.LanemaskGe(), t.LanemaskGt()
	b := cuda.BallotSync(t, a[i] > 0)
	r := int32(-1)
	if a[i] > 0 {
		r = int32(bits.OnesCount32(b & t.LanemaskLt()))
	}
	rank[i] = r
}

// matchFloatPalette is matchFloats' values: zeros of both signs, two NaNs
// of different payloads, and ordinary numbers.
func matchFloatPalette(n int) ([]float64, []float32) {
	nan64, nan32 := math.NaN(), float32(math.NaN())
	p64 := []float64{0, math.Copysign(0, -1), nan64, math.Float64frombits(math.Float64bits(nan64) ^ 3), 1, math.Inf(1)}
	p32 := []float32{0, float32(math.Copysign(0, -1)), nan32, math.Float32frombits(math.Float32bits(nan32) ^ 3), 1, float32(math.Inf(1))}
	f, g := make([]float64, n), make([]float32, n)
	for i := range f {
		f[i], g[i] = p64[i*7%11%6], p32[i*5%13%6]
	}
	return f, g
}

// matchAllInputs gives each warp of a 96-thread block (three warps) one
// of matchAll's patterns.
func matchAllInputs(n int) []int64 {
	a := make([]int64, n)
	for i := range a {
		blk, lane := i/96, i%32
		switch i % 96 / 32 {
		case 0:
			a[i] = 1<<40 + int64(blk)
		case 1:
			a[i] = 5
			if lane == 7+blk {
				a[i] = 5 + 1<<32
			}
		default:
			a[i] = 9
			if lane%4 == 1 {
				a[i] = -1
			} else if lane == 30 && blk == 2 {
				a[i] = 10
			}
		}
	}
	return a
}

// halfWarp reduces Float16 across each warp with a ShflDownSync tree of
// HAdd (lane 0's sum in sums), and broadcasts, rotates, shifts up and
// butterflies halves with the other shuffles. Threads past the data take
// part with +0.
func halfWarp(t cuda.Thread, in []cuda.Float16, sums, b, rot, up, bfly []cuda.Float16) {
	i := t.Grid1()
	var v cuda.Float16
	if i < len(in) {
		v = in[i]
	}
	s := v
	for off := 16; off > 0; off /= 2 {
		s = cuda.HAdd(s, cuda.ShflDownSync(t, s, off))
	}
	x := cuda.ShflSync(t, v, 5)
	r := cuda.ShflSync(t, v, t.LaneID()+1)
	u := cuda.ShflUpSync(t, v, 3)
	f := cuda.ShflXorSync(t, v, 6)
	if i < len(in) {
		if t.LaneID() == 0 {
			sums[i/32] = s
		}
		b[i], rot[i], up[i], bfly[i] = x, r, u, f
	}
}

// halfMatchPalette: -0 and +0, two NaN payloads and the same NaN's
// negation, 1 and its neighbour, which match only their own bits.
var halfMatchPalette = [...]uint16{0x0000, 0x8000, 0x7E00, 0x7FFF, 0xFE00, 0x3C00, 0x3C01}

// halfMatch groups lanes by Float16 bits with MatchAnySync and, in every
// other warp where all lanes hold one value, reports MatchAllSync.
func halfMatch(t cuda.Thread, any, all []uint32, ok []int32) {
	i := t.Grid1()
	w := i / 32
	k := (i*5 + i/3) % len(halfMatchPalette)
	if w%2 == 0 {
		k = w % len(halfMatchPalette)
	}
	v := cuda.Float16FromBits(halfMatchPalette[k])
	a := cuda.MatchAnySync(t, v)
	m, yes := cuda.MatchAllSync(t, v)
	if i < len(any) {
		any[i], all[i] = a, m
		ok[i] = 0
		if yes {
			ok[i] = 1
		}
	}
}

var warpCases = []Case{
	c1("warp/half_reduce_shuffles", halfWarp, func() []any {
		in := make([]cuda.Float16, n1)
		for i := range in {
			in[i] = cuda.F16(float32(i%13) * 0.125) // sums exact in half
		}
		copy(in[40:], cycleF16(20, 3))
		return append([]any{in, make([]cuda.Float16, (n1+31)/32)}, halfs(n1, 4)...)
	}),
	c1("warp/half_match", halfMatch, func() []any {
		return []any{zeros[uint32](n1), zeros[uint32](n1), zeros[int32](n1)}
	}),
	c1("warp/sum", warpSum, func() []any { return []any{cycleF32(n1), zeros[float32](3)} }),
	c1("warp/shuffles", warpShuffles, func() []any {
		return []any{cycleI64(n1), cycleF64(n1), zeros[int64](n1), zeros[uint32](n1), zeros[float64](n1)}
	}),
	c1("warp/xor_sum", warpXorSum, func() []any { return []any{cycleI64(n1), zeros[int64](n1)} }),
	c1("warp/votes", warpVotes, func() []any { return []any{cycleOf[int32](n1), zeros[uint32](n1), zeros[int32](n1)} }),
	{Name: "warp/match_any_few", Kernel: matchAnyFew, Grid: grid1(n1, 70), Block: cuda.Dim1(70), Args: func() []any {
		return []any{cycleOf[int32](n1), zeros[uint32](n1), zeros[uint32](n1)}
	}},
	c1("warp/match_floats", matchFloats, func() []any {
		f, g := matchFloatPalette(n1)
		return []any{f, g, zeros[uint32](n1), zeros[uint32](n1)}
	}),
	{Name: "warp/match_all", Kernel: matchAll, Grid: grid1(n1, 96), Block: cuda.Dim1(96), Args: func() []any {
		return []any{matchAllInputs(n1), zeros[uint32](2 * n1), zeros[int32](n1)}
	}},
	{Name: "warp/lanemasks", Kernel: warpLanemasks, Grid: cuda.Dim1(3), Block: cuda.Dim2(10, 7), Args: func() []any {
		return []any{cycleOf[int32](3 * 70), zeros[uint32](5 * 3 * 70), zeros[int32](3 * 70)}
	}},
}
