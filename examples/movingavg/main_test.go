package main

import (
	"slices"
	"testing"
)

func TestMovingAverage(t *testing.T) {
	out, err := run([]float64{10, 20, 30, 40, 50, 60}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{15, 20, 30, 40, 50, 55}; !slices.Equal(out, want) {
		t.Fatalf("moving average = %v, want %v", out, want)
	}
}
