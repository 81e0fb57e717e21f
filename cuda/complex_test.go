package cuda_test

import (
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
)

// Complex slices, device arrays, Array2 and scalars launch on every
// backend with Go's layout; the results are Go's own arithmetic.
func TestComplexLaunch(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		const n = 100
		host := make([]complex64, n)
		for i := range host {
			host[i] = complex(float32(i), -float32(i)/3)
		}
		d, err := ToDevice(host)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Free()
		m := NewArray2[complex128](7, 9)
		for i := range 7 {
			for j := range 9 {
				m.Set(i, j, complex(float64(i), float64(j)))
			}
		}
		s := complex64(complex(0.5, 2))
		if err := Jit(testkernels.ScaleComplex).Launch(Dim1(2), Dim1(64), d, s, m); err != nil {
			t.Fatal(err)
		}
		if backend == "gpu-fake" {
			return // the recording fake runs no kernels
		}
		got, err := d.ToHost()
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range host {
			if want := x * s; got[i] != want {
				t.Errorf("a[%d] = %v, want %v", i, got[i], want)
			}
		}
		w := complex128(s)
		for i := range 7 {
			for j := range 9 {
				if got, want := m.At(i, j), complex(float64(i), float64(j))*w*w; got != want {
					t.Errorf("m[%d,%d] = %v, want %v", i, j, got, want)
				}
			}
		}
	})
}

// A complex parameter takes a complex value of either size or a float (the
// real part); complex128 narrowed to complex64 must not overflow; a
// complex argument for a real parameter is refused.
func TestComplexScalarArgs(t *testing.T) {
	onBackend(t, PTXSim)
	a := make([]complex64, 64)
	m := NewArray2[complex128](1, 1)
	k := Jit(testkernels.ScaleComplex)
	for _, c := range []struct {
		name string
		arg  any
		want []string
	}{
		{"complex128", complex(1, 2), nil},
		{"float64", 2.5, nil},
		{"float32", float32(2.5), nil},
		{"overflow", complex(1e300, 0), []string{"overflows complex64"}},
		{"int", 3, nil}, // converts exactly, as Numba coerces 3 to 3+0j
		{"inexact int", 1<<24 + 1, []string{"value 16777217 of type int is not exactly a complex64"}},
		{"bool", true, []string{"got bool", "complex64"}},
	} {
		err := k.Launch(Dim1(1), Dim1(64), a, c.arg, m)
		if c.want == nil {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		wantErr(t, c.name, err, c.want...)
	}
	err := Jit(testkernels.Scale).Launch(Dim1(1), Dim1(1), []float32{1}, complex(1, 0))
	wantErr(t, "complex for float64", err, "got complex128 for a float32 parameter", "real(x)")
}

// A kernel's func parameter may take and return complex values.
func TestComplexFuncParam(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		z := []complex128{1, 2i, complex(-3, 0.5), 0}
		want := make([]complex128, len(z))
		for i, x := range z {
			want[i] = testkernels.CSquarePlusI(x)
		}
		if err := Jit(testkernels.ApplyComplex).Launch(Dim1(1), Dim1(32), testkernels.CSquarePlusI, z); err != nil {
			t.Fatal(err)
		}
		if backend == "gpu-fake" {
			return
		}
		for i := range z {
			if z[i] != want[i] {
				t.Errorf("z[%d] = %v, want %v", i, z[i], want[i])
			}
		}
	})
}
