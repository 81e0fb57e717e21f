package cuda_test

// Kernels whose code spans packages: a function bound to a func parameter
// that lives in another package and calls a third.

import (
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/testkernels/devlib"
	"github.com/nugo-dev/nugo/internal/testkernels/devlib/mix"
	"github.com/nugo-dev/nugo/internal/testkernels/embedded"
)

func mapF64(t cuda.Thread, f func(float64) float64, out, in []float64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(in[i])
	}
}

func TestLaunchFuncOfOtherPackage(t *testing.T) {
	in := make([]float64, 200)
	for i := range in {
		in[i] = float64(i*7919 - 50000)
	}
	funcs := []struct {
		name string
		f    func(float64) float64
	}{
		{"devlib.Bucket calls mix", devlib.Bucket},
		{"mix.Twice calls within mix", mix.Twice},
	}
	for _, b := range []cuda.Backend{cuda.CPU, cuda.PTXSim} {
		for _, fc := range funcs {
			t.Run(string(b)+"/"+fc.name, func(t *testing.T) {
				onBackend(t, b)
				out := make([]float64, len(in))
				if err := cuda.Jit(mapF64).Launch(cuda.Dim1(2), cuda.Dim1(128), fc.f, out, in); err != nil {
					t.Fatal(err)
				}
				for i := range out {
					if want := fc.f(in[i]); out[i] != want {
						t.Fatalf("out[%d] = %v, want %v", i, out[i], want)
					}
				}
			})
		}
	}
}

func squareVia(t cuda.Thread, a []float64) {
	if i := t.Grid1(); i < len(a) {
		a[i] = embedded.Square(a[i]) + 1
	}
}

// TestLaunchRegisteredPackage: a package that registers its own source
// (as nugo's libraries do) has its kernel, and kernels calling it, compiled
// from that source.
func TestLaunchRegisteredPackage(t *testing.T) {
	kernels := []struct {
		name string
		k    any
		f    func(float64) float64
	}{
		{"its own kernel", embedded.Kernel, func(x float64) float64 { return x * x }},
		{"a kernel calling it", squareVia, func(x float64) float64 { return x*x + 1 }},
	}
	for _, b := range []cuda.Backend{cuda.CPU, cuda.PTXSim} {
		for _, kc := range kernels {
			t.Run(string(b)+"/"+kc.name, func(t *testing.T) {
				onBackend(t, b)
				a := make([]float64, 300)
				for i := range a {
					a[i] = float64(i) - 150.5
				}
				in := append([]float64(nil), a...)
				if err := cuda.Jit(kc.k).Launch(cuda.Dim1(3), cuda.Dim1(128), a); err != nil {
					t.Fatal(err)
				}
				for i := range a {
					if want := kc.f(in[i]); a[i] != want {
						t.Fatalf("a[%d] = %v, want %v", i, a[i], want)
					}
				}
			})
		}
	}
}
