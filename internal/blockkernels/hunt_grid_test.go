package blockkernels

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// TestHuntGrid runs HuntGrid's cooperative launches (many blocks, a block
// with threads returning before SyncGrid, a failing thread) through the block loops on the
// phase runner, the goroutine path and ptxsim, with GOMAXPROCS 1 and the
// default.
func TestHuntGrid(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	for _, procs := range []int{1, 0} {
		for _, c := range []struct {
			grid, block, bad, leave int
		}{
			{4, 64, -1, -1},
			{40, 32, -1, -1},
			{40, 48, -1, 7},
			{40, 32, 1000, -1},
			{40, 32, 3, 0},
			{40, 48, 1919, 39},
		} {
			name := fmt.Sprintf("procs%d/%dx%d/bad%d/leave%d", procs, c.grid, c.block, c.bad, c.leave)
			t.Run(name, func(t *testing.T) {
				if procs > 0 {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				}
				n := c.grid * c.block
				huntCheck(t, huntCase{name, HuntGrid, cuda.LaunchConfig{Grid: cuda.Dim1(c.grid), Block: cuda.Dim1(c.block), Cooperative: true},
					func() []any { return []any{ints(n), make([]int32, n), c.bad, c.leave} }, c.bad >= 0 && (c.bad/c.block != c.leave || c.bad%c.block >= 8), false, ""})
			})
		}
	}
}
