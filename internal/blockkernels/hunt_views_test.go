package blockkernels

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/cpu"
)

// TestHuntViewForms checks that the view kernels' jammed loops read
// through the views the test means to exercise, and not where an index is
// not a view (descending, of type int32).
func TestHuntViewForms(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"HuntViewSteps", "nugoView := (*[29]float32)(sh[2*(0)+base1 : 2*(0)+base1+29])", true},
		{"HuntViewSteps", "a[off+(0)+tid1%3 : off+(0)+tid1%3+15]", true}, // the parameter slice, 2 a round
		{"HuntViewSteps", "sh[15-p]", true},                              // descending: read as written
		{"HuntViewSteps", "sh[int32(p)+int32(base1)]", true},             // not of type int
		{"HuntViewPast", "(*[6]int32)(sh[o1+(0) : o1+(0)+6])", true},
	} {
		if got := strings.Contains(huntLoop(t, c.name), c.text); got != c.want {
			t.Errorf("%s's block loop contains %q: %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

// TestHuntViewsAgree runs HuntViewSteps on the hunt block shapes and
// requires the goroutine path's bits from the block loop and ptxsim.
func TestHuntViewsAgree(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	for _, b := range huntBlocks {
		for _, off := range []int{0, 3} {
			size := b.X * b.Y * b.Z
			n := 3*size - size/2
			if n == 0 {
				n = 2
			}
			c := kcase{name: "HuntViewSteps", kernel: HuntViewSteps, launch: func(n int) (cuda.LaunchConfig, []any) {
				return cuda.LaunchConfig{Grid: cuda.Dim1((n + size - 1) / size), Block: b}, []any{floats(n + 40), make([]float32, n), off}
			}}
			t.Run(fmt.Sprintf("%dx%dx%d/off%d", b.X, b.Y, b.Z, off), func(t *testing.T) {
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

// TestHuntViewPast makes one thread's view run past the shared array (in
// a jammed group of eight, or among the threads left) and requires the
// block loop to fail as the goroutine path does: same block, thread,
// message and position; with no thread past the end, the same results.
func TestHuntViewPast(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		block  cuda.Dim3
		thread int // of block 1 whose span runs past, -1 for none
	}{
		{"none", cuda.Dim1(47), -1},
		{"in a group", cuda.Dim1(47), 13},
		{"left over", cuda.Dim1(47), 45},
		{"2d group", cuda.Dim2(8, 6), 21},
		{"2d rows not fitting", cuda.Dim2(5, 7), 17},
	} {
		t.Run(c.name, func(t *testing.T) {
			size := c.block.X * c.block.Y
			n := 3 * size
			launch := func(noLoops bool) ([]int32, error) {
				defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(noLoops))
				lim := make([]int, n)
				for i := range lim {
					lim[i] = i % 64
				}
				if c.thread >= 0 {
					lim[size+c.thread] = HuntMax - 3 // rounds 3 to 5 read past the end
				}
				a := make([]int32, n)
				return a, cuda.Jit(HuntViewPast).Launch(cuda.Dim1(3), c.block, a, lim)
			}
			got, err := launch(false)
			want, wantErr := launch(true)
			if c.thread < 0 {
				if err != nil || wantErr != nil {
					t.Fatalf("errors %v (block loop), %v (goroutines)", err, wantErr)
				}
				if err := corpus.Compare([]any{want}, []any{got}, 0); err != nil {
					t.Errorf("block loop differs from goroutines: %v", err)
				}
				return
			}
			var ke, gke *cuda.KernelError
			if !errors.As(err, &ke) || !errors.As(wantErr, &gke) {
				t.Fatalf("errors %v (block loop), %v (goroutines) are not *cuda.KernelError", err, wantErr)
			}
			wantT := cuda.Dim3{X: c.thread % c.block.X, Y: c.thread / c.block.X}
			if ke.Block != (cuda.Dim3{X: 1}) || ke.Thread != wantT || ke.Thread != gke.Thread || ke.Msg != gke.Msg || ke.Pos != gke.Pos {
				t.Errorf("block loop: block %v thread %v %q at %s; goroutines: block %v thread %v %q at %s; want block 1 thread %v",
					ke.Block, ke.Thread, ke.Msg, ke.Pos, gke.Block, gke.Thread, gke.Msg, gke.Pos, wantT)
			}
		})
	}
}
