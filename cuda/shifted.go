package cuda

// Shifted is, for the jammed loops nugo gen writes, the thread k places
// after a thread t along x in the same row of its block (same y and z),
// seen through t: its position methods compute from t's, so that the Go
// compiler sees that the threads of a jammed group share their y and z
// (and the loads those index) instead of recomputing them from each
// thread's own index. Thread.Shift makes one; Block.Runs tells whether a
// group of threads lies in one row.
type Shifted struct {
	t Thread
	k int
}

// Shift returns the thread k places after t along x, which must be in t's
// row of the block (see Block.Runs).
func (t Thread) Shift(k int) Shifted { return Shifted{t, k} }

// ThreadIdx is the thread's position in its block.
func (s Shifted) ThreadIdx() Dim3 {
	d := s.t.ThreadIdx()
	d.X += s.k
	return d
}

// BlockIdx is the block's position in the grid.
func (s Shifted) BlockIdx() Dim3 { return s.t.BlockIdx() }

// BlockDim is the shape of the block.
func (s Shifted) BlockDim() Dim3 { return s.t.BlockDim() }

// GridDim is the shape of the grid in blocks.
func (s Shifted) GridDim() Dim3 { return s.t.GridDim() }

// Grid1 is the thread's absolute position in a 1-D grid.
func (s Shifted) Grid1() int { return s.t.Grid1() + s.k }

// Grid2 is the thread's absolute position in a 2-D grid.
func (s Shifted) Grid2() (x, y int) {
	x, y = s.t.Grid2()
	return x + s.k, y
}

// Grid3 is the thread's absolute position in a 3-D grid.
func (s Shifted) Grid3() (x, y, z int) {
	x, y, z = s.t.Grid3()
	return x + s.k, y, z
}

// GridSize1 is the number of threads in the grid along x.
func (s Shifted) GridSize1() int { return s.t.GridSize1() }

// GridSize2 is the number of threads in the grid along x and y.
func (s Shifted) GridSize2() (x, y int) { return s.t.GridSize2() }

// GridSize3 is the number of threads in the grid along x, y and z.
func (s Shifted) GridSize3() (x, y, z int) { return s.t.GridSize3() }

// LaneID is the thread's index within its warp.
func (s Shifted) LaneID() int { return (s.t.linear() + s.k) % WarpSize }

// WarpSize is the number of threads in a warp, 32.
func (s Shifted) WarpSize() int { return WarpSize }

// LanemaskLt is Thread.LanemaskLt of the thread.
func (s Shifted) LanemaskLt() uint32 { return maskLt(s.LaneID()) }

// LanemaskLe is Thread.LanemaskLe of the thread.
func (s Shifted) LanemaskLe() uint32 { return maskLe(s.LaneID()) }

// LanemaskEq is Thread.LanemaskEq of the thread.
func (s Shifted) LanemaskEq() uint32 { return maskEq(s.LaneID()) }

// LanemaskGe is Thread.LanemaskGe of the thread.
func (s Shifted) LanemaskGe() uint32 { return ^maskLt(s.LaneID()) }

// LanemaskGt is Thread.LanemaskGt of the thread.
func (s Shifted) LanemaskGt() uint32 { return ^maskLe(s.LaneID()) }

// Runs reports whether each run of k threads of the block whose first
// linear index is a multiple of k lies in one row (same y and z), so that
// Thread.Shift names its threads: always in a one-dimensional block,
// otherwise when k divides the block's x size.
func (b *Block) Runs(k int) bool { return b.flat || k > 0 && b.b.dim.X%k == 0 }
