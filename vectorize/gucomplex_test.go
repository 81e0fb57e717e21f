package vectorize

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// Gufuncs of complex and bool elements (top-level, so that the compiled
// backends take them too).

// sumSquares is Σ z² over a core: (n)->().
func sumSquares(x []complex128, out *complex128) {
	*out = 0
	for _, z := range x {
		*out += z * z
	}
}

// norm64 is the Euclidean norm of a complex64 vector, summed in float64:
// (n)->().
func norm64(x []complex64, out *float32) {
	s := 0.0
	for _, z := range x {
		re, im := float64(real(z)), float64(imag(z))
		s += re*re + im*im
	}
	*out = float32(math.Sqrt(s))
}

// anyTrue is NumPy's any over a core: (n)->().
func anyTrue(x []bool, out *bool) {
	*out = false
	for _, b := range x {
		if b {
			*out = true
			return
		}
	}
}

// rotate multiplies a core by a complex scalar where a mask says so:
// (n),(),(n)->(n).
func rotate(x []complex128, w complex128, mask []bool, out []complex128) {
	for i, z := range x {
		if mask[i] {
			z *= w
		}
		out[i] = z
	}
}

// conjT is the conjugate transpose of a complex64 matrix: (m,n)->(n,m).
func conjT(a, out cuda.Array2[complex64]) {
	m, n := a.Shape()
	for i := range m {
		for j := range n {
			z := a.At(i, j)
			out.Set(j, i, complex(real(z), -imag(z)))
		}
	}
}

// negate flips every element of a bool matrix: (m,n)->(m,n).
func negate(a, out cuda.Array2[bool]) {
	for i, b := range a.Data() {
		out.Data()[i] = !b
	}
}

// cramp is a ramp of complex values, both parts varying.
func cramp(n int) []complex128 {
	z := make([]complex128, n)
	for i := range z {
		z[i] = complex(float64(i%7)-2.5, 0.25*float64(i%5))
	}
	return z
}

// bramp is a pattern of bools with all-false runs of length n at the start.
func bramp(rows, n int) []bool {
	b := make([]bool, rows*n)
	for i := n; i < len(b); i++ {
		b[i] = i%(n+3) == 2
	}
	return b
}

// Complex and bool gufuncs give on every target what calling the function
// on each core gives: sums of squares, norms, "any", a masked complex
// scale with a scalar (a complex one, and an int cast to complex as NumPy
// casts it), a complex and a bool 2-D core.
func TestGUComplexAndBool(t *testing.T) {
	const rows, n = 40, 6
	z := cramp(rows * n)
	z64 := make([]complex64, len(z))
	for i, v := range z {
		z64[i] = complex64(v)
	}
	mask := bramp(rows, n)
	for _, tg := range targets {
		t.Run(string(tg), func(t *testing.T) {
			res, err := mustGU(t, "(n)->()", sumSquares, tg).Apply(Of(z, rows, n))
			if err != nil {
				t.Fatal(err)
			}
			ss := res[0].(Array[complex128])
			for r := range rows {
				var want complex128
				sumSquares(z[r*n:(r+1)*n], &want)
				if ss.Data[r] != want {
					t.Fatalf("sum of squares row %d = %v, want %v", r, ss.Data[r], want)
				}
			}
			res, err = mustGU(t, "(n)->()", norm64, tg).Apply(Of(z64, rows, n))
			if err != nil {
				t.Fatal(err)
			}
			for r, got := range res[0].(Array[float32]).Data {
				var want float32
				norm64(z64[r*n:(r+1)*n], &want)
				if got != want || r == 1 && got == 0 {
					t.Fatalf("norm row %d = %v, want %v", r, got, want)
				}
			}
			res, err = mustGU(t, "(n)->()", anyTrue, tg).Apply(Of(mask, rows, n))
			if err != nil {
				t.Fatal(err)
			}
			some := res[0].(Array[bool]).Data
			if some[0] || !some[1] {
				t.Fatalf("any: row 0 (all false) %v, row 1 %v", some[0], some[1])
			}
			for r, got := range some {
				var want bool
				anyTrue(mask[r*n:(r+1)*n], &want)
				if got != want {
					t.Fatalf("any row %d = %v, want %v", r, got, want)
				}
			}
			rot := mustGU(t, "(n),(),(n)->(n)", rotate, tg)
			for _, w := range []any{complex(0.5, -2), 3} {
				out := Zeros[complex128](rows, n)
				if err := rot.Into(Of(z, rows, n), w, Of(mask, rows, n), out); err != nil {
					t.Fatalf("rotate by %v: %v", w, err)
				}
				wc, _ := w.(complex128)
				if w == 3 {
					wc = 3
				}
				want := make([]complex128, n)
				for r := range rows {
					rotate(z[r*n:(r+1)*n], wc, mask[r*n:(r+1)*n], want)
					if got := out.Data[r*n : (r+1)*n]; fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("rotate by %v, row %d = %v, want %v", w, r, got, want)
					}
				}
			}
			res, err = mustGU(t, "(m,n)->(n,m)", conjT, tg).Apply(Of(z64[:24], 2, 3, 4))
			if err != nil {
				t.Fatal(err)
			}
			ct := res[0].(Array[complex64])
			if fmt.Sprint(ct.Shape) != "[2 4 3]" || ct.Data[1] != complex(real(z64[4]), -imag(z64[4])) || ct.Data[12+3*2+1] != complex(real(z64[12+1*4+2]), -imag(z64[12+1*4+2])) {
				t.Fatalf("conjugate transpose: shape %v, data %v", ct.Shape, ct.Data)
			}
			res, err = mustGU(t, "(m,n)->(m,n)", negate, tg).Apply(Of(mask[:24], 2, 3, 4))
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range res[0].(Array[bool]).Data {
				if b == mask[i] {
					t.Fatalf("negate element %d = %v, input %v", i, b, mask[i])
				}
			}
		})
	}
}

