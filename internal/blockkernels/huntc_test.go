package blockkernels

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/cpu"
)

// huntcHasLoop fails t unless kernel has a block loop, so that the cases
// below check the transform and not the goroutine path twice.
func huntcHasLoop(t *testing.T, kernel any) {
	t.Helper()
	rb, ok := cpu.Rows(reflect.ValueOf(kernel))
	if _, isBlock := rb.Bind.(func([]any) func() cuda.BlockLoop); !ok || !isBlock {
		t.Fatalf("%T has no block loop (run go generate ./internal/blockkernels)", kernel)
	}
}

func huntcCfg(grid, block cuda.Dim3) cuda.LaunchConfig {
	return cuda.LaunchConfig{Grid: grid, Block: block}
}

// TestHuntcSync runs huntc_sync.go's kernels (Numba's test_sync, test_sm,
// test_dyn_shared and shared-memory atomics) on several block shapes,
// grids whose last block is partial included.
func TestHuntcSync(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, b := range []int{32, 33, 48, 100, 256} {
		cfg := huntcCfg(cuda.Dim1(3), cuda.Dim1(b))
		n := 3 * b
		cs = append(cs,
			huntCase{name: fmt.Sprintf("syncreduce/%d", b), kernel: HuntcSyncReduce, cfg: cfg, args: func() []any { return []any{ints(n - b/2), make([]int32, n)} }},
			huntCase{name: fmt.Sprintf("mixedshared/%d", b), kernel: HuntcMixedShared, cfg: cfg, args: func() []any { return []any{ints(n), make([]float64, n)} }},
			huntCase{name: fmt.Sprintf("dynshared/%d", b), kernel: HuntcDynShared, cfg: cuda.LaunchConfig{Grid: cuda.Dim1(3), Block: cuda.Dim1(b), SharedMem: 4*b + 8}, args: func() []any { return []any{floats(n), make([]uint32, n)} }},
			huntCase{name: fmt.Sprintf("sharedatomics/%d", b), kernel: HuntcSharedAtomics, cfg: cfg, args: func() []any { return []any{ints(n - 7), make([]int64, 3*97)} }},
		)
	}
	for _, d := range []cuda.Dim3{cuda.Dim2(10, 20), cuda.Dim2(5, 20), cuda.Dim2(10, 3)} {
		cs = append(cs, huntCase{name: fmt.Sprintf("smem2d/%dx%d", d.X, d.Y), kernel: HuntcSmem2D, cfg: huntcCfg(cuda.Dim1(2), d), args: func() []any { return []any{cuda.NewArray2[float32](20, 20)} }})
	}
	cs = append(cs,
		huntCase{name: "dynshared/short", kernel: HuntcDynShared, cfg: cuda.LaunchConfig{Grid: cuda.Dim1(1), Block: cuda.Dim1(64), SharedMem: 4 * 63}, args: func() []any { return []any{floats(64), make([]uint32, 64)} }, wantErr: true},
	)
	huntcRun(t, cs)
	// Out of a shared array's bounds: ptxsim checks the index in debug
	// mode only (without, the store lands in the next array).
	huntcRunDebug(t, []huntCase{
		{name: "sharedatomics/oob", kernel: HuntcSharedAtomics, cfg: huntcCfg(cuda.Dim1(1), cuda.Dim1(257)), args: func() []any { return []any{ints(257), make([]int64, 97)} }, wantErr: true},
	})
}

// huntcRun checks each case with huntCheck after making sure its kernel
// has a block loop.
func huntcRun(t *testing.T, cs []huntCase) {
	t.Helper()
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) {
			huntcHasLoop(t, c.kernel)
			huntCheck(t, c)
		})
	}
}

// huntcRunDebug is huntcRun with every kernel compiled in debug mode
// (NUGO_DEBUG=1), which checks indexing on ptxsim and changes nothing on
// the CPU backend: its block loop must still be run and agree.
func huntcRunDebug(t *testing.T, cs []huntCase) {
	t.Helper()
	t.Setenv("NUGO_DEBUG", "1")
	for i := range cs {
		cs[i].name = "debug/" + cs[i].name
	}
	huntcRun(t, cs)
}

