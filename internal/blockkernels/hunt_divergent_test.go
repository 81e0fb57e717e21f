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

// huntCase is one launch of a hunt kernel: its configuration and fresh
// arguments, and whether the launch must fail.
type huntCase struct {
	name    string
	kernel  any
	cfg     cuda.LaunchConfig
	args    func() []any
	wantErr bool
	// loopFails: only the block loop fails, at a divergent arm's warp
	// operation whose mask names lanes of the other side (the goroutine
	// path pairs them with whatever the others reach; a GPU's result is
	// undefined, so ptxsim is not run).
	loopFails bool
	loopPos   string // where the block loop fails: file:line
}

// huntRun launches c on path p and returns its arguments afterwards and
// the launch's error.
func huntRun(t *testing.T, p path, c huntCase) ([]any, error) {
	t.Helper()
	if err := cuda.SetBackend(p.backend); err != nil {
		t.Fatal(err)
	}
	defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(p.noLoops))
	args := c.args()
	return args, cuda.Jit(c.kernel).LaunchWith(c.cfg, args...)
}

// huntCheck runs c on the goroutine path, its block loop and ptxsim: the
// results must be the same bits, or every path must fail, the block loop
// naming the goroutine path's thread, block, position and message.
func huntCheck(t *testing.T, c huntCase) {
	t.Helper()
	if c.loopFails {
		if _, err := huntRun(t, goroutines, c); err != nil {
			t.Fatalf("goroutine path: %v", err)
		}
		_, err := huntRun(t, generated, c)
		var ke *cuda.KernelError
		if !errors.As(err, &ke) || !strings.Contains(ke.Msg, "did not take") || !strings.HasSuffix(ke.Pos, c.loopPos) {
			t.Fatalf("block loop: error %v, want a *cuda.KernelError about a lane of the mask on the other side at %s", err, c.loopPos)
		}
		return
	}
	want, wantErr := huntRun(t, goroutines, c)
	if (wantErr != nil) != c.wantErr {
		t.Fatalf("goroutine path: error %v, want failure %v", wantErr, c.wantErr)
	}
	for _, p := range []path{generated, ptxsim} {
		got, err := huntRun(t, p, c)
		switch {
		case wantErr == nil && err != nil:
			t.Errorf("%s: %v", p.name, err)
		case wantErr == nil:
			if err := corpus.Compare(want, got, 0); err != nil {
				t.Errorf("%s differs from the goroutine path: %v", p.name, err)
			}
		case err == nil:
			t.Errorf("%s: no error, the goroutine path failed with %v", p.name, wantErr)
		default:
			var wk, gk *cuda.KernelError
			if errors.As(wantErr, &wk) != errors.As(err, &gk) {
				t.Errorf("%s: error %v, goroutine path %v", p.name, err, wantErr)
			} else if wk != nil && (wk.Block != gk.Block || wk.Thread != gk.Thread || wk.Pos != gk.Pos || wk.Msg != gk.Msg && p == generated) {
				t.Errorf("%s: error %+v, goroutine path %+v", p.name, *gk, *wk)
			} else if wk == nil && p == generated && err.Error() != wantErr.Error() {
				t.Errorf("%s: error %v, goroutine path %v", p.name, err, wantErr)
			}
		}
	}
}

func huntInts(n int) func() []any {
	return func() []any { return []any{ints(n), make([]int32, n)} }
}

// TestHuntDivergent runs the divergent-if kernels of hunt_divergent.go on
// one- and two-warp and partial-warp blocks.
func TestHuntDivergent(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, b := range []int{32, 64, 96, 256} {
		cfg := cuda.LaunchConfig{Grid: cuda.Dim1(3), Block: cuda.Dim1(b)}
		n := 3 * b
		cs = append(cs,
			huntCase{fmt.Sprintf("nested/%d", b), HuntNestedDiv, cfg, func() []any { return []any{ints(n - 5), make([]uint32, 2*n)} }, false, false, ""},
			huntCase{fmt.Sprintf("elseif/%d", b), HuntElseIfDiv, cfg, huntInts(n), false, false, ""},
			huntCase{fmt.Sprintf("return/%d", b), HuntReturnDiv, cfg, huntInts(n), false, false, ""},
			huntCase{fmt.Sprintf("activeboth/%d", b), HuntActiveBoth, cfg, func() []any { return []any{make([]uint32, n)} }, false, false, ""},
			huntCase{name: fmt.Sprintf("badmask/%d", b), kernel: HuntBadMask, cfg: cuda.LaunchConfig{Grid: cuda.Dim1(1), Block: cuda.Dim1(b)}, args: huntInts(b), loopFails: true, loopPos: "hunt_divergent.go:104"},
			huntCase{fmt.Sprintf("ownbit/%d", b), HuntOwnBit, cfg, func() []any {
				a := ints(n)
				a[n-b] = 12345
				return []any{a, make([]int32, n)}
			}, true, false, ""},
			huntCase{fmt.Sprintf("armpanic/%d", b), HuntArmPanic, cfg, func() []any { return []any{ints(n), make([]int32, n), n - b + 6} }, true, false, ""},
			huntCase{fmt.Sprintf("armpanic/none/%d", b), HuntArmPanic, cfg, func() []any { return []any{ints(n), make([]int32, n), -1} }, false, false, ""},
			huntCase{fmt.Sprintf("warpwhole/%d", b), HuntWarpWhole, cfg, func() []any { return []any{floats(n - 7), make([]float32, 3)} }, false, false, ""},
		)
	}
	for _, d := range []cuda.Dim3{cuda.Dim2(8, 12), cuda.Dim2(16, 4), cuda.Dim2(5, 7)} {
		n := 2 * d.Size()
		cs = append(cs, huntCase{fmt.Sprintf("div2d/%dx%d", d.X, d.Y), HuntDiv2D, cuda.LaunchConfig{Grid: cuda.Dim1(2), Block: d}, huntInts(n), false, false, ""})
	}
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) { huntCheck(t, c) })
	}
}
