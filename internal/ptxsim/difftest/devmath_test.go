package difftest

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/devmath"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxsim/golaunch"
)

var devmath64 = []func(a, b float64) float64{
	func(a, _ float64) float64 { return devmath.Exp(a) },
	func(a, _ float64) float64 { return devmath.Exp2(a) },
	func(a, _ float64) float64 { return devmath.Expm1(a) },
	func(a, _ float64) float64 { return devmath.Log(a) },
	func(a, _ float64) float64 { return devmath.Log2(a) },
	func(a, _ float64) float64 { return devmath.Log10(a) },
	func(a, _ float64) float64 { return devmath.Log1p(a) },
	func(a, _ float64) float64 { return devmath.Sin(a) },
	func(a, _ float64) float64 { return devmath.Cos(a) },
	func(a, _ float64) float64 { return devmath.Tan(a) },
	func(a, _ float64) float64 { return devmath.Atan(a) },
	func(a, _ float64) float64 { return devmath.Asin(a) },
	func(a, _ float64) float64 { return devmath.Acos(a) },
	func(a, _ float64) float64 { return devmath.Sinh(a) },
	func(a, _ float64) float64 { return devmath.Cosh(a) },
	func(a, _ float64) float64 { return devmath.Tanh(a) },
	func(a, _ float64) float64 { return devmath.Asinh(a) },
	func(a, _ float64) float64 { return devmath.Acosh(a) },
	func(a, _ float64) float64 { return devmath.Atanh(a) },
	func(a, _ float64) float64 { return devmath.Erf(a) },
	func(a, _ float64) float64 { return devmath.Erfc(a) },
	func(a, _ float64) float64 { return devmath.Cbrt(a) },
	devmath.Pow, devmath.Atan2, devmath.Hypot, devmath.Mod, devmath.Remainder,
	func(a, _ float64) float64 { return devmath.Gamma(a) },
	func(a, _ float64) float64 { l, _ := devmath.Lgamma(a); return l },
	func(a, _ float64) float64 { _, s := devmath.Lgamma(a); return float64(s) },
}

func unary32(f func(float32) float32) func(a, b float32) float32 {
	return func(a, _ float32) float32 { return f(a) }
}

var devmath32 = []func(a, b float32) float32{
	unary32(devmath.Exp32), unary32(devmath.Exp232), unary32(devmath.Expm132), unary32(devmath.Log32),
	unary32(devmath.Log232), unary32(devmath.Log1032), unary32(devmath.Log1p32), unary32(devmath.Sin32),
	unary32(devmath.Cos32), unary32(devmath.Tan32), unary32(devmath.Atan32), unary32(devmath.Asin32),
	unary32(devmath.Acos32), unary32(devmath.Sinh32), unary32(devmath.Cosh32), unary32(devmath.Tanh32),
	unary32(devmath.Asinh32), unary32(devmath.Acosh32), unary32(devmath.Atanh32), unary32(devmath.Erf32),
	unary32(devmath.Erfc32), unary32(devmath.Cbrt32),
	devmath.Pow32, devmath.Atan232, devmath.Hypot32, devmath.Mod32, devmath.Remainder32,
	unary32(devmath.Gamma32),
	func(a, _ float32) float32 { l, _ := devmath.Lgamma32(a); return l },
	func(a, _ float32) float32 { _, s := devmath.Lgamma32(a); return float32(s) },
}

// mathInputs are edge values, a sweep across magnitudes and the large
// arguments that stress trigonometric argument reduction.
func mathInputs() (x, y []float64) {
	x = append([]float64{}, edgeFloats...)
	x = append(x, -0.5, 0.75, 1e-8, -1e-300, 709.7, 710, -745.1, 710.2, -710.4758600739439, 710.475860073944, 88.7, 1e22, -1e15, 3*math.Pi/4, 1.0000001, 0.9999999)
	// Gamma's branches: poles, near 1 and 2, the shift and Stirling ranges,
	// reflection, overflow and underflow.
	x = append(x, -3, -2.5, -2.7476826467274, -1e-3, 1.01, 2.003, 31.9, 33, 171.7, -170.6, -185.3, -250.5, 0x1p-1074, 3e305)
	for e := -30.0; e <= 30; e += 1.5 {
		x = append(x, math.Pow(2.3, e), -math.Pow(1.7, e))
	}
	y = make([]float64, len(x))
	for i := range y {
		y[i] = x[(i*7+3)%len(x)]
	}
	return x, y
}

