package testkernels

import "github.com/nugo-dev/nugo/cuda"

// GridRotate rotates data by one place per round, rounds times, adding one
// each time: every thread reads its right neighbour (another block's at
// block edges), the grid meets, every thread writes, the grid meets again.
func GridRotate(t cuda.Thread, data []int64, rounds int) {
	i := t.Grid1()
	n := len(data)
	for range rounds {
		var v int64
		if i < n {
			v = data[(i+1)%n]
		}
		t.SyncGrid()
		if i < n {
			data[i] = v + 1
		}
		t.SyncGrid()
	}
}

// GridSyncAfterSyncThreads meets its block at SyncThreads, then the grid
// at SyncGrid, and stores one in out at its grid index.
func GridSyncAfterSyncThreads(t cuda.Thread, out []int32) {
	t.SyncThreads()
	t.SyncGrid()
	out[t.Grid1()] = 1
}

// GridSyncFault: thread 5 of block 1 indexes past data while the rest of
// the grid waits at SyncGrid.
func GridSyncFault(t cuda.Thread, data []int32) {
	i := t.Grid1()
	if t.BlockIdx().X == 1 && t.ThreadIdx().X == 5 {
		data[len(data)+i]++
	}
	t.SyncGrid()
	data[i]++
}

// GridSyncBlockExits: every thread of block 1 returns before the grid
// barrier that the other blocks wait at; the others store one in data,
// meet, and store in out their one plus the next block's.
func GridSyncBlockExits(t cuda.Thread, data, out []int32) {
	if t.BlockIdx().X == 1 {
		return
	}
	i := t.Grid1()
	data[i] = 1
	t.SyncGrid()
	out[i] = data[i] + data[(i+t.BlockDim().X)%len(data)]
}

// GridSyncBlockFails: every thread of block 1 indexes past data before the
// grid barrier that the other blocks wait at.
func GridSyncBlockFails(t cuda.Thread, data []int32) {
	i := t.Grid1()
	if t.BlockIdx().X == 1 {
		data[len(data)+i]++
	}
	t.SyncGrid()
	data[i]++
}

// GridSyncLateBlockExits: in a 2-D grid, every thread of block (1,1)
// returns after the first grid barrier and before the second, which the
// other blocks wait at.
func GridSyncLateBlockExits(t cuda.Thread, data, out []int32) {
	x, y := t.Grid2()
	w, _ := t.GridSize2()
	i := y*w + x
	data[i] = 1
	t.SyncGrid()
	if b := t.BlockIdx(); b.X == 1 && b.Y == 1 {
		return
	}
	out[i] = data[i] + data[len(data)-1-i]
	t.SyncGrid()
	out[i]++
}

// GridSyncAfterLast: block 0 returns right after the grid barrier while
// the others go on, and the odd threads of every block return before it;
// the others store in out what they computed from another block's data.
func GridSyncAfterLast(t cuda.Thread, data, out []int32) {
	i := t.Grid1()
	if i%2 == 1 {
		return
	}
	data[i] *= 3
	t.SyncGrid()
	if t.BlockIdx().X == 0 {
		return
	}
	v := data[(i+t.BlockDim().X)%len(data)]
	for k := range 50 * t.BlockIdx().X {
		v ^= int32(k)
	}
	out[i] = v
}

// GridApplyRotate applies f to its element, meets the grid, and stores its
// right neighbour's result: a cooperative kernel with a func parameter.
func GridApplyRotate(t cuda.Thread, f func(int64) int64, data []int64) {
	i := t.Grid1()
	n := len(data)
	var v int64
	if i < n {
		v = f(data[i])
	}
	t.SyncGrid()
	if i < n {
		data[(i+n-1)%n] = v
	}
}

// Triple is a function for GridApplyRotate's func parameter.
func Triple(x int64) int64 { return 3 * x }

// GridSyncOneBlock: only block 0 meets the grid (a SyncGrid under a
// condition on BlockIdx, the same in every thread of a block), so block 1
// returns before the grid barrier that block 0 waits at.
func GridSyncOneBlock(t cuda.Thread, data []int32) {
	if t.BlockIdx().X == 0 {
		t.SyncGrid()
	}
	data[t.Grid1()] = 1
}
