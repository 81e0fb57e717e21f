// Gridsync is Numba's cooperative-groups example, sequential_rows: every
// row of a matrix is computed from the row above, each column from the
// opposite column, so that a row needs what every block wrote in the row
// before. The kernel waits for the whole grid between rows with
// t.SyncGrid (Numba's cuda.cg.this_grid().sync()), which needs a
// cooperative launch: every block resident at once.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
)

func sequentialRows(t cuda.Thread, m cuda.Array2[int32]) {
	col := t.Grid1()
	rows, cols := m.Shape()
	for row := 1; row < rows; row++ {
		opposite := cols - col - 1
		m.Set(row, col, m.At(row-1, opposite)+1)
		t.SyncGrid()
	}
}

// blockDim is the threads per block; a matrix has a whole number of
// blocks of columns, one thread per column, as in Numba's example.
const blockDim = 32

// run fills m's rows from its first one, in one cooperative launch.
func run(m cuda.Array2[int32]) error {
	_, cols := m.Shape()
	if cols%blockDim != 0 {
		return fmt.Errorf("%d columns: a multiple of %d, please", cols, blockDim)
	}
	k := cuda.Jit(sequentialRows)
	block := cuda.Dim1(blockDim)
	most, err := k.MaxCooperativeBlocks(block, 0)
	if err != nil {
		return err
	}
	blocks := cols / blockDim
	if blocks > most {
		return fmt.Errorf("%d columns need %d blocks of %d threads; at most %d can be resident at once here", cols, blocks, blockDim, most)
	}
	return k.LaunchWith(cuda.LaunchConfig{Grid: cuda.Dim1(blocks), Block: block, Cooperative: true}, m)
}

func main() {
	m := cuda.NewArray2[int32](1024, 1024)
	if err := run(m); err != nil {
		log.Fatal(err)
	}
	for _, row := range []int{0, 1, 2, 1021, 1022, 1023} {
		fmt.Printf("row %4d: %d %d %d ... %d %d %d\n", row, m.At(row, 0), m.At(row, 1), m.At(row, 2), m.At(row, 1021), m.At(row, 1022), m.At(row, 1023))
	}
}
