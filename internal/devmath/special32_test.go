package devmath

import (
	"math"
	"testing"
)

var edges32 = []float32{
	0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
	1, -1, 0.5, -0.5, 2, -2, 3, -3, 0.1, 1.5, 2.5, -2.5, 1 - 0x1p-24, 1 + 0x1p-23,
	math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
	0x1p-126, -0x1p-126, 0x1p-127, 0x1p-12, 0x1p-13, 0x1p-25, 0x1p20, 0x1p23, 0x1p24, 0x1p28, 1e30, -1e30,
	math.Pi / 2, -math.Pi / 2, math.Pi, -math.Pi, 88.72, 88.73, -103.9, -104, -87.3, 127.99, 128, -149, -150, -151,
	-17, -18, 9, 10, 11, 89.4, 89.5, 100, 5.9, 6, 10.05, 11,
}

var goRef32 = []struct {
	name string
	f    func(float32) float32
	g    func(float64) float64
}{
	{"Exp32", Exp32, math.Exp}, {"Exp232", Exp232, math.Exp2}, {"Expm132", Expm132, math.Expm1},
	{"Log32", Log32, math.Log}, {"Log232", Log232, math.Log2}, {"Log1032", Log1032, math.Log10}, {"Log1p32", Log1p32, math.Log1p},
	{"Sin32", Sin32, math.Sin}, {"Cos32", Cos32, math.Cos}, {"Tan32", Tan32, math.Tan},
	{"Asin32", Asin32, math.Asin}, {"Acos32", Acos32, math.Acos}, {"Atan32", Atan32, math.Atan},
	{"Sinh32", Sinh32, math.Sinh}, {"Cosh32", Cosh32, math.Cosh}, {"Tanh32", Tanh32, math.Tanh},
	{"Asinh32", Asinh32, math.Asinh}, {"Acosh32", Acosh32, math.Acosh}, {"Atanh32", Atanh32, math.Atanh},
	{"Cbrt32", Cbrt32, math.Cbrt}, {"Erf32", Erf32, math.Erf}, {"Erfc32", Erfc32, math.Erfc}, {"Round32", Round32, math.Round},
	{"Sincos32.sin", func(x float32) float32 { s, _ := Sincos32(x); return s }, math.Sin},
	{"Sincos32.cos", func(x float32) float32 { _, c := Sincos32(x); return c }, math.Cos},
}

var goRef32b = []struct {
	name string
	f    func(float32, float32) float32
	g    func(float64, float64) float64
}{
	{"Pow32", Pow32, math.Pow}, {"Atan232", Atan232, math.Atan2}, {"Hypot32", Hypot32, math.Hypot},
	{"Mod32", Mod32, math.Mod}, {"Remainder32", Remainder32, math.Remainder},
}

func sameSpecial32(got, want float32) bool {
	if got != got || want != want {
		return got != got && want != want
	}
	return math.Float32bits(got) == math.Float32bits(want)
}

func isSpecial32(v float32) bool { return v != v || v == 0 || math.IsInf(float64(v), 0) }

func TestSpecialValues32(t *testing.T) {
	for _, c := range goRef32 {
		for _, x := range edges32 {
			got, want := c.f(x), float32(c.g(float64(x)))
			if isSpecial32(got) || isSpecial32(want) {
				if !sameSpecial32(got, want) {
					t.Errorf("%s(%v) = %v, float32(Go) = %v", c.name, x, got, want)
				}
			} else if d := ulpDist32(got, want); d > 1 {
				t.Errorf("%s(%v) = %v, float32(Go) = %v (%v ulp)", c.name, x, got, want, d)
			}
		}
	}
	for _, c := range goRef32b {
		for _, x := range edges32 {
			for _, y := range edges32 {
				got, want := c.f(x, y), float32(c.g(float64(x), float64(y)))
				if isSpecial32(got) || isSpecial32(want) {
					if !sameSpecial32(got, want) {
						t.Errorf("%s(%v, %v) = %v, float32(Go) = %v", c.name, x, y, got, want)
					}
				} else if d := ulpDist32(got, want); d > 1 {
					t.Errorf("%s(%v, %v) = %v, float32(Go) = %v (%v ulp)", c.name, x, y, got, want, d)
				}
			}
		}
	}
}
