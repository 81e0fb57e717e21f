package main

import "testing"

func TestVectorAdd(t *testing.T) {
	a, b, c, err := run(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c {
		if c[i] != a[i]+b[i] {
			t.Fatalf("c[%d] = %v, want %v", i, c[i], a[i]+b[i])
		}
	}
}
