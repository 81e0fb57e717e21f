package difftest

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/math32"
)

// mathFuncs64 is the number of results per element of sampleMath64.
const mathFuncs64 = 30

// sampleMath64 applies every float64 function of the device math library:
// compiled, the library's Go code runs through the compiler and the
// interpreter, so it must equal the library run natively bit for bit.
func sampleMath64(t cuda.Thread, x, y []float64, out []float64) {
	i := t.Grid1()
	if i >= len(x) {
		return
	}
	a, b := x[i], y[i]
	o := out[i*mathFuncs64 : (i+1)*mathFuncs64]
	o[0] = math.Exp(a)
	o[1] = math.Exp2(a)
	o[2] = math.Expm1(a)
	o[3] = math.Log(a)
	o[4] = math.Log2(a)
	o[5] = math.Log10(a)
	o[6] = math.Log1p(a)
	o[7] = math.Sin(a)
	o[8] = math.Cos(a)
	o[9] = math.Tan(a)
	o[10] = math.Atan(a)
	o[11] = math.Asin(a)
	o[12] = math.Acos(a)
	o[13] = math.Sinh(a)
	o[14] = math.Cosh(a)
	o[15] = math.Tanh(a)
	o[16] = math.Asinh(a)
	o[17] = math.Acosh(a)
	o[18] = math.Atanh(a)
	o[19] = math.Erf(a)
	o[20] = math.Erfc(a)
	o[21] = math.Cbrt(a)
	o[22] = math.Pow(a, b)
	o[23] = math.Atan2(a, b)
	o[24] = math.Hypot(a, b)
	o[25] = math.Mod(a, b)
	o[26] = math.Remainder(a, b)
	o[27] = math.Gamma(a)
	lg, sign := math.Lgamma(a)
	o[28] = lg
	o[29] = float64(sign)
}

// mathFuncs32 is the number of results per element of sampleMath32.
const mathFuncs32 = 30

// sampleMath32 is sampleMath64 for math32.
func sampleMath32(t cuda.Thread, x, y []float32, out []float32) {
	i := t.Grid1()
	if i >= len(x) {
		return
	}
	a, b := x[i], y[i]
	o := out[i*mathFuncs32 : (i+1)*mathFuncs32]
	o[0] = math32.Exp(a)
	o[1] = math32.Exp2(a)
	o[2] = math32.Expm1(a)
	o[3] = math32.Log(a)
	o[4] = math32.Log2(a)
	o[5] = math32.Log10(a)
	o[6] = math32.Log1p(a)
	o[7] = math32.Sin(a)
	o[8] = math32.Cos(a)
	o[9] = math32.Tan(a)
	o[10] = math32.Atan(a)
	o[11] = math32.Asin(a)
	o[12] = math32.Acos(a)
	o[13] = math32.Sinh(a)
	o[14] = math32.Cosh(a)
	o[15] = math32.Tanh(a)
	o[16] = math32.Asinh(a)
	o[17] = math32.Acosh(a)
	o[18] = math32.Atanh(a)
	o[19] = math32.Erf(a)
	o[20] = math32.Erfc(a)
	o[21] = math32.Cbrt(a)
	o[22] = math32.Pow(a, b)
	o[23] = math32.Atan2(a, b)
	o[24] = math32.Hypot(a, b)
	o[25] = math32.Mod(a, b)
	o[26] = math32.Remainder(a, b)
	o[27] = math32.Gamma(a)
	lg, sign := math32.Lgamma(a)
	o[28] = lg
	o[29] = float32(sign)
}

// sampleHyper computes math.Sinh and math.Cosh, and the float32 ones: the
// functions whose overflow threshold differs between the backends (Go's
// math, on the cpu backend, overflows at ln(MaxFloat64); the device
// library at asinh(MaxFloat64), the exact threshold).
func sampleHyper(t cuda.Thread, x []float64, s, c []float64, s32, c32 []float32) {
	if i := t.Grid1(); i < len(x) {
		s[i], c[i] = math.Sinh(x[i]), math.Cosh(x[i])
		s32[i], c32[i] = math32.Sinh(float32(x[i])), math32.Cosh(float32(x[i]))
	}
}
