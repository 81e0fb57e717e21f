package blockkernels

import (
	"fmt"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/cputime"
)

// kcase is one kernel with its launch for a problem of size n (elements,
// or the matrix side for the matmul) and the hand-written loop doing the
// same work.
type kcase struct {
	name   string
	kernel any
	launch func(n int) (cfg cuda.LaunchConfig, args []any)
	hand   func(args []any) // nil: no hand loop (the same work as another case's)
}

func floats(n int) []float32 {
	a := make([]float32, n)
	x := uint32(12345)
	for i := range a {
		x = x*1664525 + 1013904223
		a[i] = float32(x>>8)/float32(1<<24) - 0.25
	}
	return a
}

func ints(n int) []int32 {
	a := make([]int32, n)
	for i := range a {
		a[i] = int32(i*7919%1000) - 500
	}
	return a
}

func bytes(n int) []uint8 {
	a := make([]uint8, n)
	x := uint32(7)
	for i := range a {
		x = x*1664525 + 1013904223
		a[i] = uint8(x >> 24)
	}
	return a
}

func blocks(n int) int { return (n + Block - 1) / Block }

var cases = []kcase{
	{"reduce", ReduceSum, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{floats(n), make([]float32, blocks(n))}
	}, func(args []any) { HandReduceSum(args[0].([]float32), args[1].([]float32)) }},
	{"matmul", MatmulTiled, func(n int) (cuda.LaunchConfig, []any) {
		a, b := cuda.NewArray2[float32](n, n), cuda.NewArray2[float32](n, n)
		copy(a.Data(), floats(n*n))
		for i, d := 0, b.Data(); i < len(d); i++ {
			d[i] = float32(i%9) * 0.5
		}
		g := (n + Tile - 1) / Tile
		return cuda.LaunchConfig{Grid: cuda.Dim2(g, g), Block: cuda.Dim2(Tile, Tile)}, []any{a, b, cuda.NewArray2[float32](n, n)}
	}, func(args []any) {
		a, b, c := args[0].(cuda.Array2[float32]), args[1].(cuda.Array2[float32]), args[2].(cuda.Array2[float32])
		n, _ := a.Shape()
		HandMatmul(a.Data(), b.Data(), c.Data(), n, n, n)
	}},
	{"scan", ScanBlock, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{ints(n), make([]int32, n)}
	}, func(args []any) { HandScan(args[0].([]int32), args[1].([]int32)) }},
	{"histogram", Histogram, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(min(blocks(n), 64)), Block: cuda.Dim1(Block)}, []any{bytes(n), make([]uint32, Bins)}
	}, func(args []any) { HandHistogram(args[0].([]uint8), args[1].([]uint32)) }},
	{"stencil", Stencil, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{floats(n), make([]float32, n)}
	}, func(args []any) { HandStencil(args[0].([]float32), args[1].([]float32)) }},
	{"warpreduce", WarpReduce, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{floats(n), make([]float32, blocks(n))}
	}, func(args []any) { HandReduceSum(args[0].([]float32), args[1].([]float32)) }},
	{"copiesthread", CopiesThread, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{make([]int32, n)}
	}, nil},
	{"shadow", Shadow, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{ints(n)}
	}, nil},
	{"swapshadow", SwapShadow, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{ints(n)}
	}, nil},
	{"helperreduce", HelperReduce, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{floats(n), make([]float32, blocks(n)), float32(0.5)}
	}, nil},
	{"genericreduce/int32", GenericReduce[int32], func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{ints(n), make([]int32, blocks(n))}
	}, nil},
	{"genericreduce/float64", GenericReduce[float64], func(n int) (cuda.LaunchConfig, []any) {
		a := make([]float64, n)
		for i, v := range floats(n) {
			a[i] = float64(v) / 3
		}
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{a, make([]float64, blocks(n))}
	}, nil},
	{"countabove", CountAbove, func(n int) (cuda.LaunchConfig, []any) {
		return cuda.LaunchConfig{Grid: cuda.Dim1(blocks(n)), Block: cuda.Dim1(Block)}, []any{floats(n), float32(0.5), make([]int32, blocks(n)), make([]int32, blocks(n))}
	}, nil},
}

