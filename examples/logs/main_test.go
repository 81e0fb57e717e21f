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
			if got, want := a.At(i, j), math.Log10(float64(i+j+1)); got != want {
				t.Fatalf("a[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}
