// Guvectorize makes a generalized ufunc (Numba's @guvectorize) of the
// tutorial's moving average: the layout "(n),()->(n)" says that the
// function takes a row and a window width and writes a row; called on a
// 2-D array, it runs once per row: on all cores with target Parallel, as a
// kernel with one thread per row with target CUDA (on the GPU when there is
// one, else on the CPU backend).
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/vectorize"
)

// movingAverage averages the window of width elements centred on each
// element of x, truncated at the ends.
func movingAverage(x []float64, width int64, out []float64) {
	w := int(width)
	for i := range x {
		lo, hi := max(0, i-w/2), min(len(x)-1, i+w/2)
		var sum float64
		for j := lo; j <= hi; j++ {
			sum += x[j]
		}
		out[i] = sum / float64(hi-lo+1)
	}
}

func run() (row []float64, rows vectorize.Array[float64], err error) {
	mavg, err := vectorize.GU("(n),()->(n)", movingAverage, vectorize.Parallel)
	if err != nil {
		return nil, rows, err
	}
	// One row, the output given.
	row = make([]float64, 6)
	if err := mavg.Into([]float64{10, 20, 30, 40, 50, 60}, int64(3), row); err != nil {
		return nil, rows, err
	}
	// Two rows of 0..19 (Numba's arange(20).reshape(2, 10)), the output
	// allocated: the function runs once per row, here in a CUDA kernel.
	mavgCUDA, err := vectorize.GU("(n),()->(n)", movingAverage, vectorize.CUDA)
	if err != nil {
		return nil, rows, err
	}
	x := make([]float64, 20)
	for i := range x {
		x[i] = float64(i)
	}
	out, err := mavgCUDA.Apply(vectorize.Of(x, 2, 10), 3)
	if err != nil {
		return nil, rows, err
	}
	return row, out[0].(vectorize.Array[float64]), nil
}

func main() {
	row, rows, err := run()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(row)
	fmt.Println(rows.Data[:10])
	fmt.Println(rows.Data[10:])
}
