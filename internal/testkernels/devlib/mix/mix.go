// Package mix is the third package of the cross-package kernel tests:
// devlib calls it, and kernels reach it only through devlib (or through a
// function bound to a func parameter).
package mix

// Hash is a 64-bit finalizer (wrapping integer arithmetic).
func Hash(x int64) int64 {
	u := uint64(helper(x))
	u ^= u >> 33
	u *= 0xff51afd7ed558ccd
	u ^= u >> 33
	return int64(u)
}

// helper shares its name with devlib's (and is recursive, like it).
func helper(x int64) int64 {
	if x >= -255 && x <= 255 {
		return x ^ 0x5bd1e995
	}
	return helper(x>>8)*31 + x&0xff
}

// Twice doubles x; a function bound to a kernel's func parameter.
func Twice(x float64) float64 { return Double(x) }

// Double is called by Twice, so a bound function calls within its package.
func Double(x float64) float64 { return x + x }
