package corpus

import "github.com/nugo-dev/nugo/cuda"

// Warp operations under thread-dependent conditions (divergent ifs), which
// block loops run side by side with the lanes of the other side absent.

// warpBranches reduces the lower half of each warp on one side of a
// divergent if (a ShflDownSyncMask tree among lanes 0-15); on the other
// side lanes 28-31 return and lanes 16-27 of warp 0 take a ballot among
// themselves; warp 1, whole under its condition, shuffles over the full
// warp; then every warp broadcasts lane 0's value.
func warpBranches(t cuda.Thread, in []uint32, out []uint32) {
	i := t.Grid1()
	var v uint32
	if i < len(in) {
		v = in[i]
	}
	lane := t.LaneID()
	if lane < 16 {
		for off := 8; off > 0; off /= 2 {
			v += cuda.ShflDownSyncMask(t, 0xffff, v, off)
		}
	} else {
		if lane >= 28 {
			return
		}
		if t.ThreadIdx().X < 32 {
			v = cuda.BallotSyncMask(t, 0x0fff0000, v%3 == 0)
		}
	}
	if t.ThreadIdx().X/32 == 1 {
		v += cuda.ShflSync(t, v, 3)
	}
	v = cuda.ShflSync(t, v, 0)
	if i < len(out) {
		out[i] = v
	}
}

var warpBranchCases = []Case{
	c1("warp/branches", warpBranches, func() []any {
		return []any{cycleOf[uint32](n1), zeros[uint32](n1)}
	}),
}
