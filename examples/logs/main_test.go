package main

import (
	"math"
	"testing"
)

func TestLogs(t *testing.T) {
	a, err := run(100, 70)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		for j := range 70 {
			// Within the device math library's bound of Go's math.
			if got, want := a.At(i, j), math.Log10(float64(i+j+1)); !withinULP(got, want, 2) {
				t.Fatalf("a[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}

// withinULP reports whether got is at most n floats away from want.
func withinULP(got, want float64, n int) bool {
	lo, hi := want, want
	for range n {
		lo, hi = math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1))
	}
	return got >= lo && got <= hi
}
