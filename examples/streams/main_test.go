package main

import (
	"math"
	"testing"
)

func TestTwoStreams(t *testing.T) {
	data, err := run(100_001)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range data {
		if v != math.Sqrt(float64(i)) {
			t.Fatalf("data[%d] = %v, want %v", i, v, math.Sqrt(float64(i)))
		}
	}
}
