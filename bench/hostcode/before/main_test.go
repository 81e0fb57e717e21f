package main

import "testing"

func TestRun(t *testing.T) {
	got, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if want := "2 23 65536 true 18 [0.5 1 2]"; got != want {
		t.Errorf("run() = %q, want %q", got, want)
	}
}
