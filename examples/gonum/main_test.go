package main

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The kernel's product equals gonum's Mul within rounding (gonum sums in
// blocks, the kernel along each row), for square and rectangular shapes
// and sizes that do not fill the last block.
func TestMultiplyMatchesGonum(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {16, 16, 16}, {37, 5, 21}, {100, 70, 90}} {
		a, b := inputs(s[0], s[1], s[2])
		c, err := multiply(a, b)
		if err != nil {
			t.Fatal(err)
		}
		var want mat.Dense
		want.Mul(a, b)
		if d := maxRelDiff(c, &want); d > 1e-12 {
			t.Errorf("%v: largest relative difference %g", s, d)
		}
	}
}
