package math32

import "github.com/nugo-dev/nugo/internal/devmath"

// The functions of this file forward to the device math library; in kernels
// the compiler calls the same code (math32.F is devmath.F32). Special cases
// are those of the float64 function of Go's math with the same name.

// Exp returns e**x. Special cases as math.Exp.
func Exp(x float32) float32 { return devmath.Exp32(x) }

// Exp2 returns 2**x. Special cases as math.Exp2.
func Exp2(x float32) float32 { return devmath.Exp232(x) }

// Expm1 returns e**x - 1, accurate also for x near 0. Special cases as math.Expm1.
func Expm1(x float32) float32 { return devmath.Expm132(x) }

// Log returns the natural logarithm of x. Special cases as math.Log.
func Log(x float32) float32 { return devmath.Log32(x) }

// Log2 returns the binary logarithm of x. Special cases as math.Log2.
func Log2(x float32) float32 { return devmath.Log232(x) }

// Log10 returns the decimal logarithm of x. Special cases as math.Log10.
func Log10(x float32) float32 { return devmath.Log1032(x) }

// Log1p returns the natural logarithm of 1 plus x, accurate also for x near 0. Special cases as math.Log1p.
func Log1p(x float32) float32 { return devmath.Log1p32(x) }

// Sin returns the sine of the radian argument x. Special cases as math.Sin.
func Sin(x float32) float32 { return devmath.Sin32(x) }

// Cos returns the cosine of the radian argument x. Special cases as math.Cos.
func Cos(x float32) float32 { return devmath.Cos32(x) }

// Tan returns the tangent of the radian argument x. Special cases as math.Tan.
func Tan(x float32) float32 { return devmath.Tan32(x) }

// Asin returns the arcsine, in radians, of x. Special cases as math.Asin.
func Asin(x float32) float32 { return devmath.Asin32(x) }

// Acos returns the arccosine, in radians, of x. Special cases as math.Acos.
func Acos(x float32) float32 { return devmath.Acos32(x) }

// Atan returns the arctangent, in radians, of x. Special cases as math.Atan.
func Atan(x float32) float32 { return devmath.Atan32(x) }

// Sinh returns the hyperbolic sine of x. Special cases as math.Sinh.
func Sinh(x float32) float32 { return devmath.Sinh32(x) }

// Cosh returns the hyperbolic cosine of x. Special cases as math.Cosh.
func Cosh(x float32) float32 { return devmath.Cosh32(x) }

// Tanh returns the hyperbolic tangent of x. Special cases as math.Tanh.
func Tanh(x float32) float32 { return devmath.Tanh32(x) }

// Asinh returns the inverse hyperbolic sine of x. Special cases as math.Asinh.
func Asinh(x float32) float32 { return devmath.Asinh32(x) }

// Acosh returns the inverse hyperbolic cosine of x. Special cases as math.Acosh.
func Acosh(x float32) float32 { return devmath.Acosh32(x) }

// Atanh returns the inverse hyperbolic tangent of x. Special cases as math.Atanh.
func Atanh(x float32) float32 { return devmath.Atanh32(x) }

// Cbrt returns the cube root of x. Special cases as math.Cbrt.
func Cbrt(x float32) float32 { return devmath.Cbrt32(x) }

// Erf returns the error function of x. Special cases as math.Erf.
func Erf(x float32) float32 { return devmath.Erf32(x) }

// Erfc returns the complementary error function of x. Special cases as math.Erfc.
func Erfc(x float32) float32 { return devmath.Erfc32(x) }

// Gamma returns the Gamma function of x: Go's float64 math.Gamma computed
// exactly (devmath) and rounded to float32, 0 ulp from float32 of
// math.Gamma on the sweeps. Special cases as math.Gamma.
func Gamma(x float32) float32 { return devmath.Gamma32(x) }

// Lgamma returns the natural logarithm and sign (-1 or +1) of Gamma(x),
// the float64 value rounded to float32. Special cases as math.Lgamma.
func Lgamma(x float32) (lgamma float32, sign int) { return devmath.Lgamma32(x) }

// Pow returns x**y. Special cases as math.Pow.
func Pow(x, y float32) float32 { return devmath.Pow32(x, y) }

// Atan2 returns the arc tangent of y/x, using the signs of the two to determine the quadrant. Special cases as math.Atan2.
func Atan2(y, x float32) float32 { return devmath.Atan232(y, x) }

// Hypot returns Sqrt(p*p + q*q) without undue overflow or underflow. Special cases as math.Hypot.
func Hypot(p, q float32) float32 { return devmath.Hypot32(p, q) }

// Mod returns the floating-point remainder of x/y (exact; the sign of x). Special cases as math.Mod.
func Mod(x, y float32) float32 { return devmath.Mod32(x, y) }

// Remainder returns the IEEE 754 remainder of x/y (exact). Special cases as math.Remainder.
func Remainder(x, y float32) float32 { return devmath.Remainder32(x, y) }

// Sincos returns Sin(x), Cos(x) with one argument reduction. Special cases
// as math.Sincos.
func Sincos(x float32) (sin, cos float32) { return devmath.Sincos32(x) }

// Round returns the nearest integer, rounding half away from zero. Special
// cases as math.Round.
func Round(x float32) float32 { return devmath.Round32(x) }

// Frexp breaks f into a normalized fraction and an integral power of two:
// f == frac × 2**exp with |frac| in [½, 1). Special cases as math.Frexp.
func Frexp(f float32) (frac float32, exp int) { return devmath.Frexp32(f) }

// Ldexp returns frac × 2**exp, rounded once. Special cases as math.Ldexp.
func Ldexp(frac float32, exp int) float32 { return devmath.Ldexp32(frac, exp) }

// Modf returns integer and fractional parts that sum to f, both with the
// sign of f. Special cases as math.Modf.
func Modf(f float32) (integer float32, fractional float32) { return devmath.Modf32(f) }
