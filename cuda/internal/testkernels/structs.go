package testkernels

import "github.com/nugo-dev/nugo/cuda"

// Cell is a struct of numbers: a kernel may take a slice of it.
type Cell struct {
	Count int32
	Sum   float64
	Seen  bool
	Hist  [4]uint8
}

// WithPointer is not plain memory: a kernel may not take a slice of it.
type WithPointer struct {
	N int32
	P *int32
}

// CountCells spreads values over cells round-robin: counts and sums with
// atomics on the fields; flags and histogram bins by plain stores, one
// thread for each.
func CountCells(t cuda.Thread, cells []Cell, values []float64) {
	i := t.Grid1()
	if i < len(values) {
		c := &cells[i%len(cells)]
		cuda.AtomicAdd(&c.Count, 1)
		cuda.AtomicAdd(&c.Sum, values[i])
	}
	if i < len(cells) {
		cells[i].Seen = true
	}
	if i < 4*len(cells) {
		cells[i/4].Hist[i%4] = 1
	}
}

// TakesPointers has a parameter no launch may pass.
func TakesPointers(t cuda.Thread, w []WithPointer) {}

// TakesEmpty has a parameter no launch may pass.
func TakesEmpty(t cuda.Thread, w []struct{}) {}
