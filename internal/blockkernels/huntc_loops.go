package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// HuntcGridStride walks a grid-stride loop whose step is the whole grid
// and whose start is the block's: block-uniform, with barriers inside;
// each pass reverses a block's tile through shared memory, the last tile
// partial.
func HuntcGridStride(t cuda.Thread, a []int32, out []int32) {
	sh := cuda.SharedArray[int32](t, 256)
	tid := t.ThreadIdx().X
	bd := t.BlockDim().X
	for base := t.BlockIdx().X * bd; base < len(a); base += bd * t.GridDim().X {
		i := base + tid
		sh[tid] = -7
		if i < len(a) {
			sh[tid] = a[i]
		}
		t.SyncThreads()
		if i < len(a) {
			out[i] = sh[bd-1-tid] + int32(base)
		}
		t.SyncThreads()
	}
}

// HuntcEarlyReturn returns threads past the end before the first barrier
// (the usual `if i >= n { return }`), some others between the barriers,
// and the rest meet at a SyncThreadsCount and the barriers after it.
func HuntcEarlyReturn(t cuda.Thread, a []int32, out []int32) {
	sh := cuda.SharedArray[int32](t, 128)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	if i >= len(a) {
		return
	}
	sh[tid] = a[i]
	t.SyncThreads()
	if a[i]%5 == 0 {
		out[i] = -1
		return
	}
	c := t.SyncThreadsCount(sh[tid] > 0)
	j := (tid + 1) % t.BlockDim().X
	t.SyncThreads()
	out[i] = sh[j] + int32(c)*1000
}

// HuntcCoopRows is test_cooperative_groups' sequential_rows: each row of
// a matrix is the previous row plus one, computed by a grid-stride loop
// over the columns, the rows separated by grid syncs.
func HuntcCoopRows(t cuda.Thread, m cuda.Array2[int32]) {
	rows, cols := m.Shape()
	start, stride := t.Grid1(), t.GridSize1()
	for row := 1; row < rows; row++ {
		for col := start; col < cols; col += stride {
			m.Set(row, col, m.At(row-1, col)+1)
		}
		t.SyncGrid()
	}
}

// HuntcScan is an inclusive Hillis-Steele scan over a block with two
// shared buffers swapped each round, on blocks of any size.
func HuntcScan(t cuda.Thread, a []int64, out []int64) {
	b0 := cuda.SharedArray[int64](t, 256)
	b1 := cuda.SharedArray[int64](t, 256)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	i := t.Grid1()
	if i < len(a) {
		b0[tid] = a[i]
	} else {
		b0[tid] = 0
	}
	t.SyncThreads()
	src, dst := b0, b1
	for off := 1; off < n; off *= 2 {
		x := src[tid]
		if tid >= off {
			x += src[tid-off]
		}
		dst[tid] = x
		t.SyncThreads()
		src, dst = dst, src
	}
	if i < len(a) {
		out[i] = src[tid]
	}
}
