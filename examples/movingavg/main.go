// Movingavg computes a centred moving average as a kernel: each thread
// averages the window around its element, truncated at the ends.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
)

func movingAverage(t cuda.Thread, x []float64, width int, out []float64) {
	i := t.Grid1()
	if i >= len(x) {
		return
	}
	lo, hi := max(0, i-width/2), min(len(x)-1, i+width/2)
	var sum float64
	for j := lo; j <= hi; j++ {
		sum += x[j]
	}
	out[i] = sum / float64(hi-lo+1)
}

func run(x []float64, width int) ([]float64, error) {
	out := make([]float64, len(x))
	err := cuda.Jit(movingAverage).Launch(cuda.Dim1((len(x)+255)/256), cuda.Dim1(256), x, width, out)
	return out, err
}

func main() {
	out, err := run([]float64{10, 20, 30, 40, 50, 60}, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
}
