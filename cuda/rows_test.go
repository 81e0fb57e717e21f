package cuda

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/cpu"
)

// Row loops for this package's test kernels, written as nugo gen writes
// them (nugo gen reads no test files), so that the CPU backend's tests of
// panics, Goexit and mid-row SyncThreads run through generated loops too.
func init() {
	RegisterRowLoop(panicAt, func(args []any) RowLoop {
		a0, a1, a2, a3, a4 := args[0].([]int32), args[1].(int), args[2].(int), args[3].(int), args[4].(int)
		return func(r *Row) {
			for t, n := r.Start(); n > 0; t, n = r.More() { // panicAt cannot make its block concurrent
				for {
					panicAt(t, a0, a1, a2, a3, a4)
					if n--; n == 0 {
						break
					}
					t = r.Next(t)
				}
			}
		}
	})
	RegisterRowLoop(syncMidRow, func(args []any) RowLoop {
		a0, a1, a2, a3 := args[0].([]int32), args[1].([]int32), args[2].(int), args[3].(int)
		return func(r *Row) {
			for t, n, stop := r.Begin(); n > 0; t, n = r.More() {
				for {
					syncMidRow(t, a0, a1, a2, a3)
					if n--; n == 0 || *stop {
						break
					}
					t = r.Next(t)
				}
			}
		}
	})
	RegisterRowLoop(syncUnseen, func(args []any) RowLoop {
		a0, a1 := args[0].([]int32), args[1].(int)
		return func(r *Row) {
			for t, n := r.Start(); n > 0; t, n = r.More() { // as if nugo gen had missed the SyncThreads
				for {
					syncUnseen(t, a0, a1)
					if n--; n == 0 {
						break
					}
					t = r.Next(t)
				}
			}
		}
	})
	RegisterRowLoop(goexitAt, func(args []any) RowLoop {
		a0, a1, a2 := args[0].([]int32), args[1].(int), args[2].(bool)
		return func(r *Row) {
			for t, n, stop := r.Begin(); n > 0; t, n = r.More() {
				for {
					goexitAt(t, a0, a1, a2)
					if n--; n == 0 || *stop {
						break
					}
					t = r.Next(t)
				}
			}
		}
	})
}

// bothPaths runs test once through the registered row loops and once with
// them turned off, through the invoker's per-thread calls.
func bothPaths(t *testing.T, test func(t *testing.T)) {
	t.Helper()
	for _, off := range []bool{false, true} {
		name := "row loop"
		if off {
			name = "per-thread calls"
		}
		t.Run(name, func(t *testing.T) {
			was := cpu.SetRowsDisabled(off)
			defer cpu.SetRowsDisabled(was)
			test(t)
		})
	}
}

func rowScale(t Thread, d []float32, k float32) {
	if i := t.Grid1(); i < len(d) {
		d[i] *= k
	}
}

func TestRowLoopFor(t *testing.T) {
	bind := func(args []any) RowLoop { return func(*Row) {} }
	closure := func(t Thread, d []float32, k float32) {}
	RegisterRowLoop(rowScale, bind)
	// Registrations that must be ignored, without a panic.
	RegisterRowLoop(nil, bind)
	RegisterRowLoop(rowScale, nil)
	RegisterRowLoop(42, bind)
	RegisterRowLoop((func(Thread))(nil), bind)

	args := []reflect.Value{reflect.ValueOf([]float32{1}), reflect.ValueOf(float32(2))}
	tests := []struct {
		name     string
		fn       any
		disabled bool
		want     bool
	}{
		{"registered", rowScale, false, true},
		{"registered, row loops off", rowScale, true, false},
		{"closure of the same type", closure, false, false},
		{"not registered", vectorAddCPU, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			was := cpu.SetRowsDisabled(tc.disabled)
			defer cpu.SetRowsDisabled(was)
			loop, err := rowLoopFor(reflect.ValueOf(tc.fn), args)
			if err != nil {
				t.Fatal(err)
			}
			if got := loop != nil; got != tc.want {
				t.Errorf("has a row loop: %v, want %v", got, tc.want)
			}
		})
	}
}

func vectorAddCPU(t Thread, a, b, c []float32) {}

