package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// Block is the number of threads per block of the one-dimensional kernels.
const Block = 256

// Tile is the tile size of the tiled matmul: blocks of Tile×Tile threads.
const Tile = 16

// Radius is the stencil's half width.
const Radius = 3

// Bins is the number of histogram bins.
const Bins = 256

// ReduceSum writes into sums[b] the sum of block b's Block elements of a
// (zero past its end), added as a tree in shared memory.
func ReduceSum(t cuda.Thread, a, sums []float32) {
	sh := cuda.SharedArray[float32](t, Block)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	var v float32
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

// MatmulTiled is the matmul example's tiled kernel: c = a·b, staged through
// Tile×Tile tiles of both operands in shared memory.
func MatmulTiled(t cuda.Thread, a, b, c cuda.Array2[float32]) {
	sA := cuda.SharedArray[float32](t, Tile*Tile)
	sB := cuda.SharedArray[float32](t, Tile*Tile)
	i, j := t.Grid2()
	tid := t.ThreadIdx()
	tx, ty := tid.X, tid.Y
	rows, cols := c.Shape()
	_, k := a.Shape()
	var sum float32
	for tile := 0; tile < (k+Tile-1)/Tile; tile++ {
		var va, vb float32
		if p := tile*Tile + ty; i < rows && p < k {
			va = a.At(i, p)
		}
		if p := tile*Tile + tx; p < k && j < cols {
			vb = b.At(p, j)
		}
		sA[tx*Tile+ty] = va
		sB[tx*Tile+ty] = vb
		t.SyncThreads()
		for p := 0; p < Tile; p++ {
			sum += sA[tx*Tile+p] * sB[p*Tile+ty]
		}
		t.SyncThreads()
	}
	if i < rows && j < cols {
		c.Set(i, j, sum)
	}
}

// ScanBlock writes into out the inclusive prefix sums of a within each
// block of Block elements (Hillis and Steele, double-buffered in shared
// memory).
func ScanBlock(t cuda.Thread, a, out []int32) {
	buf := cuda.SharedArray[int32](t, 2*Block)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	var v int32
	if i < len(a) {
		v = a[i]
	}
	buf[tid] = v
	t.SyncThreads()
	src, dst := 0, Block
	for off := 1; off < Block; off *= 2 {
		x := buf[src+tid]
		if tid >= off {
			x += buf[src+tid-off]
		}
		buf[dst+tid] = x
		src, dst = dst, src
		t.SyncThreads()
	}
	if i < len(out) {
		out[i] = buf[src+tid]
	}
}

// Histogram counts the bytes of a into counts (Bins bins): each block
// counts its elements in shared memory with atomics, then adds its bins to
// the global ones.
func Histogram(t cuda.Thread, a []uint8, counts []uint32) {
	bins := cuda.SharedArray[uint32](t, Bins)
	tid := t.ThreadIdx().X
	for i := t.Grid1(); i < len(a); i += t.GridSize1() {
		cuda.AtomicAdd(&bins[a[i]], 1)
	}
	t.SyncThreads()
	for b := tid; b < Bins; b += t.BlockDim().X {
		if n := bins[b]; n > 0 {
			cuda.AtomicAdd(&counts[b], n)
		}
	}
}

// Stencil writes into out the moving average of a over 2*Radius+1
// elements (zero past the ends), reading a through a shared tile with a
// halo.
func Stencil(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, Block+2*Radius)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	var v float32
	if i < len(a) {
		v = a[i]
	}
	sh[tid+Radius] = v
	if tid < Radius {
		var lo, hi float32
		if i-Radius >= 0 {
			lo = a[i-Radius]
		}
		if i+Block < len(a) {
			hi = a[i+Block]
		}
		sh[tid] = lo
		sh[tid+Block+Radius] = hi
	}
	t.SyncThreads()
	if i < len(out) {
		var s float32
		for k := -Radius; k <= Radius; k++ {
			s += sh[tid+Radius+k]
		}
		out[i] = s / (2*Radius + 1)
	}
}

// WarpReduce writes into sums[b] the sum of block b's Block elements of a:
// each warp adds its values with a ShflDownSync tree, lane 0 of each warp
// puts its sum in shared memory, and the first warp's tree adds those.
func WarpReduce(t cuda.Thread, a, sums []float32) {
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
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
}

