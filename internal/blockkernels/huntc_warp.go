package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// HuntcShfl shuffles with lane arguments from parameters (test_warp_ops'
// use_shfl_sync_idx/up/down/xor), in or out of the warp's range: a source
// lane is taken modulo 32, a delta past the warp's end keeps the thread's
// own value.
func HuntcShfl(t cuda.Thread, a []int32, out []int32, src, delta, mask int) {
	i := t.Grid1()
	v := int32(-1)
	if i < len(a) {
		v = a[i]
	}
	x := cuda.ShflSync(t, v, src)
	u := cuda.ShflUpSync(t, v, delta)
	d := cuda.ShflDownSync(t, v, delta)
	y := cuda.ShflXorSync(t, v, mask)
	f := cuda.ShflSync(t, float64(v)/3, t.LaneID()^src)
	if i < len(a) {
		out[5*i] = x
		out[5*i+1] = u
		out[5*i+2] = d
		out[5*i+3] = y
		out[5*i+4] = int32(f * 3)
	}
}

// HuntcShflWidth does what Numba's shuffles with a width below 32 do, with
// lane arithmetic: a rotation inside groups of 8 lanes, a shuffle up
// inside groups of 16 and a butterfly sum inside groups of 4.
func HuntcShflWidth(t cuda.Thread, a []float32, out []float32) {
	i := t.Grid1()
	lane := t.LaneID()
	v := a[i]
	r := cuda.ShflSync(t, v, lane/8*8+(lane+1)%8)
	u := cuda.ShflUpSync(t, v, 3)
	if lane%16 < 3 {
		u = v
	}
	s := v
	for m := 1; m < 4; m *= 2 {
		s += cuda.ShflXorSync(t, s, m)
	}
	out[i] = r + 2*u + 4*s
}

// HuntcVote runs the votes and matches of test_warp_ops on every lane,
// blocks whose last warp is partial included: ballot, any, all, uni,
// match any and all, the active mask and the lane masks.
func HuntcVote(t cuda.Thread, a []int32, out []uint32) {
	i := t.Grid1()
	lane := t.LaneID()
	v := int32(0)
	if i < len(a) {
		v = a[i]
	}
	b := cuda.BallotSync(t, v > 0)
	var f uint32
	if cuda.AnySync(t, v == 17) {
		f |= 1
	}
	if cuda.AllSync(t, v > -500) {
		f |= 2
	}
	if cuda.UniSync(t, v%2 == 0) {
		f |= 4
	}
	m := cuda.MatchAnySync(t, v&3)
	ma, all := cuda.MatchAllSync(t, int64(lane/64))
	if all {
		f |= 8
	}
	out[7*i] = b
	out[7*i+1] = f
	out[7*i+2] = m
	out[7*i+3] = ma
	out[7*i+4] = cuda.ActiveMask(t)
	out[7*i+5] = t.LanemaskLt() ^ t.LanemaskGe()<<1
	out[7*i+6] = cuda.BallotSync(t, lane%3 == 0) & t.LanemaskLe()
}

// HuntcSyncWarp is test_warp_ops' useful_syncwarp: lane 0 of each warp
// writes shared memory, SyncWarp, and every lane reads it.
func HuntcSyncWarp(t cuda.Thread, out []int32) {
	sh := cuda.SharedArray[int32](t, 32)
	w := t.ThreadIdx().X / 32
	if t.LaneID() == 0 {
		sh[w] = 42 + int32(w)
	}
	t.SyncWarp()
	out[t.Grid1()] = sh[w]
}

// HuntcIndependent is test_warp_ops' use_independent_scheduling: lanes
// split four ways, each group votes over its own mask.
func HuntcIndependent(t cuda.Thread, out []uint32) {
	i := t.Grid1()
	lane := t.LaneID()
	switch lane % 4 {
	case 0:
		out[i] = cuda.BallotSyncMask(t, 0x11111111, true)
	case 1:
		out[i] = cuda.BallotSyncMask(t, 0x22222222, lane > 8)
	case 2:
		out[i] = cuda.BallotSyncMask(t, 0x44444444, lane < 20)
	default:
		out[i] = cuda.BallotSyncMask(t, 0x88888888, false) + 1
	}
}