// A binder that panics (only a hand-written one can) fails the launch
// with an error naming the kernel's type, and nothing runs.
func TestRowLoopBinderPanics(t *testing.T) {
	RegisterRowLoop(rowPanicBind, func(args []any) RowLoop { panic("bad binder") })
	d := []int32{0}
	err := Jit(rowPanicBind).Launch(Dim1(1), Dim1(1), d)
	if err == nil || d[0] != 0 {
		t.Fatalf("got %v with d = %v, want an error and d untouched", err, d)
	}
	for _, s := range []string{"row loop of", "bad binder"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
}

func rowPanicBind(t Thread, d []int32) { d[0] = 1 }

// Every row of a 3-D block goes through the generated loop exactly once
// per thread, with the thread's own index.
func TestRowLoopCoversBlock(t *testing.T) {
	block, grid := Dim3{5, 3, 2}, Dim3{3, 2, 1}
	n := block.Size() * grid.Size()
	bothPaths(t, func(t *testing.T) {
		calls := make([]int32, n)
		if err := Jit(rowIndex).Launch(grid, block, calls); err != nil {
			t.Fatal(err)
		}
		for i, c := range calls {
			if c != 1 {
				t.Fatalf("linear thread %d ran %d times", i, c)
			}
		}
	})
}

func rowIndex(t Thread, calls []int32) {
	tid, b, d, g := t.ThreadIdx(), t.BlockIdx(), t.BlockDim(), t.GridDim()
	block := b.X + g.X*(b.Y+g.Y*b.Z)
	AtomicAdd(&calls[block*d.Size()+tid.X+d.X*(tid.Y+d.Y*tid.Z)], 1)
}

// rowIndex's loop has the shape nugo gen wrote before Row.More: it returns
// after one row, and the worker calls it again for the next.
func init() {
	RegisterRowLoop(rowIndex, func(args []any) RowLoop {
		a0 := args[0].([]int32)
		return func(r *Row) {
			t, n, stop := r.Begin()
			for {
				rowIndex(t, a0)
				if n--; n == 0 || *stop {
					return
				}
				t = r.Next(t)
			}
		}
	})
}

// TestPackTidLimits checks that a Thread's packed index keeps every
// coordinate apart at the launch limits: the largest grid x, block y and z.
func TestPackTidLimits(t *testing.T) {
	maxX := defaultLimits.MaxGrid.X - 1
	for _, tc := range []struct {
		name       string
		dim, idx   Dim3
		x, y, z    int // thread position in the block
		wantLinear int
	}{
		{"origin", Dim3{1, 1, 1}, Dim3{0, 0, 0}, 0, 0, 0, 0},
		{"largest x", Dim3{1024, 1, 1}, Dim3{maxX, 3, 5}, 1023, 0, 0, 1023},
		{"largest y", Dim3{1, 1024, 1}, Dim3{maxX, 65534, 0}, 0, 1023, 0, 1023},
		{"largest z", Dim3{2, 8, 64}, Dim3{maxX, 7, 65534}, 1, 7, 63, 1 + 2*(7+8*63)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &block{dim: tc.dim, idx: tc.idx}
			b.base = Dim3{tc.idx.X * tc.dim.X, tc.idx.Y * tc.dim.Y, tc.idx.Z * tc.dim.Z}
			th := Thread{b, packTid(b.base.X+tc.x, tc.y, tc.z)}
			if got, want := th.ThreadIdx(), (Dim3{tc.x, tc.y, tc.z}); got != want {
				t.Errorf("ThreadIdx() = %v, want %v", got, want)
			}
			gx, gy, gz := th.Grid3()
			if want := (Dim3{b.base.X + tc.x, b.base.Y + tc.y, b.base.Z + tc.z}); (Dim3{gx, gy, gz}) != want {
				t.Errorf("Grid3() = %d, %d, %d, want %v", gx, gy, gz, want)
			}
			if gx1 := th.Grid1(); gx1 != gx {
				t.Errorf("Grid1() = %d, want %d", gx1, gx)
			}
			if gx2, gy2 := th.Grid2(); gx2 != gx || gy2 != gy {
				t.Errorf("Grid2() = %d, %d, want %d, %d", gx2, gy2, gx, gy)
			}
			if got := th.linear(); got != tc.wantLinear {
				t.Errorf("linear() = %d, want %d", got, tc.wantLinear)
			}
		})
	}
}

// syncUnseen counts its calls per thread and, in thread sx of each block,
// calls SyncThreads, through a func value that nugo gen cannot see into.
func syncUnseen(t Thread, calls []int32, sx int) {
	AtomicAdd(&calls[t.Grid1()], 1)
	if t.ThreadIdx().X == sx {
		syncVia(t)
	}
}

var syncVia = func(t Thread) { t.SyncThreads() }

