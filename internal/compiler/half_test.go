package compiler

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

const halfSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

type pair struct {
	W cuda.Float16
	N int32
}

// dot accumulates in half through a loop phi and a device function.
func dot(t cuda.Thread, a, b []cuda.Float16, out []cuda.Float16) {
	acc := cuda.F16(0)
	for i := range a {
		acc = fmaH(a[i], b[i], acc, 1)
	}
	out[0] = acc
}

// fmaH is recursive, so that it is called, not inlined.
func fmaH(x, y, z cuda.Float16, depth int) cuda.Float16 {
	if depth > 0 {
		return fmaH(x, y, z, depth-1)
	}
	if cuda.HLt(x, cuda.F16(0)) {
		x = cuda.HNeg(x)
	}
	return cuda.HFma(x, y, z)
}

func fields(t cuda.Thread, ps []pair, out []cuda.Float16) {
	var buf [4]cuda.Float16
	for i := range buf {
		buf[i] = cuda.F16(float32(i))
	}
	if i := t.Grid1(); i < len(ps) {
		out[i] = cuda.HAdd(ps[i].W, buf[i%4])
	}
}

func consts(t cuda.Thread, out []cuda.Float16) {
	out[0] = cuda.F16(1.5)
	out[1] = cuda.F16FromFloat64(65520)
	out[2] = cuda.Float16FromBits(0x7C01)
}

func half(t cuda.Thread, out []cuda.Float16) {
	out[0] = cuda.HAdd(out[1], out[2])
}

func printHalf(t cuda.Thread, a []cuda.Float16) {
	cuda.Printf("%v\n", a[0])
}

func compare(t cuda.Thread, a []cuda.Float16, out []int32) {
	if a[0] != a[1] {
		out[0] = 1
	}
}
`

// Half-precision values are .b16 registers through phis, device calls,
// struct fields and local arrays; constants fold to bit immediates.
func TestHalfLowering(t *testing.T) {
	cases := []struct {
		kernel string
		want   []string
	}{
		{"dot", []string{".reg .b16", "fma.rn.f16", "setp.lt.f16", "xor.b16", ".param .b16", "st.param.b16", "ld.param.b16", "mov.b16"}},
		{"fields", []string{"ld.global.nc.b16", "st.local.b16", "ld.local.b16", "add.rn.f16"}},
		{"consts", []string{"15872", "31744", "31745"}}, // 0x3E00, 0x7C00, 0x7C01
	}
	for _, c := range cases {
		m, err := compileSrc(t, halfSrc, c.kernel, Target{})
		if err != nil {
			t.Fatalf("%s: %v", c.kernel, err)
		}
		for _, w := range c.want {
			if !strings.Contains(m.PTX, w) {
				t.Errorf("%s: PTX lacks %q\n%s", c.kernel, w, ptxastest.Numbered(m.PTX))
			}
		}
		assembleAll(t, c.kernel, m)
	}
}

// Targets older than sm_53 have no half arithmetic: the compiler says so
// at the call; == on Float16 is refused with the functions to use.
func TestHalfRefused(t *testing.T) {
	cases := []struct {
		kernel string
		target Target
		want   []string
	}{
		{"half", Target{SM: 52}, []string{"cuda.HAdd needs half-precision instructions", "compute capability 5.3", "sm_52"}},
		{"compare", Target{}, []string{"cannot compare cuda.Float16 values with !=", "cuda.HEq", "Bits()"}},
		{"printHalf", Target{}, []string{"cuda.Printf argument 1 is a cuda.Float16", "h.Float32()"}},
	}
	for _, c := range cases {
		_, err := compileSrc(t, halfSrc, c.kernel, c.target)
		var fe *frontend.Error
		if !errors.As(err, &fe) || len(fe.Diags) == 0 {
			t.Fatalf("%s: got %v, want a *frontend.Error", c.kernel, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", c.kernel, err, w)
			}
		}
		if fe.Diags[0].Pos.Line == 0 {
			t.Errorf("%s: error without a position: %v", c.kernel, err)
		}
	}
}
