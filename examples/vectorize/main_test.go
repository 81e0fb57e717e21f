package main

import (
	"math"
	"slices"
	"testing"
)

func TestRun(t *testing.T) {
	r, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.sum32, []float32{11, 22, 33, 44}) {
		t.Errorf("sum32 = %v", r.sum32)
	}
	if !slices.Equal(r.sum64, []int64{101, 102, 103, 104}) {
		t.Errorf("sum64 = %v", r.sum64)
	}
	row := []float64{4, 12, 6}
	m := []float64{3, 5, 8, 6, 12, 15}
	for i, v := range r.hyp.Data {
		if want := math.Hypot(m[i], row[i%3]); math.Abs(v-want) > 1e-12 {
			t.Errorf("hyp[%d] = %v, want %v", i, v, want)
		}
	}
	if !slices.Equal(r.hyp.Shape, []int{2, 3}) {
		t.Errorf("hyp shape %v", r.hyp.Shape)
	}
	if r.total != 55 {
		t.Errorf("total = %d", r.total)
	}
	if !slices.Equal(r.table.Data, []int64{1, 2, 3, 11, 12, 13, 21, 22, 23}) || !slices.Equal(r.table.Shape, []int{3, 3}) {
		t.Errorf("outer = %v", r.table)
	}
	if !slices.Equal(r.scaled, []float64{0.5, 1, 1.5}) {
		t.Errorf("scaled = %v", r.scaled)
	}
	if !slices.Equal(r.colSums.Data, []float64{9, 17, 23}) {
		t.Errorf("column sums = %v", r.colSums.Data)
	}
	if !slices.Equal(r.onDevice, []float32{1.5, 2.5, 3.5}) {
		t.Errorf("device = %v", r.onDevice)
	}
}
