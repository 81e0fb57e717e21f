package vectorize

import (
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// Gufuncs of cuda.Float16 elements (top-level, so that the compiled
// backends take them too).

// hsumGU is a core's sum in half precision, added left to right: (n)->().
func hsumGU(x []cuda.Float16, out *cuda.Float16) {
	s := cuda.Float16{}
	for _, v := range x {
		s = cuda.HAdd(s, v)
	}
	*out = s
}

// hscaleGU multiplies a core by a Float16 scalar: (n),()->(n).
func hscaleGU(x []cuda.Float16, k cuda.Float16, out []cuda.Float16) {
	for i, v := range x {
		out[i] = cuda.HMul(v, k)
	}
}

// htransposeGU transposes a Float16 matrix: (m,n)->(n,m).
func htransposeGU(a, out cuda.Array2[cuda.Float16]) {
	m, n := a.Shape()
	for i := range m {
		for j := range n {
			out.Set(j, i, a.At(i, j))
		}
	}
}

// hramp is n Float16 values: ordinary numbers, a subnormal, the largest
// finite value and a NaN among them.
func hramp(n int) []cuda.Float16 {
	h := make([]cuda.Float16, n)
	for i := range h {
		h[i] = cuda.F16(float32(i%11)*0.37 - 1.5)
	}
	h[min(3, n-1)] = cuda.Float16FromBits(0x0003)
	h[min(7, n-1)] = cuda.Float16FromBits(0x7bff)
	h[min(20, n-1)] = cuda.Float16FromBits(0x7e00)
	return h
}

// Float16 gufuncs give, bit for bit, what calling the function on each
// core gives: on the cpu and parallel targets and on the CUDA target
// compiled for ptxsim.
func TestGUHalf(t *testing.T) {
	onBackend(t, cuda.PTXSim)
	const rows, n = 6, 5
	x := hramp(rows * n)
	ks := []cuda.Float16{cuda.F16(2), cuda.F16(-0.5)}
	for _, tg := range []Target{CPU, Parallel, CUDA} {
		t.Run(string(tg), func(t *testing.T) {
			sum := mustGU(t, "(n)->()", hsumGU, tg)
			res, err := sum.Apply(Of(x, rows, n))
			if err != nil {
				t.Fatal(err)
			}
			for r, got := range res[0].(Array[cuda.Float16]).Data {
				var want cuda.Float16
				hsumGU(x[r*n:(r+1)*n], &want)
				if got.Bits() != want.Bits() {
					t.Fatalf("sum of row %d = %#04x, want %#04x", r, got.Bits(), want.Bits())
				}
			}
			scale := mustGU(t, "(n),()->(n)", hscaleGU, tg)
			out := Zeros[cuda.Float16](2, rows/2, n)
			if err := scale.Into(Of(x, 2, rows/2, n), Of(ks, 2, 1), out); err != nil {
				t.Fatal(err)
			}
			want := make([]cuda.Float16, n)
			for r := range rows {
				hscaleGU(x[r*n:(r+1)*n], ks[r/(rows/2)], want)
				for i, w := range want {
					if got := out.Data[r*n+i]; got.Bits() != w.Bits() {
						t.Fatalf("scaled row %d element %d = %#04x, want %#04x", r, i, got.Bits(), w.Bits())
					}
				}
			}
			res, err = mustGU(t, "(m,n)->(n,m)", htransposeGU, tg).Apply(Of(x[:24], 2, 3, 4))
			if err != nil {
				t.Fatal(err)
			}
			tr := res[0].(Array[cuda.Float16])
			if len(tr.Shape) != 3 || tr.Shape[1] != 4 || tr.Data[12+3*2+1].Bits() != x[12+1*4+2].Bits() {
				t.Fatalf("transpose: shape %v, data %v", tr.Shape, tr.Data)
			}
			if tg == CUDA && (sum.compiledK.k == nil || scale.compiledK.k == nil) {
				t.Error("the cuda target did not run the generated kernels")
			}
		})
	}
}
