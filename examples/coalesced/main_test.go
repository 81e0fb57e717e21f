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
		if ordered[i] != want || shuffled[i] != want {
			t.Fatalf("element %d: in order %v, permuted %v, want %v", i, ordered[i], shuffled[i], want)
		}
	}
}
