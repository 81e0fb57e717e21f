package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// HuntGrid runs grid phases on a cooperative launch: thread bad (a grid
// index) fails in the second phase; the threads of block leave below
// lane 8 return before the first SyncGrid (the rest of the block meets
// the grid).
func HuntGrid(t cuda.Thread, a, out []int32, bad, leave int) {
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	i, n := t.Grid1(), t.GridSize1()
	if t.BlockIdx().X == leave && tid < 8 {
		return
	}
	sh[tid] = a[i]
	t.SyncThreads()
	out[i] = sh[(tid+1)%t.BlockDim().X] * 3
	t.SyncGrid()
	j := (i + 37) % n
	if i == bad {
		j += n
	}
	v := out[j]
	t.SyncGrid()
	for k := 0; k < 2; k++ {
		out[i] += v + int32(k)
		t.SyncGrid()
	}
	out[i] = out[i]*2 - v
}
