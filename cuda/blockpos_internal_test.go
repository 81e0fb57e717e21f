package cuda

import (
	"fmt"
	"testing"
)

// TestBlockPositions walks blocks of several shapes the way nugo gen's
// loops for blocks of two or three dimensions do (Pos, Step, ThreadAt,
// Grid2At, Grid3At) and through jammed groups (Runs, Shift), and requires
// every position to be the one Block.Thread's thread reports.
func TestBlockPositions(t *testing.T) {
	for _, c := range []struct{ dim, idx, grid Dim3 }{
		{Dim1(47), Dim3{X: 2}, Dim3{X: 3, Y: 1, Z: 1}},
		{Dim2(16, 2), Dim3{X: 1, Y: 2}, Dim3{X: 3, Y: 4, Z: 1}},
		{Dim3{X: 8, Y: 2, Z: 3}, Dim3{X: 0, Y: 1, Z: 1}, Dim3{X: 2, Y: 2, Z: 2}},
		{Dim2(12, 3), Dim3{X: 2, Y: 0}, Dim3{X: 3, Y: 1, Z: 1}},
		{Dim2(5, 7), Dim3{X: 1, Y: 1}, Dim3{X: 2, Y: 2, Z: 1}},
	} {
		t.Run(fmt.Sprintf("%dx%dx%d", c.dim.X, c.dim.Y, c.dim.Z), func(t *testing.T) {
			base := Dim3{X: c.idx.X * c.dim.X, Y: c.idx.Y * c.dim.Y, Z: c.idx.Z * c.dim.Z}
			b := &block{idx: c.idx, dim: c.dim, grid: c.grid, base: base,
				size: Dim3{X: c.grid.X * c.dim.X, Y: c.grid.Y * c.dim.Y, Z: c.grid.Z * c.dim.Z}}
			bl := newBlockOf(b, c.dim)
			bl.base = uint64(base.X)
			n := c.dim.Size()
			visited := 0
			x, y, z := bl.Pos(0)
			for i := 0; i < n; i, x, y, z = bl.Step(i, x, y, z) {
				visited++
				want := bl.Thread(i)
				if px, py, pz := bl.Pos(i); px != x || py != y || pz != z {
					t.Fatalf("thread %d: Step reached %d,%d,%d, Pos says %d,%d,%d", i, x, y, z, px, py, pz)
				}
				bl.cur = -1
				if got := bl.ThreadAt(i, x, y, z); got != want || bl.cur != i {
					t.Fatalf("thread %d: ThreadAt = %+v (current %d), Thread = %+v", i, got, bl.cur, want)
				}
				if want.ThreadIdx() != (Dim3{x, y, z}) {
					t.Fatalf("thread %d at %d,%d,%d has ThreadIdx %v", i, x, y, z, want.ThreadIdx())
				}
				gx, gy := bl.Grid2At(x, y)
				if wx, wy := want.Grid2(); gx != wx || gy != wy {
					t.Errorf("thread %d: Grid2At %d,%d, Grid2 %d,%d", i, gx, gy, wx, wy)
				}
				gx, gy, gz := bl.Grid3At(x, y, z)
				if wx, wy, wz := want.Grid3(); gx != wx || gy != wy || gz != wz {
					t.Errorf("thread %d: Grid3At %d,%d,%d, Grid3 %d,%d,%d", i, gx, gy, gz, wx, wy, wz)
				}
				for _, k := range []int{4, 8} {
					if i%k != 0 || i+k > n || !bl.Runs(k) {
						continue
					}
					for j := range k {
						s, u := want.Shift(j), bl.Thread(i+j)
						if s.ThreadIdx() != u.ThreadIdx() || s.Grid1() != u.Grid1() || s.LaneID() != u.LaneID() ||
							s.LanemaskLt() != u.LanemaskLt() || s.LanemaskLe() != u.LanemaskLe() || s.LanemaskEq() != u.LanemaskEq() ||
							s.LanemaskGe() != u.LanemaskGe() || s.LanemaskGt() != u.LanemaskGt() ||
							s.BlockIdx() != u.BlockIdx() || s.BlockDim() != u.BlockDim() || s.GridDim() != u.GridDim() ||
							s.GridSize1() != u.GridSize1() || s.WarpSize() != u.WarpSize() {
							t.Errorf("thread %d shifted by %d differs from thread %d", i, j, i+j)
						}
						sx, sy := s.Grid2()
						ux, uy := u.Grid2()
						sx3, sy3, sz3 := s.Grid3()
						ux3, uy3, uz3 := u.Grid3()
						gs2x, gs2y := s.GridSize2()
						gu2x, gu2y := u.GridSize2()
						gs3x, gs3y, gs3z := s.GridSize3()
						gu3x, gu3y, gu3z := u.GridSize3()
						if sx != ux || sy != uy || sx3 != ux3 || sy3 != uy3 || sz3 != uz3 ||
							gs2x != gu2x || gs2y != gu2y || gs3x != gu3x || gs3y != gu3y || gs3z != gu3z {
							t.Errorf("thread %d shifted by %d: grid positions differ from thread %d's", i, j, i+j)
						}
					}
				}
			}
			if visited != n {
				t.Errorf("Step visited %d threads, want %d", visited, n)
			}
			wantRuns := map[int]bool{4: c.dim.X%4 == 0 || bl.flat, 8: c.dim.X%8 == 0 || bl.flat}
			for k, want := range wantRuns {
				if bl.Runs(k) != want {
					t.Errorf("Runs(%d) = %v, want %v", k, bl.Runs(k), want)
				}
			}
		})
	}
}
