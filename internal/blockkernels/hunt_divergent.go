package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// The kernels below stress the divergent-if transform
// (internal/loopgen/fission_divergent.go) and its BlockBranch runtime:
// hunt_divergent_test.go runs each through its block loop, the goroutine
// path and ptxsim and requires the same bits and the same errors.

// HuntNestedDiv nests divergent ifs with masked shuffles, ballots and
// MatchAny in both arms of both levels, then a full-warp reduction.
func HuntNestedDiv(t cuda.Thread, a []int32, out []uint32) {
	i := t.Grid1()
	lane := t.LaneID()
	v := int32(0)
	if i < len(a) {
		v = a[i]
	}
	var m uint32
	if lane < 16 {
		if lane < 8 {
			v += cuda.ShflDownSyncMask(t, 0xff, v, 1)
			m = cuda.BallotSyncMask(t, 0xff, v > 0)
		} else {
			v ^= cuda.ShflXorSyncMask(t, 0xff00, v, 2)
			m = cuda.MatchAnySyncMask(t, 0xff00, v&3)
		}
		v += cuda.ShflSyncMask(t, 0xffff, v, 3)
	} else {
		m = cuda.BallotSyncMask(t, 0xffff0000, v&1 == 0)
		v -= cuda.ShflUpSyncMask(t, 0xffff0000, v, 4)
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if i < len(a) {
		out[2*i] = uint32(v)
		out[2*i+1] = m
	}
}

// HuntElseIfDiv is an else-if chain of divergent arms, each with its own
// warp operation over the lanes it takes.
func HuntElseIfDiv(t cuda.Thread, a []int32, out []int32) {
	i := t.Grid1()
	lane := t.LaneID()
	v := a[i]
	if lane < 8 {
		v = cuda.ShflSyncMask(t, 0xff, v, 7)
	} else if lane < 16 {
		v += cuda.ShflDownSyncMask(t, 0xff00, v, 2)
	} else if lane < 24 {
		if cuda.AnySyncMask(t, 0xff0000, v > 100) {
			v = -v
		}
	} else {
		v = int32(cuda.BallotSyncMask(t, 0xff000000, v < 0) >> 24)
	}
	t.SyncThreads()
	out[i] = v + cuda.ShflXorSync(t, v, 16)
}

// HuntReturnDiv returns in one arm (odd warps' upper lanes), then the
// survivors do full-warp warp operations: the returned lanes are absent.
func HuntReturnDiv(t cuda.Thread, a []int32, out []int32) {
	i := t.Grid1()
	lane := t.LaneID()
	w := t.ThreadIdx().X / 32
	v := a[i]
	if lane >= 20 {
		v = cuda.ShflSyncMask(t, 0xfff00000, v, 31)
		if w%2 == 1 {
			out[i] = -1
			return
		}
	} else {
		v += cuda.ShflDownSyncMask(t, 0xfffff, v, 1)
	}
	b := cuda.BallotSync(t, v > 0)
	v += cuda.ShflDownSync(t, v, 1)
	out[i] = v + int32(b&0xff)
}

// HuntActiveBoth calls ActiveMask equally often in both arms of an
// outermost divergent if, then a warp operation after it.
func HuntActiveBoth(t cuda.Thread, out []uint32) {
	i := t.Grid1()
	lane := t.LaneID()
	var a uint32
	if lane%3 == 0 {
		a = cuda.ActiveMask(t)
	} else {
		a = cuda.ActiveMask(t) ^ 1
	}
	out[i] = a + cuda.ShflSync(t, a, 5)
}

// HuntBadMask names, inside the arm of lanes below 16, a mask of the whole
// warp: lanes 16..31 are elsewhere, and the launch fails on every path.
func HuntBadMask(t cuda.Thread, a []int32, out []int32) {
	i := t.Grid1()
	v := a[i]
	if t.LaneID() < 16 {
		v = cuda.ShflDownSyncMask(t, 0xffffffff, v, 1)
	}
	out[i] = cuda.ShflDownSync(t, v, 1)
}

// HuntWarpWhole runs a full-warp reduction under a condition that takes
// whole warps (tid/32 == w), in a loop over the warps with a barrier.
func HuntWarpWhole(t cuda.Thread, a []float32, out []float32) {
	sh := cuda.SharedArray[float32](t, 32)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	var v float32
	if i < len(a) {
		v = a[i]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if t.LaneID() == 0 {
		sh[tid/32] = v
	}
	t.SyncThreads()
	if tid/32 == 0 {
		v = 0
		if tid < t.BlockDim().X/32 {
			v = sh[tid]
		}
		for off := 16; off > 0; off /= 2 {
			v += cuda.ShflDownSync(t, v, off)
		}
		if tid == 0 {
			out[t.BlockIdx().X] = v
		}
	}
}

// HuntOwnBit passes, in the arm of lanes below 16, a mask without the
// lane's own bit when a[i] is negative: ErrWarpMask for that thread.
func HuntOwnBit(t cuda.Thread, a []int32, out []int32) {
	i := t.Grid1()
	v := a[i]
	if t.LaneID() < 16 {
		m := uint32(0xffff)
		if v == 12345 {
			m = 0xfffe0000 >> 16
		}
		v = cuda.ShflSyncMask(t, m, v, 1)
	} else {
		v = cuda.ShflSyncMask(t, 0xffff0000, v, 17)
	}
	out[i] = cuda.ShflXorSync(t, v, 1)
}

// HuntArmPanic indexes out of range in one arm after a warp operation,
// for the thread whose a[i] is bad.
func HuntArmPanic(t cuda.Thread, a []int32, out []int32, bad int) {
	i := t.Grid1()
	v := a[i]
	if t.LaneID()%2 == 0 {
		v = cuda.ShflDownSyncMask(t, 0x55555555, v, 2)
		if i == bad {
			i += len(out)
		}
		out[i] = v
	} else {
		v = cuda.ShflUpSyncMask(t, 0xaaaaaaaa, v, 2)
		out[i] = v
	}
	t.SyncThreads()
	out[t.Grid1()] += cuda.ShflSync(t, v, 0)
}

// HuntDiv2D runs divergent arms with masked warp operations in a
// two-dimensional block, whose warps run across rows: each arm's mask
// names the lanes of its warp on its side (x < 4 or not).
func HuntDiv2D(t cuda.Thread, a []int32, out []int32) {
	id := t.ThreadIdx()
	dim := t.BlockDim()
	lin := id.Y*dim.X + id.X
	i := t.BlockIdx().X*dim.X*dim.Y + lin
	lane := t.LaneID()
	var left, all uint32
	for l := 0; l < 32; l++ {
		if p := lin - lane + l; p < dim.X*dim.Y {
			all |= 1 << l
			if p%dim.X < 4 {
				left |= 1 << l
			}
		}
	}
	v := a[i]
	if id.X < 4 {
		v += int32(cuda.BallotSyncMask(t, left, v > 0) & 0xffff)
		v = cuda.ShflSyncMask(t, left, v, 0)
	} else {
		v = cuda.ShflXorSyncMask(t, all&^left, v, 1)
	}
	t.SyncThreads()
	out[i] = v + cuda.ShflDownSync(t, v, 3)
}
