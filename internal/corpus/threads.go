package corpus

import "github.com/nugo-dev/nugo/cuda"

// Thread and block indices.

func threadIndices(t cuda.Thread, out []int32) {
	tid, bid := t.ThreadIdx(), t.BlockIdx()
	bdim, gdim := t.BlockDim(), t.GridDim()
	x, y, z := t.Grid3()
	sx, sy, sz := t.GridSize3()
	lin := (z*sy+y)*sx + x
	if lin < len(out)/4 {
		out[4*lin] = int32(tid.X + 10*tid.Y + 100*tid.Z)
		out[4*lin+1] = int32(bid.X + 10*bid.Y + 100*bid.Z)
		out[4*lin+2] = int32(bdim.X*bdim.Y*bdim.Z + gdim.X*gdim.Y*gdim.Z)
		out[4*lin+3] = int32(sx*sy*sz + t.WarpSize() + cuda.WarpSize)
	}
}

func threadGrid2(t cuda.Thread, out cuda.Array2[int32]) {
	x, y := t.Grid2()
	sx, sy := t.GridSize2()
	r, c := out.Shape()
	if x < r && y < c {
		out.Set(x, y, int32(x*1000+y+sx*sy))
	}
}

func threadLane(t cuda.Thread, out []int32) {
	if i := t.Grid1(); i < len(out) {
		out[i] = int32(t.LaneID()*100 + t.ThreadIdx().X%t.WarpSize())
	}
}

var threadCases = []Case{
	{Name: "threads/indices_3d", Kernel: threadIndices, Grid: cuda.Dim3{X: 2, Y: 3, Z: 2}, Block: cuda.Dim3{X: 4, Y: 2, Z: 3}, Args: func() []any {
		return []any{zeros[int32](4 * 2 * 3 * 2 * 4 * 2 * 3)}
	}},
	{Name: "threads/grid2", Kernel: threadGrid2, Grid: cuda.Dim2(3, 2), Block: cuda.Dim2(8, 16), Args: func() []any {
		return []any{arr2Of[int32](20, 30)}
	}},
	c1("threads/lane", threadLane, func() []any { return []any{zeros[int32](n1)} }),
}
