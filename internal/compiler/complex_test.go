package compiler

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

const complexSrc = `package k

import (
	"math/cmplx"

	"github.com/nugo-dev/nugo/cuda"
)

type sample struct {
	Z complex64
	N int32
	W complex128
}

func arith(t cuda.Thread, a, b []complex128, s complex128) {
	if i := t.Grid1(); i < len(a) {
		a[i] = (a[i]+b[i])*s - -b[i]
	}
}

func mul64(t cuda.Thread, a, b []complex64) {
	if i := t.Grid1(); i < len(a) {
		a[i] *= b[i]
	}
}

func quo(t cuda.Thread, a, b []complex64, c []complex128) {
	if i := t.Grid1(); i < len(a) {
		a[i] /= b[i]
		c[i] = c[i] / complex128(b[i])
	}
}

func parts(t cuda.Thread, a []complex128, re, im []float64, eq []int32) {
	if i := t.Grid1(); i < len(a) {
		re[i], im[i] = real(a[i]), imag(a[i])
		a[i] = complex(im[i], re[i]) + 2.5i
		if a[i] == 1+2i || a[i] != a[0] {
			eq[i] = 1
		}
	}
}

func fields(t cuda.Thread, s []sample, out []complex128) {
	var loc [3]complex64
	for k := range loc {
		loc[k] = complex(float32(k), 1)
	}
	if i := t.Grid1(); i < len(s) {
		out[i] = complex128(s[i].Z+loc[i%3]) + s[i].W
	}
}

func mandel(t cuda.Thread, c []complex128, n []int32) {
	if i := t.Grid1(); i < len(c) {
		z := complex128(0)
		k := int32(0)
		for ; k < 100 && real(z)*real(z)+imag(z)*imag(z) <= 4; k++ {
			z = z*z + c[i]
		}
		n[i] = k
	}
}

func funcs(t cuda.Thread, a []complex128) {
	if i := t.Grid1(); i < len(a) {
		a[i] = cmplx.Exp(a[i]) + cmplx.Conj(a[i]) + cmplx.Sqrt(a[i]) + complex(cmplx.Abs(a[i]), 0)
	}
}

func immFirst(t cuda.Thread, a []complex128, b []complex64) {
	a[0] = (2+1i)*a[0] - (1 - 1i) + (3i)/a[1]
	b[0] = (2+1i)*b[0] - (1 - 1i)
	if (1+1i) == a[0] || 2 != b[0] {
		a[1] = -(1i)
	}
}

func fast(t cuda.Thread, a []complex128) {
	a[0] *= a[1]
}

func printC(t cuda.Thread, a []complex128) {
	cuda.Printf("%v\n", a[0])
}

func tan(t cuda.Thread, a []complex128) {
	a[0] = cmplx.Tan(a[0]) + cmplx.Cot(a[1])
	a[2] = cmplx.Atan(a[2]) - cmplx.Atanh(a[3])
}
`

// Complex values are register pairs: parts stay in their precision for + and
// -, products are computed in float64 and rounded back for complex64
// (as Go's compiler does), division calls the device library, and
// everything stays .rn unless FastMath.
func TestComplexLowering(t *testing.T) {
	cases := []struct {
		kernel  string
		target  Target
		want    []string
		notWant []string
	}{
		{"arith", Target{}, []string{"add.rn.f64", "mul.rn.f64", "sub.rn.f64", "neg.f64", "ld.param.f64"}, []string{"fma"}},
		{"mul64", Target{}, []string{"cvt.f64.f32", "mul.rn.f64", "cvt.rn.f32.f64", "ld.global.f32", "st.global.f32"}, []string{"mul.rn.f32", "fma"}},
		{"quo", Target{}, []string{"call.uni", "Cdiv128", "cvt.rn.f32.f64"}, nil},
		{"parts", Target{}, []string{"setp.eq.f64", "setp.neu.f64", "and.pred", "or.pred", "0d4004000000000000"}, nil},
		{"fields", Target{}, []string{"st.local.f32", "ld.local.f32", "cvt.f64.f32"}, nil},
		{"mandel", Target{}, []string{"mul.rn.f64", "add.rn.f64"}, []string{"fma"}},
		{"funcs", Target{}, []string{"neg.f64", "sqrt.rn.f64"}, nil},
		{"immFirst", Target{}, []string{"0d4000000000000000"}, nil},
		{"tan", Target{}, nil, nil},
		{"fast", Target{FastMath: true}, []string{"mul.f64", "sub.f64"}, []string{"mul.rn.f64"}},
	}
	for _, c := range cases {
		m, err := compileSrc(t, complexSrc, c.kernel, c.target)
		if err != nil {
			t.Fatalf("%s: %v", c.kernel, err)
		}
		for _, w := range c.want {
			if !strings.Contains(m.PTX, w) {
				t.Errorf("%s: PTX lacks %q\n%s", c.kernel, w, ptxastest.Numbered(m.PTX))
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(m.PTX, w) {
				t.Errorf("%s: PTX has %q\n%s", c.kernel, w, ptxastest.Numbered(m.PTX))
			}
		}
		assembleAll(t, c.kernel, m)
	}
}

// A complex scalar parameter is two PTX parameters with the roles "real"
// and "imag"; slices of complex report their element.
func TestComplexParams(t *testing.T) {
	m, err := compileSrc(t, complexSrc, "arith", Target{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Params) != 3 {
		t.Fatalf("got %d params, want 3", len(m.Params))
	}
	if p := m.Params[0]; p.Elem != "complex128" || p.ElemSize != 16 {
		t.Errorf("slice param: elem %q size %d, want complex128 16", p.Elem, p.ElemSize)
	}
	s := m.Params[2]
	if len(s.PTX) != 2 || s.PTX[0].Role != "real" || s.PTX[1].Role != "imag" || s.PTX[1].Offset-s.PTX[0].Offset != 8 {
		t.Errorf("scalar param: %+v, want real and imag .f64 8 bytes apart", s.PTX)
	}
	if s.Elem != "complex128" || s.ElemSize != 16 {
		t.Errorf("scalar param: elem %q size %d, want complex128 16", s.Elem, s.ElemSize)
	}
}

// What stays refused says what to write instead, at the user's position.
func TestComplexRefused(t *testing.T) {
	cases := []struct {
		kernel string
		want   []string
	}{
		{"printC", []string{"cuda.Printf argument 1 is a complex128", "real(x) and imag(x)"}},
	}
	for _, c := range cases {
		_, err := compileSrc(t, complexSrc, c.kernel, Target{})
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
