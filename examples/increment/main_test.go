package main

import "testing"

func TestIncrement(t *testing.T) {
	data, err := run()
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range data {
		if v != float64(i)+1 {
			t.Fatalf("data[%d] = %v, want %v", i, v, float64(i)+1)
		}
	}
}
