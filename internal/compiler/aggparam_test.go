package compiler

import (
	"strings"
	"testing"
)

// Arrays and structs by value: one aligned byte-array parameter each, in
// Go's layout; leaves loaded from their Go offsets; none for a value of
// size zero; the parameter space's limit enforced.
func TestAggregateParamLayout(t *testing.T) {
	src := `package k

import "github.com/nugo-dev/nugo/cuda"

type padded struct {
	A int8
	B float64
	C [3]int16
	D complex64
	H cuda.Float16
	On bool
}

func k(t cuda.Thread, n int8, p [3]int64, s padded, e struct{}, z [0]int32, out []float64) {
	out[0] = float64(p[1]) + s.B + float64(s.C[2]) + float64(imag(s.D)) + float64(s.H.Float32()) + float64(n)
	if s.On {
		out[1] = float64(s.A)
	}
}
`
	m, err := compileSrc(t, src, "k", Target{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		".param .align 8 .b8 k_param_2[24]",
		".param .align 8 .b8 k_param_3[40]",
		"ld.param.s64 	%rd2, [k_param_2+8]",
		"[k_param_3+8]",  // B after A's padding
		"[k_param_3+20]", // C[2]
		"[k_param_3+28]", // imag(D)
		"ld.param.b16",   // H at 32
		"[k_param_3+32]",
		"ld.param.u8", // On at 34
		"[k_param_3+34]",
	} {
		if !strings.Contains(m.PTX, want) {
			t.Errorf("PTX lacks %q", want)
		}
	}
	for _, bad := range []string{"k_param_4", "k_param_5["} {
		if strings.Contains(m.PTX, bad) {
			t.Errorf("PTX declares %q, a parameter of size 0", bad)
		}
	}
	var kinds []string
	for _, p := range m.Params {
		kinds = append(kinds, p.Kind.String())
	}
	if got := strings.Join(kinds, " "); got != "scalar aggregate aggregate aggregate aggregate slice" {
		t.Errorf("parameter kinds %s", got)
	}
	p, s := m.Params[1].PTX[0], m.Params[2].PTX[0]
	if p.Offset != 8 || p.Size != 24 || p.Align != 8 || p.Role != "bytes" || s.Offset != 32 || s.Size != 40 || len(m.Params[3].PTX)+len(m.Params[4].PTX) != 0 || m.ParamBytes != 96 {
		t.Errorf("layout %+v %+v, %d bytes", p, s, m.ParamBytes)
	}
	assembleAll(t, "aggregate", m)
}

// A kernel whose parameters exceed the launch's parameter space is refused
// with the sizes and what to pass instead.
func TestAggregateParamTooLarge(t *testing.T) {
	src := `package k

import "github.com/nugo-dev/nugo/cuda"

func k(t cuda.Thread, big [600]float64, out []float64) {
	out[0] = big[3]
}
`
	_, err := compileSrc(t, src, "k", Target{})
	if err == nil || !strings.Contains(err.Error(), "parameters take 4824 bytes; at most 4096") || !strings.Contains(err.Error(), "slice") {
		t.Fatalf("got %v, want the parameter space refused", err)
	}
}

// Read-only tables of more than one dimension and of structs are emitted
// as initialised global data in Go's layout: padding zero, elements the
// literal leaves out zero, complex numbers as real then imaginary part.
func TestTableNDLayout(t *testing.T) {
	src := `package k

import "github.com/nugo-dev/nugo/cuda"

type rec struct {
	A int8
	B int16
	C complex64
	D bool
}

var recs = [2]rec{{A: 1, B: -2, C: 3 + 4i}, 1: {D: true}}

var grid = [2][3]uint16{{1, 2}, 1: {2: 0x102}}

var origin = rec{A: 5, D: true}

func k(t cuda.Thread, out []float64) {
	i := t.Grid1()
	out[i] = float64(recs[i%2].B) + float64(grid[i%2][i%3]) + float64(imag(recs[i%2].C))
	if recs[i%2].D {
		out[i]++
	}
	out[i] += float64(origin.A)
}
`
	m, err := compileSrc(t, src, "k", Target{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// A at 0, B at 2, C at 4 and 8, D at 12; 16 bytes each.
		".global .align 8 .b8 __nugo_tbl_recs[32] = {1,0,254,255,0,0,64,64,0,0,128,64,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0};",
		".global .align 8 .b8 __nugo_tbl_grid[12] = {1,0,2,0,0,0,0,0,0,0,2,1};",
		".global .align 8 .b8 __nugo_tbl_origin[16] = {5,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0};", // a struct table
	} {
		if !strings.Contains(m.PTX, want) {
			t.Errorf("PTX lacks %s", want)
		}
	}
	assembleAll(t, "tables", m)
}
