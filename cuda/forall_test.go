package cuda_test

import (
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// forAllRun launches k, a ForAllProbe kernel, over n threads with cfg and returns how
// often each index was reached and the block and grid sizes chosen.
func forAllRun(t *testing.T, k *Kernel, n int, cfg LaunchConfig) (hits []int32, block, grid int) {
	t.Helper()
	hits = make([]int32, n)
	shape := make([]int32, 2)
	if err := k.ForAllWith(n, cfg, hits, shape); err != nil {
		t.Fatalf("ForAllWith(%d, %+v): %v", n, cfg, err)
	}
	if cfg.Stream != nil {
		if err := cfg.Stream.Synchronize(); err != nil {
			t.Fatal(err)
		}
	}
	return hits, int(shape[0]), int(shape[1])
}

// wantEachOnce fails unless every index was reached by exactly one thread.
func wantEachOnce(t *testing.T, hits []int32) {
	t.Helper()
	for i, h := range hits {
		if h != 1 {
			t.Fatalf("index %d of %d reached %d times", i, len(hits), h)
		}
	}
}

// ForAll covers exactly n threads on every backend that runs kernels: the
// host backends with blocks of 256, the GPU with the occupancy
// calculator's block size (the fake driver's model), or the block given.
func TestForAllCoversN(t *testing.T) {
	backends := []struct {
		name      string
		setup     func(t *testing.T)
		wantBlock int
	}{
		{"cpu", func(t *testing.T) { onBackend(t, CPU) }, 256},
		{"ptxsim", func(t *testing.T) { onBackend(t, PTXSim) }, 256},
		{"gpu-sim", func(t *testing.T) { simGPU(t) }, 1024},
		{"gpu-sim, 72 registers", func(t *testing.T) {
			simGPU(t).SetFuncAttr("ForAllProbe", driver.FuncNumRegs, 72)
		}, 896},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			s, err := NewStream()
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				n   int
				cfg LaunchConfig
			}{
				{1, LaunchConfig{}},
				{255, LaunchConfig{}},
				{1024, LaunchConfig{}},
				{3000, LaunchConfig{}},
				{3000, LaunchConfig{Stream: s}},
				{1000, LaunchConfig{Block: Dim1(100)}},
				{1000, LaunchConfig{Block: Dim3{X: 64, Y: 1, Z: 1}, SharedMem: 1024}},
			} {
				hits, block, grid := forAllRun(t, Jit(testkernels.ForAllProbe), c.n, c.cfg)
				wantEachOnce(t, hits)
				want := b.wantBlock
				if c.cfg.Block.X != 0 {
					want = c.cfg.Block.X
				}
				if block != want || grid != (c.n+want-1)/want {
					t.Errorf("ForAll(%d, %+v): block %d, grid %d; want block %d, grid %d", c.n, c.cfg, block, grid, want, (c.n+want-1)/want)
				}
			}
		})
	}
}

// On the GPU the occupancy calculator is asked once per loaded kernel and
// shared memory size, with the launch's dynamic shared memory.
func TestForAllAsksOccupancyOnce(t *testing.T) {
	f := simGPU(t)
	count := func() (n int) {
		for _, c := range f.Calls() {
			if c == "cuOccupancyMaxPotentialBlockSize" {
				n++
			}
		}
		return n
	}
	k := Jit(testkernels.ForAllProbe)
	for range 3 {
		hits, _, _ := forAllRun(t, k, 500, LaunchConfig{})
		wantEachOnce(t, hits)
	}
	if n := count(); n != 1 {
		t.Errorf("%d occupancy calls for three launches with the same shared memory; want 1", n)
	}
	// 40 KiB of dynamic shared memory per block: the fake's device holds
	// one such block per multiprocessor, so the whole 1024-thread block is
	// still best; the size is asked for again.
	_, block, _ := forAllRun(t, k, 500, LaunchConfig{SharedMem: 40 << 10})
	if n := count(); n != 2 || block != 1024 {
		t.Errorf("with shared memory: %d occupancy calls, block %d; want 2, 1024", n, block)
	}
}

// Bad ForAll calls are errors before anything runs, on every backend;
// n == 0 runs nothing.
func TestForAllErrors(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		k := Jit(testkernels.ForAllProbe)
		hits, shape := make([]int32, 10), make([]int32, 2)
		cases := []struct {
			name string
			err  error
			want []string
		}{
			{"negative count", k.ForAll(-1, hits, shape), []string{"launch ForAllProbe: ForAll over -1 threads"}},
			{"grid given", k.ForAllWith(10, LaunchConfig{Grid: Dim1(2)}, hits, shape), []string{"ForAll chooses the grid", "(2,1,1)"}},
			{"2-D block", k.ForAllWith(10, LaunchConfig{Block: Dim2(8, 8)}, hits, shape), []string{"one-dimensional blocks", "(8,8,1)"}},
			{"block too large", k.ForAllWith(10, LaunchConfig{Block: Dim1(4096)}, hits, shape), []string{"block (4096,1,1)"}},
			{"too many threads for the grid", k.ForAllWith(1<<62, LaunchConfig{Block: Dim1(1)}, hits, shape), []string{"grid"}},
			{"bad argument", k.ForAll(10, []float32{1}, shape), []string{"argument 1", "[]float32"}},
			{"missing argument", k.ForAll(10, hits), []string{"argument"}},
			{"nil kernel", (*Kernel)(nil).ForAll(10, hits, shape), []string{"nil *cuda.Kernel"}},
		}
		for _, c := range cases {
			wantErr(t, c.name, c.err, c.want...)
		}
		if err := k.ForAll(0, hits, shape); err != nil {
			t.Errorf("ForAll(0): %v", err)
		}
		for i, h := range hits {
			if h != 0 {
				t.Fatalf("hits[%d] = %d after failed and empty launches", i, h)
			}
		}
	})
}

// A failing occupancy call is the launch's error, with the driver's.
func TestForAllOccupancyFailure(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuOccupancyMaxPotentialBlockSize", Code: driver.ErrorInvalidValue})
	err := Jit(testkernels.ForAllProbe).ForAll(10, make([]int32, 10), make([]int32, 2))
	wantErr(t, "occupancy failure", err, "launch ForAllProbe: choose a block size", "CUDA_ERROR_INVALID_VALUE")
	if len(f.Launches()) != 0 {
		t.Errorf("%d launches after a failed occupancy call", len(f.Launches()))
	}
}