// TestRowStartReachesSync: a thread that makes its block concurrent in a
// row loop without the stop check (Row.Start) fails the launch, naming
// itself, and no thread runs twice.
func TestRowStartReachesSync(t *testing.T) {
	for _, sx := range []int{0, 17, 63} {
		calls := make([]int32, 4*64)
		err := Jit(syncUnseen).Launch(Dim1(4), Dim1(64), calls, sx)
		var ke *KernelError
		if !errors.As(err, &ke) {
			t.Fatalf("sx=%d: error %v, want a KernelError", sx, err)
		}
		if ke.Thread != (Dim3{sx, 0, 0}) || !strings.Contains(ke.Msg, "nugo gen") {
			t.Errorf("sx=%d: %v, want thread (%d,0,0) and a message naming nugo gen", sx, ke, sx)
		}
		for i, c := range calls {
			if c > 1 {
				t.Errorf("sx=%d: thread %d of the grid ran %d times", sx, i, c)
			}
		}
		if c := calls[int(ke.Block.X)*64+sx]; c != 1 {
			t.Errorf("sx=%d: the failing thread ran %d times, want 1", sx, c)
		}
	}
}

// blockSeen counts, in thread 0 of each block, the block's visits under
// its linear index.
func blockSeen(t Thread, seen []int32) {
	if t.ThreadIdx() == (Dim3{}) {
		b, g := t.BlockIdx(), t.GridDim()
		AtomicAdd(&seen[b.X+g.X*(b.Y+g.Y*b.Z)], 1)
	}
}

// TestBlockIndexStepping: the workers step a block's index from the one
// before instead of dividing; every block of grids of every shape still
// runs once, with its own index.
func TestBlockIndexStepping(t *testing.T) {
	for _, grid := range []Dim3{{1, 1, 1}, {7, 1, 1}, {3, 5, 2}, {37, 3, 5}, {1, 9, 11}, {2000, 1, 1}} {
		bothPaths(t, func(t *testing.T) {
			seen := make([]int32, grid.Size())
			if err := Jit(blockSeen).Launch(grid, Dim3{2, 2, 1}, seen); err != nil {
				t.Fatal(err)
			}
			for i, s := range seen {
				if s != 1 {
					t.Fatalf("grid %v: block %d ran %d times", grid, i, s)
				}
			}
		})
	}
}

// blockSeen's and sharedFresh's loops run on from row to row and block to
// block with Row.More, as nugo gen writes them.
func init() {
	RegisterRowLoop(blockSeen, func(args []any) RowLoop {
		a0 := args[0].([]int32)
		return func(r *Row) {
			for t, n := r.Start(); n > 0; t, n = r.More() {
				for {
					blockSeen(t, a0)
					if n--; n == 0 {
						break
					}
					t = r.Next(t)
				}
			}
		}
	})
	RegisterRowLoop(sharedFresh, func(args []any) RowLoop {
		a0, a1 := args[0].([]int32), args[1].([]int32)
		return func(r *Row) {
			for t, n := r.Start(); n > 0; t, n = r.More() {
				for {
					sharedFresh(t, a0, a1)
					if n--; n == 0 {
						break
					}
					t = r.Next(t)
				}
			}
		}
	})
}

// sharedFresh counts the threads of each block in a shared counter, which
// every block starts at zero, and records each thread's count (its linear
// index plus one when the block's threads run in order) and block index.
func sharedFresh(t Thread, count, blocks []int32) {
	sh := SharedArray[int32](t, 1)
	tid, b, d, g := t.ThreadIdx(), t.BlockIdx(), t.BlockDim(), t.GridDim()
	lin := tid.X + d.X*(tid.Y+d.Y*tid.Z)
	block := b.X + g.X*(b.Y+g.Y*b.Z)
	sh[0]++
	count[block*d.Size()+lin] = sh[0]
	blocks[block*d.Size()+lin] = int32(block)
}

// TestRowLoopRunsOnAcrossBlocks: a row loop that goes on with Row.More runs
// many blocks in one call; each block still starts with zeroed shared
// memory, and each thread sees its own block and thread index, for blocks
// of one, two and three dimensions and grids of every shape.
func TestRowLoopRunsOnAcrossBlocks(t *testing.T) {
	tests := []struct {
		name        string
		grid, block Dim3
	}{
		{"1-D", Dim1(3000), Dim1(4)},
		{"2-D blocks", Dim3{400, 3, 1}, Dim3{3, 2, 1}},
		{"3-D", Dim3{17, 9, 5}, Dim3{2, 3, 2}},
		{"one block", Dim1(1), Dim1(8)},
	}
	// cpu.RunSpans hands a worker runs of grid/(workers*32) blocks.
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.grid.Size() * tc.block.Size()
			count, blocks := make([]int32, n), make([]int32, n)
			if err := Jit(sharedFresh).Launch(tc.grid, tc.block, count, blocks); err != nil {
				t.Fatal(err)
			}
			bs := tc.block.Size()
			for i := range n {
				if count[i] != int32(i%bs+1) || blocks[i] != int32(i/bs) {
					t.Fatalf("linear thread %d: count %d, block %d; want %d, %d", i, count[i], blocks[i], i%bs+1, i/bs)
				}
			}
		})
	}
}

