package cuda_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// countWithMap runs on the CPU backend, but a GPU cannot run a map.
func countWithMap(t cuda.Thread, a []int32) {
	seen := map[int32]bool{}
	for _, v := range a {
		seen[v] = true
	}
	if t.Grid1() == 0 {
		a[0] = int32(len(seen))
	}
}

func applyTo(t cuda.Thread, f func(int32) int32, a []int32) {
	if i := t.Grid1(); i < len(a) {
		a[i] = f(a[i])
	}
}

func plusOne(x int32) int32 { return x + 1 }

// Strict makes the CPU backend refuse, with the GPU's *CompileError, what
// only the CPU could run: a map in a kernel, a closure bound to a func
// parameter; a kernel a GPU can run still runs. NUGO_STRICT=1 does the same
// for every kernel.
func TestStrictOnCPU(t *testing.T) {
	onBackend(t, cuda.CPU)
	if err := cuda.Jit(countWithMap).Launch(cuda.Dim1(1), cuda.Dim1(1), []int32{1, 2, 2}); err != nil {
		t.Fatalf("without cuda.Strict the cuda.CPU runs the map: %v", err)
	}
	wantCompileError := func(what string, err error, msg string) {
		t.Helper()
		var ce *cuda.CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v; want a *cuda.CompileError about %q", what, err, msg)
		}
	}
	wantCompileError("Strict, a map", cuda.Jit(countWithMap, cuda.Strict).Launch(cuda.Dim1(1), cuda.Dim1(1), []int32{1, 2, 2}), "map")
	_, err := cuda.Compile(countWithMap, cuda.Strict)
	wantCompileError("Compile with cuda.Strict, a map", err, "map")

	t.Setenv("NUGO_STRICT", "1")
	wantCompileError("NUGO_STRICT=1, a map", cuda.Jit(countWithMap).Launch(cuda.Dim1(1), cuda.Dim1(1), []int32{1, 2, 2}), "map")

	k := cuda.Jit(applyTo)
	a := []int32{1, 2, 3}
	if err := k.Launch(cuda.Dim1(1), cuda.Dim1(32), plusOne, a); err != nil || a[2] != 4 {
		t.Fatalf("Strict, a top-level function: %v, %v", err, a)
	}
	add := int32(5)
	wantCompileError("Strict, a closure", k.Launch(cuda.Dim1(1), cuda.Dim1(32), func(x int32) int32 { return x + add }, a), "closure")
	if a[2] != 4 {
		t.Errorf("a refused launch changed its argument: %v", a)
	}
	if got := cuda.Jit(applyTo).Options().Flags; got&cuda.Strict == 0 || got.String() != "Strict" {
		t.Errorf("NUGO_STRICT=1 gives flags %v", got)
	}
}
