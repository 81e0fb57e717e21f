package devmath

import (
	"math"
	"math/rand"
	"testing"
)

// ulpDist32 is ulpDist for float32.
func ulpDist32(a, b float32) float64 {
	if a != a || b != b {
		if a != a && b != b {
			return 0
		}
		return math.Inf(1)
	}
	if a == b {
		return 0
	}
	if math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) {
		return math.Inf(1)
	}
	o := func(x float32) int64 {
		i := int64(int32(math.Float32bits(x)))
		if i < 0 {
			i = math.MinInt32 - i
		}
		return i
	}
	d := o(a) - o(b)
	if d < 0 {
		d = -d
	}
	return float64(d)
}

// ref32 returns Go's float64 function rounded to float32: the reference of
// the float32 functions.
func ref32(g func(float64) float64) func(float32) float32 {
	return func(x float32) float32 { return float32(g(float64(x))) }
}

type case32 struct {
	name  string
	f     func(float32) float32
	g     func(float64) float64
	dom   domain
	bound float64 // max ulp vs float32(Go's float64 math), recorded in doc.go
}

const maxF = math.MaxFloat32

var cases32 = []case32{
	{"Exp32", Exp32, math.Exp, domain{lo: 1e-10, hi: 105, neg: true, ulo: -104, uhi: 89, near: []float64{88.72, -87.3, -103.9}}, 1},
	{"Exp232", Exp232, math.Exp2, domain{lo: 1e-10, hi: 151, neg: true, ulo: -150, uhi: 128, near: []float64{127.9, -126, -149}}, 1},
	{"Expm132", Expm132, math.Expm1, domain{lo: 1e-40, hi: 89, neg: true, ulo: -2, uhi: 2, near: []float64{0.34, -0.34, 88.7}}, 1},
	{"Log32", Log32, math.Log, domain{lo: 1e-45, hi: maxF, ulo: 0, uhi: 4, near: []float64{1, 2, 0.5}}, 1},
	{"Log232", Log232, math.Log2, domain{lo: 1e-45, hi: maxF, ulo: 0, uhi: 4, near: []float64{1, 2, 0.5}}, 1},
	{"Log1032", Log1032, math.Log10, domain{lo: 1e-45, hi: maxF, ulo: 0, uhi: 20, near: []float64{1, 10, 0.1}}, 1},
	{"Log1p32", Log1p32, math.Log1p, domain{lo: 1e-40, hi: maxF, ulo: -1, uhi: 1, near: []float64{0, -0.5, -1}}, 1},
	{"Sin32", Sin32, math.Sin, domain{lo: 1e-40, hi: maxF, neg: true, ulo: -10, uhi: 10, spacing: math.Pi / 2}, 1},
	{"Cos32", Cos32, math.Cos, domain{lo: 1e-40, hi: maxF, neg: true, ulo: -10, uhi: 10, spacing: math.Pi / 2}, 1},
	{"Tan32", Tan32, math.Tan, domain{lo: 1e-40, hi: maxF, neg: true, ulo: -10, uhi: 10, spacing: math.Pi / 2}, 1},
	{"Sincos32.sin", func(x float32) float32 { s, _ := Sincos32(x); return s }, math.Sin, domain{lo: 1e-40, hi: maxF, neg: true, ulo: -10, uhi: 10, spacing: math.Pi / 2}, 1},
	{"Sincos32.cos", func(x float32) float32 { _, c := Sincos32(x); return c }, math.Cos, domain{lo: 1e-40, hi: maxF, neg: true, ulo: -10, uhi: 10, spacing: math.Pi / 2}, 1},
	{"Asin32", Asin32, math.Asin, domain{lo: 1e-40, hi: 1, neg: true, ulo: -1, uhi: 1, near: []float64{1, 0.5}}, 1},
	{"Acos32", Acos32, math.Acos, domain{lo: 1e-40, hi: 1, neg: true, ulo: -1, uhi: 1, near: []float64{1, 0.5}}, 1},
	{"Atan32", Atan32, math.Atan, domain{lo: 1e-40, hi: maxF, neg: true, ulo: -4, uhi: 4, near: []float64{1}}, 1},
	{"Sinh32", Sinh32, math.Sinh, domain{lo: 1e-40, hi: 90, neg: true, ulo: -3, uhi: 3, near: []float64{1, 89.4}}, 1},
	{"Cosh32", Cosh32, math.Cosh, domain{lo: 1e-40, hi: 90, neg: true, ulo: -3, uhi: 3, near: []float64{1, 89.4}}, 1},
	{"Tanh32", Tanh32, math.Tanh, domain{lo: 1e-40, hi: 12, neg: true, ulo: -3, uhi: 3}, 1},
	{"Asinh32", Asinh32, math.Asinh, domain{lo: 1e-40, hi: maxF, neg: true, ulo: -3, uhi: 3}, 1},
	{"Acosh32", Acosh32, math.Acosh, domain{lo: 1, hi: maxF, ulo: 1, uhi: 3, near: []float64{1}}, 1},
	{"Atanh32", Atanh32, math.Atanh, domain{lo: 1e-40, hi: 1, neg: true, ulo: -1, uhi: 1, near: []float64{1}}, 1},
	{"Cbrt32", Cbrt32, math.Cbrt, domain{lo: 1e-45, hi: maxF, neg: true, ulo: -8, uhi: 8}, 1},
	{"Erf32", Erf32, math.Erf, domain{lo: 1e-40, hi: 5, neg: true, ulo: -3, uhi: 3}, 1},
	{"Erfc32", Erfc32, math.Erfc, domain{lo: 1e-40, hi: 11, neg: true, ulo: -3, uhi: 11}, 1},
	{"Round32", Round32, math.Round, domain{lo: 1e-40, hi: 1e9, neg: true, ulo: -8, uhi: 8, near: []float64{0.5, 1.5, 2.5}}, 0},
}

