package math32

import "math"

// The functions of this file are exact (or correctly rounded, for Sqrt);
// in kernels the compiler maps them to single PTX instructions.

// Float32bits returns the IEEE 754 binary representation of f.
func Float32bits(f float32) uint32 { return math.Float32bits(f) }

// Float32frombits returns the float32 with IEEE 754 binary representation b.
func Float32frombits(b uint32) float32 { return math.Float32frombits(b) }

const signBit = 1 << 31

// Abs returns the absolute value of x. Abs(±Inf) = +Inf, Abs(NaN) = NaN.
func Abs(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ signBit) }

// Copysign returns a value with the magnitude of f and the sign of sign.
func Copysign(f, sign float32) float32 {
	return math.Float32frombits(math.Float32bits(f)&^signBit | math.Float32bits(sign)&signBit)
}

// Signbit reports whether x is negative or negative zero.
func Signbit(x float32) bool { return math.Float32bits(x)&signBit != 0 }

// Inf returns positive infinity if sign >= 0, negative infinity if sign < 0.
func Inf(sign int) float32 {
	if sign >= 0 {
		return math.Float32frombits(0x7f800000)
	}
	return math.Float32frombits(0xff800000)
}

// NaN returns an IEEE 754 “not-a-number” value (the quiet NaN 0x7fc00000,
// which is what kernels produce too).
func NaN() float32 { return math.Float32frombits(0x7fc00000) }

// IsNaN reports whether f is an IEEE 754 “not-a-number” value.
func IsNaN(f float32) (is bool) { return f != f }

// IsInf reports whether f is an infinity, according to sign: sign > 0
// tests for +Inf, sign < 0 for -Inf, sign == 0 for either.
func IsInf(f float32, sign int) bool {
	return sign >= 0 && f > MaxFloat32 || sign <= 0 && f < -MaxFloat32
}

// Sqrt returns the square root of x, correctly rounded. Sqrt(+Inf) = +Inf,
// Sqrt(±0) = ±0, Sqrt(x < 0) = NaN, Sqrt(NaN) = NaN.
func Sqrt(x float32) float32 {
	// The float64 root of a float32 rounds to the correctly rounded float32.
	return float32(math.Sqrt(float64(x)))
}

// Floor returns the greatest integer value less than or equal to x.
// Floor(±0) = ±0, Floor(±Inf) = ±Inf, Floor(NaN) = NaN.
func Floor(x float32) float32 { return float32(math.Floor(float64(x))) }

// Ceil returns the least integer value greater than or equal to x.
// Ceil(±0) = ±0, Ceil(±Inf) = ±Inf, Ceil(NaN) = NaN.
func Ceil(x float32) float32 { return float32(math.Ceil(float64(x))) }

// Trunc returns the integer value of x (rounded toward zero).
// Trunc(±0) = ±0, Trunc(±Inf) = ±Inf, Trunc(NaN) = NaN.
func Trunc(x float32) float32 { return float32(math.Trunc(float64(x))) }

// RoundToEven returns the nearest integer, rounding ties to even.
// RoundToEven(±0) = ±0, RoundToEven(±Inf) = ±Inf, RoundToEven(NaN) = NaN.
func RoundToEven(x float32) float32 { return float32(math.RoundToEven(float64(x))) }

// Min returns the smaller of x or y, with Go's math.Min rules in order:
// Min(x, -Inf) = Min(-Inf, x) = -Inf; Min(x, NaN) = Min(NaN, x) = NaN;
// Min(-0, ±0) = Min(±0, -0) = -0.
func Min(x, y float32) float32 {
	switch {
	case IsInf(x, -1) || IsInf(y, -1):
		return Inf(-1)
	case x != x || y != y:
		return NaN()
	case x == 0 && x == y:
		if Signbit(x) {
			return x
		}
		return y
	case x < y:
		return x
	}
	return y
}

// Max returns the larger of x or y, with Go's math.Max rules in order:
// Max(x, +Inf) = Max(+Inf, x) = +Inf; Max(x, NaN) = Max(NaN, x) = NaN;
// Max(+0, ±0) = Max(±0, +0) = +0.
func Max(x, y float32) float32 {
	switch {
	case IsInf(x, 1) || IsInf(y, 1):
		return Inf(1)
	case x != x || y != y:
		return NaN()
	case x == 0 && x == y:
		if Signbit(x) {
			return y
		}
		return x
	case x > y:
		return x
	}
	return y
}

// Dim returns the maximum of x-y or 0. Dim(+Inf, +Inf) = NaN,
// Dim(-Inf, -Inf) = NaN, Dim(x, NaN) = Dim(NaN, x) = NaN.
func Dim(x, y float32) float32 {
	v := x - y
	if v <= 0 {
		return 0
	}
	return v
}

// FMA returns x * y + z, computed with only one rounding (a float32 fused
// multiply-add, PTX fma.rn.f32).
func FMA(x, y, z float32) float32 {
	// The product is exact in float64; the sum is rounded to odd in float64
	// (correct rounding of that to float32 then equals one rounding).
	p := float64(x) * float64(y)
	zd := float64(z)
	s := p + zd
	if s != s || s == 0 || math.IsInf(s, 0) {
		return float32(s)
	}
	bb := s - p
	e := (p - (s - bb)) + (zd - bb)
	b := math.Float64bits(s)
	if e != 0 && b&1 == 0 {
		if (e > 0) == (s > 0) {
			b++
		} else {
			b--
		}
		s = math.Float64frombits(b)
	}
	return float32(s)
}
