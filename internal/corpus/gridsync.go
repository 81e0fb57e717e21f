package corpus

import "github.com/nugo-dev/nugo/cuda"

// Grid-wide barriers (t.SyncGrid) in cooperative launches.

// gridReduce sums a over the whole grid in phases: each thread adds its
// grid-stride share into partial, then the partials are folded in halves,
// the grid meeting at a barrier after every fold, and thread 0 stores the
// total. The grid has a power of two of threads.
func gridReduce(t cuda.Thread, a, partial, out []int64) {
	i, n := t.Grid1(), t.GridSize1()
	var s int64
	for j := i; j < len(a); j += n {
		s += a[j] * int64(j%7+1)
	}
	partial[i] = s
	t.SyncGrid()
	for stride := n / 2; stride > 0; stride /= 2 {
		if i < stride {
			partial[i] += partial[i+stride]
		}
		t.SyncGrid()
	}
	if i == 0 {
		out[0] = partial[0]
	}
}

// sequentialRows is Numba's cooperative-groups example: row by row, each
// column takes the value of the row above at the opposite column plus one,
// which another block wrote, so the whole grid must finish a row before
// any thread starts the next.
func sequentialRows(t cuda.Thread, m cuda.Array2[int32]) {
	col := t.Grid1()
	rows, cols := m.Shape()
	for row := 1; row < rows; row++ {
		opposite := cols - col - 1
		m.Set(row, col, m.At(row-1, opposite)+1)
		t.SyncGrid()
	}
}

// gridSyncEarlyReturn: in a 2-D grid of 2-D blocks, a third of each
// block's threads, thread (0,0) among them, return before the grid
// barrier; the others write, meet at it, and read what a thread half the
// grid away wrote (or the input, where that thread returned).
func gridSyncEarlyReturn(t cuda.Thread, a, out []int32) {
	x, y := t.Grid2()
	sx, sy := t.GridSize2()
	tid := t.ThreadIdx()
	if (tid.X+tid.Y)%3 == 0 {
		return
	}
	lin, n := y*sx+x, sx*sy
	a[lin] = a[lin]*3 + int32(lin)
	t.SyncGrid()
	out[lin] = a[(lin+n/2)%n] - int32(tid.Y)
	t.SyncGrid()
	a[lin] = out[(lin+1)%n]
}

// gridSyncExitAfter: block 0 returns right after the last grid barrier
// while the other blocks go on working, longer the higher their index, and
// the odd threads of every block return before the first barrier. Neither
// is a block returning before a SyncGrid: no backend may report one.
func gridSyncExitAfter(t cuda.Thread, a, out []int64) {
	i := t.Grid1()
	if i%2 == 1 {
		out[i] = -1
		return
	}
	a[i] = int64(i) * 3
	t.SyncGrid()
	out[i] = a[(i+t.BlockDim().X)%len(a)]
	t.SyncGrid()
	b := t.BlockIdx().X
	if b == 0 {
		return
	}
	var s int64
	for k := range 100 * b {
		s += a[(i+k)%len(a)] ^ int64(k)
	}
	out[i] += s
}

var gridSyncCases = []Case{
	{Name: "gridsync/exit_after_last", Kernel: gridSyncExitAfter, Grid: cuda.Dim1(4), Block: cuda.Dim1(32), Cooperative: true, Args: func() []any {
		return []any{cycleI64(128), zeros[int64](128)}
	}},
	{Name: "gridsync/reduce", Kernel: gridReduce, Grid: cuda.Dim1(4), Block: cuda.Dim1(64), Cooperative: true, Args: func() []any {
		return []any{cycleI64(1000), zeros[int64](256), zeros[int64](1)}
	}},
	{Name: "gridsync/sequential_rows", Kernel: sequentialRows, Grid: cuda.Dim1(3), Block: cuda.Dim1(32), Cooperative: true, Args: func() []any {
		m := cuda.MustView2(cycleOf[int32](12*96), 12, 96)
		return []any{m}
	}},
	{Name: "gridsync/early_return", Kernel: gridSyncEarlyReturn, Grid: cuda.Dim2(3, 2), Block: cuda.Dim2(16, 4), Cooperative: true, Args: func() []any {
		return []any{cycleOf[int32](3 * 2 * 16 * 4), zeros[int32](3 * 2 * 16 * 4)}
	}},
}