// TestRowLoopPanicInLaterBlock: a panic in a block that a row loop reached
// with Row.More, after running earlier blocks in the same call, names that
// block and thread.
func TestRowLoopPanicInLaterBlock(t *testing.T) {
	tests := []struct {
		name  string
		block Dim3
		bx    int
		at    Dim3
	}{
		{"1-D", Dim1(64), 457, Dim3{13, 0, 0}},
		{"1-D first thread", Dim1(64), 998, Dim3{0, 0, 0}},
		{"3-D", Dim3{4, 3, 2}, 371, Dim3{2, 1, 1}},
	}
	for _, tc := range tests {
		bothPaths(t, func(t *testing.T) {
			calls := make([]int32, 1)
			err := Jit(panicAt).Launch(Dim1(1000), tc.block, calls, tc.bx, tc.at.X, tc.at.Y, tc.at.Z)
			var ke *KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("%s: error %v is not a *KernelError", tc.name, err)
			}
			if ke.Block != (Dim3{tc.bx, 0, 0}) || ke.Thread != tc.at {
				t.Errorf("%s: KernelError names block %v thread %v, want (%d,0,0) %v", tc.name, ke.Block, ke.Thread, tc.bx, tc.at)
			}
		})
	}
}

// grid1Only reads nothing of its Thread but Grid1; it panics in thread
// at (a grid x), and counts each thread's visits.
func grid1Only(t Thread, visits []int32, at int) {
	i := t.Grid1()
	if i == at {
		var none []int32
		none[i] = 1
	}
	AtomicAdd(&visits[i], 1) // grid rows share a grid x
}

func init() {
	RegisterRowLoop(grid1Only, func(args []any) RowLoop {
		a0, a1 := args[0].([]int32), args[1].(int)
		return func(r *Row) {
			for t, n := r.StartGrid1(); n > 0; t, n = r.More() {
				for {
					grid1Only(t, a0, a1)
					if n--; n == 0 {
						break
					}
					t = r.Next(t)
				}
			}
		}
	})
}

// TestRowStartGrid1: a loop that starts with StartGrid1 runs a worker's
// run of one-dimensional blocks as one row; every thread runs once, and a
// panic names its own block and thread, in grids and blocks of one
// dimension (one row for many blocks) and of more (a row per block row).
func TestRowStartGrid1(t *testing.T) {
	tests := []struct {
		name        string
		grid, block Dim3
		at          int // grid x of the panicking thread, -1 for none
		wantBlock   Dim3
		wantThread  Dim3
	}{
		{"1-D", Dim1(3000), Dim1(32), -1, Dim3{}, Dim3{}},
		{"1-D panic", Dim1(3000), Dim1(32), 2345*32 + 17, Dim3{2345, 0, 0}, Dim3{17, 0, 0}},
		{"1-D panic first thread", Dim1(3000), Dim1(32), 1999 * 32, Dim3{1999, 0, 0}, Dim3{}},
		{"2-D grid", Dim3{300, 10, 1}, Dim1(32), -1, Dim3{}, Dim3{}},
		{"2-D grid panic", Dim3{300, 10, 1}, Dim1(32), 123*32 + 5, Dim3{123, 0, 0}, Dim3{5, 0, 0}},
	}
	for _, tc := range tests {
		bothPaths(t, func(t *testing.T) {
			width := tc.grid.X * tc.block.X // grid x runs over [0, width) in every grid row
			visits := make([]int32, width)
			err := Jit(grid1Only).Launch(tc.grid, tc.block, visits, tc.at)
			if tc.at < 0 {
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				for i, v := range visits {
					if want := int32(tc.grid.Y * tc.grid.Z); v != want {
						t.Fatalf("%s: grid x %d visited %d times, want %d", tc.name, i, v, want)
					}
				}
				return
			}
			var ke *KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("%s: error %v is not a *KernelError", tc.name, err)
			}
			if ke.Block.X != tc.wantBlock.X || ke.Thread != tc.wantThread {
				t.Errorf("%s: KernelError names block %v thread %v, want block x %d thread %v", tc.name, ke.Block, ke.Thread, tc.wantBlock.X, tc.wantThread)
			}
		})
	}
}
