// Package lib is a library of device functions that app's kernels call.
package lib

// Poly evaluates 3x² - 2x + 1.
func Poly(x float64) float64 {
	return (3*x-2)*x + 1
}

// Scale multiplies by a package-level factor.
func Scale(x float64) float64 { return x * factor }

// Pair is a value with a method kernels call.
type Pair struct{ A, B float64 }

// Sum adds the pair.
func (p Pair) Sum() float64 { return p.A + p.B }

// Norm is the pair's L1 norm.
func (p *Pair) Norm() float64 { return abs(p.A) + abs(p.B) }

func abs(x float64) float64 { return max(x, -x) }

var factor = 2.5
