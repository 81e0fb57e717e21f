package cuda_test

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/cputime"
)

// Every grid-syncing test kernel has a block loop (nugo gen's grid
// phases), so that the grid-sync tests' "cpu" backend runs through it and
// "cpu-goroutines" through the goroutine path.
func TestGridLoopsRegistered(t *testing.T) {
	for _, k := range []any{
		testkernels.GridRotate, testkernels.GridSyncAfterSyncThreads, testkernels.GridSyncFault,
		testkernels.GridSyncBlockExits, testkernels.GridSyncBlockFails, testkernels.GridSyncLateBlockExits,
		testkernels.GridSyncAfterLast, testkernels.GridApplyRotate, testkernels.GridSyncOneBlock,
	} {
		name := runtime.FuncForPC(reflect.ValueOf(k).Pointer()).Name()
		rb, ok := cpu.Rows(reflect.ValueOf(k))
		if _, block := rb.Bind.(func([]any) func() BlockLoop); !ok || !block {
			t.Errorf("%s has no block loop (run go generate ./cuda/internal/testkernels)", name)
		}
	}
}

// The block loop and the goroutine path agree with the host's rotation
// for grids whose threads do not fill their last block, over many rounds.
func TestGridLoopRotateMatchesGoroutines(t *testing.T) {
	tests := []struct {
		grid, block Dim3
		n, rounds   int
	}{
		{Dim1(5), Dim1(64), 300, 7},
		{Dim1(1), Dim1(96), 96, 3},
		{Dim1(16), Dim1(32), 512, 0},
	}
	for _, tc := range tests {
		for _, off := range []bool{false, true} {
			t.Run(fmtGrid(tc.grid, tc.block, off), func(t *testing.T) {
				onBackend(t, CPU)
				defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(off))
				data := make([]int64, tc.n)
				for i := range data {
					data[i] = int64(i * i)
				}
				want := rotated(data, tc.rounds)
				cfg := LaunchConfig{Grid: tc.grid, Block: tc.block, Cooperative: true}
				if err := Jit(testkernels.GridRotate).LaunchWith(cfg, data, tc.rounds); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(data, want) {
					t.Errorf("got %v\nwant %v", data, want)
				}
			})
		}
	}
}

func fmtGrid(g, b Dim3, goroutines bool) string {
	s := g.String() + "x" + b.String()
	if goroutines {
		s += "/goroutines"
	}
	return s
}

// BenchmarkGridLoop times GridRotate (10 rounds, 20 grid barriers) on the
// cpu backend over 64 blocks of 256 threads and over 2048 blocks of 32:
// "block-loop" through the block loop nugo gen writes (grid phases on the
// worker pool), "goroutines" with the generated loops off (every thread a
// goroutine; 64 blocks only), "hand" a plain Go loop doing the same
// rotations on GOMAXPROCS goroutines with a WaitGroup per phase.
// cpu-ns/op is the process's CPU time per launch.
func BenchmarkGridLoop(b *testing.B) {
	const rounds = 10
	for _, shape := range []struct{ blocks, threads int }{{64, 256}, {2048, 32}} {
		n := shape.blocks * shape.threads
		cfg := LaunchConfig{Grid: Dim1(shape.blocks), Block: Dim1(shape.threads), Cooperative: true}
		prefix := fmt.Sprintf("%dx%d/", shape.blocks, shape.threads)
		for _, mode := range []string{"block-loop", "goroutines"} {
			if mode == "goroutines" && shape.blocks > 64 {
				continue
			}
			b.Run(prefix+mode, func(b *testing.B) {
				if err := SetBackend(CPU); err != nil {
					b.Fatal(err)
				}
				defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(mode == "goroutines"))
				data := make([]int64, n)
				k := Jit(testkernels.GridRotate)
				cpu0 := cputime.Process()
				for b.Loop() {
					if err := k.LaunchWith(cfg, data, rounds); err != nil {
						b.Fatal(err)
					}
				}
				cputime.Report(b, cpu0)
			})
		}
		b.Run(prefix+"hand", func(b *testing.B) {
			data, tmp := make([]int64, n), make([]int64, n)
			workers := runtime.GOMAXPROCS(0)
			phase := func(f func(lo, hi int)) {
				var wg sync.WaitGroup
				for w := range workers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						f(w*n/workers, (w+1)*n/workers)
					}()
				}
				wg.Wait()
			}
			cpu0 := cputime.Process()
			for b.Loop() {
				for range rounds {
					phase(func(lo, hi int) {
						for i := lo; i < hi; i++ {
							tmp[i] = data[(i+1)%n]
						}
					})
					phase(func(lo, hi int) {
						for i := lo; i < hi; i++ {
							data[i] = tmp[i] + 1
						}
					})
				}
			}
			cputime.Report(b, cpu0)
		})
	}
}

