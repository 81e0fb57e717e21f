package random_test

import (
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/random"
)

// fill writes one uniform and one normal per thread, each thread from its
// own generator.
func fill(t cuda.Thread, states []uint64, u []float64, z []float32) {
	if i := t.Grid1(); i < len(u) {
		u[i] = random.Uniform64(states, i)
		z[i] = random.Normal32(states, i)
	}
}

// One generator per thread: the states of 4 generators seeded with 42 (as
// Numba's create_xoroshiro128p_states(4, seed=42)) stay on the device and
// advance with each launch.
func Example() {
	states, err := random.NewStates(4, 42)
	if err != nil {
		log.Fatal(err)
	}
	defer states.Free()
	u, z := make([]float64, 4), make([]float32, 4)
	if err := cuda.Jit(fill).Launch(cuda.Dim1(1), cuda.Dim1(4), states, u, z); err != nil {
		log.Fatal(err)
	}
	for i := range u {
		fmt.Printf("thread %d: uniform %.6f normal %+.4f\n", i, u[i], z[i])
	}
	// Numba prints the same numbers.

	// Output:
	// thread 0: uniform 0.483130 normal -1.0275
	// thread 1: uniform 0.039272 normal -0.7327
	// thread 2: uniform 0.941237 normal -0.8007
	// thread 3: uniform 0.983660 normal -0.4923
}

// The kernel-side functions work on a host slice too.
func ExampleUniform64() {
	states, err := random.HostStates(1, 42, 0)
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		fmt.Printf("%.6f\n", random.Uniform64(states, 0))
	}
	// Output:
	// 0.483130
	// 0.292464
	// 0.363725
}
