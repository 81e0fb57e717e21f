package main

import (
	"math"
	"testing"
)

func TestCoalescedAndPermutedAgree(t *testing.T) {
	ordered, shuffled, _, err := run(10_000)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ordered {
		want := math.Log10(float64(i + 1))
		// Within the device math library's bound of Go's math.
		if !withinULP(ordered[i], want, 2) || !withinULP(shuffled[i], want, 2) {
			t.Fatalf("element %d: in order %v, permuted %v, want %v", i, ordered[i], shuffled[i], want)
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
