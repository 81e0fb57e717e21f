package cuda_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// fibClosureKernel computes Fibonacci numbers with a recursive closure,
// which the cpu backend runs as Go does and the compiled backends refuse.
func fibClosureKernel(t cuda.Thread, out []int64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	var fib func(n int64) int64
	fib = func(n int64) int64 {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	out[i] = fib(int64(i))
}

// TestRecursiveClosure: a recursive closure runs on the cpu backend; the
// compiled backends refuse it before anything runs with one diagnostic at
// the function literal that says to declare a top-level function (issue
// 21, item 9).
func TestRecursiveClosure(t *testing.T) {
	t.Run("cpu", func(t *testing.T) {
		onBackend(t, cuda.CPU)
		out := make([]int64, 10)
		if err := cuda.Jit(fibClosureKernel).Launch(cuda.Dim1(1), cuda.Dim1(10), out); err != nil {
			t.Fatal(err)
		}
		if out[9] != 34 {
			t.Fatalf("fib(9) = %d, want 34", out[9])
		}
	})
	for _, b := range []struct {
		name  string
		setup func(t *testing.T)
	}{
		{"ptxsim", func(t *testing.T) { onBackend(t, cuda.PTXSim) }},
		{"gpu-sim", func(t *testing.T) { simGPU(t) }},
	} {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			out := make([]int64, 10)
			err := cuda.Jit(fibClosureKernel).Launch(cuda.Dim1(1), cuda.Dim1(10), out)
			var ce *cuda.CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("launch: %v; want a *cuda.CompileError", err)
			}
			if len(ce.Diagnostics) != 1 {
				t.Fatalf("%d diagnostics, want 1: %v", len(ce.Diagnostics), err)
			}
			d := ce.Diagnostics[0]
			if !strings.HasSuffix(d.Pos, "recclosure_test.go:19:8") || !strings.Contains(d.Msg, "declare it as a top-level function") {
				t.Errorf("diagnostic %s: %s; want recclosure_test.go:19:8 and the advice", d.Pos, d.Msg)
			}
		})
	}
}
