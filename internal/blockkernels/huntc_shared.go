package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// HuntcJacobi relaxes a block's tile of a until no point moves by more
// than tol (test_laplace's sweeps, with the convergence test on the
// device): a shared flag, reset by thread 0 and raised by any thread
// whose point moved, is read after a barrier to leave the loop, and the
// sweep count comes back through shared memory.
func HuntcJacobi(t cuda.Thread, a []float32, out []float32, tol float32, maxIter int) {
	cur := cuda.SharedArray[float32](t, 130)
	nxt := cuda.SharedArray[float32](t, 130)
	flag := cuda.SharedArray[int32](t, 1)
	iters := cuda.SharedArray[int32](t, 1)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	i := t.Grid1()
	v := float32(0)
	if i < len(a) {
		v = a[i]
	}
	cur[tid+1] = v
	if tid == 0 {
		cur[0] = 1
		cur[n+1] = -1
		nxt[0] = 1
		nxt[n+1] = -1
		iters[0] = 0
	}
	t.SyncThreads()
	for it := 0; it < maxIter; it++ {
		if tid == 0 {
			flag[0] = 0
		}
		t.SyncThreads()
		w := (cur[tid] + cur[tid+2]) * 0.5
		nxt[tid+1] = w
		if d := w - cur[tid+1]; d > tol || d < -tol {
			flag[0] = 1
		}
		t.SyncThreads()
		if flag[0] == 0 {
			break
		}
		cur[tid+1] = nxt[tid+1]
		if tid == 0 {
			iters[0]++
		}
		t.SyncThreads()
	}
	if i < len(a) {
		out[i] = cur[tid+1] + float32(iters[0])*1000
	}
}

// HuntcSharedTrip runs a barrier loop whose trip count every thread reads
// from shared memory after a barrier (thread 0 computed it from the
// data), and a second loop whose bound is a shared count of the threads
// that passed a test (an atomic in shared memory), read after a barrier
// of its own (after the first loop alone, which may run no times, the
// read would not follow a barrier).
func HuntcSharedTrip(t cuda.Thread, a []int32, out []int32) {
	sh := cuda.SharedArray[int32](t, 128)
	cnt := cuda.SharedArray[int32](t, 2)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	i := t.Grid1()
	v := a[i]
	if tid < 2 {
		cnt[tid] = 0
	}
	sh[tid] = v
	t.SyncThreads()
	if tid == 0 {
		cnt[0] = (sh[0]&7 + 8) % 5
	}
	if v > 0 {
		cuda.AtomicAdd(&cnt[1], 1)
	}
	t.SyncThreads()
	k := int(cnt[0])
	for r := 0; r < k; r++ {
		x := sh[(tid+r+1)%n]
		t.SyncThreads()
		sh[tid] = x + int32(r)
		t.SyncThreads()
	}
	t.SyncThreads()
	m := cnt[1]
	for r := int32(0); r < m%4; r++ {
		v += sh[(tid+int(r))%n]
		t.SyncThreads()
	}
	out[i] = v + m*1000 + int32(k)*100000
}

// HuntcGridFlag reads a block's trip count from shared memory before two
// grid syncs and runs a barrier loop that many times after them.
func HuntcGridFlag(t cuda.Thread, a []int32, out []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	bd := t.BlockDim().X
	i, n := t.Grid1(), t.GridSize1()
	if tid == 0 {
		flag[0] = int32(t.BlockIdx().X%3) + a[0]
	}
	t.SyncThreads()
	k := int(flag[0])
	out[i] = a[i]
	t.SyncGrid()
	v := out[(i+5)%n]
	t.SyncGrid()
	for r := 0; r < k; r++ {
		sh[tid] = v
		t.SyncThreads()
		v += sh[(tid+1)%bd]
		t.SyncThreads()
	}
	out[i] = v*10 + int32(k)
}

// HuntcWhileFlag is a `while flag:` relaxation: the loop's condition is a
// shared flag that its body resets and raises between its own barriers;
// each thread's value lives across them.
func HuntcWhileFlag(t cuda.Thread, a []int32, out []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	sh := cuda.SharedArray[int32](t, 128)
	tid := t.ThreadIdx().X
	bd := t.BlockDim().X
	i := t.Grid1()
	v := a[i]
	rounds := int32(0)
	if tid == 0 {
		flag[0] = 1
	}
	t.SyncThreads()
	for flag[0] != 0 {
		t.SyncThreads()
		if tid == 0 {
			flag[0] = 0
		}
		sh[tid] = v
		t.SyncThreads()
		if m := max(sh[(tid+1)%bd], sh[(tid+bd-1)%bd]); m > v {
			v = m
			flag[0] = 1
		}
		rounds++
		t.SyncThreads()
	}
	out[i] = v*100 + rounds
}

// HuntcSharedBounds takes, from shared memory read after a barrier, the
// trip count of a loop of shuffles, of a per-thread loop (unrolled and
// jammed) and the condition of an if around barriers, in 2-D blocks too.
func HuntcSharedBounds(t cuda.Thread, a []float32, out []float32) {
	cfg := cuda.SharedArray[int32](t, 4)
	tile := cuda.SharedArray[float32](t, 256)
	tid := t.ThreadIdx().X + t.ThreadIdx().Y*t.BlockDim().X
	n := t.BlockDim().X * t.BlockDim().Y
	g := t.BlockIdx().X*n + tid
	v := a[g]
	if tid == 0 {
		cfg[0] = int32(t.BlockIdx().X%4 + 1)
		cfg[1] = int32(len(a) % 7)
		cfg[2] = int32(t.BlockIdx().X % 2)
	}
	tile[tid] = v
	t.SyncThreads()
	k := int(cfg[0])
	for r := 0; r < k; r++ {
		v += cuda.ShflDownSync(t, v, 1<<uint(r))
	}
	var sum float32
	for p := 0; p < int(cfg[1]); p++ {
		sum += tile[(tid+p)%n] * float32(p)
	}
	t.SyncThreads()
	if cfg[2] == 1 {
		tile[tid] = v
		t.SyncThreads()
		v = tile[(tid+3)%n]
	}
	out[g] = v + sum
}
