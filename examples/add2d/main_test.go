package main

import "testing"

func TestAdd2D(t *testing.T) {
	a, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if r, c := a.Shape(); r != 30 || c != 30 {
		t.Fatalf("shape %d×%d", r, c)
	}
	for i, v := range a.Data() {
		if v != 1 {
			t.Fatalf("element %d = %v, want 1", i, v)
		}
	}
}
