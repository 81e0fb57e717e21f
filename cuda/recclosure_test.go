package cuda_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// fibClosureKernel computes Fibonacci numbers with a recursive closure
// that captures only its own variable: a recursive device function on
// the compiled backends.
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

// markClosureKernel's recursive closure also captures out, which the
// compiled backends refuse.
func markClosureKernel(t cuda.Thread, out []int64) {
	var mark func(i int)
	mark = func(i int) {
		if i < len(out) {
			out[i] = 1
			mark(2*i + 1)
		}
	}
	mark(t.Grid1())
}

// TestRecursiveClosure: a recursive closure that captures only its own
// variable gives the cpu backend's results on ptxsim and the simulated
// GPU; one that captures another variable runs on the cpu backend and is
// refused by the compiled ones before anything runs, with one diagnostic
// at the function literal (issue 21, item 9).
func TestRecursiveClosure(t *testing.T) {
	onBackend(t, cuda.CPU)
	want := make([]int64, 24)
	if err := cuda.Jit(fibClosureKernel).Launch(cuda.Dim1(1), cuda.Dim1(24), want); err != nil {
		t.Fatal(err)
	}
	if want[23] != 28657 {
		t.Fatalf("cpu: fib(23) = %d, want 28657", want[23])
	}
	marks := make([]int64, 8)
	if err := cuda.Jit(markClosureKernel).Launch(cuda.Dim1(1), cuda.Dim1(1), marks); err != nil || !slices.Equal(marks, []int64{1, 1, 0, 1, 0, 0, 0, 1}) {
		t.Fatalf("cpu: capturing closure: %v, %v", marks, err)
	}
	for _, b := range []struct {
		name  string
		setup func(t *testing.T)
	}{
		{"ptxsim", func(t *testing.T) { onBackend(t, cuda.PTXSim) }},
		{"gpu-sim", func(t *testing.T) { simGPU(t) }},
	} {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			out := make([]int64, 24)
			if err := cuda.Jit(fibClosureKernel).Launch(cuda.Dim1(1), cuda.Dim1(24), out); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out, want) {
				t.Errorf("fib = %v, want %v", out, want)
			}
			err := cuda.Jit(markClosureKernel).Launch(cuda.Dim1(1), cuda.Dim1(1), make([]int64, 8))
			var ce *cuda.CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("launch: %v; want a *cuda.CompileError", err)
			}
			if len(ce.Diagnostics) != 1 {
				t.Fatalf("%d diagnostics, want 1: %v", len(ce.Diagnostics), err)
			}
			d := ce.Diagnostics[0]
			if !strings.HasSuffix(d.Pos, "recclosure_test.go:34:9") || !strings.Contains(d.Msg, "also captures out; pass out to it as an argument") {
				t.Errorf("diagnostic %s: %s; want recclosure_test.go:34:9 and the advice", d.Pos, d.Msg)
			}
		})
	}
}
