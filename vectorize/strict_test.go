package vectorize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/vectorize"
)

func strictTwice(x float64) float64 { return 2 * x }

// With NUGO_STRICT=1 the CUDA target on the CPU backend compiles what it
// runs for a GPU first: a closure, which a GPU cannot be given, is a
// *cuda.CompileError there too, while a top-level function runs, for a
// ufunc and a gufunc alike.
func TestStrictCUDATargetOnCPU(t *testing.T) {
	onCPUBackend(t)
	k := 3.0
	closure := func(x float64) float64 { return k * x }
	if out, err := vectorize.New1(closure, vectorize.CUDA).Apply([]float64{1, 2}); err != nil || out[1] != 6 {
		t.Fatalf("without NUGO_STRICT a closure runs on the CPU backend: %v, %v", out, err)
	}
	t.Setenv("NUGO_STRICT", "1")
	out, err := vectorize.New1(strictTwice, vectorize.CUDA).Apply([]float64{1, 2})
	if err != nil || out[1] != 4 {
		t.Fatalf("NUGO_STRICT=1, a top-level function: %v, %v", out, err)
	}
	_, err = vectorize.New1(closure, vectorize.CUDA).Apply([]float64{1, 2})
	var ce *cuda.CompileError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "closure") {
		t.Fatalf("NUGO_STRICT=1, a closure on the CUDA target: %v; want a *cuda.CompileError about the closure", err)
	}
	gu, err := vectorize.GU("(n)->(n)", func(x, out []float64) { copy(out, x) }, vectorize.CUDA)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gu.Apply([]float64{1, 2}); err == nil {
		t.Errorf("NUGO_STRICT=1, a closure gufunc on the CUDA target ran")
	}
}