// CountAbove writes into counts[b] how many of block b's elements exceed
// limit, and into all[b] 1 when every one of them is positive: the
// reducing barriers (SyncThreadsCount, SyncThreadsAnd).
func CountAbove(t cuda.Thread, a []float32, limit float32, counts, all []int32) {
	i := t.Grid1()
	above := i < len(a) && a[i] > limit
	n := t.SyncThreadsCount(above)
	pos := t.SyncThreadsAnd(i >= len(a) || a[i] > 0)
	if t.ThreadIdx().X == 0 {
		counts[t.BlockIdx().X] = int32(n)
		if pos {
			all[t.BlockIdx().X] = 1
		}
	}
}

// CopiesThread keeps a copy of its Thread across a barrier: the copy is
// each thread's own, not one for the block.
func CopiesThread(t cuda.Thread, a []int32) {
	u := t
	i := u.Grid1()
	if i < len(a) {
		a[i] = int32(u.ThreadIdx().X)
	}
	t.SyncThreads()
	if j := u.Grid1(); j < len(a) {
		a[j] += int32(u.BlockIdx().X)
	}
}

// Shadow declares, in a loop around a barrier, an n the same in every
// thread after a statement that reads the outer n: the transform must not
// run the inner declaration first.
func Shadow(t cuda.Thread, a []int32) {
	n := int32(5)
	for k := 0; k < 2; k++ {
		if i := t.Grid1(); i < len(a) {
			a[i] += n
		}
		n := int32(7)
		t.SyncThreads()
		if i := t.Grid1(); i < len(a) {
			a[i] = a[i]*n + int32(k)
		}
	}
}

// SwapShadow declares, in a loop around a barrier, new x and y from the
// outer y and x: the declaration must not be split into two (the second
// would read the new x).
func SwapShadow(t cuda.Thread, a []int32) {
	x, y := int32(1), int32(2)
	for k := 0; k < 2; k++ {
		x, y := y, x+int32(k)
		t.SyncThreads()
		if i := t.Grid1(); i < len(a) {
			a[i] = a[i]*3 + x*10 + y
		}
	}
	t.SyncThreads()
	if i := t.Grid1(); i < len(a) {
		a[i] += x + y
	}
}

// FailLate fails, in the region between its two barriers, in the thread
// at grid position (badX, badY) only: a block loop must report that
// thread, not the last one it ran.
func FailLate(t cuda.Thread, a []int32, badX, badY int) {
	x, y := t.Grid2()
	if x < len(a) {
		a[x] = int32(y)
	}
	t.SyncThreads()
	if x == badX && y == badY {
		a[len(a)+x] = 0
	}
	t.SyncThreads()
	if x < len(a) {
		a[x]++
	}
}

// FailJammed fails in a region that its block loop runs several threads
// at a time (unroll-and-jam): the thread whose off is JamBlock-7 indexes
// past sh in the loop's last round, and a thread after it whose off is
// JamBlock in the first. The launch must name the first of them in
// thread order, as the loop over single threads does.
func FailJammed(t cuda.Thread, a []int32, off []int) {
	sh := cuda.SharedArray[int32](t, JamBlock)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = int32(i)
	t.SyncThreads()
	var s int32
	for p := 0; p < 8; p++ {
		s += sh[off[i]+p]
	}
	t.SyncThreads()
	a[i] = s
}

// FailInterchanged is FailJammed with a loop of 32 rounds, which its
// block loop runs interchanged (the thread loop inside the round loop,
// 16 rounds of each thread a pass over the threads):
// the thread whose off is JamBlock-31 indexes past sh in the loop's last
// round, and a thread after it whose off is JamBlock in the first.
func FailInterchanged(t cuda.Thread, a []int32, off []int) {
	sh := cuda.SharedArray[int32](t, JamBlock)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = int32(i)
	t.SyncThreads()
	var s int32
	for p := 0; p < 32; p++ {
		s += sh[off[i]+p]
	}
	t.SyncThreads()
	a[i] = s
}

// JamBlock is FailJammed's block size.
const JamBlock = 64
