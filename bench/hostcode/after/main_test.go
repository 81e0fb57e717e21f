package main

import "testing"

func TestRun(t *testing.T) {
	if got, want := run(), "2 23 65536 true 18 [0.5 1 2]"; got != want {
		t.Errorf("run() = %q, want %q", got, want)
	}
}
