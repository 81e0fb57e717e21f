package devmath

import "math"

// isOddInt reports whether x is an odd integer.
func isOddInt(x float64) bool {
	if math.Abs(x) >= 1<<53 {
		return false // all such floats are even integers
	}
	t := math.Trunc(x)
	if t != x {
		return false
	}
	return int64(t)&1 == 1
}

// powSpecial returns Pow(x, y) and true where a special case applies.
func powSpecial(x, y float64) (float64, bool) {
	switch {
	case y == 0 || x == 1:
		return 1, true
	case y == 1:
		return x, true
	case x != x || y != y:
		return math.NaN(), true
	case x == 0:
		switch {
		case y < 0:
			if math.Signbit(x) && isOddInt(y) {
				return math.Inf(-1), true
			}
			return math.Inf(1), true
		case y > 0:
			if math.Signbit(x) && isOddInt(y) {
				return x, true
			}
			return 0, true
		}
	case math.IsInf(y, 0):
		switch {
		case x == -1:
			return 1, true
		case (math.Abs(x) < 1) == math.IsInf(y, 1):
			return 0, true
		default:
			return math.Inf(1), true
		}
	case math.IsInf(x, 0):
		if math.IsInf(x, -1) {
			// Pow(-Inf, y) = Pow(-0, -y)
			if y < 0 {
				if isOddInt(y) {
					return math.Copysign(0, -1), true
				}
				return 0, true
			}
			if isOddInt(y) {
				return math.Inf(-1), true
			}
			return math.Inf(1), true
		}
		if y < 0 {
			return 0, true
		}
		return math.Inf(1), true
	case y == 0.5:
		return math.Sqrt(x), true
	case y == -0.5:
		return 1 / math.Sqrt(x), true
	}
	return 0, false
}

// Pow returns x**y. Special cases as Go's math.Pow (in order):
//
//	Pow(x, ±0) = 1 for any x
//	Pow(1, y) = 1 for any y
//	Pow(x, 1) = x for any x
//	Pow(NaN, y) = NaN
//	Pow(x, NaN) = NaN
//	Pow(±0, y) = ±Inf for y an odd integer < 0
//	Pow(±0, -Inf) = +Inf
//	Pow(±0, +Inf) = +0
//	Pow(±0, y) = +Inf for finite y < 0 and not an odd integer
//	Pow(±0, y) = ±0 for y an odd integer > 0
//	Pow(±0, y) = +0 for finite y > 0 and not an odd integer
//	Pow(-1, ±Inf) = 1
//	Pow(x, +Inf) = +Inf for |x| > 1
//	Pow(x, -Inf) = +0 for |x| > 1
//	Pow(x, +Inf) = +0 for |x| < 1
//	Pow(x, -Inf) = +Inf for |x| < 1
//	Pow(+Inf, y) = +Inf for y > 0
//	Pow(+Inf, y) = +0 for y < 0
//	Pow(-Inf, y) = Pow(-0, -y)
//	Pow(x, y) = NaN for finite x < 0 and finite non-integer y
func Pow(x, y float64) float64 {
	if v, ok := powSpecial(x, y); ok {
		return v
	}
	sign := 1.0
	if x < 0 {
		if math.Trunc(y) != y {
			return math.NaN()
		}
		if isOddInt(y) {
			sign = -1
		}
		x = -x
	}
	lh, ll := logDD(x)
	zh := lh * y
	switch {
	case zh > 710:
		return sign * math.Inf(1)
	case zh < -746:
		return sign * 0
	}
	zl := math.FMA(lh, y, -zh) + ll*y
	h, l, k := expDD(zh, zl)
	return sign * scale(h+l, k)
}
