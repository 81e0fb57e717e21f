package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// Hunt kernels of demanded threads and unrolled shuffle trees
// (hunt_tree_test.go): trees read by lane 0 and by other lanes, values
// used again after lane 0 read them, threads that returned before the
// tree, trees of 16 lanes, integer trees. Each writes per warp into out at
// huntWarp (two slots a warp).

// huntWarp is the index of the calling thread's warp in the grid, with
// linear thread indexes in blocks of any shape.
func huntWarp(t cuda.Thread) int {
	d := t.BlockDim()
	tid := (t.ThreadIdx().Z*d.Y+t.ThreadIdx().Y)*d.X + t.ThreadIdx().X
	return t.BlockIdx().X*((d.X*d.Y*d.Z+31)/32) + tid/32
}

// huntLinear is the calling thread's linear index in the grid.
func huntLinear(t cuda.Thread) int {
	d := t.BlockDim()
	tid := (t.ThreadIdx().Z*d.Y+t.ThreadIdx().Y)*d.X + t.ThreadIdx().X
	return t.BlockIdx().X*d.X*d.Y*d.Z + tid
}

// HuntTreeTwoLanes reads the tree's result in lane 0 and lane 16's partial
// sum.
func HuntTreeTwoLanes(t cuda.Thread, a, out []float32) {
	i := huntLinear(t)
	var v float32
	if i < len(a) {
		v = a[i]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	w := huntWarp(t)
	if t.LaneID() == 0 {
		out[2*w] = v
	}
	if t.LaneID() == 16 {
		out[2*w+1] = v
	}
}

// HuntTreeAgain reads lane 0's result, then every lane uses its v again.
func HuntTreeAgain(t cuda.Thread, a, out []float32) {
	i := huntLinear(t)
	var v float32
	if i < len(a) {
		v = a[i]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	w := huntWarp(t)
	if t.LaneID() == 0 {
		out[2*w] = v
	}
	v = v*0.5 + 1
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if t.LaneID() == 0 {
		out[2*w+1] = v
	}
}

// HuntTreeHalf runs a tree of 16 lanes (offsets 8 to 1) and reads lanes 0
// and 16 (each the sum of its half warp).
func HuntTreeHalf(t cuda.Thread, a, out []float32) {
	i := huntLinear(t)
	var v float32
	if i < len(a) {
		v = a[i]
	}
	for off := 8; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	lane := t.LaneID()
	if lane%16 == 0 {
		out[2*huntWarp(t)+lane/16] = v
	}
}

// HuntTreeInt xors and multiplies integers over trees read by lane 0.
func HuntTreeInt(t cuda.Thread, a []int32, out []int64) {
	i := huntLinear(t)
	var x int32
	var m int64 = 1
	if i < len(a) {
		x = a[i]
		m = int64(a[i]%7) + 2
	}
	for off := 16; off > 0; off /= 2 {
		x ^= cuda.ShflDownSync(t, x, off)
	}
	for off := 16; off > 0; off >>= 1 {
		m *= cuda.ShflDownSync(t, m, off)
	}
	if t.LaneID() == 0 {
		w := huntWarp(t)
		out[2*w] = int64(x)
		out[2*w+1] = m
	}
}

// HuntTreeUnrolled is an unrolled tree (constant offsets) whose lane 0
// and lane 8 are read.
func HuntTreeUnrolled(t cuda.Thread, a, out []float32) {
	i := huntLinear(t)
	var v float32
	if i < len(a) {
		v = a[i]
	}
	v += cuda.ShflDownSync(t, v, 16)
	v += cuda.ShflDownSync(t, v, 8)
	v += cuda.ShflDownSync(t, v, 4)
	v += cuda.ShflDownSync(t, v, 2)
	v += cuda.ShflDownSync(t, v, 1)
	w := huntWarp(t)
	switch t.LaneID() {
	case 0:
		out[2*w] = v
	case 8:
		out[2*w+1] = v
	}
}

// HuntTwoLevel is WarpReduce on blocks of any shape and size up to
// HuntMax, its second level read by thread 0 and its first-level sums
// by the lane 0 of each warp.
func HuntTwoLevel(t cuda.Thread, a, sums, warps []float32) {
	warpSums := cuda.SharedArray[float32](t, HuntMax/32)
	d := t.BlockDim()
	tid := (t.ThreadIdx().Z*d.Y+t.ThreadIdx().Y)*d.X + t.ThreadIdx().X
	lane, warp := tid%32, tid/32
	nw := (d.X*d.Y*d.Z + 31) / 32
	i := huntLinear(t)
	var v float32
	if i < len(a) {
		v = a[i]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if lane == 0 {
		warpSums[warp] = v
		warps[huntWarp(t)] = v
	}
	t.SyncThreads()
	v = 0
	if tid < nw {
		v = warpSums[tid]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
}

// HuntTreeReturned returns the threads past a's end before a tree whose
// lane 0 is read (their lanes' values are the shuffles' own, as the
// CPU backend gives for lanes that exited), and before a barrier.
func HuntTreeReturned(t cuda.Thread, a, out []float32) {
	i := huntLinear(t)
	if i >= len(a) {
		return
	}
	v := a[i]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if t.LaneID() == 0 {
		out[2*huntWarp(t)] = v
	}
}

// HuntTreeReturnedSync is HuntTwoLevel whose threads past a's end return
// after the first tree, before the barrier.
func HuntTreeReturnedSync(t cuda.Thread, a, sums, warps []float32) {
	warpSums := cuda.SharedArray[float32](t, HuntMax/32)
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
		warps[huntWarp(t)] = v
	}
	if i >= len(a) && tid > 0 {
		return
	}
	t.SyncThreads()
	v = 0
	if tid < HuntMax/32 && tid*32 < t.BlockDim().X {
		v = warpSums[tid]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
}
