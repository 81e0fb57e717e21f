package testkernels

import "github.com/nugo-dev/nugo/cuda"

// BlockVotes: a thread whose mode is negative returns before the barriers;
// the others pass mode != 0 to SyncThreadsCount, SyncThreadsAnd and
// SyncThreadsOr and store, at their linear grid index, the count and the
// flags and (1) and or (2).
func BlockVotes(t cuda.Thread, mode []int32, count, flags []int32) {
	x, y, z := t.Grid3()
	sx, sy, _ := t.GridSize3()
	i := (z*sy+y)*sx + x
	if mode[i] < 0 {
		return
	}
	p := mode[i] != 0
	c := t.SyncThreadsCount(p)
	var f int32
	if t.SyncThreadsAnd(p) {
		f |= 1
	}
	if t.SyncThreadsOr(p) {
		f |= 2
	}
	count[i], flags[i] = int32(c), f
}

// SyncCountFault indexes past the end of data in the threads from
// len(data) on, while the others wait in SyncThreadsCount.
func SyncCountFault(t cuda.Thread, data []int) {
	i := t.Grid1()
	v := data[i]
	data[i] = t.SyncThreadsCount(v > 0)
}

// Fences publishes v[i]+1 after each of the three fences, one per scope.
func Fences(t cuda.Thread, v []int64) {
	i := t.Grid1()
	if i >= len(v) {
		return
	}
	v[i]++
	cuda.ThreadFenceBlock()
	v[i]++
	cuda.ThreadFence()
	v[i]++
	cuda.ThreadFenceSystem()
}
