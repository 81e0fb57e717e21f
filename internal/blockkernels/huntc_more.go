package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// HuntcMatmul2 is test_matmul's kernel written with SharedArray2 tiles,
// the tile count from the grid (Numba's `for i in range(bpg)`), and the
// Numba habit of returning threads outside the matrix only after the
// last barrier.
func HuntcMatmul2(t cuda.Thread, a, b, c cuda.Array2[float64]) {
	sA := cuda.SharedArray2[float64](t, 8, 8)
	sB := cuda.SharedArray2[float64](t, 8, 8)
	x, y := t.Grid2()
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	n, _ := c.Shape()
	var acc float64
	for i := 0; i < t.GridDim().X; i++ {
		sA.Set(tx, ty, 0)
		sB.Set(tx, ty, 0)
		if x < n && ty+i*8 < n {
			sA.Set(tx, ty, a.At(x, ty+i*8))
		}
		if y < n && tx+i*8 < n {
			sB.Set(tx, ty, b.At(tx+i*8, y))
		}
		t.SyncThreads()
		for j := 0; j < 8; j++ {
			acc += sA.At(tx, j) * sB.At(j, ty)
		}
		t.SyncThreads()
	}
	if x >= n || y >= n {
		return
	}
	c.Set(x, y, acc)
}

// HuntcDynSlices carves two arrays of different lengths out of dynamic
// shared memory by slicing (the usual way to have several dynamic
// arrays), and a third of another type aliasing it.
func HuntcDynSlices(t cuda.Thread, a []int32, out []int32) {
	dyn := cuda.DynamicSharedArray[int32](t)
	bd := t.BlockDim().X
	first := dyn[:bd]
	second := dyn[bd : 2*bd+1]
	tid := t.ThreadIdx().X
	i := t.Grid1()
	first[tid] = a[i]
	second[tid+1] = a[i] * 3
	if tid == 0 {
		second[0] = -1
	}
	t.SyncThreads()
	bytes := cuda.DynamicSharedArray[uint8](t)
	out[i] = first[bd-1-tid] + second[tid] + int32(bytes[4*tid+1])
}

// HuntcShared3 fills a 3-D shared array from a 3-D block and reads it
// rotated after a barrier.
func HuntcShared3(t cuda.Thread, out []int32) {
	s := cuda.SharedArray3[int32](t, 4, 4, 4)
	d := t.BlockDim()
	x, y, z := t.ThreadIdx().X, t.ThreadIdx().Y, t.ThreadIdx().Z
	s.Set(x, y, z, int32(x+10*y+100*z))
	t.SyncThreads()
	v := s.At(y%d.X, z%d.Y, x%d.Z)
	lin := x + d.X*(y+d.Y*z) + d.X*d.Y*d.Z*t.BlockIdx().X
	out[lin] = v
}

// HuntcBFS spreads a frontier through a ring until no thread changed
// (SyncThreadsOr in the loop's condition), each thread with its own
// state kept across the barriers.
func HuntcBFS(t cuda.Thread, seed []int32, out []int32) {
	dist := cuda.SharedArray[int32](t, 128)
	tid := t.ThreadIdx().X
	bd := t.BlockDim().X
	i := t.Grid1()
	d := int32(-1)
	if seed[i] > 400 {
		d = 0
	}
	dist[tid] = d
	t.SyncThreads()
	changed := true
	rounds := 0
	for t.SyncThreadsOr(changed) {
		changed = false
		l, r := dist[(tid+bd-1)%bd], dist[(tid+1)%bd]
		nd := d
		if l >= 0 && (nd < 0 || l+1 < nd) {
			nd = l + 1
		}
		if r >= 0 && (nd < 0 || r+1 < nd) {
			nd = r + 1
		}
		t.SyncThreads()
		if nd != d {
			d = nd
			dist[tid] = d
			changed = true
		}
		rounds++
		t.SyncThreads()
	}
	out[i] = d*1000 + int32(rounds)
}