// TestHuntcWarp runs huntc_warp.go's kernels (Numba's test_warp_ops) on
// blocks of whole and partial warps and on lane arguments out of range.
func TestHuntcWarp(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, b := range []int{32, 33, 48, 64, 100} {
		cfg := huntcCfg(cuda.Dim1(3), cuda.Dim1(b))
		n := 3 * b
		for _, p := range [][3]int{{5, 1, 1}, {35, 40, 37}, {-3, 0, 31}, {31, 31, 0}, {-1, -1, -1}, {64, 33, 63}} {
			cs = append(cs, huntCase{name: fmt.Sprintf("shfl/%d/%d,%d,%d", b, p[0], p[1], p[2]), kernel: HuntcShfl, cfg: cfg, args: func() []any {
				return []any{ints(n - 5), make([]int32, 5*n), p[0], p[1], p[2]}
			}})
		}
		cs = append(cs,
			huntCase{name: fmt.Sprintf("shflwidth/%d", b), kernel: HuntcShflWidth, cfg: cfg, args: func() []any { return []any{floats(n), make([]float32, n)} }},
			huntCase{name: fmt.Sprintf("vote/%d", b), kernel: HuntcVote, cfg: cfg, args: func() []any {
				a := ints(n - 3)
				a[b+1] = 17
				return []any{a, make([]uint32, 7*n)}
			}},
			huntCase{name: fmt.Sprintf("syncwarp/%d", b), kernel: HuntcSyncWarp, cfg: cfg, args: func() []any { return []any{make([]int32, n)} }},
			huntCase{name: fmt.Sprintf("independent/%d", b), kernel: HuntcIndependent, cfg: cfg, args: func() []any { return []any{make([]uint32, n)} }},
		)
	}
	huntcRun(t, cs)
}

// TestHuntcLoops runs huntc_loops.go's kernels: barrier loops whose
// bounds are block-uniform, grid-stride loops around barriers, early
// returns, grid syncs and a double-buffered scan, on several block shapes
// and grids whose last block is partial.
func TestHuntcLoops(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, b := range []int{32, 33, 48, 100, 128} {
		cfg := huntcCfg(cuda.Dim1(3), cuda.Dim1(b))
		n := 3 * b
		cs = append(cs,
			huntCase{name: fmt.Sprintf("gridstride/%d", b), kernel: HuntcGridStride, cfg: cfg, args: func() []any { return []any{ints(5*b + 3), make([]int32, 5*b+3)} }},
			huntCase{name: fmt.Sprintf("earlyreturn/%d", b), kernel: HuntcEarlyReturn, cfg: cfg, args: func() []any { return []any{ints(n - b/3), make([]int32, n)} }},
			huntCase{name: fmt.Sprintf("scan/%d", b), kernel: HuntcScan, cfg: cfg, args: func() []any {
				a := make([]int64, n-5)
				for j, v := range ints(n - 5) {
					a[j] = int64(v) << 20
				}
				return []any{a, make([]int64, n)}
			}},
			huntCase{name: fmt.Sprintf("cooprows/%d", b), kernel: HuntcCoopRows, cfg: cuda.LaunchConfig{Grid: cuda.Dim1(2), Block: cuda.Dim1(b), Cooperative: true}, args: func() []any {
				m := cuda.NewArray2[int32](5, 2*b+b/2)
				copy(m.Data(), ints(2*b+b/2))
				return []any{m}
			}},
		)
	}
	cs = append(cs,
		huntCase{name: "gridstride/oob", kernel: HuntcGridStride, cfg: huntcCfg(cuda.Dim1(1), cuda.Dim1(64)), args: func() []any { return []any{ints(300), make([]int32, 299)} }, wantErr: true},
		huntCase{name: "earlyreturn/oob", kernel: HuntcEarlyReturn, cfg: huntcCfg(cuda.Dim1(1), cuda.Dim1(64)), args: func() []any { return []any{ints(64), make([]int32, 63)} }, wantErr: true},
	)
	huntcRun(t, cs)
	huntcRunDebug(t, []huntCase{
		{name: "scan/oob", kernel: HuntcScan, cfg: huntcCfg(cuda.Dim1(1), cuda.Dim1(257)), args: func() []any { return []any{make([]int64, 257), make([]int64, 257)} }, wantErr: true},
		{name: "gridstride", kernel: HuntcGridStride, cfg: huntcCfg(cuda.Dim1(2), cuda.Dim1(48)), args: func() []any { return []any{ints(500), make([]int32, 500)} }},
	})
}

