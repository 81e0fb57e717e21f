// Package math32 is float32 math for host code and nugo kernels: the
// float32 companions of Go's math package, with the same names, constants
// and special cases (NaN, ±Inf, ±0, domain errors, overflow and underflow),
// plus Fast variants that map to PTX's approximate instructions.
//
// # How kernels use it
//
// A kernel calls math32.F like any Go function. nugo's compiler lowers
// each call in one of two ways, and the rule is exact:
//
//   - Single instructions: Sqrt (sqrt.rn.f32), Floor, Ceil, Trunc,
//     RoundToEven (cvt.rmi/rpi/rzi/rni), Round, Abs, Copysign, Signbit,
//     Min, Max, Dim, FMA (fma.rn.f32), Inf, NaN, IsNaN, IsInf, Float32bits,
//     Float32frombits, and the Fast functions (see fast.go for the
//     instruction of each and its error bound).
//   - Every other function F compiles as a call of the device math
//     library's function devmath.F32 (package internal/devmath: Exp ->
//     Exp32, Exp2 -> Exp232, Log10 -> Log1032, Sincos -> Sincos32, ...).
//     On the host, math32.F calls that same function, so host, CPU backend
//     and GPU compute the same bits.
//
// TestNamingRule checks that every such F has its devmath.F32.
//
// # Accuracy
//
// The accurate functions are within the bound below of Go's float64
// function rounded to float32 (the reference), measured on 10**5-point
// sweeps per function over the whole domain (TestSweep in this package and
// TestSweep32 in devmath); 0 means every sweep result equalled the
// reference, 1 means some results are the neighbouring float32.
//
//	function                                   max ulp
//	Sqrt Floor Ceil Trunc Round RoundToEven    0 (exact / correctly rounded)
//	Abs Copysign Min Max Dim FMA Frexp Ldexp    0
//	Modf Mod Remainder                         0
//	Exp Exp2 Expm1 Log Log2 Log10 Log1p        1
//	Sin Cos Tan Sincos                         1
//	Asin Acos Atan Atan2                       1
//	Sinh Cosh Tanh Asinh Acosh Atanh           1
//	Pow Hypot Cbrt Erf Erfc                    1
//	Gamma Lgamma                               1 (0 measured)
//
// Exp, Exp2, Expm1, the logarithms, Sin, Cos, Sincos, Cosh, Tanh, Atan and
// Atan2 compute in float32 (GPUs are much faster in float32), with a
// float64 argument reduction for Sin, Cos and Sincos; the others work in
// float64 inside, where float32 alone would exceed the bound (Gamma and
// Lgamma are the float64 functions rounded once to float32).
package math32