func TestSweep32(t *testing.T) {
	for i, c := range cases32 {
		t.Run(c.name, func(t *testing.T) {
			g := ref32(c.g)
			var worst float64
			var wx float32
			for _, x64 := range c.dom.points(sweepN, int64(200+i)) {
				x := float32(x64)
				if d := ulpDist32(c.f(x), g(x)); d > worst || d != d {
					worst, wx = d, x
				}
			}
			t.Logf("%-12s max %.0f ulp vs float32(Go) at x=%v (got %v, want %v)", c.name, worst, wx, c.f(wx), g(wx))
			if !(worst <= c.bound) {
				t.Errorf("%s(%v) = %v, float32(Go) = %v: %v ulp; bound %v", c.name, wx, c.f(wx), g(wx), worst, c.bound)
			}
		})
	}
}

type case32b struct {
	name  string
	f     func(float32, float32) float32
	g     func(float64, float64) float64
	gen   func(r *rand.Rand) (float64, float64)
	bound float64
}

var cases32b = []case32b{
	{"Pow32", Pow32, math.Pow, func(r *rand.Rand) (float64, float64) {
		switch r.Intn(3) {
		case 0:
			return logUniform(r, 1e-30, 1e30), r.Float64()*8 - 4
		case 1:
			return r.Float64() * 4, r.Float64()*200 - 100
		}
		return -float64(r.Intn(20) + 1), float64(r.Intn(41) - 20)
	}, 1},
	{"Atan232", Atan232, math.Atan2, func(r *rand.Rand) (float64, float64) {
		if r.Intn(2) == 0 {
			return signed(r, logUniform(r, 1e-38, 1e38)), signed(r, logUniform(r, 1e-38, 1e38))
		}
		return r.Float64()*4 - 2, r.Float64()*4 - 2
	}, 1},
	{"Hypot32", Hypot32, math.Hypot, func(r *rand.Rand) (float64, float64) {
		return signed(r, logUniform(r, 1e-45, 3e38)), signed(r, logUniform(r, 1e-45, 3e38))
	}, 1},
	{"Mod32", Mod32, math.Mod, func(r *rand.Rand) (float64, float64) {
		return signed(r, logUniform(r, 1e-45, 3e38)), signed(r, logUniform(r, 1e-45, 3e38))
	}, 0},
	{"Remainder32", Remainder32, math.Remainder, func(r *rand.Rand) (float64, float64) {
		return signed(r, logUniform(r, 1e-45, 3e38)), signed(r, logUniform(r, 1e-45, 3e38))
	}, 0},
}

func TestSweep32b(t *testing.T) {
	for i, c := range cases32b {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(int64(300 + i)))
			var worst float64
			var wx, wy float32
			for n := 0; n < sweepN; n++ {
				a, b := c.gen(r)
				x, y := float32(a), float32(b)
				want := float32(c.g(float64(x), float64(y)))
				if d := ulpDist32(c.f(x, y), want); d > worst || d != d {
					worst, wx, wy = d, x, y
				}
			}
			t.Logf("%-12s max %.0f ulp vs float32(Go) at (%v, %v)", c.name, worst, wx, wy)
			if !(worst <= c.bound) {
				t.Errorf("%s(%v, %v) = %v, float32(Go) = %v: %v ulp; bound %v", c.name, wx, wy, c.f(wx, wy),
					float32(c.g(float64(wx), float64(wy))), worst, c.bound)
			}
		})
	}
}