// TestHuntcSharedRead runs huntc_shared.go's kernels, whose loops and ifs
// around barriers take their conditions from shared memory read after a
// barrier (internal/loopgen/fission_sharedread.go): a Laplace-like
// relaxation with a convergence flag, trip counts thread 0 or an atomic
// wrote, a trip count kept across grid syncs, a `while flag:` loop.
func TestHuntcSharedRead(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, b := range []int{32, 33, 48, 100, 128} {
		cfg := huntcCfg(cuda.Dim1(3), cuda.Dim1(b))
		n := 3 * b
		for _, p := range []struct {
			tol  float32
			iter int
		}{{0.05, 1000}, {0.001, 7}, {10, 5}, {0.01, 0}} {
			cs = append(cs, huntCase{name: fmt.Sprintf("jacobi/%d/%g,%d", b, p.tol, p.iter), kernel: HuntcJacobi, cfg: cfg, args: func() []any {
				return []any{floats(n - 4), make([]float32, n), p.tol, p.iter}
			}})
		}
		cs = append(cs,
			huntCase{name: fmt.Sprintf("sharedtrip/%d", b), kernel: HuntcSharedTrip, cfg: cfg, args: func() []any { return []any{ints(n), make([]int32, n)} }},
			huntCase{name: fmt.Sprintf("whileflag/%d", b), kernel: HuntcWhileFlag, cfg: cfg, args: func() []any { return []any{ints(n), make([]int32, n)} }},
		)
		if b <= 64 {
			cs = append(cs, huntCase{name: fmt.Sprintf("gridflag/%d", b), kernel: HuntcGridFlag, cfg: cuda.LaunchConfig{Grid: cuda.Dim1(4), Block: cuda.Dim1(b), Cooperative: true}, args: func() []any {
				a := ints(4 * b)
				a[0] = 1
				return []any{a, make([]int32, 4*b)}
			}})
		}
	}
	for _, d := range []cuda.Dim3{cuda.Dim1(64), cuda.Dim1(33), cuda.Dim2(8, 8), cuda.Dim2(5, 7), cuda.Dim2(16, 3)} {
		cs = append(cs, huntCase{name: fmt.Sprintf("sharedbounds/%dx%d", d.X, d.Y), kernel: HuntcSharedBounds, cfg: huntcCfg(cuda.Dim1(4), d), args: func() []any {
			return []any{floats(4 * d.Size()), make([]float32, 4*d.Size())}
		}})
	}
	for s := 0; s < 8; s++ {
		cs = append(cs, huntCase{name: fmt.Sprintf("sharedtrip/shift%d", s), kernel: HuntcSharedTrip, cfg: huntcCfg(cuda.Dim1(2), cuda.Dim1(64)), args: func() []any {
			a := ints(128 + s)[s:]
			return []any{a, make([]int32, 128)}
		}})
	}
	cs = append(cs, huntCase{name: "sharedtrip/oob", kernel: HuntcSharedTrip, cfg: huntcCfg(cuda.Dim1(1), cuda.Dim1(64)), args: func() []any { return []any{ints(64), make([]int32, 63)} }, wantErr: true})
	huntcRun(t, cs)
	huntcRunDebug(t, []huntCase{
		{name: "jacobi", kernel: HuntcJacobi, cfg: huntcCfg(cuda.Dim1(2), cuda.Dim1(100)), args: func() []any { return []any{floats(200), make([]float32, 200), float32(0.01), 50} }},
		{name: "sharedtrip/oob", kernel: HuntcSharedTrip, cfg: huntcCfg(cuda.Dim1(1), cuda.Dim1(129)), args: func() []any { return []any{ints(129), make([]int32, 129)} }, wantErr: true},
	})
}

