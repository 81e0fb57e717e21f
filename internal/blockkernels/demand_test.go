package blockkernels

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/cpu"
)

// TestDemandedThreadsAgree runs WarpReduce, whose region between its two
// shuffle trees visits only warp 0 in flat blocks (the threads the second
// tree reads), on blocks smaller than a warp, of a few warps, of 256
// threads and of two dimensions (where every thread is visited), and
// WarpReducePanic with no failing thread, and LaneTree (whose unrolled
// tree runs in blocks of whole warps of any shape), and requires the
// goroutine path's bits from the block loop and ptxsim.
func TestDemandedThreadsAgree(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	blocks := []struct {
		name  string
		block cuda.Dim3
	}{
		{"16", cuda.Dim1(16)},
		{"48", cuda.Dim1(48)},
		{"256", cuda.Dim1(Block)},
		{"32x4", cuda.Dim2(32, 4)},
	}
	for _, b := range blocks {
		for _, k := range []struct {
			name   string
			kernel any
			extra  []any
		}{
			{"WarpReduce", WarpReduce, nil},
			{"WarpReducePanic", WarpReducePanic, []any{-1}},
			{"LaneTree", LaneTree, nil},
		} {
			c := kcase{name: k.name, kernel: k.kernel, launch: func(n int) (cuda.LaunchConfig, []any) {
				size := b.block.X * b.block.Y
				g := (n + size - 1) / size
				out := g
				if k.name == "LaneTree" {
					out = g * ((size + 31) / 32)
				}
				return cuda.LaunchConfig{Grid: cuda.Dim1(g), Block: b.block}, append([]any{floats(n), make([]float32, out)}, k.extra...)
			}}
			for _, n := range []int{1000, 3*Block + 37} {
				t.Run(fmt.Sprintf("%s/%s/%d", k.name, b.name, n), func(t *testing.T) {
					want := run(t, goroutines, c, n)
					for _, p := range []path{generated, ptxsim} {
						if err := corpus.Compare(want, run(t, p, c, n), 0); err != nil {
							t.Errorf("%s differs from the goroutine path: %v", p.name, err)
						}
					}
				})
			}
		}
	}
}

// TestSkippedThreadPanics checks that a thread outside the lanes the
// second tree reads, which panics between the trees, fails the launch in
// the block loop exactly as on the goroutine path: same thread, message
// and position (every block fails; which one is reported first is the
// goroutine path's race).
func TestSkippedThreadPanics(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []int{0, 31, 100, Block - 1} {
		t.Run(fmt.Sprint(bad), func(t *testing.T) {
			launch := func(noLoops bool) *cuda.KernelError {
				t.Helper()
				defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(noLoops))
				n := 2*Block + 5
				err := cuda.Jit(WarpReducePanic).Launch(cuda.Dim1(3), cuda.Dim1(Block), floats(n), make([]float32, 3), bad)
				var ke *cuda.KernelError
				if !errors.As(err, &ke) {
					t.Fatalf("noLoops %v: error %v is not a *cuda.KernelError", noLoops, err)
				}
				return ke
			}
			loop, gor := launch(false), launch(true)
			if loop.Thread != (cuda.Dim3{X: bad}) {
				t.Errorf("block loop: failing thread %v, want %d", loop.Thread, bad)
			}
			if loop.Thread != gor.Thread || loop.Msg != gor.Msg || loop.Pos != gor.Pos {
				t.Errorf("block loop fails with block %v thread %v %q at %s; goroutines with block %v thread %v %q at %s",
					loop.Block, loop.Thread, loop.Msg, loop.Pos, gor.Block, gor.Thread, gor.Msg, gor.Pos)
			}
		})
	}
}
