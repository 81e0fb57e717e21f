package blockkernels

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/cputime"
)

// TestRefuseForms checks that each kernel of refuse.go gets a block loop,
// and in the form meant, so that TestRefuseAgree checks the transform.
func TestRefuseForms(t *testing.T) {
	for _, c := range []struct{ name, marker string }{
		{"RefuseClampParam", "n := nugoParamN\n"},
		{"RefuseSliceParam", "a := nugoParamA\n"},
		{"RefuseThreadParam", "k := nugoVK[nugoTi]\n"},
		{"RefuseSplit", "m2 := "},
		{"RefuseSplitChain", "x3 := x2 + "},
		{"RefuseLabeled", "break rounds\n"},
		{"RefuseSplitOp", "m3 := m2 - n\n"},
	} {
		if s := huntLoop(t, c.name); !strings.Contains(s, c.marker) {
			t.Errorf("block loop of %s lacks %q", c.name, c.marker)
		}
	}
}

// TestRefuseAgree runs the kernels of refuse.go on the goroutine path,
// their block loops and ptxsim, on full and partial blocks and grids and
// several values of the parameters, and requires the same bits.
func TestRefuseAgree(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, b := range []int{RefuseMax, 48, 1} {
		cfg := cuda.LaunchConfig{Grid: cuda.Dim1(3), Block: cuda.Dim1(b)}
		n := 3*b + 2
		for mode := range 6 {
			cs = append(cs,
				huntCase{fmt.Sprintf("clamp/%d/%d", b, mode), RefuseClampParam, cfg, func() []any { return []any{ints(n), make([]int32, 3), n - 4 + 3*mode} }, false, false, ""},
				huntCase{fmt.Sprintf("slice/%d/%d", b, mode), RefuseSliceParam, cfg, func() []any { return []any{ints(n), ints(n), mode % 3} }, false, false, ""},
				huntCase{fmt.Sprintf("thread/%d/%d", b, mode), RefuseThreadParam, cfg, func() []any { return []any{ints(n), mode - 2, int32(mode + 1)} }, false, false, ""},
				huntCase{fmt.Sprintf("split/%d/%d", b, mode), RefuseSplit, cfg, func() []any { return []any{ints(n), mode} }, false, false, ""},
				huntCase{fmt.Sprintf("chain/%d/%d", b, mode), RefuseSplitChain, cfg, func() []any { return []any{make([]float32, n), 1 << (2 * mode)} }, false, false, ""},
				huntCase{fmt.Sprintf("labeled/%d/%d", b, mode), RefuseLabeled, cfg, func() []any { return []any{ints(n), 2*mode + 1} }, false, false, ""},
				huntCase{fmt.Sprintf("splitop/%d/%d", b, mode), RefuseSplitOp, cfg, func() []any { return []any{ints(n), mode} }, false, false, ""},
				huntCase{fmt.Sprintf("paramaddr/%d/%d", b, mode), RefuseParamAddr, cfg, func() []any { return []any{ints(n), mode} }, false, false, ""},
			)
		}
	}
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) { huntCheck(t, c) })
	}
}

// BenchmarkRefuse runs kernels of refuse.go that kept goroutines before
// (a clamped parameter, a split loop bound, labeled loops) on their block
// loops and on the goroutine path, side by side: 64 blocks of 64 threads.
func BenchmarkRefuse(b *testing.B) {
	defer cuda.SetBackend(cuda.Auto)
	const blocks = 64
	n := blocks * RefuseMax
	cfg := cuda.LaunchConfig{Grid: cuda.Dim1(blocks), Block: cuda.Dim1(RefuseMax)}
	for _, k := range []struct {
		name   string
		kernel any
		args   []any
	}{
		{"clamp", RefuseClampParam, []any{ints(n), make([]int32, blocks), n - 5}},
		{"split", RefuseSplit, []any{ints(n), 3}},
		{"labeled", RefuseLabeled, []any{ints(n), 7}},
	} {
		for _, p := range []path{generated, goroutines} {
			b.Run(k.name+"/"+p.name, func(b *testing.B) {
				if err := cuda.SetBackend(p.backend); err != nil {
					b.Fatal(err)
				}
				defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(p.noLoops))
				kern := cuda.Jit(k.kernel)
				cpu0 := cputime.Process()
				for b.Loop() {
					if err := kern.LaunchWith(cfg, k.args...); err != nil {
						b.Fatal(err)
					}
				}
				cputime.Report(b, cpu0)
			})
		}
	}
}
