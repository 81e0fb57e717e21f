package blockkernels

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// TestHuntUniform runs the kernels of hunt_uniform.go on the three paths
// for every branch of their uniform ifs and switches, on full and partial
// blocks and grids.
func TestHuntUniform(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, b := range []int{64, 48} {
		cfg := cuda.LaunchConfig{Grid: cuda.Dim1(3), Block: cuda.Dim1(b)}
		n := 3*b - 5
		for mode := range 8 {
			cs = append(cs,
				huntCase{fmt.Sprintf("promoted/%d/%d", b, mode), HuntPromoted, cfg, func() []any { return []any{ints(n), mode + 2} }, false, false, ""},
				huntCase{fmt.Sprintf("switchdefault/%d/%d", b, mode), HuntSwitchDefault, cfg, func() []any { return []any{ints(n), mode} }, false, false, ""},
				huntCase{fmt.Sprintf("switchinit/%d/%d", b, mode), HuntSwitchInit, cfg, func() []any { return []any{ints(n), mode} }, false, false, ""},
				huntCase{fmt.Sprintf("switcheffect/%d/%d", b, mode), HuntSwitchEffect, cfg, func() []any { return []any{ints(n), make([]int32, 1), mode % 4} }, false, false, ""},
				huntCase{fmt.Sprintf("shadowif/%d/%d", b, mode), HuntShadowIf, cfg, func() []any { return []any{ints(n), mode} }, false, false, ""},
				huntCase{fmt.Sprintf("effects/%d/%d", b, mode), HuntUniformEffects, cfg, func() []any { return []any{ints(n), make([]int32, 5), mode} }, false, false, ""},
				huntCase{fmt.Sprintf("loopassign/%d/%d", b, mode), HuntUniformLoopAssign, cfg, func() []any { return []any{ints(n), mode} }, false, false, ""},
				huntCase{fmt.Sprintf("shadowloop/%d/%d", b, mode), HuntShadowLoop, cfg, func() []any { return []any{ints(n), mode} }, false, false, ""},
			)
		}
	}
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) { huntCheck(t, c) })
	}
}

// TestHuntUniformPanic checks that a panic in uniform code, which a block
// loop runs once per block, names the first thread that has not returned, with
// the goroutine path's position and message (every live thread fails
// there, so which one the goroutine path names varies).
func TestHuntUniformPanic(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	for _, gone := range []int{0, 5, 40} {
		for where := range 3 {
			t.Run(fmt.Sprintf("%d/%d", gone, where), func(t *testing.T) {
				c := huntCase{name: "uniformpanic", kernel: HuntUniformPanic, cfg: cuda.LaunchConfig{Grid: cuda.Dim1(2), Block: cuda.Dim1(48)},
					args: func() []any { return []any{make([]int32, 96), gone, 0, where} }}
				_, wantErr := huntRun(t, goroutines, c)
				_, err := huntRun(t, generated, c)
				var wk, gk *cuda.KernelError
				if !errors.As(wantErr, &wk) || !errors.As(err, &gk) {
					t.Fatalf("errors %v (block loop), %v (goroutines), want *cuda.KernelError", err, wantErr)
				}
				// ptxsim names the first thread that has not returned (its
				// division does not trap, so it is not run here).
				if gk.Thread.X != gone || gk.Pos != wk.Pos || gk.Msg != wk.Msg {
					t.Errorf("block loop: %+v, goroutine path: %+v", *gk, *wk)
				}
			})
		}
	}
}
