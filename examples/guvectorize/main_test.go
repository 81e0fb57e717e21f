package main

import (
	"slices"
	"testing"
)

func TestRun(t *testing.T) {
	row, rows, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{15, 20, 30, 40, 50, 55}; !slices.Equal(row, want) {
		t.Errorf("moving average = %v, want %v", row, want)
	}
	if !slices.Equal(rows.Shape, []int{2, 10}) {
		t.Fatalf("shape %v", rows.Shape)
	}
	want := make([]float64, 10)
	for r := range 2 {
		x := make([]float64, 10)
		for i := range x {
			x[i] = float64(r*10 + i)
		}
		movingAverage(x, 3, want)
		if got := rows.Data[r*10 : (r+1)*10]; !slices.Equal(got, want) {
			t.Errorf("row %d = %v, want %v", r, got, want)
		}
	}
}
