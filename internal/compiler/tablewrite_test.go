package compiler

import (
	"strings"
	"testing"
)

const tableWriteSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

var table = [4]float32{1, 2, 3, 4}

func scale(xs []float32, f float32) {
	for i := range xs {
		xs[i] *= f
	}
}

// scaleVia writes through its parameter only by calling scale.
func scaleVia(xs []float32) { scale(xs, 2) }

// countdown writes through its parameter in a recursion.
func countdown(xs []float32, n int) {
	if n > 0 {
		countdown(xs, n-1)
		xs[n%len(xs)]--
	}
}

func sum(xs []float32) float32 {
	var s float32
	for _, x := range xs {
		s += x
	}
	return s
}

func throughSlice(t cuda.Thread, out []float32) {
	s := table[:]
	s[1] = 9
	out[0] = table[1]
}

func throughCall(t cuda.Thread, out []float32) {
	scaleVia(table[1:3])
}

func throughRecursion(t cuda.Thread, out []float32) {
	countdown(table[:], 3)
}

func throughCopy(t cuda.Thread, out []float32) {
	copy(table[:], out)
}

func throughAtomic(t cuda.Thread, out []float32) {
	s := table[:]
	cuda.AtomicAdd(&s[t.Grid1()%4], 1)
}

func throughPhi(t cuda.Thread, out []float32) {
	s := out
	if t.Grid1() == 0 {
		s = table[:]
	}
	s[0] = 1
}

// readsOnly slices the tables, passes them to a function that reads, and
// writes copies and its parameter: all allowed.
func readsOnly(t cuda.Thread, out []float32) {
	s := table[1:]
	var local [4]float32
	copy(local[:], table[:])
	local[0] = 7
	scale(local[:], 2)
	copy(out[:2], table[2:])
	scale(out, 3)
	out[0] = s[0] + sum(table[:]) + local[0]
}
`

// TestTableWritesRefused: a write that reaches a package-level table
// through slices, calls, recursion, copy, atomics or phis is refused, at
// the write or at the kernel's call that passes the table on, while
// reading a table through slices and writing copies of it is not.
func TestTableWritesRefused(t *testing.T) {
	cases := []struct {
		kernel string
		pos    string // "" when the kernel compiles
		table  string
	}{
		{"throughSlice", "kernel.go:34:3", "table"},
		{"throughCall", "kernel.go:39:10", "table"},
		{"throughRecursion", "kernel.go:43:11", "table"},
		{"throughCopy", "kernel.go:47:6", "table"},
		{"throughAtomic", "kernel.go:52:16", "table"},
		{"throughPhi", "kernel.go:60:3", "table"},
		{"readsOnly", "", ""},
	}
	for _, c := range cases {
		t.Run(c.kernel, func(t *testing.T) {
			m, err := compileSrc(t, tableWriteSrc, c.kernel, Target{})
			if c.pos == "" {
				if err != nil {
					t.Fatal(err)
				}
				assembleAll(t, c.kernel, m)
				return
			}
			want := c.pos + ": cannot write to package-level variable " + c.table + " in a kernel, here through a slice or pointer made from it"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v; want %q", err, want)
			}
		})
	}
}
