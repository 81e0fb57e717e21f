package cputime

import (
	"runtime"
	"testing"
)

// TestProcessAdvances: a busy loop's CPU time shows in Process (where the
// system tells CPU time at all).
func TestProcessAdvances(t *testing.T) {
	start := Process()
	if start < 0 {
		if runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" {
			t.Fatalf("Process() = %v on %s, which has getrusage", start, runtime.GOOS)
		}
		return
	}
	x := uint64(1)
	for Process() == start {
		for range 1 << 20 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if Process() < start {
		t.Fatalf("CPU time went back: %v then %v (%d)", start, Process(), x)
	}
}