// A cooperative launch with a block loop runs its grid phase by phase on
// GOMAXPROCS workers, however few: results, a failing thread's error, a
// block that returns before a grid barrier, and a block whose threads call
// runtime.Goexit come out as on the goroutine path, and the launch leaves
// no goroutine behind.
func TestGridLoopPhasesOnFewWorkers(t *testing.T) {
	type check func(t *testing.T, err error, data []int32)
	// wantErr: a *KernelError saying msg from one of blocks (by x).
	wantErr := func(msg string, blocks ...int) check {
		return func(t *testing.T, err error, _ []int32) {
			var ke *KernelError
			if !errors.As(err, &ke) || !slices.Contains(blocks, ke.Block.X) || ke.Block.Y != 0 || !strings.Contains(ke.Msg, msg) {
				t.Fatalf("error %v; want a *KernelError saying %q from one of blocks %v", err, msg, blocks)
			}
		}
	}
	tests := []struct {
		name   string
		kernel any
		grid   Dim3
		check  check
	}{
		{"rotate", nil, Dim1(24), nil},
		{"fault", testkernels.GridSyncFault, Dim1(5), wantErr("index out of range", 1)},
		{"fails", testkernels.GridSyncBlockFails, Dim1(7), wantErr("index out of range", 1)},
		{"exits", testkernels.GridSyncBlockExits, Dim1(3), wantErr("block (1,0,0) returned before t.SyncGrid", 0, 2)},
		{"goexit", testkernels.GridSyncGoexit, Dim1(6), func(t *testing.T, err error, data []int32) {
			wantErr("runtime.Goexit", 2)(t, err, data)
			if slices.Contains(data, 2) {
				t.Errorf("a block passed the grid barrier that block 2 never reached: %v", data)
			}
		}},
	}
	for _, procs := range []int{1, 2, 3} {
		for _, goroutines := range []bool{false, true} {
			for _, tc := range tests {
				t.Run(fmt.Sprintf("procs=%d/%s", procs, fmtGrid(tc.grid, Dim1(32), goroutines)+"/"+tc.name), func(t *testing.T) {
					noLeak(t)
					onBackend(t, CPU)
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
					defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(goroutines))
					cfg := LaunchConfig{Grid: tc.grid, Block: Dim1(32), Cooperative: true}
					n := tc.grid.Size() * 32
					if tc.kernel == nil {
						data := make([]int64, n-5)
						for i := range data {
							data[i] = int64(3 * i)
						}
						want := rotated(data, 4)
						if err := Jit(testkernels.GridRotate).LaunchWith(cfg, data, 4); err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(data, want) {
							t.Errorf("got %v\nwant %v", data, want)
						}
						return
					}
					data := make([]int32, n)
					var err error
					if tc.name == "exits" {
						err = Jit(tc.kernel).LaunchWith(cfg, data, make([]int32, n))
					} else {
						err = Jit(tc.kernel).LaunchWith(cfg, data)
					}
					tc.check(t, err, data)
				})
			}
		}
	}
}
