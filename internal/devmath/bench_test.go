package devmath

import (
	"math"
	"math/rand"
	"testing"
)

// benchInputs returns 1024 reproducible arguments in [lo, hi].
func benchInputs(lo, hi float64) []float64 {
	r := rand.New(rand.NewSource(1))
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = lo + (hi-lo)*r.Float64()
	}
	return xs
}

var benchSink float64
var benchSink32 float32

var bench1 = []struct {
	name   string
	f, g   func(float64) float64
	lo, hi float64
}{
	{"Exp", Exp, math.Exp, -700, 700}, {"Exp2", Exp2, math.Exp2, -1000, 1000}, {"Expm1", Expm1, math.Expm1, -2, 2},
	{"Log", Log, math.Log, 1e-3, 1e3}, {"Log2", Log2, math.Log2, 1e-3, 1e3}, {"Log10", Log10, math.Log10, 1e-3, 1e3},
	{"Log1p", Log1p, math.Log1p, -0.5, 2},
	{"Sin", Sin, math.Sin, -10, 10}, {"Cos", Cos, math.Cos, -10, 10}, {"Tan", Tan, math.Tan, -10, 10},
	{"SinHuge", Sin, math.Sin, 1e6, 1e22},
	{"Asin", Asin, math.Asin, -1, 1}, {"Acos", Acos, math.Acos, -1, 1}, {"Atan", Atan, math.Atan, -10, 10},
	{"Sinh", Sinh, math.Sinh, -10, 10}, {"Cosh", Cosh, math.Cosh, -10, 10}, {"Tanh", Tanh, math.Tanh, -5, 5},
	{"Asinh", Asinh, math.Asinh, -10, 10}, {"Acosh", Acosh, math.Acosh, 1, 10}, {"Atanh", Atanh, math.Atanh, -0.99, 0.99},
	{"Cbrt", Cbrt, math.Cbrt, -1e3, 1e3}, {"Erf", Erf, math.Erf, -3, 3}, {"Erfc", Erfc, math.Erfc, -3, 10},
	{"Round", Round, math.Round, -1e3, 1e3},
}

var bench2 = []struct {
	name   string
	f, g   func(float64, float64) float64
	lo, hi float64
}{
	{"Pow", Pow, math.Pow, 0.1, 10}, {"Atan2", Atan2, math.Atan2, -10, 10}, {"Hypot", Hypot, math.Hypot, -1e3, 1e3},
	{"Mod", Mod, math.Mod, 1, 1e6}, {"Remainder", Remainder, math.Remainder, 1, 1e6},
}

// BenchmarkFloat64 reports ns/op of each function next to Go's math:
// BenchmarkFloat64/Exp/devmath and BenchmarkFloat64/Exp/gomath.
func BenchmarkFloat64(b *testing.B) {
	for _, c := range bench1 {
		xs := benchInputs(c.lo, c.hi)
		for _, impl := range []struct {
			name string
			f    func(float64) float64
		}{{"devmath", c.f}, {"gomath", c.g}} {
			b.Run(c.name+"/"+impl.name, func(b *testing.B) {
				s := 0.0
				for i := 0; i < b.N; i++ {
					s += impl.f(xs[i&1023])
				}
				benchSink = s
			})
		}
	}
	for _, c := range bench2 {
		xs, ys := benchInputs(c.lo, c.hi), benchInputs(c.lo/2, c.hi/3)
		for _, impl := range []struct {
			name string
			f    func(float64, float64) float64
		}{{"devmath", c.f}, {"gomath", c.g}} {
			b.Run(c.name+"/"+impl.name, func(b *testing.B) {
				s := 0.0
				for i := 0; i < b.N; i++ {
					s += impl.f(xs[i&1023], ys[(i+7)&1023])
				}
				benchSink = s
			})
		}
	}
}

// BenchmarkFloat32 reports ns/op of the float32 functions next to Go's
// float64 math converted to and from float32 (what a host program would
// otherwise write).
func BenchmarkFloat32(b *testing.B) {
	f32 := map[string]func(float32) float32{
		"Exp": Exp32, "Exp2": Exp232, "Expm1": Expm132, "Log": Log32, "Log2": Log232, "Log10": Log1032, "Log1p": Log1p32,
		"Sin": Sin32, "Cos": Cos32, "Tan": Tan32, "SinHuge": Sin32, "Asin": Asin32, "Acos": Acos32, "Atan": Atan32,
		"Sinh": Sinh32, "Cosh": Cosh32, "Tanh": Tanh32, "Asinh": Asinh32, "Acosh": Acosh32, "Atanh": Atanh32,
		"Cbrt": Cbrt32, "Erf": Erf32, "Erfc": Erfc32, "Round": Round32,
	}
	for _, c := range bench1 {
		xs64 := benchInputs(c.lo, c.hi)
		if c.name == "Exp" {
			xs64 = benchInputs(-80, 80)
		}
		xs := make([]float32, len(xs64))
		for i, x := range xs64 {
			xs[i] = float32(x)
		}
		g := c.g
		for _, impl := range []struct {
			name string
			f    func(float32) float32
		}{{"devmath", f32[c.name]}, {"gomath", func(x float32) float32 { return float32(g(float64(x))) }}} {
			b.Run(c.name+"32/"+impl.name, func(b *testing.B) {
				var s float32
				for i := 0; i < b.N; i++ {
					s += impl.f(xs[i&1023])
				}
				benchSink32 = s
			})
		}
	}
}