// HuntcOddReduce reduces blocks of any size (not powers of two): the
// halving step rounds up, and each round's bound is block-uniform.
func HuntcOddReduce(t cuda.Thread, a []float64, sums []float64) {
	sh := cuda.SharedArray[float64](t, 256)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = 0
	if i < len(a) {
		sh[tid] = a[i]
	}
	t.SyncThreads()
	for n := t.BlockDim().X; n > 1; {
		half := (n + 1) / 2
		if tid < n-half {
			sh[tid] += sh[tid+half]
		}
		n = half
		t.SyncThreads()
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = sh[0]
	}
}

// huntcBlockMax is a helper with barriers returning a value: the block's
// maximum of v.
func huntcBlockMax(t cuda.Thread, sh []int32, v int32) int32 {
	tid := t.ThreadIdx().X
	sh[tid] = v
	t.SyncThreads()
	if tid == 0 {
		m := sh[0]
		for j := 1; j < t.BlockDim().X; j++ {
			m = max(m, sh[j])
		}
		sh[0] = m
	}
	t.SyncThreads()
	r := sh[0]
	t.SyncThreads()
	return r
}

// HuntcHelperMax calls the barrier helper twice, the second time on
// values made from the first result.
func HuntcHelperMax(t cuda.Thread, a []int32, out []int32) {
	sh := cuda.SharedArray[int32](t, 128)
	i := t.Grid1()
	m := huntcBlockMax(t, sh, a[i])
	m2 := huntcBlockMax(t, sh, m-a[i])
	out[i] = m*10000 + m2
}

// HuntcVoteLoop votes in a block-uniform loop, on blocks with a partial
// last warp, each round's predicate from the previous round's ballot.
func HuntcVoteLoop(t cuda.Thread, a []int32, out []uint32, rounds int) {
	i := t.Grid1()
	v := uint32(a[i])
	acc := uint32(0)
	for r := 0; r < rounds; r++ {
		b := cuda.BallotSync(t, v&(1<<uint(r)) != 0)
		if cuda.AllSync(t, b != 0) {
			acc += 1 << uint(r)
		}
		v ^= b
		acc ^= cuda.ShflXorSync(t, v, r%32)
	}
	out[i] = acc
}

// HuntcCountLoop repeats while more than k threads of the block still
// have work (SyncThreadsCount in the condition), each thread halving its
// own value.
func HuntcCountLoop(t cuda.Thread, a []int32, out []int32, k int) {
	i := t.Grid1()
	v := a[i] + 500
	steps := int32(0)
	for t.SyncThreadsCount(v > 3) > k {
		v /= 2
		steps++
	}
	out[i] = v*100 + steps
}

// HuntcUniformPanic divides by a parameter in code every thread shares
// (run once per block by the block loop): with p zero, every thread
// fails, and the launch names the block's first.
func HuntcUniformPanic(t cuda.Thread, a []int32, p int) {
	sh := cuda.SharedArray[int32](t, 64)
	k := len(a) / p
	sh[t.ThreadIdx().X] = int32(k)
	t.SyncThreads()
	a[t.Grid1()] = sh[0]
}

// HuntcAtomicSlot packs the positive values of a block into shared
// memory at slots claimed with a shared atomic, then sums them; the
// count is read after the barrier.
func HuntcAtomicSlot(t cuda.Thread, a []int32, out []int32) {
	cnt := cuda.SharedArray[int32](t, 1)
	buf := cuda.SharedArray[int32](t, 64)
	v := a[t.Grid1()]
	if v > 0 {
		j := cuda.AtomicAdd(&cnt[0], 1)
		buf[j] = v
	}
	t.SyncThreads()
	n := cnt[0]
	if t.ThreadIdx().X == 0 {
		s := int32(0)
		for j := int32(0); j < n; j++ {
			s += buf[j]
		}
		out[t.BlockIdx().X] = s
	}
}
