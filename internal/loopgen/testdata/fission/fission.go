// Package fission holds kernels that nugo gen's barrier fission must
// transform and kernels it must leave to the goroutine path, each with the
// reason TestFissionReasons expects.
package fission

import "github.com/nugo-dev/nugo/cuda"

// Reduce is the tree reduction: a barrier in a block-uniform loop.
func Reduce(t cuda.Thread, a, sums []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	if i := t.Grid1(); i < len(a) {
		sh[tid] = a[i]
	}
	t.SyncThreads()
	for s := 32; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.SyncThreads()
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = sh[0]
	}
}

// EarlyExit returns from some threads before the barrier.
func EarlyExit(t cuda.Thread, a []int32) {
	i := t.Grid1()
	if i >= len(a) {
		return
	}
	v := a[i] * 2
	t.SyncThreads()
	a[i] = v + int32(t.SyncThreadsCount(v > 0))
}

// Divergent waits at a barrier under a thread-dependent condition.
func Divergent(t cuda.Thread, a []int32) {
	if t.ThreadIdx().X < 16 {
		t.SyncThreads()
	}
	a[t.Grid1()] = 1
}

// InSwitch waits at a barrier inside a switch on a uniform value: an if.
func InSwitch(t cuda.Thread, a []int32) {
	switch t.BlockIdx().X {
	case 0:
		t.SyncThreads()
	}
	a[t.Grid1()] = 1
}

// BreakOut leaves a loop around a barrier with a break.
func BreakOut(t cuda.Thread, a []int32) {
	for k := 0; k < 4; k++ {
		if a[t.Grid1()] > 0 {
			break
		}
		t.SyncThreads()
	}
}

// AssignsParam changes a parameter, which the block's threads would share.
func AssignsParam(t cuda.Thread, a []int32) {
	a = a[1:]
	t.SyncThreads()
	a[0] = 1
}

// Closure synchronises next to a function literal.
func Closure(t cuda.Thread, a []int32) {
	f := func(x int32) int32 { return x + 1 }
	t.SyncThreads()
	a[t.Grid1()] = f(1)
}

// Helper synchronises through a device function.
func Helper(t cuda.Thread, a []int32) {
	wait(t)
	a[t.Grid1()] = 1
}

func wait(t cuda.Thread) { t.SyncThreads() }

// GridWide synchronises the grid.
func GridWide(t cuda.Thread, a []int32) {
	a[t.Grid1()] = 1
	t.SyncGrid()
}

// QuarterVote takes a ballot per quarter of the warp (a member mask),
// every lane at once: it gets a block loop.
func QuarterVote(t cuda.Thread, a []uint32) {
	i := t.Grid1()
	a[i] = cuda.BallotSyncMask(t, 0xff<<(8*(t.LaneID()/8)), a[i] > 0)
	if m, all := cuda.MatchAllSyncMask(t, 0xff<<(8*(t.LaneID()/8)), a[i]); all {
		a[i] = m
	}
}

// HalfVote takes a ballot in the lower half of the warp only: a warp
// operation under a thread-dependent condition (a divergent if), the last
// warp operation of the kernel (the other lanes leave: no check).
func HalfVote(t cuda.Thread, a []uint32) {
	i := t.Grid1()
	if t.LaneID() < 16 {
		a[i] = cuda.BallotSyncMask(t, 0xffff, a[i] > 0)
	}
}

// MatchArg passes MatchAllSync's two results to a function.
func MatchArg(t cuda.Thread, a []uint32) {
	i := t.Grid1()
	a[i] = pick(cuda.MatchAllSync(t, a[i]))
}

func pick(m uint32, all bool) uint32 {
	if all {
		return m
	}
	return 0
}

// Plain does not synchronise: it keeps its row loop.
func Plain(t cuda.Thread, a []int32) {
	if i := t.Grid1(); i < len(a) {
		a[i]++
	}
}

// Shadow declares, after a statement that reads the outer n, an inner n
// the same in every thread: it must not be moved before that statement.
func Shadow(t cuda.Thread, a []int32) {
	n := int32(5)
	for k := 0; k < 2; k++ {
		a[t.Grid1()] += n
		n := int32(7)
		t.SyncThreads()
		a[t.Grid1()] += n
	}
}

// GridFold folds partial sums over the grid in halves, the grid meeting
// after every fold: n, declared in one statement with the thread's i, is
// the same in every thread and bounds the loop around the grid barrier.
func GridFold(t cuda.Thread, partial []int64) {
	i, n := t.Grid1(), t.GridSize1()
	t.SyncGrid()
	for stride := n / 2; stride > 0; stride /= 2 {
		if i < stride {
			partial[i] += partial[i+stride]
		}
		t.SyncGrid()
	}
}

// GridByBlock meets the grid in block 0 only: block-uniform control flow,
// transformed (the other blocks returning before the barrier is reported
// at run time, as on the goroutine path).
func GridByBlock(t cuda.Thread, a []int32) {
	if t.BlockIdx().X == 0 {
		t.SyncGrid()
	}
	a[t.Grid1()] = 1
}

// GridDivergent meets the grid in one thread of each block only.
func GridDivergent(t cuda.Thread, a []int32) {
	if t.ThreadIdx().X == 0 {
		t.SyncGrid()
	}
	a[t.Grid1()] = 1
}

// WarpBranch reduces each warp's lower half on one side of a divergent if
// and takes a ballot of lanes 16-31 of warp 0 on a nested side, with an
// early return inside the arm; each is checked at run time (no live lane
// of its mask elsewhere), and ShflSync after the if joins every lane
// again.
func WarpBranch(t cuda.Thread, a []uint32) {
	i := t.Grid1()
	v := a[i]
	lane := t.LaneID()
	if lane < 16 {
		if v == 7 {
			return
		}
		for off := 8; off > 0; off /= 2 {
			v += cuda.ShflDownSyncMask(t, 0xffff, v, off)
		}
	} else if t.ThreadIdx().X < 32 {
		v = cuda.BallotSyncMask(t, 0xffff0000, v > 3)
	}
	a[i] = cuda.ShflSync(t, v, 0)
}

// LaneLoop shuffles in a loop whose trip count is the lane's: keeps
// goroutines.
func LaneLoop(t cuda.Thread, a []uint32) {
	i := t.Grid1()
	v := a[i]
	if v > 0 {
		for k := 0; k < t.LaneID(); k++ {
			v += cuda.ShflDownSync(t, v, 1)
		}
	}
	a[i] = v
}

// ActiveOneSide calls ActiveMask on one side of a divergent if, and a
// ballot follows: which lanes the goroutine path gathers depends on the
// other lanes' path; keeps goroutines.
func ActiveOneSide(t cuda.Thread, a []uint32) {
	i := t.Grid1()
	if t.LaneID() < 16 {
		a[i] = cuda.ActiveMask(t)
	}
	a[i] += cuda.BallotSync(t, true)
}

// WarpSyncBranch calls SyncWarp on one side of a divergent if: keeps
// goroutines.
func WarpSyncBranch(t cuda.Thread, a []uint32) {
	i := t.Grid1()
	if t.LaneID() < 16 {
		t.SyncWarp()
		a[i] = cuda.ShflSyncMask(t, 0xffff, a[i], 0)
	}
}
