package main

import (
	"math"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// The kernel's half results are exactly what cuda.HFma computes on the
// host, and within half's rounding of the float32 ones.
func TestHalfAxpy(t *testing.T) {
	const n = 5000
	r, err := run(n)
	if err != nil {
		t.Fatal(err)
	}
	_, xh := inputs(n, 0.6180339887)
	_, yh := inputs(n, 0.4142135623)
	for i := range yh {
		if want := cuda.HFma(cuda.F16(1.5), xh[i], yh[i]); r.yh[i] != want {
			t.Fatalf("y[%d] = %v, want %v", i, r.yh[i], want)
		}
	}
	// inputs rounded to half (2^-11 relative each) and one rounding of the
	// result: a few units of 2^-11 of the range
	if r.maxErr > 4*math.Ldexp(1, -11) || r.maxErr == 0 {
		t.Errorf("largest difference from float32 %g", r.maxErr)
	}
}
