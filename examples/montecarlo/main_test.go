package main

import (
	"math"
	"testing"

	"github.com/nugo-dev/nugo/cuda/random"
)

// TestEstimate runs the kernel on the current backend (the CPU here,
// ptxsim in scripts/test.sh) and requires every thread's estimate to be
// what the same draws give on the host, and the total to be Numba's.
func TestEstimate(t *testing.T) {
	const blocks, threads, iterations, seed = 4, 32, 2000, 7
	out, pi, err := estimate(blocks, threads, iterations, seed)
	if err != nil {
		t.Fatal(err)
	}
	states, err := random.HostStates(blocks*threads, seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i := range out {
		inside := 0
		for range iterations {
			x, y := random.Uniform32(states, i), random.Uniform32(states, i)
			if float32(x*x)+float32(y*y) <= 1 {
				inside++
			}
		}
		total += inside
		if want := float32(4 * float64(inside) / iterations); out[i] != want {
			t.Errorf("thread %d: estimate %v, the host's draws give %v", i, out[i], want)
		}
	}
	// Numba's compute_pi example with the same sizes and seed counts
	// 200844 points inside (cuda/random draws Numba's numbers).
	if total != 200844 {
		t.Errorf("%d points inside the circle; Numba counts 200844", total)
	}
	if math.Abs(pi-math.Pi) > 0.01 {
		t.Errorf("pi estimate %v, more than 0.01 from π", pi)
	}
}
