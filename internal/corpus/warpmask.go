package corpus

import "github.com/nugo-dev/nugo/cuda"

// Warp functions with member masks (blocks of 128, every lane present):
// each quarter or half of a warp exchanges and votes among its own lanes,
// on one side of a branch or as one instruction with lane-dependent
// masks; and ActiveMask where the cpu backend and a GPU agree (both sides
// of an if call it; lanes that returned are absent).

// warpQuarters runs the Mask forms over each quarter of the warp: a
// ballot, all, any and uni votes of v%3 == 0 (and UniSync over the
// whole warp), the quarter's first lane's
// value, a butterfly sum inside the quarter and the lanes of the quarter
// with the same v%4.
func warpQuarters(t cuda.Thread, in []int32, ballot, votes []uint32, first, sum []int32, match []uint32) {
	i := t.Grid1()
	var v int32
	if i < len(in) {
		v = in[i]
	}
	lane := t.LaneID()
	m := uint32(0xff) << (8 * (lane / 8))
	p := v%3 == 0
	b := cuda.BallotSyncMask(t, m, p)
	var vs uint32
	if cuda.AllSyncMask(t, m, p) {
		vs |= 1
	}
	if cuda.AnySyncMask(t, m, p) {
		vs |= 2
	}
	if cuda.UniSyncMask(t, m, p) {
		vs |= 4
	}
	if cuda.UniSync(t, v%64 != 1000) {
		vs |= 8 // the whole warp: always true
	}
	f := cuda.ShflSyncMask(t, m, v, lane/8*8)
	s := v
	for x := 1; x < 8; x *= 2 {
		s += cuda.ShflXorSyncMask(t, m, s, x)
	}
	mt := cuda.MatchAnySyncMask(t, m, v%4)
	if i < len(in) {
		ballot[i], votes[i], first[i], sum[i], match[i] = b, vs, f, s, mt
	}
}

// warpHalves reduces each half of the warp on its own side of a branch
// (lanes 0-15 with mask 0xffff, lanes 16-31 with 0xffff0000), after a
// SyncWarpMask of the half, and takes MatchAllSyncMask of the half's
// block-uniform value.
func warpHalves(t cuda.Thread, in []float64, sums []float64, all []uint32) {
	i := t.Grid1()
	var v float64
	if i < len(in) {
		v = in[i]
	}
	var s float64
	var a uint32
	if t.LaneID() < 16 {
		t.SyncWarpMask(0xffff)
		s = halfSum(t, 0xffff, v, false)
		a, _ = cuda.MatchAllSyncMask(t, 0xffff, t.BlockIdx().X)
	} else {
		t.SyncWarpMask(0xffff0000)
		s = halfSum(t, 0xffff0000, v, true)
		a, _ = cuda.MatchAllSyncMask(t, 0xffff0000, t.BlockIdx().X)
	}
	if i < len(in) {
		sums[i], all[i] = s, a
	}
}

// halfSum is the sum of v over the lanes of a half-warp mask, broadcast
// to them: a ShflDownSyncMask tree for the upper half (its lane 16 holds
// the sum), a ShflUpSyncMask tree for the lower one (lane 15). Each lane
// reads a lane of its half or, past lane 31 or below lane 0, its own
// value, never a lane outside its mask, which a GPU leaves undefined.
func halfSum(t cuda.Thread, mask uint32, v float64, down bool) float64 {
	for off := 8; off > 0; off /= 2 {
		if down {
			v += cuda.ShflDownSyncMask(t, mask, v, off)
		} else {
			v += cuda.ShflUpSyncMask(t, mask, v, off)
		}
	}
	if down {
		return cuda.ShflSyncMask(t, mask, v, 16)
	}
	return cuda.ShflSyncMask(t, mask, v, 15)
}

// warpActiveBranches records ActiveMask on both sides of if lane%2 == 0
// and, after the lanes from 24 on have returned, in the rest.
func warpActiveBranches(t cuda.Thread, sides, rest []uint32) {
	i := t.Grid1()
	lane := t.LaneID()
	var a uint32
	if lane%2 == 0 {
		a = cuda.ActiveMask(t)
	} else {
		a = cuda.ActiveMask(t)
	}
	if i < len(sides) {
		sides[i] = a
	}
	if lane >= 24 {
		return
	}
	r := cuda.ActiveMask(t)
	if i < len(rest) {
		rest[i] = r
	}
}

var warpMaskCases = []Case{
	c1("warp/mask_quarters", warpQuarters, func() []any {
		return []any{cycleOf[int32](n1), zeros[uint32](n1), zeros[uint32](n1), zeros[int32](n1), zeros[int32](n1), zeros[uint32](n1)}
	}),
	c1("warp/mask_halves", warpHalves, func() []any {
		return []any{cycleF64(n1), zeros[float64](n1), zeros[uint32](n1)}
	}),
	c1("warp/active_branches", warpActiveBranches, func() []any {
		return []any{zeros[uint32](n1), zeros[uint32](n1)}
	}),
}
