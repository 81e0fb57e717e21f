// Montecarlo estimates π by drawing random points in the unit square, one
// random number generator per thread: the "compute pi" example of Numba's
// random number documentation, with package cuda/random.
package main

//go:generate go tool nugo gen

import (
	"flag"
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/random"
)

// computePi draws iterations points (x, y) from thread i's generator and
// writes 4 × the fraction inside the quarter circle x² + y² ≤ 1.
func computePi(t cuda.Thread, states []uint64, iterations int, out []float32) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	inside := 0
	for k := 0; k < iterations; k++ {
		x := random.Uniform32(states, i)
		y := random.Uniform32(states, i)
		// The conversions round each square, so that no backend fuses
		// them into a multiply-add: every backend counts the same points.
		if float32(x*x)+float32(y*y) <= 1 {
			inside++
		}
	}
	out[i] = float32(4 * float64(inside) / float64(iterations))
}

// estimate runs computePi over blocks×threads generators seeded with seed
// and returns every thread's estimate and their mean.
func estimate(blocks, threads, iterations int, seed uint64) ([]float32, float64, error) {
	n := blocks * threads
	states, err := random.NewStates(n, seed)
	if err != nil {
		return nil, 0, err
	}
	defer states.Free()
	out := make([]float32, n)
	if err := cuda.Jit(computePi).Launch(cuda.Dim1(blocks), cuda.Dim1(threads), states, iterations, out); err != nil {
		return nil, 0, err
	}
	var sum float64
	for _, v := range out {
		sum += float64(v)
	}
	return out, sum / float64(n), nil
}

func main() {
	// Numba's example: 24 blocks of 64 threads, 10000 points each, seed 1.
	blocks := flag.Int("blocks", 24, "blocks in the grid")
	threads := flag.Int("threads", 64, "threads per block, one generator each")
	iterations := flag.Int("n", 10000, "points per thread")
	seed := flag.Uint64("seed", 1, "seed of the generators")
	flag.Parse()
	_, pi, err := estimate(*blocks, *threads, *iterations, *seed)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("pi: %.6f\n", pi)
}
