package main

import (
	"testing"
)

// TestWorkloadsRun runs every nugo workload once at a small size.
func TestWorkloadsRun(t *testing.T) {
	ws, err := workloads(1000, 10, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 10 {
		t.Fatalf("%d workloads, want 10", len(ws))
	}
	for _, w := range ws {
		if err := w.run(); err != nil {
			t.Errorf("%s: %v", w.name, err)
		}
	}
}
