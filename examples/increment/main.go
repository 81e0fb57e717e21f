// Increment adds 1 to each of 1000 elements, one thread per element, 256
// threads per block: the first kernel of the tutorial.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
)

func increment(t cuda.Thread, data []float64) {
	if i := t.Grid1(); i < len(data) { // the grid is larger than the data
		data[i]++
	}
}

func run() ([]float64, error) {
	data := make([]float64, 1000)
	for i := range data {
		data[i] = float64(i)
	}
	const threads = 256
	blocks := (len(data) + threads - 1) / threads
	err := cuda.Jit(increment).Launch(cuda.Dim1(blocks), cuda.Dim1(threads), data)
	return data, err
}

func main() {
	data, err := run()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("first:", data[:5], "last:", data[len(data)-1])
}