// path is one way of running a kernel.
type path struct {
	name    string
	backend cuda.Backend
	noLoops bool // the CPU backend without nugo gen's loops: goroutines at barriers
}

var (
	generated  = path{"generated", cuda.CPU, false}
	goroutines = path{"goroutines", cuda.CPU, true}
	ptxsim     = path{"ptxsim", cuda.PTXSim, false}
)

func run(tb testing.TB, p path, c kcase, n int) []any {
	tb.Helper()
	if err := cuda.SetBackend(p.backend); err != nil {
		tb.Fatal(err)
	}
	defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(p.noLoops))
	cfg, args := c.launch(n)
	if err := cuda.Jit(c.kernel).LaunchWith(cfg, args...); err != nil {
		tb.Fatalf("%s on %s: %v", c.name, p.name, err)
	}
	return args
}

// TestPathsAgree runs every kernel through its generated loop, the
// goroutine path and ptxsim, on sizes that end in a partial block, and
// requires the same bits from all three.
func TestPathsAgree(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	for _, c := range cases {
		for _, n := range []int{Block, 3*Block + 37} {
			if c.name == "matmul" {
				n = n/Block*Tile + 5
			}
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
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

// benchSize is each case's problem size in the benchmarks: 2^18 elements
// (the reduction of issue 18), 512×512 matrices.
func benchSize(c kcase) int {
	if c.name == "matmul" {
		return 512
	}
	return 1 << 18
}

// BenchmarkBlockKernels puts side by side, per kernel, the CPU backend's
// generated block loop, its goroutine path, ptxsim and the hand-written Go
// loop doing the same work on as many goroutines. ptxsim, an interpreter,
// is slow: -short leaves it out.
func BenchmarkBlockKernels(b *testing.B) {
	defer cuda.SetBackend(cuda.Auto)
	for _, c := range cases {
		n := benchSize(c)
		for _, p := range []path{generated, goroutines, ptxsim} {
			b.Run(c.name+"/"+p.name, func(b *testing.B) {
				if p.backend == cuda.PTXSim && testing.Short() {
					b.Skip("ptxsim is slow; run without -short to include it")
				}
				if err := cuda.SetBackend(p.backend); err != nil {
					b.Fatal(err)
				}
				defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(p.noLoops))
				cfg, args := c.launch(n)
				k := cuda.Jit(c.kernel)
				cpu0 := cputime.Process()
				for b.Loop() {
					if err := k.LaunchWith(cfg, args...); err != nil {
						b.Fatal(err)
					}
				}
				cputime.Report(b, cpu0)
			})
		}
		if c.hand != nil {
			b.Run(c.name+"/hand", func(b *testing.B) {
				_, args := c.launch(n)
				cpu0 := cputime.Process()
				for b.Loop() {
					c.hand(args)
				}
				cputime.Report(b, cpu0)
			})
		}
	}
}

// TestHandLoopsMatch checks the hand-written loops against the kernels
// where both compute exactly the same numbers (integers), and within
// rounding where the order of float additions differs.
func TestHandLoopsMatch(t *testing.T) {
	for _, c := range cases {
		if c.hand == nil {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			n := 3*Block + 37
			if c.name == "matmul" {
				n = 53
			}
			want := run(t, goroutines, c, n)
			_, got := c.launch(n)
			c.hand(got)
			ulp := 0
			switch c.name {
			case "reduce", "warpreduce", "stencil", "matmul":
				ulp = 1 << 12 // another order of additions
			}
			if err := corpus.Compare(want, got, ulp); err != nil {
				t.Errorf("hand loop differs from the kernel: %v", err)
			}
		})
	}
}
