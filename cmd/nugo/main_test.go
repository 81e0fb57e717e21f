package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPrimesCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.bin")
	if err := runPrimes([]string{"-n", "5000", "-backend", "cpu", "-out", out}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() != 4999*8 {
		t.Fatalf("results file has %d bytes, want %d", st.Size(), 4999*8)
	}
}

func TestPrimesCommandErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "1"},
		{"-backend", "nonsense"},
		{"-bogus"},
		{"extra"},
		{"-n", "10", "-out", filepath.Join(t.TempDir(), "missing", "dir", "f")},
	} {
		if err := runPrimes(args); err == nil {
			t.Errorf("nugo primes %q succeeded", args)
		}
	}
}

func TestInfoCommand(t *testing.T) {
	if err := runInfo(nil); err != nil {
		t.Fatal(err)
	}
	if err := runInfo([]string{"-x"}); err == nil {
		t.Fatal("unknown flag accepted")
	}
}
