package compiler

import (
	"strings"
	"testing"
)

const divZeroSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func byVar(t cuda.Thread, a []int64, b []int32, c []uint8, y int64, z int32, w uint8) {
	i := t.Grid1()
	a[i] /= y
	b[i] %= z
	c[i] /= w
}

func byConst(t cuda.Thread, a []int64, b []int32) {
	i := t.Grid1()
	a[i] /= 7
	b[i] %= -3
}

func provenNonZero(t cuda.Thread, a []int64) {
	for k := 1; k < 10; k++ {
		a[t.Grid1()] /= int64(k)
	}
}

// dominated: the remainder's check covers the quotient's in the loop body.
func dominated(t cuda.Thread, a []uint32, f uint32) {
	i := t.Grid1()
	n := a[i]
	for n%f == 0 {
		n /= f
	}
	a[i] = n
}
`

// TestDivideByZeroCheckedByDefault: an integer division by a divisor not
// known to be non-zero traps into the error record in release builds, one
// check per divisor along a path (issue 21, item 3).
func TestDivideByZeroCheckedByDefault(t *testing.T) {
	tests := []struct {
		kernel string
		checks int
	}{
		{"byVar", 3},
		{"byConst", 0},
		{"provenNonZero", 0},
		{"dominated", 1},
	}
	for _, tt := range tests {
		t.Run(tt.kernel, func(t *testing.T) {
			m, err := compileSrc(t, divZeroSrc, tt.kernel, Target{})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, s := range m.Sites {
				if s.Kind == "integer divide by zero" {
					n++
				}
			}
			if n != tt.checks {
				t.Errorf("%d division checks, want %d:\n%s", n, tt.checks, m.PTX)
			}
			if m.UsesErrorRecord != (tt.checks > 0) || strings.Contains(m.PTX, ErrorSymbol) != (tt.checks > 0) {
				t.Errorf("UsesErrorRecord %v with %d checks", m.UsesErrorRecord, tt.checks)
			}
			assembleAll(t, tt.kernel, m)
		})
	}
}
