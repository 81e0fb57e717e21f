package blockkernels

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/cpu"
)

// TestPanicNamesThread checks that a panic in a later region of a block
// loop, in a flat block and in a two-dimensional one, is reported for the
// thread that failed.
func TestPanicNamesThread(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name         string
		grid, block  cuda.Dim3
		badX, badY   int
		wantB, wantT cuda.Dim3
	}{
		{"flat", cuda.Dim1(4), cuda.Dim1(64), 130, 0, cuda.Dim3{X: 2, Y: 0, Z: 0}, cuda.Dim3{X: 2, Y: 0, Z: 0}},
		{"flat last block", cuda.Dim1(4), cuda.Dim1(64), 255, 0, cuda.Dim3{X: 3, Y: 0, Z: 0}, cuda.Dim3{X: 63, Y: 0, Z: 0}},
		{"2d", cuda.Dim2(2, 2), cuda.Dim2(8, 4), 11, 6, cuda.Dim3{X: 1, Y: 1, Z: 0}, cuda.Dim3{X: 3, Y: 2, Z: 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := make([]int32, c.grid.X*c.block.X)
			err := cuda.Jit(FailLate).Launch(c.grid, c.block, a, c.badX, c.badY)
			var ke *cuda.KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("error %v is not a *cuda.KernelError", err)
			}
			if ke.Block != c.wantB || ke.Thread != c.wantT {
				t.Errorf("failing thread block %v thread %v, want %v %v", ke.Block, ke.Thread, c.wantB, c.wantT)
			}
			if !strings.Contains(ke.Msg, "index out of range") || !strings.Contains(ke.Pos, "kernels.go:") {
				t.Errorf("message %q at %q", ke.Msg, ke.Pos)
			}
		})
	}
}

// TestPanicInJammedRegion checks that a panic in a region that the block
// loop runs several threads at a time (unroll-and-jam, FailJammed) or
// round by round over all its threads (loop interchange, FailInterchanged)
// is reported for the first failing thread in thread order, not for a
// later thread that fails in an earlier round of the loop; and that
// without a failing thread the region computes what the goroutine path
// does.
func TestPanicInJammedRegion(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	defer cuda.SetBackend(cuda.Auto)
	src, err := os.ReadFile("nugo_loops.go")
	if err != nil {
		t.Fatal(err)
	}
	const n = 2 * JamBlock
	for _, k := range []struct {
		name   string
		kernel func(cuda.Thread, []int32, []int)
		marker string // what the block loop's form writes
		rounds int
	}{
		{"FailJammed", FailJammed, "nugoJam", 8},
		{"FailInterchanged", FailInterchanged, "nugoSwap", 32},
	} {
		t.Run(k.name, func(t *testing.T) {
			loop := src[strings.Index(string(src), "RegisterBlockLoop("+k.name+","):]
			if end := strings.Index(string(loop[1:]), "RegisterBlockLoop("); end >= 0 {
				loop = loop[:end+1]
			}
			if !strings.Contains(string(loop), k.marker) {
				t.Fatalf("%s's block loop lacks %s; the test checks nothing", k.name, k.marker)
			}
			cases := []struct {
				name        string
				early, late int // threads failing in the loop's first and last rounds, -1 for none
				wantT       int
			}{
				// Threads 4 and 5, 6 and 7 of block 1 are in one group whether
				// three or four threads are jammed.
				{"later thread of the group fails first", 69, 68, 68},
				{"earlier thread fails first", 68, 69, 68},
				{"later group", 71, 70, 70},
				{"same thread", -1, 5, 5},
				{"last thread", 127, -1, 127},
				{"none", -1, -1, -1},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					off := make([]int, n)
					for i := range off {
						off[i] = i % 8
					}
					if c.early >= 0 {
						off[c.early] = JamBlock
					}
					if c.late >= 0 {
						off[c.late] = JamBlock - (k.rounds - 1)
					}
					run := func(noLoops bool) ([]int32, error) {
						defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(noLoops))
						a := make([]int32, n)
						return a, cuda.Jit(k.kernel).Launch(cuda.Dim1(n/JamBlock), cuda.Dim1(JamBlock), a, off)
					}
					got, err := run(false)
					want, wantErr := run(true)
					if c.wantT < 0 {
						if err != nil || wantErr != nil {
							t.Fatalf("errors %v (block loop), %v (goroutines)", err, wantErr)
						}
						if !slices.Equal(got, want) {
							t.Errorf("block loop %v, goroutines %v", got, want)
						}
						return
					}
					var ke *cuda.KernelError
					if !errors.As(err, &ke) {
						t.Fatalf("error %v is not a *cuda.KernelError", err)
					}
					wantB, wantTh := cuda.Dim3{X: c.wantT / JamBlock}, cuda.Dim3{X: c.wantT % JamBlock}
					if ke.Block != wantB || ke.Thread != wantTh {
						t.Errorf("failing thread block %v thread %v, want %v %v", ke.Block, ke.Thread, wantB, wantTh)
					}
					if !strings.Contains(ke.Msg, "index out of range") || !strings.Contains(ke.Pos, "kernels.go:") {
						t.Errorf("message %q at %q", ke.Msg, ke.Pos)
					}
				})
			}
		})
	}
}
