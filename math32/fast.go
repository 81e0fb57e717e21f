package math32

// Fast variants. In a kernel the compiler maps each to PTX's approximate
// instruction (the sequence in brackets): much faster, much less accurate,
// with flush of subnormal arguments and results where the instruction
// does so. On the host, and on nugo's CPU backend, they compute the
// accurate value: the bounds below are what a GPU result may differ by
// from the exact one. The figures are NVIDIA's documented bounds for the
// CUDA intrinsics built on the same instructions (__expf, __logf, __log2f,
// __sinf, __cosf, __fdividef, rsqrtf and sqrtf without -prec-sqrt); they
// are not measured by nugo's tests.

// FastExp returns an approximation of e**x [mul.f32 by log2(e),
// ex2.approx.f32]. Maximum error: 2 + floor(|1.173·x|) ulp, so it grows
// with |x| (the rounding of x·log2(e) is amplified).
func FastExp(x float32) float32 { return Exp(x) }

// FastExp2 returns an approximation of 2**x [ex2.approx.f32]. Maximum
// error: 2 ulp over the full range.
func FastExp2(x float32) float32 { return Exp2(x) }

// FastLog returns an approximation of the natural logarithm of x
// [lg2.approx.f32, mul.f32 by ln(2)]. Maximum error: absolute 2**-21.41 for
// x in [0.5, 2], otherwise 3 ulp.
func FastLog(x float32) float32 { return Log(x) }

// FastLog2 returns an approximation of the binary logarithm of x
// [lg2.approx.f32]. Maximum error: absolute 2**-22 for x in [0.5, 2],
// otherwise 2 ulp.
func FastLog2(x float32) float32 { return Log2(x) }

// FastSin returns an approximation of the sine of x [sin.approx.f32].
// Maximum error: absolute 2**-21.41 for x in [-π, π]; larger outside, as
// the instruction has no accurate argument reduction (the absolute error
// grows roughly in proportion to |x|).
func FastSin(x float32) float32 { return Sin(x) }

// FastCos returns an approximation of the cosine of x [cos.approx.f32].
// Maximum error: absolute 2**-21.19 for x in [-π, π]; larger outside, as
// FastSin.
func FastCos(x float32) float32 { return Cos(x) }

// FastSqrt returns an approximation of the square root of x
// [sqrt.approx.f32]. Maximum error: 1 ulp on compute capability 5.2 and
// later (3 ulp before).
func FastSqrt(x float32) float32 { return Sqrt(x) }

// FastRsqrt returns an approximation of 1/Sqrt(x) [rsqrt.approx.f32].
// Maximum error: 2 ulp. On the host it is 1/Sqrt(x) rounded once per
// operation.
func FastRsqrt(x float32) float32 { return 1 / Sqrt(x) }

// FastDiv returns an approximation of x/y [div.approx.f32]. Maximum error:
// 2 ulp for |y| in [2**-126, 2**126]; for 2**126 < |y| < 2**128 the
// instruction returns 0 where x/y is finite and nonzero.
func FastDiv(x, y float32) float32 { return x / y }
