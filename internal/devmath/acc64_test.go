package devmath

import (
	"math"
	"testing"
)

const sweepN = 100000

type case1 struct {
	name  string
	f     func(float64) float64
	ref   func(float64) float64
	dom   domain
	bound float64 // max ulp vs Go's math, as recorded in doc.go
}

var cases1 = []case1{
	{"Exp", Exp, math.Exp, domain{lo: 1e-20, hi: 709.4, neg: true, ulo: -744.7, uhi: 709.4, near: []float64{709.4, -708.4, -744.7}}, 2},
	{"Exp2", Exp2, math.Exp2, domain{lo: 1e-20, hi: 1075, neg: true, ulo: -1075, uhi: 1024, near: []float64{1023.9, -1022, -1074}}, 2},
	{"Expm1", Expm1, math.Expm1, domain{lo: 1e-300, hi: 710, neg: true, ulo: -2, uhi: 2, near: []float64{0.34657, -0.34657, 709.78}}, 2},
	{"Log", Log, math.Log, domain{lo: 2.3e-308, hi: math.MaxFloat64, ulo: 0, uhi: 4, near: []float64{1, 2, 0.5}}, 2},
	{"Log2", Log2, math.Log2, domain{lo: 2.3e-308, hi: math.MaxFloat64, ulo: 0, uhi: 4, near: []float64{1, 2, 0.5}, skip: func(x float64) bool { return x > 1 && x < 2 }}, 2},
	{"Log10", Log10, math.Log10, domain{lo: 2.3e-308, hi: math.MaxFloat64, ulo: 0, uhi: 20, near: []float64{1, 10, 0.1}}, 2},
	{"Log1p", Log1p, math.Log1p, domain{lo: 1e-300, hi: math.MaxFloat64, neg: false, ulo: -1, uhi: 1, near: []float64{0, -0.5, -1}}, 2},
	{"Sin", Sin, math.Sin, domain{lo: 1e-300, hi: 1e5, neg: true, ulo: -10, uhi: 10, skip: nearPio2}, 2},
	{"Cos", Cos, math.Cos, domain{lo: 1e-300, hi: 1e5, neg: true, ulo: -10, uhi: 10, skip: nearPio2}, 2},
	{"Tan", Tan, math.Tan, domain{lo: 1e-6, hi: 1e5, neg: true, ulo: -10, uhi: 10, skip: nearPio2}, 2},
	{"Asin", Asin, math.Asin, domain{lo: 1e-300, hi: 0.9, neg: true, ulo: -0.9, uhi: 0.9, near: []float64{0.9, 0.5}}, 2},
	{"Acos", Acos, math.Acos, domain{lo: 1e-300, hi: 0.7, neg: true, ulo: -0.7, uhi: 0.7, near: []float64{0.7, 0.5}}, 2},
	{"Atan", Atan, math.Atan, domain{lo: 1e-300, hi: math.MaxFloat64, neg: true, ulo: -4, uhi: 4, near: []float64{1, 0.0625}}, 2},
	{"Sinh", Sinh, math.Sinh, domain{lo: 1e-300, hi: 709.4, neg: true, ulo: -25, uhi: 25, near: []float64{1, 22, 709.4}}, 2},
	{"Cosh", Cosh, math.Cosh, domain{lo: 1e-300, hi: 709.4, neg: true, ulo: -25, uhi: 25, near: []float64{1, 22, 709.4}}, 2},
	{"Tanh", Tanh, math.Tanh, domain{lo: 1e-300, hi: 40, neg: true, ulo: -3, uhi: 3, near: []float64{0.17, 22}}, 2},
	{"Asinh", Asinh, math.Asinh, domain{lo: 1e-300, hi: math.MaxFloat64, neg: true, ulo: -3, uhi: 3, near: []float64{1}}, 2},
	{"Acosh", Acosh, math.Acosh, domain{lo: 1, hi: math.MaxFloat64, ulo: 1, uhi: 3, near: []float64{1, 2}}, 2},
	{"Atanh", Atanh, math.Atanh, domain{lo: 1e-300, hi: 1, neg: true, ulo: -1, uhi: 1, near: []float64{1, 0.5}}, 2},
	{"Cbrt", Cbrt, math.Cbrt, domain{lo: 5e-324, hi: math.MaxFloat64, neg: true, ulo: -8, uhi: 8, near: []float64{1, 8}}, 2},
	{"Erf", Erf, math.Erf, domain{lo: 1e-300, hi: 7, neg: true, ulo: -3, uhi: 3, near: []float64{1, 0.5, 6}}, 2},
	{"Erfc", Erfc, math.Erfc, domain{lo: 1e-300, hi: 28, neg: true, ulo: -3, uhi: 28, near: []float64{1, 0.5, 6, 26.5}}, 3},
	{"Round", Round, math.Round, domain{lo: 1e-300, hi: 1e17, neg: true, ulo: -8, uhi: 8, near: []float64{0.5, 1.5, 2.5}}, 0},
	{"Sincos.sin", func(x float64) float64 { s, _ := Sincos(x); return s }, math.Sin, domain{lo: 1e-300, hi: 1e5, neg: true, ulo: -10, uhi: 10, skip: nearPio2}, 2},
	{"Sincos.cos", func(x float64) float64 { _, c := Sincos(x); return c }, math.Cos, domain{lo: 1e-300, hi: 1e5, neg: true, ulo: -10, uhi: 10, skip: nearPio2}, 2},
}

func TestSweep1(t *testing.T) {
	for i, c := range cases1 {
		t.Run(c.name, func(t *testing.T) {
			xs := c.dom.points(sweepN, int64(i+1))
			var worst, wx float64
			for _, x := range xs {
				if d := ulpDist(c.f(x), c.ref(x)); d > worst || d != d {
					worst, wx = d, x
				}
			}
			t.Logf("%-10s max %.0f ulp vs Go at x=%v (got %v, Go %v)", c.name, worst, wx, c.f(wx), c.ref(wx))
			if !(worst <= c.bound) {
				t.Errorf("%s: %v ulp from Go's math at x=%v (got %v, Go %v); bound %v", c.name, worst, wx, c.f(wx), c.ref(wx), c.bound)
			}
		})
	}
}

// nearPio2 reports whether x lies within 2**-10 of a nonzero multiple of
// pi/2, where Go's math.Sin, Cos and Tan lose accuracy (see doc.go); those
// points are covered by TestExact64 instead.
func nearPio2(x float64) bool {
	k := math.Round(x / (math.Pi / 2))
	return k != 0 && math.Abs(x-k*(math.Pi/2)) < 0x1p-10
}
