package testkernels

import "github.com/nugo-dev/nugo/cuda"

// quarterMask is the member mask of the caller's quarter of the warp.
func quarterMask(t cuda.Thread) uint32 { return uint32(0xff) << (8 * (t.LaneID() / 8)) }

// MaskOps runs every Mask form of the warp functions among the lanes of
// the caller's quarter of the warp, on v = in[i] and p = in[i]%3 == 0, and
// stores at out[8*i:]: the ballot of p, v of the quarter's lane 2
// (ShflSyncMask), v shuffled up 1, down 1 and xor 3 (lanes whose source
// is outside the quarter keep their own v), all|any<<1|uni<<2 of p, the
// lanes of the quarter with the same v%2 (MatchAnySyncMask), and
// MatchAllSyncMask of v/8 (the quarter's live lanes where in[i] is the
// thread's index; 0xbad if its two results disagree). Odd quarters run it on the other side of a
// branch from even ones.
func MaskOps(t cuda.Thread, in []int32, out []uint32) {
	i := t.Grid1()
	if i >= len(in) {
		return
	}
	m := quarterMask(t)
	if t.LaneID()/8%2 == 0 {
		maskOps(t, m, in[i], out[8*i:8*i+8])
	} else {
		t.SyncWarpMask(m)
		maskOps(t, m, in[i], out[8*i:8*i+8])
	}
}

func maskOps(t cuda.Thread, m uint32, v int32, o []uint32) {
	p := v%3 == 0
	o[0] = cuda.BallotSyncMask(t, m, p)
	o[1] = uint32(cuda.ShflSyncMask(t, m, v, t.LaneID()/8*8+2))
	o[2] = uint32(cuda.ShflUpSyncMask(t, m, v, 1))
	o[3] = uint32(cuda.ShflDownSyncMask(t, m, int64(v), 1))
	o[4] = uint32(cuda.ShflXorSyncMask(t, m, float32(v), 3))
	var votes uint32
	if cuda.AllSyncMask(t, m, p) {
		votes |= 1
	}
	if cuda.AnySyncMask(t, m, p) {
		votes |= 2
	}
	if cuda.UniSyncMask(t, m, p) {
		votes |= 4
	}
	o[5] = votes
	o[6] = cuda.MatchAnySyncMask(t, m, v%2)
	lanes, all := cuda.MatchAllSyncMask(t, m, v/8)
	if all != (lanes != 0) {
		lanes = 0xbad
	}
	o[7] = lanes
}

// QuarterBallot stores at out[i] the ballot of in[i] > 0 over the lanes of
// the caller's quarter of the warp: BallotSyncMask(t, 0xff << (8*(lane/8)),
// pred), each quarter independently.
func QuarterBallot(t cuda.Thread, in []int32, out []uint32) {
	i := t.Grid1()
	if i >= len(in) {
		return
	}
	out[i] = cuda.BallotSyncMask(t, 0xff<<(8*(t.LaneID()/8)), in[i] > 0)
}

// ActiveMasks stores at out[8*i:] the ActiveMask of thread i at eight
// places of divergent code (out keeps its value where the thread does not
// run one): at the start (0); inside if lane%2 == 0 and its else (1);
// after that if (2); inside lane%4 == 0 within lane < 16 (3) and after the
// inner if (4); at trip 2 of a loop that lane runs lane%4+1 times (5); in a
// device function that runs ActiveMask for lane < 8 (6, 0 for the others);
// and after the lanes from 24 on have returned (7).
func ActiveMasks(t cuda.Thread, out []uint32) {
	i := t.Grid1()
	if 8*i+8 > len(out) {
		return
	}
	lane := t.LaneID()
	o := out[8*i : 8*i+8]
	o[0] = cuda.ActiveMask(t)
	if lane%2 == 0 {
		o[1] = cuda.ActiveMask(t)
	} else {
		o[1] = cuda.ActiveMask(t)
	}
	o[2] = cuda.ActiveMask(t)
	if lane < 16 {
		if lane%4 == 0 {
			o[3] = cuda.ActiveMask(t)
		}
		o[4] = cuda.ActiveMask(t)
	}
	for k := 0; k <= lane%4; k++ {
		if k == 2 {
			o[5] = cuda.ActiveMask(t)
		}
	}
	o[6] = activeIf(t, lane < 8)
	if lane >= 24 {
		return
	}
	o[7] = cuda.ActiveMask(t)
}

// activeIf is ActiveMask where c holds, else 0.
func activeIf(t cuda.Thread, c bool) uint32 {
	if c {
		return cuda.ActiveMask(t)
	}
	return 0
}

// OutsideMask takes a ballot over lanes 0 to 15 in every lane: the lanes
// from 16 on are not in their own mask, which is an error.
func OutsideMask(t cuda.Thread, out []uint32) {
	i := t.Grid1()
	if i < len(out) {
		out[i] = cuda.BallotSyncMask(t, 0xffff, true)
	}
}
