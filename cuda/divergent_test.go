package cuda_test

import (
	"errors"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/cputime"
)

// Test kernels whose warp operations sit under thread-dependent conditions
// have block loops (nugo gen's divergent ifs), so that the "cpu" backend
// of the warp tests runs through them and "cpu-goroutines" through the
// goroutine path; ActiveMasks keeps goroutines (ActiveMask on one side of
// ifs whose other lanes reach further warp operations).
func TestDivergentLoopsRegistered(t *testing.T) {
	tests := []struct {
		kernel any
		block  bool
	}{
		{testkernels.WarpSum, true},
		{testkernels.MatchFloat32, true},
		{testkernels.MaskOps, true},
		{testkernels.OutsideMask, true},
		{testkernels.DivergentFullMask, true},
		{testkernels.ActiveMasks, false},
	}
	for _, tc := range tests {
		name := runtime.FuncForPC(reflect.ValueOf(tc.kernel).Pointer()).Name()
		rb, ok := cpu.Rows(reflect.ValueOf(tc.kernel))
		if _, block := rb.Bind.(func([]any) func() BlockLoop); !ok || block != tc.block {
			t.Errorf("%s: block loop %v, want %v (run go generate ./cuda/internal/testkernels)", name, ok && block, tc.block)
		}
	}
}

// The block loops of kernels with divergent warp operations give the
// goroutine path's results bit for bit, with grid tails and blocks whose
// last warp is partial.
func TestDivergentLoopsMatchGoroutines(t *testing.T) {
	onBackend(t, CPU)
	defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(false))
	tests := []struct {
		name        string
		kernel      any
		grid, block Dim3
		args        func() []any
	}{
		{"WarpSum", testkernels.WarpSum, Dim1(3), Dim1(96), func() []any {
			in := make([]float32, 280)
			for i := range in {
				in[i] = float32(i%17) * 0.37
			}
			return []any{in, make([]float32, 3)}
		}},
		{"MatchFloat32", testkernels.MatchFloat32, Dim1(2), Dim1(80), func() []any {
			in, skip := make([]float32, 150), make([]int32, 150)
			for i := range in {
				in[i] = float32(i % 5)
				if i%7 == 3 {
					skip[i] = 1
				}
			}
			return []any{in, skip, make([]uint32, 150), make([]uint32, 150), make([]int32, 150)}
		}},
		{"MaskOps", testkernels.MaskOps, Dim1(2), Dim1(80), func() []any {
			in := make([]int32, 150)
			for i := range in {
				in[i] = int32(i*7) % 11
			}
			return []any{in, make([]uint32, 8*150)}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(off bool) []any {
				cpu.SetRowsDisabled(off)
				args := tc.args()
				if err := Jit(tc.kernel).Launch(tc.grid, tc.block, args...); err != nil {
					t.Fatalf("goroutines %v: %v", off, err)
				}
				return args
			}
			loops, gor := run(false), run(true)
			if !reflect.DeepEqual(loops, gor) {
				t.Errorf("block loop %v\ngoroutines %v", loops, gor)
			}
		})
	}
}

// A warp operation on one side of a divergent if whose mask names a live
// lane on the other side fails the block loop's launch, naming a thread
// of that side; the goroutine path pairs it with the other lanes' next
// warp operation (on a GPU the result is undefined).
func TestDivergentFullMaskFails(t *testing.T) {
	onBackend(t, CPU)
	defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(false))
	err := Jit(testkernels.DivergentFullMask).Launch(Dim1(1), Dim1(64), make([]uint32, 64))
	var ke *KernelError
	if !errors.As(err, &ke) || !strings.Contains(err.Error(), "did not take") || !strings.Contains(err.Error(), "0xffffffff") {
		t.Fatalf("got %v, want a *KernelError about a lane of the mask on the other side", err)
	}
	if ke.Thread.X >= 16 {
		t.Errorf("the error names thread %v, which is not on the shuffle's side", ke.Thread)
	}
	cpu.SetRowsDisabled(true)
	out := make([]uint32, 64)
	if err := Jit(testkernels.DivergentFullMask).Launch(Dim1(1), Dim1(64), out); err != nil {
		t.Fatalf("goroutine path: %v", err)
	}
	if slices.Equal(out, make([]uint32, 64)) {
		t.Error("goroutine path wrote nothing")
	}
}

// BenchmarkDivergent runs testkernels.MaskOps (Mask forms on both sides of
// a divergent if) and WarpSum (a warp-0 reduction under if w == 0) over
// 2^16 threads in blocks of 256, through the block loop and the goroutine
// path, side by side; cpu-ns/op is the process's CPU time per launch.
func BenchmarkDivergent(b *testing.B) {
	const n, threads = 1 << 16, 256
	cfg := LaunchConfig{Grid: Dim1(n / threads), Block: Dim1(threads)}
	in, out := make([]int32, n), make([]uint32, 8*n)
	fin, sums := make([]float32, n), make([]float32, n/threads)
	for i := range in {
		in[i], fin[i] = int32(i%97), float32(i%13)
	}
	kernels := []struct {
		name string
		k    *Kernel
		args []any
	}{
		{"maskops", Jit(testkernels.MaskOps), []any{in, out}},
		{"warpsum", Jit(testkernels.WarpSum), []any{fin, sums}},
	}
	if err := SetBackend(CPU); err != nil {
		b.Fatal(err)
	}
	for _, k := range kernels {
		for _, path := range []struct {
			name string
			off  bool
		}{{"blockloop", false}, {"goroutines", true}} {
			b.Run(k.name+"/"+path.name, func(b *testing.B) {
				defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(path.off))
				cpu0 := cputime.Process()
				for b.Loop() {
					if err := k.k.LaunchWith(cfg, k.args...); err != nil {
						b.Fatal(err)
					}
				}
				cputime.Report(b, cpu0)
			})
		}
	}
}
