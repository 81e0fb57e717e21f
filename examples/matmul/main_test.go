package main

import (
	"math"
	"testing"
)

// Both kernels equal the product computed on the host, term by term in the
// same order, for shapes that are and are not multiples of the tile size.
func TestMatmul(t *testing.T) {
	for _, s := range []struct{ n, k, m int }{{70, 50, 40}, {32, 16, 48}, {1, 1, 1}, {17, 33, 3}} {
		plain, fast, err := run(s.n, s.k, s.m)
		if err != nil {
			t.Fatal(err)
		}
		a, b := inputs(s.n, s.k, s.m)
		for i := range s.n {
			for j := range s.m {
				var want float32
				for p := range s.k {
					want += a.At(i, p) * b.At(p, j)
				}
				// Exact on amd64; arm64 Go may fuse a multiply-add.
				tol := 1e-5 * float64(s.k) * 15
				if got := plain.At(i, j); math.Abs(float64(got-want)) > tol {
					t.Fatalf("%v: matmul C[%d,%d] = %v, want %v", s, i, j, got, want)
				}
				if got := fast.At(i, j); math.Abs(float64(got-want)) > tol {
					t.Fatalf("%v: fastMatmul C[%d,%d] = %v, want %v", s, i, j, got, want)
				}
			}
		}
	}
}