func runMathKernel(t *testing.T, kernel any, args ...any) {
	t.Helper()
	if !frontend.HasDevmath() {
		t.Skip("SKIP: the device math library is not linked into this build yet")
	}
	m, err := compiler.CompileFunc(kernel, compiler.Target{})
	if err != nil {
		t.Fatal(err)
	}
	gk, err := golaunch.New(m)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		vals[i] = reflect.ValueOf(a)
	}
	n := reflect.ValueOf(args[0]).Len()
	if err := gk.Run(golaunch.Launch{Grid: [3]int{(n + 63) / 64, 1, 1}, Block: [3]int{64, 1, 1}}, vals); err != nil {
		t.Fatal(err)
	}
}

// TestDeviceMathCompiled: the device math library compiled by nugo and
// interpreted equals the library run natively, bit for bit (NaNs of any
// payload are equal), for every function and input.
func TestDeviceMathCompiled(t *testing.T) {
	x, y := mathInputs()
	compareCompiledMath(t, x, y)
}

// TestDeviceMathSweep is TestDeviceMathCompiled over the sweep the library's
// own accuracy tests use: 10^5 points per function, magnitudes spread
// logarithmically over the whole float64 range and densely around the
// interesting small values, both signs (fewer with -short).
func TestDeviceMathSweep(t *testing.T) {
	n := 100_000
	if testing.Short() || raceEnabled {
		n = 5_000
	}
	rng := rand.New(rand.NewPCG(4, 2))
	x, y := make([]float64, n), make([]float64, n)
	point := func() float64 {
		var v float64
		if rng.IntN(2) == 0 {
			v = math.Pow(10, rng.Float64()*600-300)
		} else {
			v = rng.Float64() * 20
		}
		if rng.IntN(2) == 0 {
			v = -v
		}
		return v
	}
	for i := range x {
		x[i], y[i] = point(), point()
	}
	compareCompiledMath(t, x, y)
}

func compareCompiledMath(t *testing.T, x, y []float64) {
	t.Helper()
	out := make([]float64, len(x)*mathFuncs64)
	runMathKernel(t, sampleMath64, x, y, out)
	bad := 0
	for i := range x {
		for j, f := range devmath64 {
			want, got := f(x[i], y[i]), out[i*mathFuncs64+j]
			if math.Float64bits(want) != math.Float64bits(got) && !(want != want && got != got) {
				t.Errorf("float64 function %d (%v, %v): compiled %v (%#x), native %v (%#x)", j, x[i], y[i], got, math.Float64bits(got), want, math.Float64bits(want))
				if bad++; bad > 20 {
					t.FailNow()
				}
			}
		}
	}
	x32, y32 := make([]float32, len(x)), make([]float32, len(x))
	for i := range x {
		x32[i], y32[i] = float32(x[i]), float32(y[i])
	}
	out32 := make([]float32, len(x)*mathFuncs32)
	runMathKernel(t, sampleMath32, x32, y32, out32)
	for i := range x32 {
		for j, f := range devmath32 {
			want, got := f(x32[i], y32[i]), out32[i*mathFuncs32+j]
			if math.Float32bits(want) != math.Float32bits(got) && !(want != want && got != got) {
				t.Errorf("float32 function %d (%v, %v): compiled %v (%#x), native %v (%#x)", j, x32[i], y32[i], got, math.Float32bits(got), want, math.Float32bits(want))
				if bad++; bad > 20 {
					t.FailNow()
				}
			}
		}
	}
	if len(devmath64) != mathFuncs64 || len(devmath32) != mathFuncs32 {
		t.Fatalf("reference tables have %d and %d functions", len(devmath64), len(devmath32))
	}
}
