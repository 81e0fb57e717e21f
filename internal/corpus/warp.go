package corpus

import "github.com/nugo-dev/nugo/cuda"

// Warp primitives over full warps (blocks of 128 threads, every lane
// present), whose results CUDA defines exactly.

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

var warpCases = []Case{
	c1("warp/sum", warpSum, func() []any { return []any{cycleF32(n1), zeros[float32](3)} }),
	c1("warp/shuffles", warpShuffles, func() []any {
		return []any{cycleI64(n1), cycleF64(n1), zeros[int64](n1), zeros[uint32](n1), zeros[float64](n1)}
	}),
	c1("warp/xor_sum", warpXorSum, func() []any { return []any{cycleI64(n1), zeros[int64](n1)} }),
	c1("warp/votes", warpVotes, func() []any { return []any{cycleOf[int32](n1), zeros[uint32](n1), zeros[int32](n1)} }),
}
