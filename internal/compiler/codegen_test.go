package compiler

import (
	"regexp"
	"testing"
)

// codegenSrc holds kernels whose PTX shape bench/gpu/CODEGEN.md compares
// with nvcc's.
const codegenSrc = `package k

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

var scale = [4]float64{1, 2, 4, 8}

var counts = [2]int32{3, 4}

var passed = [4]float64{1, 2, 4, 8}

// tableLoad reads a table in the kernel.
func tableLoad(t cuda.Thread, out []float64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = scale[i&3] + float64(counts[i&1])
	}
}

//go:noinline
func lookup(i int) float64 { return scale[i&3] }

// tableInCall reads a table in a device function.
func tableInCall(t cuda.Thread, out []float64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = lookup(i)
	}
}

// log10 is the coalesced benchmark's kernel: the device math library reads
// its log tables.
func log10(t cuda.Thread, out []float64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = math.Log10(float64(i + 1))
	}
}


func sum(s []float64) float64 { return s[0] + s[1] }

// movingAvg is the movingavg benchmark's kernel: its inner loop is unrolled.
func movingAvg(t cuda.Thread, x []float64, width int, out []float64) {
	i := t.Grid1()
	if i >= len(x) {
		return
	}
	lo, hi := max(0, i-width/2), min(len(x)-1, i+width/2)
	var s float64
	for j := lo; j <= hi; j++ {
		s += x[j]
	}
	out[i] = s / float64(hi-lo+1)
}

// smallLoop's j is kept in 32 bits (narrow.go).
func smallLoop(t cuda.Thread, x []float64, out []float64) {
	i := t.Grid1()
	if i < len(out) {
		var s float64
		n := i % 8
		for j := 0; j < n; j++ {
			s += x[j]
		}
		out[i] = s
	}
}

// divLoop divides in its body: not unrolled.
func divLoop(t cuda.Thread, x []int64, n int) {
	for j := 0; j < n; j++ {
		x[j] = x[j] / 7
	}
}

// unsignedLoop counts with a uint: not unrolled.
func unsignedLoop(t cuda.Thread, x []float64, n uint) {
	for j := uint(0); j < n; j++ {
		x[j] += 1
	}
}

// movingBound changes its bound in the loop: not unrolled.
func movingBound(t cuda.Thread, x []float64, n int) {
	for j := 0; j < n; j++ {
		x[j] += 1
		n--
	}
}

// sliceArg passes a slice of a table to a device function.
func sliceArg(t cuda.Thread, out []float64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = passed[i&3] + sum(passed[:])
	}
}
`

// TestTableLoadsReadOnly checks that loads from read-only tables (the
// device math library's and the user's) go through the read-only data
// cache (ld.global.nc, LDG.E.CONSTANT in SASS, as nvcc emits for const
// __restrict__ data), and that a table whose address escapes into a slice
// keeps coherent loads.
func TestTableLoadsReadOnly(t *testing.T) {
	cases := []shapeCase{
		{"tableLoad", Target{}, []string{`ld\.global\.nc\.f64\s+%fd\d+, \[%rd\d+\]`, `ld\.global\.nc\.s32`, `__nugo_tbl_scale`, `__nugo_tbl_counts`}, []string{`ld\.global\.f64`, `ld\.global\.s32`}},
		{"tableLoad", Target{NoReadOnlyCache: true}, []string{`ld\.global\.nc\.f64`}, []string{`ld\.global\.f64`}},
		{"tableInCall", Target{}, []string{`ld\.global\.nc\.f64`}, []string{`ld\.global\.f64`, `ld\.f64`}},
		{"log10", Target{SM: 90}, []string{`__nugo_tbl_logC`, `ld\.global\.nc\.f64`}, []string{`ld\.global\.f64`}},
		{"sliceArg", Target{}, []string{`ld\.(global\.)?f64`}, []string{`ld\.global\.nc`}},
	}
	runShapeCases(t, cases)
}

// TestLoopUnroll checks which loops unroll.go unrolls and the shape that
// lets ptxas unroll them 4 times more (bench/gpu/CODEGEN.md): one step of
// j by 4 per main-loop iteration, the test at its bottom, the original loop
// after it for the rest.
func TestLoopUnroll(t *testing.T) {
	main := `(?s)\$L_\w+_unroll\d+:.*ld\.global\.nc\.f64.*ld\.global\.nc\.f64.*ld\.global\.nc\.f64.*ld\.global\.nc\.f64.*setp\.le\.s64\s+%p\d+, %rd\d+, %rd\d+;\s+@%p\d+ bra\s+\$L_\w+_unroll\d+;`
	cases := []shapeCase{
		{"movingAvg", Target{SM: 90}, []string{main, `add\.s64\s+(%rd\d+), (%rd\d+), 4;`, `sub\.s64\s+%rd\d+, %rd\d+, 3;`, `add\.rn\.f64`}, []string{`add\.f64`, `fma`}},
		{"smallLoop", Target{}, []string{`_unroll\d+:`, `add\.s32\s+%r\d+, %r\d+, 4;`, `sub\.s32\s+%r\d+, %r\d+, 4;`, `setp\.le\.s32`}, []string{`setp\.(gt|le)\.s64`}},
		{"movingAvg", Target{Debug: true}, nil, []string{`_unroll\d+:`}},
		{"divLoop", Target{}, nil, []string{`_unroll\d+:`}},
		{"unsignedLoop", Target{}, nil, []string{`_unroll\d+:`}},
		{"movingBound", Target{}, nil, []string{`_unroll\d+:`}},
	}
	runShapeCases(t, cases)
}

// shapeCase is a kernel of codegenSrc compiled for target, whose PTX must
// match every want and no notWant regular expression.
type shapeCase struct {
	kernel  string
	target  Target
	want    []string
	notWant []string
}

// runShapeCases compiles and assembles each case and checks its PTX.
func runShapeCases(t *testing.T, cases []shapeCase) {
	for _, c := range cases {
		t.Run(c.kernel, func(t *testing.T) {
			m, err := compileSrc(t, codegenSrc, c.kernel, c.target)
			if err != nil {
				t.Fatalf("%s: %v", c.kernel, err)
			}
			assembleAll(t, c.kernel, m)
			for _, w := range c.want {
				if !regexp.MustCompile(w).MatchString(m.PTX) {
					t.Errorf("%s: PTX lacks %q:\n%s", c.kernel, w, m.PTX)
				}
			}
			for _, w := range c.notWant {
				if regexp.MustCompile(w).MatchString(m.PTX) {
					t.Errorf("%s: PTX has %q:\n%s", c.kernel, w, m.PTX)
				}
			}
		})
	}
}
