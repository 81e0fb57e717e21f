package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// The kernels below synchronise through device functions and generics,
// as users write them: nugo gen inlines the helpers (and writes the
// instantiations out) before barrier fission.

// warpSum is the sum of v over the calling thread's warp, in its lane 0:
// a ShflDownSync tree in a device function that assigns its parameter.
func warpSum(t cuda.Thread, v float32) float32 {
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	return v
}

// blockSum is the sum of v over the block, in thread 0: warpSum in each
// warp, the warps' sums through shared memory, warpSum over them: a
// synchronising helper calling another.
func blockSum(t cuda.Thread, v float32, warpSums []float32) float32 {
	tid := t.ThreadIdx().X
	s := warpSum(t, v)
	if tid%32 == 0 {
		warpSums[tid/32] = s
	}
	t.SyncThreads()
	s = 0
	if tid < Block/32 {
		s = warpSums[tid]
	}
	return warpSum(t, s)
}

// scaled returns v·k after a barrier, or v when k is 0: an early return
// on a condition the same in every thread.
func scaled(t cuda.Thread, v, k float32) float32 {
	if k == 0 {
		return v
	}
	t.SyncThreads()
	return v * k
}

// HelperReduce writes into sums[b] the sum of block b's Block elements of
// a times half (a power of two), through blockSum, called in an
// expression, and scaled.
func HelperReduce(t cuda.Thread, a, sums []float32, half float32) {
	warpSums := cuda.SharedArray[float32](t, Block/32)
	i := t.Grid1()
	var v float32
	if i < len(a) {
		v = a[i]
	}
	s := 2 * blockSum(t, v, warpSums)
	s = scaled(t, s, half)
	if t.ThreadIdx().X == 0 {
		sums[t.BlockIdx().X] = s / 2
	}
}

// Number is the element types of GenericReduce.
type Number interface {
	~int32 | ~float32 | ~float64
}

// GenericReduce is ReduceSum for any Number: a generic kernel with
// barriers, which gets a block loop for each instantiation the package
// writes (Instances).
func GenericReduce[T Number](t cuda.Thread, a, sums []T) {
	sh := cuda.SharedArray[T](t, Block)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	var v T
	if i < len(a) {
		v = a[i]
	}
	sh[tid] = v
	t.SyncThreads()
	for s := Block / 2; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.SyncThreads()
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = sh[0]
	}
}

// Instances are the instantiations of the package's generic kernels that
// its tests launch: nugo gen makes loops for those the package names.
var Instances = []any{GenericReduce[int32], GenericReduce[float64]}

// gather returns a[j] after a barrier: a helper that indexes out of range
// when j does, so that a test sees the position a panic names.
func gather(t cuda.Thread, a []int32, j int32) int32 {
	t.SyncThreads()
	return a[j]
}

// HelperGather sets out[i] to a[idx[i]], through gather, for grids that
// cover out exactly.
func HelperGather(t cuda.Thread, a, idx, out []int32) {
	i := t.Grid1()
	out[i] = gather(t, a, idx[i])
}
