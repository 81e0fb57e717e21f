package main

import (
	"errors"
	"testing"
)

// TestRun multiplies with cuBLAS where there is a GPU and libcublas; the
// example is meant for a GPU node, so elsewhere it reports why it cannot
// run, which the test checks is the reason it gives.
func TestRun(t *testing.T) {
	diff, err := run(64, 32, 48)
	if errors.Is(err, errSkip) {
		t.Skipf("cuBLAS example: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff > 1e-3 {
		t.Errorf("cuBLAS and the kernel differ by %g", diff)
	}
}
