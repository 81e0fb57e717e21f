// Package lib is a library that kernels of package kern call.
package lib

import "github.com/nugo-dev/nugo/cuda"

// Scale is a constant.
const Scale = 3

// Table is a read-only table.
var Table = [3]int32{10, 20, 30}

// Counter is a variable kernels must not write.
var Counter int32

// Config is a variable that is not a table.
var Config = make([]int32, 4)

// Clamp limits x to [lo, hi].
func Clamp(x, lo, hi int32) int32 { return max(lo, min(x, hi)) }

// Sum adds up xs.
func Sum[T cuda.Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// Vec is a type with methods.
type Vec struct{ X, Y int32 }

// Dot is the dot product.
func (v Vec) Dot(o Vec) int32 { return v.X*o.X + v.Y*o.Y }

// Unused is a method no kernel calls.
func (v Vec) Unused() string { return "never type-checked for kernels" }

// Helper calls this package's helper.
func Helper(x int32) int32 { return helper(x) }

func helper(x int32) int32 {
	if x <= 0 {
		return 0
	}
	return x + helper(x-1)
}
