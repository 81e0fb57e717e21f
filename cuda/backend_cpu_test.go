package cuda

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nugo-dev/nugo/internal/cpu"
)

// panicAt panics in the thread at (px, py, pz) of block bx; the other
// threads count their calls.
func panicAt(t Thread, calls []int32, bx, px, py, pz int) {
	tid := t.ThreadIdx()
	if t.BlockIdx().X == bx && tid == (Dim3{px, py, pz}) {
		var none []int32
		none[tid.X] = 1
	}
	AtomicAdd(&calls[0], 1)
}

// panicAtMany is panicAt with enough slices to take the invoker's reflect
// path on amd64 and arm64.
func panicAtMany(t Thread, calls []int32, bx, px, py, pz int, a, b, c, d, e, f, g, h, i, j, k, l []int32) {
	panicAt(t, calls, bx, px, py, pz)
}

func TestKernelErrorNamesThreadInRow(t *testing.T) {
	pad := make([]int32, 1)
	tests := []struct {
		name  string
		block Dim3
		at    Dim3
	}{
		{"first thread", Dim1(64), Dim3{0, 0, 0}},
		{"mid-row 1-D", Dim1(64), Dim3{37, 0, 0}},
		{"last thread", Dim1(64), Dim3{63, 0, 0}},
		{"mid-row 2-D", Dim2(8, 4), Dim3{5, 2, 0}},
		{"row start 3-D", Dim3{4, 3, 2}, Dim3{0, 1, 1}},
		{"mid-row 3-D", Dim3{4, 3, 2}, Dim3{2, 2, 1}},
	}
	for _, mode := range []string{"row loop", "invoker", "reflect"} {
		for _, tc := range tests {
			fast := mode != "reflect"
			t.Run(tc.name+" "+mode, func(t *testing.T) {
				was := cpu.SetRowsDisabled(mode != "row loop")
				defer cpu.SetRowsDisabled(was)
				calls := make([]int32, 1)
				var err error
				if fast {
					err = Jit(panicAt).Launch(Dim1(1), tc.block, calls, 0, tc.at.X, tc.at.Y, tc.at.Z)
				} else {
					err = Jit(panicAtMany).Launch(Dim1(1), tc.block, calls, 0, tc.at.X, tc.at.Y, tc.at.Z,
						pad, pad, pad, pad, pad, pad, pad, pad, pad, pad, pad, pad)
				}
				var ke *KernelError
				if !errors.As(err, &ke) {
					t.Fatalf("error %v is not a *KernelError", err)
				}
				if ke.Thread != tc.at || ke.Block != (Dim3{}) {
					t.Errorf("KernelError names block %v thread %v, want (0,0,0) %v", ke.Block, ke.Thread, tc.at)
				}
				// The threads before the failing one ran, none after it.
				before := tc.at.X + tc.block.X*(tc.at.Y+tc.block.Y*tc.at.Z)
				if calls[0] != int32(before) {
					t.Errorf("%d threads ran before the panic, want %d", calls[0], before)
				}
			})
		}
	}
}

// syncMidRow lets the threads before (sx, sy) in its block return at once;
// the others write shared memory, synchronise, and read their mirror
// image's value, so the first SyncThreads comes from (sx, sy), mid-row.
func syncMidRow(t Thread, out, calls []int32, sx, sy int) {
	tid, d := t.ThreadIdx(), t.BlockDim()
	lin := tid.X + d.X*tid.Y
	AtomicAdd(&calls[t.BlockIdx().X*d.X*d.Y+lin], 1)
	first := sx + d.X*sy
	if lin < first {
		return
	}
	sh := SharedArray[int32](t, 64)
	sh[lin] = int32(lin + 1000*t.BlockIdx().X)
	t.SyncThreads()
	mirror := d.X*d.Y - 1 - (lin - first)
	out[t.BlockIdx().X*d.X*d.Y+lin] = sh[mirror]
}

func TestSyncThreadsMidRow(t *testing.T) {
	tests := []struct {
		name   string
		block  Dim3
		sx, sy int
	}{
		{"1-D", Dim1(64), 29, 0},
		{"2-D mid-row", Dim2(8, 8), 3, 2},
		{"2-D last of row", Dim2(8, 8), 7, 4},
		{"2-D first of row", Dim2(8, 8), 0, 5},
	}
	bothPaths(t, func(t *testing.T) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				const blocks = 3
				n := blocks * tc.block.Size()
				out, calls := make([]int32, n), make([]int32, n)
				if err := Jit(syncMidRow).Launch(Dim1(blocks), tc.block, out, calls, tc.sx, tc.sy); err != nil {
					t.Fatal(err)
				}
				size, first := tc.block.Size(), tc.sx+tc.block.X*tc.sy
				for i := range n {
					if calls[i] != 1 {
						t.Fatalf("thread %d of the grid ran %d times", i, calls[i])
					}
					b, lin := i/size, i%size
					var want int32
					if lin >= first {
						want = int32(size - 1 - (lin - first) + 1000*b)
					}
					if out[i] != want {
						t.Fatalf("out[%d] = %d, want %d", i, out[i], want)
					}
				}
			})
		}
	})
}

// goexitAt calls runtime.Goexit in thread (gx) of the grid, before or after
// a barrier; the other threads write their index.
func goexitAt(t Thread, d []int32, gx int, afterBarrier bool) {
	i := t.Grid1()
	if afterBarrier {
		t.SyncThreads()
	}
	if i == gx {
		runtime.Goexit()
	}
	d[i] = int32(i)
}

// A thread that calls runtime.Goexit fails the launch with a KernelError
// naming it, wherever its block runs; the launch returns and leaks nothing.
func TestGoexitInKernelIsAnError(t *testing.T) {
	tests := []struct {
		name         string
		grid, block  int
		gx           int
		afterBarrier bool
	}{
		{"one block", 1, 4, 0, false},
		{"one block, last thread", 1, 4, 3, false},
		{"eight blocks", 8, 4, 0, false},
		{"eight blocks, middle", 8, 4, 17, false},
		{"after SyncThreads", 2, 32, 40, true},
		{"after SyncThreads, first thread", 1, 32, 0, true},
	}
	bothPaths(t, func(t *testing.T) {
		for _, c := range tests {
			t.Run(c.name, func(t *testing.T) {
				before := goroutines()
				done := make(chan error, 1)
				go func() {
					done <- Jit(goexitAt).Launch(Dim1(c.grid), Dim1(c.block), make([]int32, c.grid*c.block), c.gx, c.afterBarrier)
				}()
				var err error
				select {
				case err = <-done:
				case <-time.After(20 * time.Second):
					t.Fatal("Launch did not return")
				}
				var ke *KernelError
				if !errors.As(err, &ke) {
					t.Fatalf("got %v, want a *KernelError", err)
				}
				want := Dim3{c.gx % c.block, 0, 0}
				if ke.Msg != goexitMsg || ke.Block != (Dim3{c.gx / c.block, 0, 0}) || ke.Thread != want || !strings.Contains(ke.Pos, "backend_cpu_test.go") {
					t.Errorf("got %+v, want %q in block %d thread %v at backend_cpu_test.go", ke, goexitMsg, c.gx/c.block, want)
				}
				checkNoLeak(t, before)
			})
		}
	})
}
