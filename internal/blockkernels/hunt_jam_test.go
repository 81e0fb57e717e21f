package blockkernels

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/cpu"
)

// huntBlocks are the block shapes of the jam and interchange hunt: flat
// and two- and three-dimensional, of whole warps and not, of sizes that
// are and are not multiples of the jam factors 4 and 8, and of x sizes
// that the groups of 4 or 8 threads fit (cuda.Block.Runs) and do not.
var huntBlocks = []cuda.Dim3{
	cuda.Dim1(1), cuda.Dim1(2), cuda.Dim1(16), cuda.Dim1(47), cuda.Dim1(96), cuda.Dim1(HuntMax),
	cuda.Dim2(5, 7), cuda.Dim2(8, 16), {X: 4, Y: 3, Z: 2},
	cuda.Dim2(16, 2), {X: 8, Y: 2, Z: 3}, cuda.Dim2(12, 3),
}

// huntLoop returns the block loop nugo_loops.go registers for name.
func huntLoop(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile("nugo_loops.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i := strings.Index(s, "RegisterBlockLoop("+name+",")
	if i < 0 {
		t.Fatalf("no block loop for %s", name)
	}
	s = s[i+1:]
	if end := strings.Index(s, "RegisterBlockLoop("); end >= 0 {
		s = s[:end]
	}
	return s
}

// TestHuntJamForms checks that each hunt kernel gets the form the test
// means to exercise, so that TestHuntJamAgree checks something.
func TestHuntJamForms(t *testing.T) {
	for _, c := range []struct {
		name, marker string
	}{
		{"HuntJam8[int32]", "nugoJam"},
		{"HuntJam8[float64]", "nugoJam"},
		{"HuntSwap16[int32]", "p := 0 + 15"},
		{"HuntSwap16[float64]", "p := 0 + 15"},
		{"HuntSwap17[int32]", "nugoSwap"},
		{"HuntSwap17[float64]", "nugoSwap"},
		{"HuntSwap32[float32]", "nugoSwap"},
		{"HuntSwapFail", "nugoSwap"},
		{"HuntSwapFail17", "nugoSwap"},
		{"HuntJamFail", "nugoJam"},
		{"HuntShift", "t8 := t1.Shift(7)"},           // flat blocks
		{"HuntShift", "if !nugoB.Runs(8) {"},         // other blocks: when the groups fit the rows
		{"HuntShift", "tid := cuda.Dim3{X: nugoTx,"}, // the plain loops carry the position
	} {
		if !strings.Contains(huntLoop(t, c.name), c.marker) {
			t.Errorf("%s's block loop lacks %q", c.name, c.marker)
		}
	}
}

// TestHuntJamAgree runs the jammed, unrolled and interchanged hunt
// kernels on every hunt block shape, with a last block that is partial,
// and requires the goroutine path's bits from the block loop and ptxsim.
func TestHuntJamAgree(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	type kern struct {
		name   string
		kernel any
		make   func(n int) (a, out any)
	}
	i32 := func(n int) (any, any) { return ints(n), make([]int32, n) }
	f32 := func(n int) (any, any) { return floats(n), make([]float32, n) }
	f64 := func(n int) (any, any) {
		a := make([]float64, n)
		for i, v := range floats(n) {
			a[i] = float64(v)/3 + 1e-9*float64(i)
		}
		return a, make([]float64, n)
	}
	kernels := []kern{
		{"HuntJam8[int32]", HuntJam8[int32], i32},
		{"HuntJam8[float32]", HuntJam8[float32], f32},
		{"HuntJam8[float64]", HuntJam8[float64], f64},
		{"HuntSwap16[int32]", HuntSwap16[int32], i32},
		{"HuntSwap16[float64]", HuntSwap16[float64], f64},
		{"HuntSwap17[int32]", HuntSwap17[int32], i32},
		{"HuntSwap17[float32]", HuntSwap17[float32], f32},
		{"HuntSwap17[float64]", HuntSwap17[float64], f64},
		{"HuntSwap32[int32]", HuntSwap32[int32], i32},
		{"HuntSwap32[float32]", HuntSwap32[float32], f32},
		{"HuntSwap32[float64]", HuntSwap32[float64], f64},
		{"HuntShift", HuntShift, f32},
	}
	for _, k := range kernels {
		for _, b := range huntBlocks {
			size := b.X * b.Y * b.Z
			n := 3*size - size/2 // the last block partial (or empty past n)
			if n == 0 {
				n = 2
			}
			c := kcase{name: k.name, kernel: k.kernel, launch: func(n int) (cuda.LaunchConfig, []any) {
				a, out := k.make(n)
				return cuda.LaunchConfig{Grid: cuda.Dim1((n + size - 1) / size), Block: b}, []any{a, out}
			}}
			t.Run(fmt.Sprintf("%s/%dx%dx%d", k.name, b.X, b.Y, b.Z), func(t *testing.T) {
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

// TestHuntSwapFail makes threads of an interchanged region (32 rounds,
// two passes of 16; HuntSwapFail17: 17 passes of one; HuntJamFail: 8
// rounds, jammed) index past shared memory in given rounds, in flat and
// two-dimensional blocks, threads of jammed groups and of the remainder,
// and requires from the block loop the first failing thread in thread
// order, whichever round or pass it fails in, the goroutine path's message
// and position (and its thread when only one fails), and its results when
// no thread fails.
func TestHuntSwapFail(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	type fail struct{ thread, round int } // a thread of block 1, failing first in round
	cases := []struct {
		name  string
		block cuda.Dim3
		fails []fail
		want  int // the thread of block 1 named, -1 for none
	}{
		{"none", cuda.Dim1(47), nil, -1},
		{"second pass only", cuda.Dim1(47), []fail{{10, 20}}, 10},
		{"last round", cuda.Dim1(47), []fail{{46, 31}}, 46},
		{"earlier thread in second pass, later in first", cuda.Dim1(47), []fail{{5, 31}, {40, 0}}, 5},
		{"earlier thread in second pass, later earlier in it", cuda.Dim1(47), []fail{{5, 30}, {6, 16}}, 5},
		{"later thread first in first pass", cuda.Dim1(64), []fail{{33, 15}, {2, 16}}, 2},
		{"2d second pass", cuda.Dim2(5, 7), []fail{{17, 16}, {30, 1}}, 17},
		{"2d none", cuda.Dim2(5, 7), nil, -1},
		{"remainder thread", cuda.Dim1(47), []fail{{46, 7}, {45, 7}}, 45},
		{"2d remainder before group", cuda.Dim2(5, 7), []fail{{34, 0}, {31, 5}}, 31},
		{"jam group, later thread earlier round", cuda.Dim1(47), []fail{{4, 7}, {5, 0}}, 4},
		{"2d jam group in a row", cuda.Dim2(8, 6), []fail{{21, 7}, {19, 5}}, 19},
		{"2d jam groups, later row earlier round", cuda.Dim2(8, 6), []fail{{40, 0}, {9, 6}}, 9},
	}
	for _, k := range []struct {
		name   string
		kernel func(cuda.Thread, []int32, []int)
		rounds int
	}{
		{"HuntSwapFail", HuntSwapFail, 32},
		{"HuntSwapFail17", HuntSwapFail17, 17},
		{"HuntJamFail", HuntJamFail, 8},
	} {
		for _, c := range cases {
			if slices.ContainsFunc(c.fails, func(f fail) bool { return f.round >= k.rounds }) {
				continue
			}
			t.Run(k.name+"/"+c.name, func(t *testing.T) {
				size := c.block.X * c.block.Y
				n := 3 * size
				launch := func(noLoops bool) ([]int32, error) {
					defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(noLoops))
					off := make([]int, n)
					for i := range off {
						off[i] = i % 64
					}
					for _, f := range c.fails {
						off[size+f.thread] = HuntMax - f.round
					}
					a := make([]int32, n)
					return a, cuda.Jit(k.kernel).Launch(cuda.Dim1(3), c.block, a, off)
				}
				got, err := launch(false)
				want, wantErr := launch(true)
				if c.want < 0 {
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
				wantT := cuda.Dim3{X: c.want % c.block.X, Y: c.want / c.block.X}
				if ke.Block != (cuda.Dim3{X: 1}) || ke.Thread != wantT {
					t.Errorf("failing thread block %v thread %v, want block 1 thread %v", ke.Block, ke.Thread, wantT)
				}
				// With several failing threads the goroutine path names the one it
				// resumed first after the barrier (the block's last thread first).
				if len(c.fails) == 1 && ke.Thread != gke.Thread || ke.Msg != gke.Msg || ke.Pos != gke.Pos {
					t.Errorf("block loop: thread %v %q at %s; goroutines: thread %v %q at %s", ke.Thread, ke.Msg, ke.Pos, gke.Thread, gke.Msg, gke.Pos)
				}
			})
		}
	}
}

// TestHuntJamOddAgree runs the kernels of hunt_jam2.go (array variables
// changed by element, a body changing its loop's variable, names like
// the jammed copies', headers of other forms, struct fields set one by
// one) on flat blocks, with a
// last block that is partial, and requires the goroutine path's bits from
// the block loop and ptxsim.
func TestHuntJamOddAgree(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	pair := func(n int) []any { return []any{ints(n), make([]int32, n)} }
	kernels := []struct {
		name   string
		kernel any
		args   func(n int) []any
	}{
		{"HuntSwapArr", HuntSwapArr, pair},
		{"HuntJamArr", HuntJamArr, pair},
		{"HuntSwapStep", HuntSwapStep, pair},
		{"HuntStructField", HuntStructField, pair},
		{"HuntSwapCarried", HuntSwapCarried, pair},
		{"HuntJamShadow", HuntJamShadow, pair},
		{"HuntLocalType", HuntLocalType, pair},
		{"HuntArrParam", HuntArrParam, func(n int) []any { return []any{ints(n), [4]int32{1, 2, 3, 4}} }},
		{"HuntJamStep", HuntJamStep, pair},
		{"HuntJamNames", HuntJamNames, func(n int) []any { return append(pair(n), int32(3), int32(-7), int32(11)) }},
		{"HuntSwapHeaders", HuntSwapHeaders, func(n int) []any { return []any{ints(n), make([]int64, n), make([]uint8, n)} }},
	}
	if !strings.Contains(huntLoop(t, "HuntJamNames"), "nugoJam") || !strings.Contains(huntLoop(t, "HuntSwapHeaders"), "nugoSwap") {
		t.Fatal("HuntJamNames is not jammed or HuntSwapHeaders not interchanged: the test checks less than it says")
	}
	for _, k := range kernels {
		for _, size := range []int{1, 16, 47, 96, HuntMax} {
			n := 3*size - size/2
			if n == 0 {
				n = 2
			}
			c := kcase{name: k.name, kernel: k.kernel, launch: func(n int) (cuda.LaunchConfig, []any) {
				return cuda.LaunchConfig{Grid: cuda.Dim1((n + size - 1) / size), Block: cuda.Dim1(size)}, k.args(n)
			}}
			t.Run(fmt.Sprintf("%s/%d", k.name, size), func(t *testing.T) {
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
