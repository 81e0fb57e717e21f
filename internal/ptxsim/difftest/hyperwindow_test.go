package difftest

import (
	"math"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/devmath"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// Where Go's math.Sinh and math.Cosh (the cpu backend) and the device
// library (ptxsim, GPU) overflow: e**|x| overflows above lnMax, e**|x|/2
// above asinhMax (docs/math.md).
const (
	lnMax    = 709.782712893384
	asinhMax = 710.4758600739439
)

// TestHyperbolicOverflowWindow runs math.Sinh and math.Cosh on the cpu
// backend and compiled (ptxsim) around their overflow thresholds. Below
// ln(MaxFloat64) the backends agree within 2 ulp (Go's Exp is itself off
// by up to 1 ulp, and returns +Inf from 709.43 on amd64, so the comparison
// skips (709.43, lnMax]); between ln(MaxFloat64) and asinh(MaxFloat64) the
// cpu backend gives ±Inf and the compiled one the finite exact value, the
// device library's; above, both overflow. float32 agrees everywhere: its
// thresholds (about 89.4) lie far inside float64's range.
func TestHyperbolicOverflowWindow(t *testing.T) {
	xs := []float64{1, 22.5, 300, 709, 709.4, 709.79, 710, 710.2, asinhMax, math.Nextafter(asinhMax, 800), 711, 1000,
		88.7, 89.41, 89.42, math.Inf(1)}
	for i := 0; i < 40; i++ {
		xs = append(xs, lnMax+float64(i)*(asinhMax-lnMax)/39)
	}
	n := len(xs)
	for _, x := range xs[:n] {
		xs = append(xs, -x)
	}
	n = len(xs)
	c := Case{Name: "hyperbolic_overflow_window", Kernel: sampleHyper, Grid: cuda.Dim1((n + 63) / 64), Block: cuda.Dim1(64),
		Test: "TestHyperbolicOverflowWindow",
		Args: func() []any {
			return []any{append([]float64(nil), xs...), make([]float64, n), make([]float64, n), make([]float32, n), make([]float32, n)}
		}}
	if !frontend.HasDevmath() {
		t.Skip("SKIP: the device math library is not linked into this build yet")
	}
	want := Native(c)
	if want.Err != nil {
		t.Fatal(want.Err)
	}
	got, _ := Compiled(c, Options{})
	if got.Err != nil {
		t.Fatal(got.Err)
	}
	window := 0
	for k, name := range []string{"Sinh", "Cosh"} {
		native, compiled := want.Args[1+k].([]float64), got.Args[1+k].([]float64)
		dev := devmath.Sinh
		if k == 1 {
			dev = devmath.Cosh
		}
		for i, x := range xs {
			a := math.Abs(x)
			switch {
			case compiled[i] != dev(x):
				t.Errorf("%s(%v): compiled %v, device library %v", name, x, compiled[i], dev(x))
			case a > lnMax && a <= asinhMax:
				window++
				if !math.IsInf(native[i], 0) || math.IsInf(compiled[i], 0) || math.Abs(compiled[i]) < 8.9e307 {
					t.Errorf("%s(%v) in the window: cpu %v (want ±Inf, Go's math), compiled %v (want finite)", name, x, native[i], compiled[i])
				}
			case a > asinhMax:
				if !math.IsInf(native[i], 0) || native[i] != compiled[i] {
					t.Errorf("%s(%v): cpu %v, compiled %v, both should overflow", name, x, native[i], compiled[i])
				}
			case a > 709.43:
				// Go's amd64 Exp overflows from 709.43 (devmath's doc.go).
			default:
				if msg := Compare([]any{native[i : i+1]}, []any{compiled[i : i+1]}, 2); len(msg) > 0 {
					t.Errorf("%s(%v): %v", name, x, msg)
				}
			}
		}
	}
	if window < 80 {
		t.Errorf("only %d results in the window", window)
	}
	if d := Compare(want.Args[3:], got.Args[3:], 1); len(d) > 0 {
		t.Errorf("float32 Sinh and Cosh differ: %v", d)
	}
}
