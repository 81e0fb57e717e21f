package testkernels

import "github.com/nugo-dev/nugo/cuda"

// WarpSum writes the sum of each block's elements of in to out[block]: a
// ShflDownSync tree in each warp, then the warps' sums through shared
// memory, reduced by warp 0 the same way.
func WarpSum(t cuda.Thread, in, out []float32) {
	i := t.Grid1()
	var v float32
	if i < len(in) {
		v = in[i]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	partial := cuda.SharedArray[float32](t, 32)
	lane, w := t.LaneID(), t.ThreadIdx().X/32
	if lane == 0 {
		partial[w] = v
	}
	t.SyncThreads()
	if w == 0 {
		v = 0
		if lane < (t.BlockDim().X+31)/32 {
			v = partial[lane]
		}
		for off := 16; off > 0; off /= 2 {
			v += cuda.ShflDownSync(t, v, off)
		}
		if lane == 0 {
			out[t.BlockIdx().X] = v
		}
	}
}

// WarpBroadcast gives every thread lane 0's element of in, shuffled as a
// 64-bit value and as a 32-bit one.
func WarpBroadcast(t cuda.Thread, in []int64, out []int64, out32 []uint32) {
	i := t.Grid1()
	v := in[i]
	out[i] = cuda.ShflSync(t, v, 0)
	out32[i] = cuda.ShflSync(t, uint32(v), t.LaneID()+31) // from the lane below, mod 32
}

// XorAllReduce leaves the sum of its warp's elements in every thread: a
// butterfly of ShflXorSync, in a generic device function.
func XorAllReduce(t cuda.Thread, in, out []float64) {
	i := t.Grid1()
	out[i] = allReduce(t, in[i])
}

// summable is the shuffleable types with +.
type summable interface {
	~int32 | ~int64 | ~float32 | ~float64
}

func allReduce[T summable](t cuda.Thread, v T) T {
	for m := 16; m > 0; m /= 2 {
		v += cuda.ShflXorSync(t, v, m)
	}
	return v
}

// UpDown shuffles in[i] up and down by delta, as int, for a block whose
// last warp may be partial.
func UpDown(t cuda.Thread, in []int, up, down []int, delta int) {
	i := t.Grid1()
	v := in[i]
	up[i] = cuda.ShflUpSync(t, v, delta)
	t.SyncWarp()
	down[i] = cuda.ShflDownSync(t, v, delta)
}

// Votes records BallotSync, AnySync and AllSync of in[i] > 0 and of
// in[i] >= 0 for every thread, after a ThreadFence.
func Votes(t cuda.Thread, in []int32, ballot []uint32, anyAll []int32) {
	i := t.Grid1()
	p, q := in[i] > 0, in[i] >= 0
	cuda.ThreadFence()
	ballot[i] = cuda.BallotSync(t, p)
	var r int32
	if cuda.AnySync(t, p) {
		r |= 1
	}
	if cuda.AllSync(t, p) {
		r |= 2
	}
	if cuda.AllSync(t, q) {
		r |= 4
	}
	if cuda.AnySync(t, !q) {
		r |= 8
	}
	anyAll[i] = r
}

// EarlyReturn has some threads return before the warp operations: lane 0
// of every warp and threads whose index is 1 mod 5. The others record
// their warp's ballot, its active mask and lane 0's value, which is absent.
func EarlyReturn(t cuda.Thread, ballot, active []uint32, fromLane0 []int) {
	i := t.Grid1()
	if t.LaneID() == 0 || i%5 == 1 {
		return
	}
	ballot[i] = cuda.BallotSync(t, true)
	active[i] = cuda.ActiveMask(t)
	fromLane0[i] = cuda.ShflSync(t, i, 0)
}

// WarpFault indexes past the end of data in the threads from len(data)
// on, while the others of their warp wait in a shuffle.
func WarpFault(t cuda.Thread, data []int) {
	i := t.Grid1()
	v := data[i]
	data[i] = cuda.ShflSync(t, v, 0)
}
