// Package recur holds kernels that reach recursive functions, for
// loopgen's TestGenerateRecursion: nugo gen writes depth-counting copies
// of them.
package recur

import (
	m "math"

	"github.com/nugo-dev/nugo/cuda"
)

// Fact writes n! for each n, by a recursion n calls deep.
func Fact(t cuda.Thread, ns []int64, out []float64) {
	if i := t.Grid1(); i < len(ns) {
		out[i] = m.Sqrt(fact(ns[i]) * fact(ns[i]))
	}
}

func fact(n int64) float64 {
	if n <= 1 {
		return 1
	}
	return float64(n) * fact(n-1)
}

// Even calls a mutual recursion through a helper that is not recursive.
func Even(t cuda.Thread, ns []int64, out []bool) {
	if i := t.Grid1(); i < len(ns) {
		out[i] = helper(ns[i])
	}
}

func helper(n int64) bool { return isEven(n) }

func isEven(n int64) bool {
	if n == 0 {
		return true
	}
	return isOdd(n - 1)
}

func isOdd(n int64) bool {
	if n == 0 {
		return false
	}
	return isEven(n - 1)
}

// Plain calls no recursive function, and a local func value named like
// one: it gets a plain row loop.
func Plain(t cuda.Thread, out []int64) {
	fact := func(n int64) int64 { return n }
	if i := t.Grid1(); i < len(out) {
		out[i] = fact(int64(i))
	}
}
