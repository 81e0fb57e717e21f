package blockkernels

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/cpu"
)

// launchBoth launches kernel with the args that mk makes, through the
// generated loops and with them turned off (the per-thread calls), and
// returns each path's first argument and error.
func launchBoth(t *testing.T, kernel any, grid, block cuda.Dim3, mk func() []any) (got, want []int32, err, wantErr error) {
	t.Helper()
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	launch := func(off bool) ([]int32, error) {
		defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(off))
		args := mk()
		return args[0].([]int32), cuda.Jit(kernel).Launch(grid, block, args...)
	}
	got, err = launch(false)
	want, wantErr = launch(true)
	return got, want, err, wantErr
}

// TestHuntRowsGrid1 runs Grid1-only kernels (one row for a worker's run of
// blocks) on 1-D grids with a last block partial in a, 2-D grids and 2-D
// blocks, with no failing thread, a panic in the middle of a run and in
// its first and last threads, and runtime.Goexit, and requires the per-
// thread path's results, or its failing block, thread, message and
// position.
func TestHuntRowsGrid1(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	cases := []struct {
		name        string
		kernel      any
		grid, block cuda.Dim3
		n, bad      int // elements of a; grid x of the failing thread, -1 for none
		msg         string
		after       bool // HuntBlockGoexit's after
	}{
		{"1-D partial", HuntGrid1, cuda.Dim1(700), cuda.Dim1(48), 700*48 - 13, -1, "", false},
		{"1-D panic mid-run", HuntGrid1, cuda.Dim1(700), cuda.Dim1(48), 700*48 - 13, 333*48 + 7, "index out of range", false},
		{"1-D panic first thread", HuntGrid1, cuda.Dim1(700), cuda.Dim1(48), 700 * 48, 0, "index out of range", false},
		{"1-D panic last thread", HuntGrid1, cuda.Dim1(700), cuda.Dim1(48), 700 * 48, 700*48 - 1, "index out of range", false},
		{"1-D panic past a", HuntGrid1, cuda.Dim1(700), cuda.Dim1(48), 699*48 + 5, 699*48 + 20, "index out of range", false},
		{"2-D block", HuntGrid1, cuda.Dim1(300), cuda.Dim2(16, 3), 300*16 - 3, -1, "", false},
		{"2-D block panic", HuntGrid1, cuda.Dim1(300), cuda.Dim2(16, 3), 300 * 16, 157*16 + 9, "index out of range", false},
		{"2-D grid panic", HuntGrid1, cuda.Dim2(300, 3), cuda.Dim1(16), 300 * 16, 201*16 + 15, "index out of range", false},
		{"goexit mid-run", HuntGrid1Goexit, cuda.Dim1(700), cuda.Dim1(48), 700 * 48, 444*48 + 1, "runtime.Goexit", false},
		{"goexit 2-D block", HuntGrid1Goexit, cuda.Dim1(300), cuda.Dim2(16, 3), 300 * 16, 12*16 + 4, "runtime.Goexit", false},
		{"block loop goexit before barrier", HuntBlockGoexit, cuda.Dim1(40), cuda.Dim1(48), 40*48 - 5, 17*48 + 3, "runtime.Goexit", false},
		{"block loop goexit after barrier", HuntBlockGoexit, cuda.Dim1(40), cuda.Dim1(48), 40*48 - 5, 17*48 + 47, "runtime.Goexit", true},
		{"block loop no goexit", HuntBlockGoexit, cuda.Dim1(40), cuda.Dim1(48), 40*48 - 5, -1, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, want, err, wantErr := launchBoth(t, c.kernel, c.grid, c.block, func() []any {
				if _, ok := c.kernel.(func(cuda.Thread, []int32, int, bool)); ok {
					return []any{ints(c.n), c.bad, c.after}
				}
				return []any{ints(c.n), c.bad}
			})
			if c.bad < 0 {
				if err != nil || wantErr != nil {
					t.Fatalf("errors %v (row loop), %v (per thread)", err, wantErr)
				}
				if !slices.Equal(got, want) {
					t.Errorf("row loop and per-thread results differ")
				}
				return
			}
			var ke, gke *cuda.KernelError
			if !errors.As(err, &ke) || !errors.As(wantErr, &gke) {
				t.Fatalf("errors %v (row loop), %v (per thread) are not *cuda.KernelError", err, wantErr)
			}
			wantB := cuda.Dim3{X: c.bad / c.block.X}
			if ke.Block.X != wantB.X || ke.Thread.X != c.bad%c.block.X {
				t.Errorf("row loop names block %v thread %v, want block x %d thread x %d", ke.Block, ke.Thread, wantB.X, c.bad%c.block.X)
			}
			// In a 2-D grid the block of every grid row at that x fails; which
			// is reported first is the workers' race.
			if ke.Block.X != gke.Block.X || ke.Thread != gke.Thread || ke.Msg != gke.Msg || ke.Pos != gke.Pos {
				t.Errorf("row loop: block %v thread %v %q at %s; per thread: block %v thread %v %q at %s",
					ke.Block, ke.Thread, ke.Msg, ke.Pos, gke.Block, gke.Thread, gke.Msg, gke.Pos)
			}
			if !strings.Contains(ke.Msg, c.msg) {
				t.Errorf("message %q, want it to contain %q", ke.Msg, c.msg)
			}
		})
	}
}

// TestHuntRowShared runs a kernel without barriers that counts its
// block's threads in shared memory, whose row loop runs on from one block
// to the next: each block must start with zeroed shared memory, as on the
// per-thread path.
func TestHuntRowShared(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	for _, c := range []struct {
		grid, block cuda.Dim3
	}{
		{cuda.Dim1(500), cuda.Dim1(32)},
		{cuda.Dim1(500), cuda.Dim1(5)},
		{cuda.Dim1(200), cuda.Dim2(8, 3)},
		{cuda.Dim1(3), cuda.Dim1(1)},
	} {
		t.Run(fmt.Sprintf("%v/%v", c.grid, c.block), func(t *testing.T) {
			n := c.grid.X*c.block.X - 1
			got, want, err, wantErr := launchBoth(t, HuntRowShared, c.grid, c.block, func() []any { return []any{make([]int32, n)} })
			if err != nil || wantErr != nil {
				t.Fatalf("errors %v (row loop), %v (per thread)", err, wantErr)
			}
			if !slices.Equal(got, want) {
				t.Errorf("row loop and per-thread results differ")
			}
			if c.block.Y > 1 {
				return
			}
			for i, v := range got { // thread x of block b saw x+1 threads of its block
				if w := int32(i%c.block.X+1)*100 + int32(i/c.block.X); v != w {
					t.Fatalf("a[%d] = %d, want %d", i, v, w)
				}
			}
		})
	}
}
