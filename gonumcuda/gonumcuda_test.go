package gonumcuda_test

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/gonumcuda"
)

func onBackends(t *testing.T, f func(t *testing.T)) {
	for _, b := range []cuda.Backend{cuda.CPU, cuda.PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			prev, err := cuda.CurrentBackend()
			if err != nil {
				prev = cuda.CPU
			}
			if err := cuda.SetBackend(b); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cuda.SetBackend(prev) })
			f(t)
		})
	}
}

func seq(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(i) + 0.5
	}
	return s
}

// A contiguous Dense is viewed, not copied; a strided one (a slice of a
// larger matrix) is packed, and its copy does not follow later changes.
func TestArray2SharesContiguousMemory(t *testing.T) {
	m := mat.NewDense(3, 4, seq(12))
	a, shared := gonumcuda.Array2(m)
	if !shared || a.At(2, 3) != 11.5 {
		t.Fatalf("contiguous: shared=%v, a[2][3]=%v", shared, a.At(2, 3))
	}
	m.Set(1, 2, -7)
	if a.At(1, 2) != -7 {
		t.Errorf("a view of a contiguous Dense does not see its change")
	}
	sub := m.Slice(1, 3, 1, 3).(*mat.Dense) // stride 4, 2 columns
	b, shared := gonumcuda.Array2(sub)
	if shared || b.At(0, 1) != -7 || b.At(1, 0) != 9.5 {
		t.Fatalf("strided: shared=%v, b=%v", shared, b.Data())
	}
	d, err := gonumcuda.Dense(b)
	if err != nil || !mat.Equal(d, sub) {
		t.Fatalf("Dense of the packed copy: %v, %v", d, err)
	}
	b.Set(0, 0, 100)
	if d.At(0, 0) != 100 {
		t.Error("Dense does not share the array's memory")
	}
	if _, err := gonumcuda.Dense(cuda.NewArray2[float64](0, 3)); err == nil {
		t.Error("Dense of an empty array: no error")
	}
}

// Matrices and vectors go to the device and back unchanged, contiguous or
// strided, and a kernel's result comes back into a strided Dense without
// touching the elements between its rows.
func TestDeviceRoundTrips(t *testing.T) {
	onBackends(t, func(t *testing.T) {
		big := mat.NewDense(4, 5, seq(20))
		for _, m := range []*mat.Dense{big, big.Slice(1, 4, 1, 4).(*mat.Dense)} {
			d, err := gonumcuda.ToDevice(m)
			if err != nil {
				t.Fatal(err)
			}
			r, c := m.Dims()
			if s := d.Shape(); len(s) != 2 || s[0] != r || s[1] != c {
				t.Errorf("device shape %v, want [%d %d]", s, r, c)
			}
			back, err := gonumcuda.FromDevice(d)
			if err != nil || !mat.Equal(back, m) {
				t.Errorf("FromDevice(ToDevice(m)) = %v, %v; want %v", mat.Formatted(back), err, mat.Formatted(m))
			}
			_ = d.Free()
		}
		dst := mat.NewDense(4, 5, nil)
		window := dst.Slice(1, 3, 1, 4).(*mat.Dense)
		d, err := cuda.ToDevice(seq(6))
		if err != nil {
			t.Fatal(err)
		}
		if err := gonumcuda.CopyToDense(window, d); err != nil {
			t.Fatal(err)
		}
		want := mat.NewDense(4, 5, []float64{0, 0, 0, 0, 0, 0, 0.5, 1.5, 2.5, 0, 0, 3.5, 4.5, 5.5, 0, 0, 0, 0, 0, 0})
		if !mat.Equal(dst, want) {
			t.Errorf("CopyToDense into a window:\n%v", mat.Formatted(dst))
		}
		if err := gonumcuda.CopyToDense(mat.NewDense(2, 2, nil), d); err == nil || !strings.Contains(err.Error(), "6 elements") {
			t.Errorf("CopyToDense of 6 elements into 2×2: %v", err)
		}

		col := big.ColView(2).(*mat.VecDense) // increment 5
		s, shared := gonumcuda.Slice(col)
		if shared || s[3] != 17.5 {
			t.Errorf("Slice of a column: %v, shared=%v", s, shared)
		}
		dv, err := gonumcuda.VecToDevice(col)
		if err != nil {
			t.Fatal(err)
		}
		out := mat.NewDense(4, 2, nil).ColView(1).(*mat.VecDense)
		if err := gonumcuda.CopyToVecDense(out, dv); err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(out, col) {
			t.Errorf("a column to the device and into another: %v, want %v", mat.Formatted(out.T()), mat.Formatted(col.T()))
		}
		if err := gonumcuda.CopyToVecDense(mat.NewVecDense(3, nil), dv); err == nil {
			t.Error("CopyToVecDense of 4 elements into 3: no error")
		}
	})
}
