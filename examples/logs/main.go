// Logs fills a 2-D array with log10(i+j+1): math in a kernel is Go's math
// package.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

func logs(t cuda.Thread, a cuda.Array2[float64]) {
	i, j := t.Grid2()
	if rows, cols := a.Shape(); i < rows && j < cols {
		a.Set(i, j, math.Log10(float64(i+j+1)))
	}
}

func run(rows, cols int) (cuda.Array2[float64], error) {
	a := cuda.NewArray2[float64](rows, cols)
	block := cuda.Dim2(16, 16)
	grid := cuda.Dim2((rows+15)/16, (cols+15)/16)
	return a, cuda.Jit(logs).Launch(grid, block, a)
}

func main() {
	a, err := run(2000, 2000)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("a[0,0] = %g, a[1999,1999] = %g\n", a.At(0, 0), a.At(1999, 1999))
}
