package corpus

import "github.com/nugo-dev/nugo/cuda"

// Shuffle trees whose block loops compute in place and only the lanes
// later code reads (internal/loopgen, fission_warp.go): partial warps,
// lanes of threads that returned, two-dimensional blocks, unrolled trees,
// shuffles up, and trees whose every lane is read after all.

// warpTreeLanes sums each warp with a ShflDownSync tree; lane 0 writes the
// sum. Blocks of 48 threads end in a partial warp, and every fifth thread
// returns first, so lanes read their own value past the warp's end and in
// place of returned lanes.
func warpTreeLanes(t cuda.Thread, in []float32, sums []float32, xs []uint32) {
	i := t.Grid1()
	if i%5 == 4 {
		return
	}
	var v float32
	var x uint32
	if i < len(in) {
		v, x = in[i], uint32(i*2654435761)
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	for off := 8; off > 0; off >>= 1 {
		x ^= cuda.ShflDownSync(t, x, off)
	}
	if t.LaneID() == 0 {
		w := t.BlockIdx().X*2 + t.ThreadIdx().X/32
		sums[w], xs[w] = v, x
	}
}

// warpTreeAll folds with a tree whose every lane is read afterwards: each
// lane keeps its own partial fold.
func warpTreeAll(t cuda.Thread, in []float32, out []float32, firsts []float32) {
	i := t.Grid1()
	var v float32
	if i < len(in) {
		v = in[i]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if t.LaneID() == 0 && i < len(out) {
		firsts[i/32] = v
	}
	if i < len(out) {
		out[i] = v
	}
}

// warpTreeUnrolled is an unrolled tree over int64 (products and sums
// wrap), lane 0 (tid%32 == 0) writing the warp's result (in two-dimensional
// blocks, the first thread of each row), then a second
// tree over the warps' results in warp 0 that thread 0 writes. Launched
// with one- and two-dimensional blocks: in the latter tid%32 is not the
// lane.
func warpTreeUnrolled(t cuda.Thread, in []int64, warps []int64, blocks []int64) {
	sh := cuda.SharedArray[int64](t, 32)
	tid := t.ThreadIdx().X
	lin := t.ThreadIdx().Y*t.BlockDim().X + tid
	i := t.BlockIdx().X*(t.BlockDim().X*t.BlockDim().Y) + lin
	var v int64
	if i < len(in) {
		v = in[i]
	}
	v *= cuda.ShflDownSync(t, v, 16)
	v += cuda.ShflDownSync(t, v, 8)
	v -= cuda.ShflDownSync(t, v, 4)
	v += cuda.ShflDownSync(t, v, 2)
	v |= cuda.ShflDownSync(t, v, 1)
	if tid%32 == 0 {
		warps[i/16] = v
		sh[lin/16] = v
	}
	t.SyncThreads()
	v = 0
	if lin < (t.BlockDim().X*t.BlockDim().Y)/32 {
		v = sh[lin]
	}
	v += cuda.ShflDownSync(t, v, 2)
	v += cuda.ShflDownSync(t, v, 1)
	if tid == 0 {
		blocks[t.BlockIdx().X*t.BlockDim().Y+t.ThreadIdx().Y] = v
	}
}

// warpShiftUp folds values shifted up by constant offsets; every lane is
// written but those of every seventh thread, which returns first.
func warpShiftUp(t cuda.Thread, in []int32, out []int32) {
	i := t.Grid1()
	if i%7 == 5 {
		return
	}
	var v int32
	if i < len(in) {
		v = in[i]
	}
	v += cuda.ShflUpSync(t, v, 3)
	v *= cuda.ShflUpSync(t, v, 1)
	v &^= cuda.ShflUpSync(t, v, 35)
	if i < len(out) {
		out[i] = v
	}
}

var warpTreeCases = []Case{
	{Name: "warp/tree_lanes", Kernel: warpTreeLanes, Grid: grid1(n1, 48), Block: cuda.Dim1(48), Args: func() []any {
		return []any{cycleF32(n1), zeros[float32](2 * 7), zeros[uint32](2 * 7)}
	}},
	c1("warp/tree_all", warpTreeAll, func() []any { return []any{cycleF32(n1), zeros[float32](n1), zeros[float32](n1/32 + 1)} }),
	{Name: "warp/tree_unrolled", Kernel: warpTreeUnrolled, Grid: grid1(n1, 96), Block: cuda.Dim1(96), Args: func() []any {
		return []any{cycleI64(n1), zeros[int64](24), zeros[int64](4)}
	}},
	{Name: "warp/tree_unrolled_2d", Kernel: warpTreeUnrolled, Grid: grid1(n1, 96), Block: cuda.Dim2(16, 6), Args: func() []any {
		return []any{cycleI64(n1), zeros[int64](24), zeros[int64](24)}
	}},
	c1("warp/shift_up", warpShiftUp, func() []any { return []any{cycleOf[int32](n1), zeros[int32](n1)} }),
}
