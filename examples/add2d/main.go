// Add2d adds 1 to every element of a 30×30 array with 16×16 blocks: a 2-D
// grid over a 2-D array.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
)

func increment2D(t cuda.Thread, a cuda.Array2[float32]) {
	x, y := t.Grid2()
	if rows, cols := a.Shape(); x < rows && y < cols {
		a.Set(x, y, a.At(x, y)+1)
	}
}

func run() (cuda.Array2[float32], error) {
	a := cuda.NewArray2[float32](30, 30)
	block := cuda.Dim2(16, 16)
	grid := cuda.Dim2((30+15)/16, (30+15)/16)
	err := cuda.Jit(increment2D).Launch(grid, block, a)
	return a, err
}

func main() {
	a, err := run()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("a[0,0] =", a.At(0, 0), "a[29,29] =", a.At(29, 29))
}
