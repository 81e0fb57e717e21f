package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// WarpReducePanic is WarpReduce whose thread bad (of every block) reads
// past the end of a between the two shuffle trees, where only warp 0's
// values are read afterwards: the block loop may not skip that thread,
// so the launch fails for it as on the goroutine path. bad < 0: no
// thread fails, and the sums are WarpReduce's.
func WarpReducePanic(t cuda.Thread, a, sums []float32, bad int) {
	warpSums := cuda.SharedArray[float32](t, Block/32)
	tid := t.ThreadIdx().X
	lane, warp := tid%32, tid/32
	i := t.Grid1()
	var v float32
	if i < len(a) {
		v = a[i]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if lane == 0 {
		warpSums[warp] = v
	}
	t.SyncThreads()
	v = 0
	if tid < Block/32 {
		v = warpSums[tid]
	}
	if tid == bad {
		v = a[len(a)+tid]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
}

// LaneTree writes into sums each warp's sum of a, lane 0 (t.LaneID())
// writing it: a shuffle tree whose lanes do not rely on a one-dimensional
// block, so its unrolled form also runs in blocks of two dimensions.
func LaneTree(t cuda.Thread, a, sums []float32) {
	i := t.Grid1()
	var v float32
	if i < len(a) {
		v = a[i]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if t.LaneID() == 0 {
		b := t.BlockIdx().X
		d := t.BlockDim()
		sums[b*((d.X*d.Y+31)/32)+(t.ThreadIdx().Y*d.X+t.ThreadIdx().X)/32] = v
	}
}
