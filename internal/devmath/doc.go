// Package devmath is nugo's device math library: Go's math functions written
// in the kernel subset of Go so that nugo's compiler can compile them to PTX
// (PTX has no libm). The CPU runs the same code in tests and from host code.
//
// # Functions
//
// float64, with the names and signatures of Go's math: Exp, Exp2, Expm1,
// Log, Log2, Log10, Log1p, Pow, Sin, Cos, Tan, Sincos, Asin, Acos, Atan,
// Atan2, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Hypot, Cbrt, Mod, Remainder,
// Erf, Erfc, Gamma, Lgamma, Round, and the bit-level Frexp, Ldexp, Modf, Nextafter, Logb,
// Ilogb, Pow10. float32: the same set, less Logb, Ilogb and Pow10, with the
// suffix 32 (Exp32, Sincos32, Frexp32, Nextafter32, ...), see f32.go and
// f32b.go. Special values (NaN, ±Inf, ±0, domain errors, the overflow and
// underflow thresholds of Go's generic code, subnormals) are Go's, tested
// case by case against Go's math.
//
// # Methods
//
// Results are computed as double-double values (hi+lo, about 106 bits)
// through the few roundings that matter and rounded once: Cody-Waite
// reduction by ln2 with Taylor polynomials for exp; a 129-entry table of
// log(c_j) with an exact reduction m*c_j-1 for log; Cody-Waite with three
// parts of pi/2 below 2**20 and Payne-Hanek with 1280 bits of 2/pi above for
// trigonometry; atan(j/8) tables for the inverse functions; minimax-like
// (Chebyshev) fits of erfc(x)*exp(x*x) on twelve intervals for erf and
// erfc; for Gamma and Lgamma, lgamma in double-double from Stirling's series
// above 32, shifted up by the product x(x+1)... below, Taylor series in
// zeta(k) within 1/64 of 1 and 2, and the reflection formula (with an exact
// reduction for sin(pi x)) for x < 0, Gamma being exp of it; exact integer
// long division for Mod and Remainder. Tables and fits
// come from testdata/gentables.py (mpmath).
//
// # Accuracy
//
// Two columns. "exact": the largest error in ulp against the correctly
// rounded result. The bound is asserted by TestExact64 on the mpmath
// reference points of testdata/ref64.txt.gz (2000 points per function,
// hard cases included: arguments near multiples of pi/2 up to 1e22,
// subnormals, near 1 for the inverse functions); "max" is the largest
// error seen there, in larger runs of the same generator (20000 points per
// function: genref.py 20000 9; 100000 more for the functions correctly
// rounded on those: genref.py 100000 10 NAMES; see genref.py for the
// command that checks a run) and in the independent check of issue 21
// (1.16 million points through the public API against mpmath). 1 means a
// faithful result that is sometimes not the correctly rounded one; 0 that
// no misrounding has been seen, not that none exists. "vs Go": the largest
// distance in ulp from Go's math on amd64 over a sweep of 10**5 points per
// function (log-spaced magnitudes, both signs, uniform ranges, points near
// special values) — TestSweep1, TestSweep2; go test -v prints both.
//
//	function   exact        vs Go        sweep domain for "vs Go"
//	           bound (max)  max (bound)
//	Exp        1 (1)        2 (2)        [-744.7, 709.4]
//	Exp2       1 (1)        1 (2)        [-1075, 1075]
//	Expm1      1 (1)        1 (2)        |x| <= 710
//	Log        1 (1)        1 (2)        [2**-1022, MaxFloat64]
//	Log2       1 (1)        1 (2)        [2**-1022, MaxFloat64] without (1, 2)
//	Log10      1 (0)        2 (2)        [2**-1022, MaxFloat64]
//	Log1p      1 (1)        1 (2)        [-1, MaxFloat64]
//	Sin        1 (1)        1 (2)        |x| <= 1e5, not within 2**-10 of k*pi/2, k != 0
//	Cos        1 (1)        1 (2)        as Sin
//	Tan        1 (1)        2 (2)        1e-6 <= |x| <= 1e5, as Sin
//	Sincos     -            2 (2)        as Sin (same kernels as Sin and Cos)
//	Asin       1 (1)        2 (2)        |x| <= 0.9
//	Acos       1 (0)        2 (2)        |x| <= 0.7
//	Atan       1 (0)        1 (2)        all
//	Atan2      1 (1)        1 (2)        all, except y/x underflowing with x, y < 0
//	Sinh       1 (1)        2 (2)        |x| <= 709.4
//	Cosh       1 (1)        2 (2)        |x| <= 709.4
//	Tanh       1 (1)        1 (2)        |x| <= 40
//	Asinh      1 (0)        1 (2)        all
//	Acosh      1 (0)        2 (2)        all
//	Atanh      1 (0)        1 (2)        all
//	Hypot      1 (1)        2 (2)        all (1 seen by issue 21's check only)
//	Cbrt       1 (0)        1 (2)        all
//	Erf        1 (1)        2 (2)        all
//	Erfc       1 (1)        3 (3)        all (Go's Erfc itself is off by up to 2.4 ulp)
//	Gamma      1 (1)        102 (128)    [-170, 171] (Go's Gamma: up to 102 ulp for large x)
//	Lgamma     3 (1)        328 (400)    [-170, 171], not near its zeros for x < 0 (Go's: 328 ulp at 1.19)
//	Pow        1 (1)        6 (8)        x in [1e-3, 1e3], |y| <= 10 (Go's Pow: several ulp)
//	Mod        -            0 (0)        all (exact)
//	Remainder  -            0 (0)        all (exact)
//	Round      -            0 (0)        all (exact)
//
// float32 functions, against Go's float64 function rounded to float32, on
// 10**5-point sweeps per function over the whole float32 domain (including
// huge trigonometric arguments and subnormals) — TestSweep32, TestSweep32b —,
// on every 1024th float32 bit pattern (TestStride32) and on a table of edge
// values (TestSpecialValues32):
//
//	function                                        max ulp
//	Exp32 Exp232 Expm132 Log32 Log232 Log1032       1
//	Log1p32 Sin32 Cos32 Sincos32 Sinh32 Cosh32      1
//	Tanh32 Atan32 Atan232 Erfc32                    1
//	Tan32 Asin32 Acos32 Asinh32 Acosh32 Atanh32     1 (0 on the sweeps)
//	Cbrt32 Erf32 Pow32 Hypot32                      1 (0 on the sweeps)
//	Mod32 Remainder32 Round32 Frexp32 Ldexp32 Modf32 0
//	Gamma32 Lgamma32                                1 (0 on every 4096th pattern and the sweeps)
//
// Exp32, Exp232, Expm132, Log32, Log232, Log1032, Log1p32, Sin32, Cos32,
// Sincos32, Cosh32, Tanh32, Atan32 and Atan232 compute in float32; the trigonometric ones
// reduce the argument in float64 (Payne-Hanek above 2**28). The others
// compute in float64 inside with short kernels (expS, logS, atanS, and
// shorter erfc fits for Erf32 and Erfc32) or call the exact float64
// functions (Mod32, Remainder32, Gamma32, Lgamma32).
//
// # Where Go's math is not the reference
//
// Gamma and Lgamma are checked against mpmath on testdata/refgamma.txt.gz
// (2500 points each, from testdata/gengamma.py: poles, near 1 and 2, near
// the zeros of lgamma for x < 0, subnormal and huge arguments) —
// TestGammaExact. Near the six zeros of lgamma in (-5, -2) (x0 = -2.4570,
// -2.7477, -3.1436, -3.9553, -4.0394, -4.9915), where the reflection
// formula cancels, Lgamma sums the Taylor series of lgamma at x0 (x0 as
// two doubles, coefficients from mpmath: testdata/genzeros.py, lgzeros.go),
// so its error stays relative, within 3 ulp (1 measured), up to the zeros
// themselves: TestWindowsExact, on 500 points within 0.0065 of each zero
// and near it (testdata/refwindows.txt.gz). Within 2**-10 of a zero of
// lgamma below -5 its error is an absolute one, below 2**-56.
//
// Sinh and Cosh overflow where the exact value does, above
// asinh(MaxFloat64) = 710.4758600739439 (Sinh(710) = 1.1169973830808555e+308),
// as CUDA's libdevice and Numba do. Go's math.Sinh and math.Cosh overflow
// from ln(MaxFloat64) = 709.782712893384 (e**|x| overflows first), so
// between the two the cpu backend, which runs Go's math, returns ±Inf and
// the compiled backends the finite value (TestWindowsExact,
// TestOverflowWindow; difftest's TestHyperbolicOverflowWindow).
//
// Outside the sweep domains above Go's math (amd64) is itself inaccurate,
// and devmath keeps the exact value (measured against mpmath):
//
//   - Exp on amd64 (assembly) returns +Inf from x > 709.43 and 0 below
//     -744.8, before its documented thresholds 709.78 and -745.13; devmath
//     follows the documented thresholds. Go's Sinh and Cosh call Exp and
//     so overflow from 709.43 on amd64.
//   - Log and Log10 on amd64 are wrong for subnormal arguments (by up to
//     0.4 absolute); Log2 loses most digits for x in (1, 2).
//   - Sin, Cos and Tan lose relative accuracy near the zeros of the result
//     (Sin(Pi) is 7 ulp off, multiples of pi/2 near 1e5 thousands of ulp),
//     for |x| above about 1e6, and Tan(x) returns x for tiny x.
//   - Asin and Acos lose accuracy towards ±1 (Acos up to 2.5e7 ulp).
//   - Pow is off by several ulp on ordinary arguments and by hundreds for
//     large |y*log(x)|; Pow(2**28, 1.5) is 5 ulp from the exact 2**42.
//   - Atan2(y, x) with y < 0, x < 0 and y/x underflowing to 0 returns +Pi in
//     Go; devmath returns -Pi.
//
// # Kernel subset
//
// All files but embed.go use only numeric scalars, bool, fixed-size arrays,
// package constants, never-written package array variables (the compiler
// puts them in constant memory), calls to this package's functions without
// recursion, and the math/math/bits functions the compiler lowers to PTX.
// TestKernelSubset enforces this. Source returns those files so that the
// compiler can compile the library in a binary without a source tree.
package devmath
