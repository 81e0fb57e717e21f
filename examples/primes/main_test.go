package main

import "testing"

func TestPrimeFactorSums(t *testing.T) {
	out, sum, err := run(100_000)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]int64{2: 2, 60: 12, 91: 20, 101: 101, 100_000: 35} {
		if got := out[n-2]; got != want {
			t.Errorf("sum for %d = %d, want %d", n, got, want)
		}
	}
	// The reference checksum of the tutorial for N = 10^5.
	if sum != 795571828 {
		t.Fatalf("checksum %d, want 795571828", sum)
	}
}