// A scalar for a complex operand may be a complex value or a real number
// that converts without loss (NaN parts stay NaN); a bool operand takes
// only bools; a complex does not narrow to a real.
func TestGUComplexScalars(t *testing.T) {
	rot := mustGU(t, "(n),(),(n)->(n)", rotate)
	x, m := []complex128{1 + 1i, 2}, []bool{true, false}
	out := make([]complex128, 2)
	for _, c := range []struct {
		w    any
		want string // the error's text, or the result's
	}{
		{complex64(2i), "[(-2+2i) (2+0i)]"},
		{int8(-1), "[(-1-1i) (2+0i)]"},
		{float32(0.5), "[(0.5+0.5i) (2+0i)]"},
		{complex(math.NaN(), 0), "[(NaN+NaNi) (2+0i)]"},
		{uint64(1<<63 + 1), "does not convert to float64 without loss"},
		{true, "cannot convert bool to complex128"},
		{"1", "got string"},
	} {
		err := rot.Into(x, c.w, m, out)
		got := fmt.Sprint(out)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("rotate by %v (%T): %s, want %q", c.w, c.w, got, c.want)
		}
	}
	pick := mustGU(t, "(n),()->()", func(x []float64, b bool, out *float64) {
		if b {
			*out = x[0]
		}
	})
	if err := pick.Into([]float64{1}, 1, new(float64)); err == nil || !strings.Contains(err.Error(), "cannot convert int to bool") {
		t.Errorf("int for a bool (): %v", err)
	}
	if r, err := mustGU(t, "(n)->()", norm64).Apply([]complex64{3, 4i}); err != nil || fmt.Sprint(r) != "[{[5] []}]" {
		t.Errorf("norm of (3, 4i) = %v, %v", r, err)
	}
	if _, err := mustGU(t, "(n)->()", sumSquares).Apply([]complex64{1}); err == nil {
		t.Error("a []complex64 for a []complex128 core was accepted")
	}
}

// Complex and bool device arrays stay on the device: a complex128 sum of
// squares and a bool "any" of device arrays, into device arrays, on the
// CUDA target (ptxsim) give what the function gives on the host.
func TestGUComplexBoolDeviceOnPTXSim(t *testing.T) {
	onBackend(t, cuda.PTXSim)
	const rows, n = 5, 4
	z, mask := cramp(rows*n), bramp(rows, n)
	dz, err := cuda.NewDeviceArray[complex128](rows, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dz.Free()
	dm, err := cuda.NewDeviceArray[bool](rows, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dm.Free()
	ds, err := cuda.NewDeviceArray[complex128](rows)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Free()
	da, err := cuda.NewDeviceArray[bool](rows)
	if err != nil {
		t.Fatal(err)
	}
	defer da.Free()
	if err := errors.Join(dz.CopyFromHost(z), dm.CopyFromHost(mask)); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(mustGU(t, "(n)->()", sumSquares).Into(dz, ds), mustGU(t, "(n)->()", anyTrue).Into(dm, da)); err != nil {
		t.Fatal(err)
	}
	s, err1 := ds.ToHost()
	a, err2 := da.ToHost()
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	for r := range rows {
		var ws complex128
		var wa bool
		sumSquares(z[r*n:(r+1)*n], &ws)
		anyTrue(mask[r*n:(r+1)*n], &wa)
		if s[r] != ws || a[r] != wa {
			t.Errorf("row %d: sum of squares %v, any %v; want %v, %v", r, s[r], a[r], ws, wa)
		}
	}
}
