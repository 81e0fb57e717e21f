package main

import (
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// reference is sequential_rows in plain Go, one row after another.
func reference(m cuda.Array2[int32]) {
	rows, cols := m.Shape()
	for row := 1; row < rows; row++ {
		for col := range cols {
			m.Set(row, col, m.At(row-1, cols-col-1)+1)
		}
	}
}

func TestSequentialRows(t *testing.T) {
	cases := []struct {
		name       string
		rows, cols int
		first      func(col int) int32
	}{
		// Numba's example: from zeros, row r holds r everywhere.
		{"zeros", 64, 128, func(int) int32 { return 0 }},
		// A first row that is not symmetric: each row mirrors the one
		// above, so a column read before its row is written shows.
		{"mirrored", 40, 96, func(col int) int32 { return int32(col * col % 101) }},
		{"one block", 9, 32, func(col int) int32 { return int32(-col) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, want := cuda.NewArray2[int32](c.rows, c.cols), cuda.NewArray2[int32](c.rows, c.cols)
			for col := range c.cols {
				m.Set(0, col, c.first(col))
				want.Set(0, col, c.first(col))
			}
			if err := run(m); err != nil {
				t.Fatal(err)
			}
			reference(want)
			for row := range c.rows {
				for col := range c.cols {
					if m.At(row, col) != want.At(row, col) {
						t.Fatalf("M[%d][%d] = %d, want %d", row, col, m.At(row, col), want.At(row, col))
					}
				}
			}
			if c.name == "zeros" && m.At(c.rows-1, 5) != int32(c.rows-1) {
				t.Errorf("last row holds %d, want %d", m.At(c.rows-1, 5), c.rows-1)
			}
		})
	}
	if err := run(cuda.NewArray2[int32](2, 33)); err == nil {
		t.Error("33 columns: no error")
	}
}
