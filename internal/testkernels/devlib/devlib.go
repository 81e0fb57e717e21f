// Package devlib is a library of device functions in its own package, as
// a user's module would keep one: kernels of other packages call its
// functions, generic functions and methods, and read its constants and
// read-only tables. Its host-only code uses fmt and os, which kernels must
// never see.
package devlib

import (
	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/testkernels/devlib/mix"
)

// Scale is a constant kernels multiply by.
const Scale = 3

// Weights is a read-only table kernels index.
var Weights = [4]float64{0.5, 0.25, -1.5, 2}

// Clamp limits x to [lo, hi].
func Clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// Sum adds up xs.
func Sum[T cuda.Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// Real is a named number type of this package, a type argument of
// kernels of other packages.
type Real float64

// Vec2 is a 2-vector of float32 with methods kernels call.
type Vec2 struct{ X, Y float32 }

// Dot is the dot product.
func (v Vec2) Dot(o Vec2) float32 { return v.X*o.X + v.Y*o.Y }

// Scaled multiplies both components by k.
func (v Vec2) Scaled(k float32) Vec2 { return Vec2{v.X * k, v.Y * k} }

// Hash mixes x with mix.Hash after a step of this package's own helper.
func Hash(x int64) int64 { return mix.Hash(helper(x)) }

// helper has the same name as a function of package mix and of the
// kernels' package, so that PTX names must be told apart; it is recursive,
// so that the compiler calls it rather than inlining it.
func helper(x int64) int64 {
	if x < 10 {
		return x*Scale + 1
	}
	return helper(x/10) + x%10
}

// Weighted returns the weighted sum of the first len(Weights) values of xs.
func Weighted(xs []float64) float64 {
	s := 0.0
	for i, w := range Weights {
		if i < len(xs) {
			s += w * xs[i]
		}
	}
	return s
}

// Bucket maps x to one of 256 buckets through mix.Hash: a function bound
// to a kernel's func parameter that calls into a third package.
func Bucket(x float64) float64 { return float64(mix.Hash(int64(x)) & 0xff) }