// TestHuntcMore runs huntc_more.go's kernels: test_matmul with 2-D shared
// tiles, dynamic shared memory sliced into arrays, a 3-D shared array,
// SyncThreadsOr and SyncThreadsCount loop conditions, non-power-of-two
// reductions, a barrier helper returning a value, votes in a loop.
func TestHuntcMore(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, n := range []int{8, 13, 24} {
		g := (n + 7) / 8
		cs = append(cs, huntCase{name: fmt.Sprintf("matmul2/%d", n), kernel: HuntcMatmul2, cfg: huntcCfg(cuda.Dim2(g, g), cuda.Dim2(8, 8)), args: func() []any {
			a, b := cuda.NewArray2[float64](n, n), cuda.NewArray2[float64](n, n)
			for j, v := range floats(n * n) {
				a.Data()[j] = float64(v) / 3
				b.Data()[j] = float64(v)*7 + 1
			}
			return []any{a, b, cuda.NewArray2[float64](n, n)}
		}})
	}
	for _, d := range []cuda.Dim3{cuda.Dim3{X: 4, Y: 4, Z: 4}, cuda.Dim3{X: 3, Y: 2, Z: 4}, cuda.Dim3{X: 4, Y: 1, Z: 1}} {
		cs = append(cs, huntCase{name: fmt.Sprintf("shared3/%dx%dx%d", d.X, d.Y, d.Z), kernel: HuntcShared3, cfg: huntcCfg(cuda.Dim1(2), d), args: func() []any { return []any{make([]int32, 2*d.Size())} }})
	}
	for _, b := range []int{32, 33, 48, 100, 128} {
		cfg := huntcCfg(cuda.Dim1(3), cuda.Dim1(b))
		n := 3 * b
		cs = append(cs,
			huntCase{name: fmt.Sprintf("dynslices/%d", b), kernel: HuntcDynSlices, cfg: cuda.LaunchConfig{Grid: cuda.Dim1(3), Block: cuda.Dim1(b), SharedMem: 4 * (2*b + 1)}, args: func() []any { return []any{ints(n), make([]int32, n)} }},
			huntCase{name: fmt.Sprintf("bfs/%d", b), kernel: HuntcBFS, cfg: cfg, args: func() []any { return []any{ints(n), make([]int32, n)} }},
			huntCase{name: fmt.Sprintf("oddreduce/%d", b), kernel: HuntcOddReduce, cfg: cfg, args: func() []any {
				a := make([]float64, n-3)
				for j, v := range floats(n - 3) {
					a[j] = float64(v) * 1.1
				}
				return []any{a, make([]float64, 3)}
			}},
			huntCase{name: fmt.Sprintf("helpermax/%d", b), kernel: HuntcHelperMax, cfg: cfg, args: func() []any { return []any{ints(n), make([]int32, n)} }},
			huntCase{name: fmt.Sprintf("voteloop/%d", b), kernel: HuntcVoteLoop, cfg: cfg, args: func() []any { return []any{ints(n), make([]uint32, n), 12} }},
			huntCase{name: fmt.Sprintf("countloop/%d", b), kernel: HuntcCountLoop, cfg: cfg, args: func() []any { return []any{ints(n), make([]int32, n), b / 3} }},
		)
	}
	cs = append(cs,
		huntCase{name: "bfs/oob", kernel: HuntcBFS, cfg: huntcCfg(cuda.Dim1(1), cuda.Dim1(64)), args: func() []any { return []any{ints(64), make([]int32, 63)} }, wantErr: true},
	)
	huntcRun(t, cs)
	huntcRunDebug(t, []huntCase{
		{name: "matmul2", kernel: HuntcMatmul2, cfg: huntcCfg(cuda.Dim2(2, 2), cuda.Dim2(8, 8)), args: func() []any {
			return []any{cuda.NewArray2[float64](13, 13), cuda.NewArray2[float64](13, 13), cuda.NewArray2[float64](13, 13)}
		}},
		{name: "dynslices/short", kernel: HuntcDynSlices, cfg: cuda.LaunchConfig{Grid: cuda.Dim1(1), Block: cuda.Dim1(64), SharedMem: 4 * 128}, args: func() []any { return []any{ints(64), make([]int32, 64)} }, wantErr: true},
		{name: "oddreduce/oob", kernel: HuntcOddReduce, cfg: huntcCfg(cuda.Dim1(1), cuda.Dim1(257)), args: func() []any { return []any{make([]float64, 257), make([]float64, 1)} }, wantErr: true},
	})
}

// TestHuntcSlots runs HuntcAtomicSlot and HuntcUniformPanic.
func TestHuntcSlots(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, b := range []int{32, 33, 64} {
		cs = append(cs,
			huntCase{name: fmt.Sprintf("atomicslot/%d", b), kernel: HuntcAtomicSlot, cfg: huntcCfg(cuda.Dim1(3), cuda.Dim1(b)), args: func() []any { return []any{ints(3 * b), make([]int32, 3)} }},
			huntCase{name: fmt.Sprintf("uniformpanic/ok/%d", b), kernel: HuntcUniformPanic, cfg: huntcCfg(cuda.Dim1(3), cuda.Dim1(b)), args: func() []any { return []any{ints(3 * b), 7} }},
			huntCase{name: fmt.Sprintf("uniformpanic/zero/%d", b), kernel: HuntcUniformPanic, cfg: huntcCfg(cuda.Dim1(1), cuda.Dim1(b)), args: func() []any { return []any{ints(b), 0} }, wantErr: true},
		)
	}
	huntcRun(t, cs)
}

// TestHuntcExited: block-uniform code that would fail runs in a block
// only if a thread of it is still running there (before, the block loop
// ran it after all threads of block 1 had returned and failed the launch
// naming thread 0 of that block).
func TestHuntcExited(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	var cs []huntCase
	for _, b := range []int{32, 48} {
		cfg := huntcCfg(cuda.Dim1(3), cuda.Dim1(b))
		n := 3 * b
		cs = append(cs,
			huntCase{name: fmt.Sprintf("alldone/%d", b), kernel: HuntcExitedDiv, cfg: cfg, args: func() []any { return []any{ints(n), make([]int32, n), 1, b} }},
			huntCase{name: fmt.Sprintf("ok/%d", b), kernel: HuntcExitedDiv, cfg: cfg, args: func() []any { return []any{ints(n), make([]int32, n), 5, b} }},
		)
	}
	huntcRun(t, cs)
}
