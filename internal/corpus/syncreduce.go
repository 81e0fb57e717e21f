package corpus

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// Block-wide barrier reductions (SyncThreadsCount, And, Or) and the fences
// of block and system scope.

// syncCountParity counts, per block of 70 threads (not a multiple of 32,
// the last block partly past the data), the even and the odd values.
func syncCountParity(t cuda.Thread, a []int64, even, odd []int32) {
	i := t.Grid1()
	in := i < len(a)
	e := t.SyncThreadsCount(in && a[i]%2 == 0)
	o := t.SyncThreadsCount(in && a[i]%2 != 0)
	if in {
		even[i], odd[i] = int32(e), int32(o)
	}
}

// syncCountEarlyReturn: threads that return before a barrier neither count
// nor block, including the block's first threads and, at the second
// barrier, threads that took part in the first.
func syncCountEarlyReturn(t cuda.Thread, a []int32, out []int32) {
	i, tid := t.Grid1(), t.ThreadIdx().X
	if tid < 3 || tid%5 == 2 || tid >= 90 || i >= len(a) {
		return
	}
	pos := t.SyncThreadsCount(a[i] > 0)
	all := t.SyncThreadsAnd(a[i] > -1<<30)
	some := t.SyncThreadsOr(a[i] == 7)
	if tid%3 == 0 {
		return
	}
	live := t.SyncThreadsCount(true)
	v := int32(pos*10000 + live*10)
	if all {
		v++
	}
	if some {
		v += 2
	}
	out[i] = v
}

// syncReduce2D: blocks of 12x5 threads in a 2x3 grid, whose predicate is
// true in every thread, in none, or depends on the data, by block.
func syncReduce2D(t cuda.Thread, a []int32, out []int32) {
	x, y := t.Grid2()
	sx, _ := t.GridSize2()
	lin := y*sx + x
	b := t.BlockIdx()
	var p bool
	switch (b.X + 2*b.Y) % 3 {
	case 0:
		p = true
	case 1:
		p = false
	default:
		p = a[lin%len(a)]%3 == 0
	}
	n := t.SyncThreadsCount(p)
	all := t.SyncThreadsAnd(p)
	some := t.SyncThreadsOr(p)
	allViaOr := !t.SyncThreadsOr(!p)
	v := int32(n * 16)
	if all {
		v |= 1
	}
	if some {
		v |= 2
	}
	if allViaOr {
		v |= 4
	}
	if lin < len(out) {
		out[lin] = v
	}
}

// syncOrLoop runs a loop until no thread of the block has work left: the
// whole block goes around as many times as its busiest thread needs, which
// differs by block.
func syncOrLoop(t cuda.Thread, a []int32, rounds []int32) {
	i := t.Grid1()
	var work int32
	if i < len(a) {
		work = (a[i] & 15) >> t.BlockIdx().X
	}
	var n int32
	for t.SyncThreadsOr(work > 0) {
		work--
		n++
	}
	if i < len(rounds) {
		rounds[i] = n
	}
}

// fenceScopes orders writes with the block- and system-scope fences: a
// shared value read by a neighbour after ThreadFenceBlock and SyncThreads,
// and a result written before ThreadFenceSystem and a counter's increment.
func fenceScopes(t cuda.Thread, a []int64, out []int64, done []int32) {
	sh := cuda.SharedArray[int64](t, 128)
	tid, i := t.ThreadIdx().X, t.Grid1()
	var v int64
	if i < len(a) {
		v = a[i]
	}
	sh[tid] = v
	cuda.ThreadFenceBlock()
	t.SyncThreads()
	if i < len(out) {
		out[i] = sh[(tid+1)%128] - v
		cuda.ThreadFenceSystem()
		cuda.AtomicAdd(&done[0], 1)
	}
}

// sleepBackoff adds each element into a total with a compare-and-swap
// loop that backs off with Nanosleep after a lost race, doubling the sleep
// up to a cap (a lock's backoff idiom), and sleeps for a time taken from
// the data; the results do not depend on how long the sleeps last.
func sleepBackoff(t cuda.Thread, a []int64, out []int64, total []int64) {
	i := t.Grid1()
	if i >= len(a) {
		return
	}
	ns := uint32(32)
	tries := int64(1)
	for {
		old := cuda.AtomicAdd(&total[0], 0)
		if cuda.AtomicCAS(&total[0], old, old+a[i]) == old {
			break
		}
		cuda.Nanosleep(ns)
		ns = min(ns*2, 1024)
		tries++
	}
	cuda.Nanosleep(uint32(a[i]) % 200)
	cuda.Nanosleep(0)
	out[i] = a[i]*3 + min(tries, 1)
}

var syncReduceCases = []Case{
	{Name: "syncreduce/count_parity", Kernel: syncCountParity, Grid: grid1(n1, 70), Block: cuda.Dim1(70), Args: func() []any {
		return []any{cycleI64(n1), zeros[int32](n1), zeros[int32](n1)}
	}},
	{Name: "syncreduce/early_return", Kernel: syncCountEarlyReturn, Grid: grid1(n1, 96), Block: cuda.Dim1(96), Args: func() []any {
		// Every block's values pass the And but block 1's, whose thread
		// 54 fails it; thread 7 of block 0 would fail it too, but returns
		// first. Only thread 10 of block 0 passes the Or: the other 7s
		// (threads 7 of block 0, 12 of block 1, 17 of block 2) return.
		a := make([]int32, n1)
		for i := range a {
			a[i] = int32(i*37%101 - 50)
		}
		a[7], a[96+54], a[10] = math.MinInt32, math.MinInt32, 7
		return []any{a, zeros[int32](n1)}
	}},
	{Name: "syncreduce/2d", Kernel: syncReduce2D, Grid: cuda.Dim2(2, 3), Block: cuda.Dim2(12, 5), Args: func() []any {
		return []any{cycleOf[int32](97), zeros[int32](2 * 12 * 3 * 5)}
	}},
	c1("syncreduce/or_loop", syncOrLoop, func() []any { return []any{cycleOf[int32](n1), zeros[int32](n1)} }),
	c1("syncreduce/fence_scopes", fenceScopes, func() []any { return []any{cycleI64(n1), zeros[int64](n1), zeros[int32](1)} }),
	c1("syncreduce/nanosleep_backoff", sleepBackoff, func() []any { return []any{cycleI64(n1), zeros[int64](n1), zeros[int64](1)} }),
}
