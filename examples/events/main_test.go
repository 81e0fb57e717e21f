package main

import "testing"

func TestEventsTimeTheKernel(t *testing.T) {
	y, dt, err := run(1 << 16)
	if err != nil {
		t.Fatal(err)
	}
	if dt <= 0 {
		t.Errorf("elapsed time %v, want > 0", dt)
	}
	for i, v := range y {
		if want := 2*float32(i) + 1; v != want {
			t.Fatalf("y[%d] = %v, want %v", i, v, want)
		}
	}
}
