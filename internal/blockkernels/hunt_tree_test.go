package blockkernels

import (
	"fmt"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/corpus"
)

// TestHuntTreesAgree runs the tree hunt kernels (trees read by lane 0 and
// other lanes, used again, of 16 lanes, of integers, unrolled, two-level)
// and LaneTree
// on flat blocks of 16, 48, 96 and 128 threads and two- and
// three-dimensional ones, with a partial last block, and requires the
// goroutine path's bits from the block loop and ptxsim.
func TestHuntTreesAgree(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	blocks := []cuda.Dim3{
		cuda.Dim1(16), cuda.Dim1(48), cuda.Dim1(96), cuda.Dim1(HuntMax),
		cuda.Dim2(16, 3), cuda.Dim2(32, 3), cuda.Dim2(8, 12), {X: 4, Y: 4, Z: 6},
	}
	perWarp := func(n, size int) int { return 2 * ((n + size - 1) / size) * ((size + 31) / 32) }
	f32 := func(n, size int) []any { return []any{floats(n), make([]float32, perWarp(n, size))} }
	kernels := []struct {
		name   string
		kernel any
		args   func(n, size int) []any
	}{
		{"HuntTreeTwoLanes", HuntTreeTwoLanes, f32},
		{"HuntTreeAgain", HuntTreeAgain, f32},
		{"HuntTreeHalf", HuntTreeHalf, f32},
		{"HuntTreeInt", HuntTreeInt, func(n, size int) []any { return []any{ints(n), make([]int64, perWarp(n, size))} }},
		{"HuntTreeUnrolled", HuntTreeUnrolled, f32},
		{"LaneTree", LaneTree, func(n, size int) []any { return []any{floats(n), make([]float32, perWarp(n, size)/2)} }},
		{"HuntTwoLevel", HuntTwoLevel, func(n, size int) []any {
			return []any{floats(n), make([]float32, (n+size-1)/size), make([]float32, perWarp(n, size))}
		}},
	}
	for _, k := range kernels {
		for _, b := range blocks {
			size := b.X * b.Y * b.Z
			for _, n := range []int{3 * size, 3*size - size/3} {
				c := kcase{name: k.name, kernel: k.kernel, launch: func(n int) (cuda.LaunchConfig, []any) {
					return cuda.LaunchConfig{Grid: cuda.Dim1((n + size - 1) / size), Block: b}, k.args(n, size)
				}}
				t.Run(fmt.Sprintf("%s/%dx%dx%d/%d", k.name, b.X, b.Y, b.Z, n), func(t *testing.T) {
					want := run(t, goroutines, c, n)
					for _, p := range []path{generated, ptxsim} {
						if err := corpus.Compare(want, run(t, p, c, n), 0); err != nil {
							t.Errorf("%s differs from the goroutine path: %v", p.name, err)
						}
					}
				})
			}
		}
	}
}

// TestHuntTreesReturned runs trees after some threads of the block have
// returned (those past a's end, in the last block) on flat blocks of 16
// to 128 threads, and requires the goroutine path's bits from the block
// loop (a GPU leaves the shuffles from exited lanes undefined, so ptxsim
// is not compared).
func TestHuntTreesReturned(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	perWarp := func(n, size int) int { return 2 * ((n + size - 1) / size) * ((size + 31) / 32) }
	kernels := []struct {
		name   string
		kernel any
		args   func(n, size int) []any
	}{
		{"HuntTreeReturned", HuntTreeReturned, func(n, size int) []any { return []any{floats(n), make([]float32, perWarp(n, size))} }},
		{"HuntTreeReturnedSync", HuntTreeReturnedSync, func(n, size int) []any {
			return []any{floats(n), make([]float32, (n+size-1)/size), make([]float32, perWarp(n, size))}
		}},
	}
	for _, k := range kernels {
		for _, size := range []int{16, 48, 64, 96, HuntMax} {
			for _, n := range []int{3 * size, 3*size - size/3, 3*size - 33} {
				c := kcase{name: k.name, kernel: k.kernel, launch: func(n int) (cuda.LaunchConfig, []any) {
					return cuda.LaunchConfig{Grid: cuda.Dim1((n + size - 1) / size), Block: cuda.Dim1(size)}, k.args(n, size)
				}}
				t.Run(fmt.Sprintf("%s/%d/%d", k.name, size, n), func(t *testing.T) {
					want := run(t, goroutines, c, n)
					if err := corpus.Compare(want, run(t, generated, c, n), 0); err != nil {
						t.Errorf("block loop differs from the goroutine path: %v", err)
					}
				})
			}
		}
	}
}
