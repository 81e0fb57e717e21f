package cuda_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// gridSyncBackend is a backend the grid-sync tests run on: cpu (through
// the block loops nugo gen writes for grid-syncing kernels), cpu with the
// generated loops off (every thread a goroutine), ptxsim, or the simulated
// GPU (the fake driver executing the PTX).
type gridSyncBackend struct {
	name string
	use  func(t *testing.T)
}

var gridSyncBackends = []gridSyncBackend{
	{"cpu", func(t *testing.T) { onBackend(t, CPU) }},
	{"cpu-goroutines", func(t *testing.T) {
		onBackend(t, CPU)
		was := cpu.SetRowsDisabled(true)
		t.Cleanup(func() { cpu.SetRowsDisabled(was) })
	}},
	{"ptxsim", func(t *testing.T) { onBackend(t, PTXSim) }},
	{"simgpu", func(t *testing.T) { simGPU(t) }},
}

// rotated is GridRotate's result on the host: rounds rotations by one
// place, each adding one.
func rotated(data []int64, rounds int) []int64 {
	out := append([]int64(nil), data...)
	for range rounds {
		next := make([]int64, len(out))
		for i := range out {
			next[i] = out[(i+1)%len(out)] + 1
		}
		out = next
	}
	return out
}

// Every backend runs a cooperative grid to the end through many grid
// barriers, each round's reads of other blocks' data seeing the writes of
// the round before.
func TestSyncGridRounds(t *testing.T) {
	cases := []struct {
		grid, block Dim3
		n, rounds   int
	}{
		{Dim1(4), Dim1(64), 256, 10},
		{Dim1(7), Dim1(33), 200, 6}, // a partial block, threads past the data
		{Dim1(1), Dim1(128), 128, 5},
		{Dim1(24), Dim1(32), 768, 3},
	}
	for _, be := range gridSyncBackends {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%vx%v", be.name, c.grid, c.block), func(t *testing.T) {
				be.use(t)
				data := make([]int64, c.n)
				for i := range data {
					data[i] = int64(i * i)
				}
				want := rotated(data, c.rounds)
				cfg := LaunchConfig{Grid: c.grid, Block: c.block, Cooperative: true}
				if err := Jit(testkernels.GridRotate).LaunchWith(cfg, data, c.rounds); err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if data[i] != want[i] {
						t.Fatalf("data[%d] = %d, want %d", i, data[i], want[i])
					}
				}
			})
		}
	}
}

// A kernel that syncs the grid, launched without Cooperative, is an error
// on every backend: before anything runs on the compiled ones (which know
// it from the compiled kernel), as a KernelError at the SyncGrid call on
// the cpu backend, whose threads then all end.
func TestSyncGridNotCooperative(t *testing.T) {
	for _, be := range gridSyncBackends {
		for _, kernel := range []any{testkernels.GridRotate, testkernels.GridSyncAfterSyncThreads} {
			k := Jit(kernel)
			t.Run(be.name+"/"+k.Name(), func(t *testing.T) {
				noLeak(t)
				be.use(t)
				var err error
				if k.Name() == "GridRotate" {
					data := []int64{1, 2, 3}
					err = k.Launch(Dim1(2), Dim1(32), data, 1)
				} else {
					err = k.Launch(Dim1(3), Dim1(64), make([]int32, 3*64))
				}
				if err == nil {
					t.Fatal("launch without Cooperative succeeded")
				}
				if !strings.Contains(err.Error(), "Cooperative: true") {
					t.Errorf("error %q does not name the fix", err)
				}
				var ke *KernelError
				if strings.HasPrefix(be.name, "cpu") {
					// The first SyncGrid, reached first by thread 0 of a
					// block, unless a SyncThreads made the threads
					// goroutines.
					line := map[string]string{"GridRotate": "gridsync.go:16", "GridSyncAfterSyncThreads": "gridsync.go:28"}[k.Name()]
					first := be.name == "cpu" || k.Name() == "GridRotate"
					if !errors.As(err, &ke) || !strings.HasSuffix(ke.Pos, line) || first && ke.Thread != (Dim3{}) || !strings.Contains(ke.Msg, "not cooperative") {
						t.Fatalf("%s: %v; want thread 0's *KernelError at the SyncGrid call %s", be.name, err, line)
					}
					return
				}
				if !errors.Is(err, ErrNotCooperative) || errors.As(err, &ke) {
					t.Fatalf("%s: %v; want ErrNotCooperative before running", be.name, err)
				}
			})
		}
	}
}

// A cooperative grid over the limit is refused with the figures before
// anything runs; the host backends' limit is HostCooperativeThreads.
func TestCooperativeGridTooLarge(t *testing.T) {
	for _, be := range []Backend{CPU, PTXSim} {
		t.Run(string(be), func(t *testing.T) {
			onBackend(t, be)
			k := Jit(testkernels.GridRotate)
			for _, c := range []struct {
				block Dim3
				want  int
			}{{Dim1(256), HostCooperativeThreads / 256}, {Dim2(32, 3), HostCooperativeThreads / 96}, {Dim1(1024), 64}} {
				n, err := k.MaxCooperativeBlocks(c.block, 0)
				if err != nil || n != c.want {
					t.Errorf("MaxCooperativeBlocks(%v) = %d, %v; want %d", c.block, n, err, c.want)
				}
			}
			if _, err := k.MaxCooperativeBlocks(Dim1(2048), 0); err == nil || !strings.Contains(err.Error(), "block (2048,1,1)") {
				t.Errorf("MaxCooperativeBlocks of a block of 2048 threads: %v", err)
			}
			if _, err := k.MaxCooperativeBlocks(Dim1(32), -1); err == nil {
				t.Error("MaxCooperativeBlocks with negative shared memory: no error")
			}
			limit := HostCooperativeThreads / 256
			data := []int64{7}
			err := k.LaunchWith(LaunchConfig{Grid: Dim1(limit + 1), Block: Dim1(256), Cooperative: true}, data, 1)
			for _, part := range []string{fmt.Sprintf("has %d blocks", limit+1), fmt.Sprintf("at most %d blocks of 256 threads", limit), "HostCooperativeThreads"} {
				if err == nil || !strings.Contains(err.Error(), part) {
					t.Errorf("grid of %d blocks: %v; want an error with %q", limit+1, err, part)
				}
			}
			if data[0] != 7 {
				t.Errorf("the refused kernel ran: data %v", data)
			}
		})
	}
}

// On the GPU backend the limit is the occupancy calculator's blocks per
// multiprocessor times the multiprocessors (the fake: 4 blocks of 256
// threads on each of 40); a grid over it is refused before the driver sees
// a launch, and a device without cooperative launches refuses them all.
func TestGPUCooperativeLimit(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	if gpus, err := Gpus(); err != nil || !gpus[0].Cooperative {
		t.Fatalf("Gpus() = %+v, %v; want a device with cooperative launches", gpus, err)
	}
	k := Jit(testkernels.GridRotate)
	n, err := k.MaxCooperativeBlocks(Dim1(256), 0)
	if err != nil || n != 160 {
		t.Fatalf("MaxCooperativeBlocks = %d, %v; want 160", n, err)
	}
	if n, err := k.MaxCooperativeBlocks(Dim1(256), 20<<10); err != nil || n != 120 {
		t.Errorf("MaxCooperativeBlocks with 20 KiB of shared memory = %d, %v; want 120 (3 per multiprocessor)", n, err)
	}
	data := make([]int64, 161*256)
	err = k.LaunchWith(LaunchConfig{Grid: Dim1(161), Block: Dim1(256), Cooperative: true}, data, 1)
	for _, part := range []string{"has 161 blocks", "at most 160 blocks", "40 multiprocessors with 4 such blocks"} {
		if err == nil || !strings.Contains(err.Error(), part) {
			t.Errorf("grid of 161 blocks: %v; want an error with %q", err, part)
		}
	}
	if c := f.Count("cuLaunchCooperativeKernel") + f.Count("cuLaunchKernel"); c != 0 {
		t.Errorf("%d launches reached the driver", c)
	}
	wantLive(t, f, 0, 0)

	dev := fakedriver.DefaultDevice()
	dev.Attrs[driver.AttrCooperativeLaunch] = 0
	fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{dev}})
	if gpus, err := Gpus(); err != nil || gpus[0].Cooperative {
		t.Fatalf("Gpus() = %+v, %v; want a device without cooperative launches", gpus, err)
	}
	if _, err := k.MaxCooperativeBlocks(Dim1(32), 0); err == nil || !strings.Contains(err.Error(), "does not support cooperative launches") {
		t.Errorf("MaxCooperativeBlocks on a device without cooperative launches: %v", err)
	}
	err = k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(32), Cooperative: true}, make([]int64, 32), 1)
	if err == nil || !strings.Contains(err.Error(), "does not support cooperative launches") {
		t.Errorf("cooperative launch on a device without them: %v", err)
	}
}

// The GPU launch path of a grid-syncing kernel: the cooperative entry
// point, one more argument than the Go parameters make, pointing at a
// zeroed counter of its own, freed after the kernel (on the default stream
// and on a stream).
func TestGPUCooperativeLaunchPath(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	var counters []driver.DevicePtr
	f.OnLaunch = func(f *fakedriver.Fake, l fakedriver.Launch) error {
		if !l.Cooperative {
			return fmt.Errorf("launch of %s is not cooperative", l.Function)
		}
		if len(l.Args) != 5 { // data (pointer, length, capacity), rounds, the counter
			return fmt.Errorf("%d arguments, want 5", len(l.Args))
		}
		p := driver.DevicePtr(u64(l.Args[4]))
		b, err := f.Read(p, 4)
		if err != nil {
			return fmt.Errorf("counter %#x: %w", p, err)
		}
		if b[0]|b[1]|b[2]|b[3] != 0 {
			return fmt.Errorf("counter %#x holds % x, want zeros", p, b)
		}
		counters = append(counters, p)
		return nil
	}
	k := Jit(testkernels.GridRotate)
	cfg := LaunchConfig{Grid: Dim1(2), Block: Dim1(64), Cooperative: true}
	if err := k.LaunchWith(cfg, make([]int64, 128), 3); err != nil {
		t.Fatal(err)
	}
	wantLive(t, f, 0, 0)
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Stream = s
	for range 2 {
		if err := k.LaunchWith(cfg, make([]int64, 128), 3); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	wantLive(t, f, 0, 0)
	if len(counters) != 3 || counters[1] == counters[2] {
		t.Errorf("counters %#x; want three, the two queued on the stream distinct", counters)
	}
	if f.Count("cuLaunchCooperativeKernel") != 3 || f.Count("cuLaunchKernel") != 0 || f.Count("cuMemsetD8Async") != 2 {
		t.Errorf("driver calls: %d cooperative launches, %d plain ones, %d async memsets; want 3, 0, 2",
			f.Count("cuLaunchCooperativeKernel"), f.Count("cuLaunchKernel"), f.Count("cuMemsetD8Async"))
	}

	// A kernel that does not sync the grid may be launched cooperatively
	// too: no counter then.
	f.OnLaunch = func(f *fakedriver.Fake, l fakedriver.Launch) error {
		if !l.Cooperative || len(l.Args) != 4 {
			return fmt.Errorf("cooperative launch of %s with %d arguments", l.Function, len(l.Args))
		}
		return nil
	}
	cfg.Stream = nil
	if err := Jit(testkernels.Scale).LaunchWith(cfg, make([]float32, 128), 2); err != nil {
		t.Fatal(err)
	}
}

// A thread that fails while the rest of the grid waits at SyncGrid ends
// the launch with its error on every backend, without a hang.
func TestSyncGridFault(t *testing.T) {
	for _, be := range gridSyncBackends {
		t.Run(be.name, func(t *testing.T) {
			noLeak(t)
			f := (*fakedriver.Fake)(nil)
			if be.name == "simgpu" {
				f = simGPU(t)
			} else {
				be.use(t)
			}
			data := make([]int32, 3*64)
			err := Jit(testkernels.GridSyncFault).LaunchWith(LaunchConfig{Grid: Dim1(3), Block: Dim1(64), Cooperative: true}, data)
			if err == nil {
				t.Fatal("no error")
			}
			if f != nil {
				// The GPU's error is the driver's; the interpreter says which thread.
				if !errors.Is(err, ErrContextLost) {
					t.Errorf("error %v; want a lost context", err)
				}
				if kf := f.KernelFault(); kf == nil || !strings.Contains(kf.Error(), "block (1,0,0) thread (5,0,0)") {
					t.Errorf("kernel fault %v; want block 1 thread 5's", kf)
				}
				f.ClearFaults()
				ForgetGPUFaults()
				return
			}
			var ke *KernelError
			if !errors.As(err, &ke) || ke.Block != (Dim3{X: 1}) || ke.Thread != (Dim3{X: 5}) {
				t.Fatalf("error %v; want block 1 thread 5's *KernelError", err)
			}
		})
	}
}

// A block whose threads all return before a SyncGrid that the others wait
// at is an error, not a hang, on every backend, debug mode or not, naming
// the block that returned and (where the launch knows it) the SyncGrid
// line the others wait at. Only the simulated GPU without debug mode
// cannot say it as a *KernelError: a GPU hangs there, and the fake
// driver's interpreter reports the deadlock as a fault that loses the
// context. The late case returns after passing the first barrier, from a
// block of a 2-D grid; in the by-block case only block 0 calls SyncGrid.
func TestSyncGridBlockExits(t *testing.T) {
	type launch struct {
		name    string
		kernel  any
		cfg     LaunchConfig
		args    func() []any
		block   string // the block named as returned
		line    string // the SyncGrid the others wait at
		waiters []Dim3 // blocks that may report it
	}
	launches := []launch{
		{"early", testkernels.GridSyncBlockExits, LaunchConfig{Grid: Dim1(3), Block: Dim1(32), Cooperative: true},
			func() []any { return []any{make([]int32, 96), make([]int32, 96)} },
			"block (1,0,0) returned before t.SyncGrid", "testkernels/gridsync.go:52", []Dim3{{}, {X: 2}}},
		{"late", testkernels.GridSyncLateBlockExits, LaunchConfig{Grid: Dim2(2, 2), Block: Dim2(8, 4), Cooperative: true},
			func() []any { return []any{make([]int32, 128), make([]int32, 128)} },
			"block (1,1,0) returned before t.SyncGrid", "testkernels/gridsync.go:80", []Dim3{{}, {X: 1}, {Y: 1}}},
		{"by-block", testkernels.GridSyncOneBlock, LaunchConfig{Grid: Dim1(2), Block: Dim1(32), Cooperative: true},
			func() []any { return []any{make([]int32, 64)} },
			"block (1,0,0) returned before t.SyncGrid", "testkernels/gridsync.go:127", []Dim3{{}}},
	}
	for _, be := range gridSyncBackends {
		for _, debug := range []bool{false, true} {
			for _, l := range launches {
				name := be.name + "/" + l.name
				if debug {
					name += "/debug"
				}
				t.Run(name, func(t *testing.T) {
					noLeak(t)
					f := (*fakedriver.Fake)(nil)
					if be.name == "simgpu" {
						f = simGPU(t)
					} else {
						be.use(t)
					}
					var opts []Option
					if debug {
						opts = append(opts, Debug)
					}
					err := Jit(l.kernel, opts...).LaunchWith(l.cfg, l.args()...)
					if f != nil && !debug {
						if !errors.Is(err, ErrContextLost) {
							t.Errorf("error %v; want a lost context", err)
						}
						if kf := f.KernelFault(); kf == nil || !strings.Contains(kf.Error(), l.block) {
							t.Errorf("kernel fault %v; want %q", kf, l.block)
						}
						f.ClearFaults()
						ForgetGPUFaults()
						return
					}
					var ke *KernelError
					if !errors.As(err, &ke) || !strings.Contains(ke.Msg, l.block) {
						t.Fatalf("error %v; want a *KernelError saying %q", err, l.block)
					}
					if !slices.Contains(l.waiters, ke.Block) {
						t.Errorf("reported by block %v; want one of the waiting blocks %v", ke.Block, l.waiters)
					}
					// ptxsim without debug mode knows the PTX line, and the
					// Go one only as far as .loc says.
					if (strings.HasPrefix(be.name, "cpu") || debug) && !strings.Contains(ke.Pos, l.line) {
						t.Errorf("position %q; want the SyncGrid at %s", ke.Pos, l.line)
					}
				})
			}
		}
	}
}

// Blocks that return after the last SyncGrid, and threads that return
// before it while the rest of their block goes on, are fine everywhere,
// in debug mode too: the results are the cpu backend's.
func TestSyncGridExitAfterLast(t *testing.T) {
	cfg := LaunchConfig{Grid: Dim1(4), Block: Dim1(32), Cooperative: true}
	run := func(t *testing.T, opts ...Option) []int32 {
		data, out := make([]int32, 128), make([]int32, 128)
		for i := range data {
			data[i] = int32(i)
		}
		if err := Jit(testkernels.GridSyncAfterLast, opts...).LaunchWith(cfg, data, out); err != nil {
			t.Fatal(err)
		}
		return append(data, out...)
	}
	onBackend(t, CPU)
	want := run(t)
	if want[128+64] == 0 {
		t.Fatal("the cpu backend's result has no value from block 2")
	}
	for _, be := range gridSyncBackends {
		for _, debug := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/debug=%v", be.name, debug), func(t *testing.T) {
				noLeak(t)
				be.use(t)
				var opts []Option
				if debug {
					opts = append(opts, Debug)
				}
				if got := run(t, opts...); !slices.Equal(got, want) {
					t.Errorf("got %v\nwant %v", got, want)
				}
			})
		}
	}
}

// ForAllWith may be cooperative: a grid that fits runs, one that does not
// is refused with the figures.
func TestForAllCooperative(t *testing.T) {
	for _, be := range []Backend{CPU, PTXSim} {
		t.Run(string(be), func(t *testing.T) {
			onBackend(t, be)
			k := Jit(testkernels.GridRotate)
			data := []int64{1, 2, 3, 4, 5}
			if err := k.ForAllWith(len(data), LaunchConfig{Cooperative: true}, data, 2); err != nil {
				t.Fatal(err)
			}
			if want := rotated([]int64{1, 2, 3, 4, 5}, 2); fmt.Sprint(data) != fmt.Sprint(want) {
				t.Errorf("data %v, want %v", data, want)
			}
			big := make([]int64, HostCooperativeThreads+1)
			err := k.ForAllWith(len(big), LaunchConfig{Cooperative: true}, big, 1)
			if err == nil || !strings.Contains(err.Error(), "cooperative grid") || !strings.Contains(err.Error(), "at most 256 blocks") {
				t.Errorf("ForAll over %d threads: %v; want the cooperative limit", len(big), err)
			}
		})
	}
}

// Before compute capability 6.0 there are no cooperative launches: the
// kernel does not compile for such a GPU.
func TestSyncGridNeedsSM60(t *testing.T) {
	onBackend(t, CPU)
	_, err := Jit(testkernels.GridRotate).PTX(52)
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "compute capability 6.0") || !strings.Contains(err.Error(), "gridsync.go:") {
		t.Fatalf("PTX for sm_52: %v; want a *CompileError at the SyncGrid call", err)
	}
	if _, err := Jit(testkernels.GridRotate).PTX(60); err != nil {
		t.Fatalf("PTX for sm_60: %v", err)
	}
}

// TestGPUGridSync runs grid barriers on a real GPU at the device's full
// cooperative grid, many rounds, against the host's result.
func TestGPUGridSync(t *testing.T) {
	realGPU(t)
	k := Jit(testkernels.GridRotate)
	const block = 256
	blocks, err := k.MaxCooperativeBlocks(Dim1(block), 0)
	if err != nil {
		t.Fatal(err)
	}
	if blocks < 1 {
		t.Fatalf("MaxCooperativeBlocks = %d", blocks)
	}
	n := blocks*block - 7
	data := make([]int64, n)
	for i := range data {
		data[i] = int64(i)
	}
	const rounds = 50
	want := rotated(data, rounds)
	if err := k.LaunchWith(LaunchConfig{Grid: Dim1(blocks), Block: Dim1(block), Cooperative: true}, data, rounds); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if data[i] != want[i] {
			t.Fatalf("data[%d] = %d, want %d (grid of %d blocks)", i, data[i], want[i], blocks)
		}
	}
	err = k.LaunchWith(LaunchConfig{Grid: Dim1(blocks + 1), Block: Dim1(block), Cooperative: true}, make([]int64, 8), 1)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d blocks", blocks)) {
		t.Errorf("grid of %d blocks: %v; want the cooperative limit", blocks+1, err)
	}
	if err := k.Launch(Dim1(2), Dim1(32), make([]int64, 64), 1); !errors.Is(err, ErrNotCooperative) {
		t.Errorf("launch without Cooperative: %v; want ErrNotCooperative", err)
	}
}

// BenchmarkSyncGrid times rounds of grid barriers (GridRotate: two
// SyncGrid per round) over 8 blocks of 64 threads on the cpu backend and
// on ptxsim, and reports each one's time per barrier and their ratio.
func BenchmarkSyncGrid(b *testing.B) {
	const blocks, block, rounds = 8, 64, 50
	k := Jit(testkernels.GridRotate)
	data := make([]int64, blocks*block)
	cfg := LaunchConfig{Grid: Dim1(blocks), Block: Dim1(block), Cooperative: true}
	prev, err := CurrentBackend()
	if err != nil {
		prev = CPU
	}
	defer func() { _ = SetBackend(prev) }()
	var spent [2]time.Duration
	for b.Loop() {
		for i, be := range []Backend{CPU, PTXSim} {
			if err := SetBackend(be); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			if err := k.LaunchWith(cfg, data, rounds); err != nil {
				b.Fatal(err)
			}
			spent[i] += time.Since(start)
		}
	}
	barriers := float64(b.N * rounds * 2)
	b.ReportMetric(float64(spent[0].Nanoseconds())/barriers, "cpu-ns/barrier")
	b.ReportMetric(float64(spent[1].Nanoseconds())/barriers, "ptxsim-ns/barrier")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "ptxsim/cpu")
}

// In debug mode a failed check ends its thread; when it ends a whole
// block, the grid barrier the others wait at lets them go, so the launch
// reports the check on the compiled backends, as the cpu backend reports
// the panic, instead of hanging.
func TestSyncGridDebugCheckEndsBlock(t *testing.T) {
	for _, be := range gridSyncBackends {
		t.Run(be.name, func(t *testing.T) {
			be.use(t)
			data := make([]int32, 3*32)
			err := Jit(testkernels.GridSyncBlockFails, Debug).LaunchWith(LaunchConfig{Grid: Dim1(3), Block: Dim1(32), Cooperative: true}, data)
			var ke *KernelError
			if !errors.As(err, &ke) || ke.Block != (Dim3{X: 1}) || !strings.Contains(ke.Msg, "index out of range") {
				t.Fatalf("error %v; want block 1's *KernelError for the index", err)
			}
		})
	}
}

// BenchmarkGPUSyncGrid times grid barriers on a real GPU at the device's
// full cooperative grid of 256-thread blocks: launches of GridRotate with
// 20 rounds (40 barriers) and with none, on a device array, each waited
// for; it reports the time per barrier and its ratio to a whole launch.
func BenchmarkGPUSyncGrid(b *testing.B) {
	benchOnGPU(b)
	k := Jit(testkernels.GridRotate)
	blocks, err := k.MaxCooperativeBlocks(Dim1(256), 0)
	if err != nil {
		b.Fatal(err)
	}
	d, err := NewDeviceArray[int64](blocks * 256)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Free()
	cfg := LaunchConfig{Grid: Dim1(blocks), Block: Dim1(256), Cooperative: true}
	const rounds = 20
	if err := k.LaunchWith(cfg, d, rounds); err != nil { // compiles and loads
		b.Fatal(err)
	}
	var spent [2]time.Duration // without barriers, with
	for b.Loop() {
		for i, r := range []int{0, rounds} {
			start := time.Now()
			if err := k.LaunchWith(cfg, d, r); err != nil {
				b.Fatal(err)
			}
			spent[i] += time.Since(start)
		}
	}
	perBarrier := float64((spent[1] - spent[0]).Nanoseconds()) / float64(b.N*2*rounds)
	b.ReportMetric(perBarrier, "ns/barrier")
	b.ReportMetric(perBarrier*float64(b.N)/float64(spent[0].Nanoseconds()), "barrier/launch")
	b.ReportMetric(float64(blocks), "blocks")
}

// A kernel with func parameters is compiled for the functions passed, so
// MaxCooperativeBlocks takes them, as PTX does; the same count and the same
// refusals hold on every backend, and the limit lets the launch through.
func TestMaxCooperativeBlocksWithFuncs(t *testing.T) {
	for _, be := range []string{"cpu", "ptxsim", "gpu"} {
		t.Run(be, func(t *testing.T) {
			want := HostCooperativeThreads / 64
			switch be {
			case "cpu":
				onBackend(t, CPU)
			case "ptxsim":
				onBackend(t, PTXSim)
			case "gpu":
				simGPU(t)
				want = 40 * 16 // the fake's 40 multiprocessors hold 1024 threads each
			}
			k := Jit(testkernels.GridApplyRotate)
			n, err := k.MaxCooperativeBlocks(Dim1(64), 0, testkernels.Triple)
			if err != nil || n != want {
				t.Fatalf("MaxCooperativeBlocks(64 threads, Triple) = %d, %v; want %d", n, err, want)
			}
			for _, bad := range []struct {
				funcs []any
				err   string
			}{
				{nil, "MaxCooperativeBlocks needs a function for each func parameter (got 0)"},
				{[]any{testkernels.Triple, testkernels.Triple}, "has 1 func parameters, got 2 functions"},
				{[]any{testkernels.Add}, "argument 1"},
			} {
				if _, err := k.MaxCooperativeBlocks(Dim1(64), 0, bad.funcs...); err == nil || !strings.Contains(err.Error(), bad.err) {
					t.Errorf("MaxCooperativeBlocks with %d functions: %v; want an error with %q", len(bad.funcs), err, bad.err)
				}
			}
			if _, err := Jit(testkernels.GridRotate).MaxCooperativeBlocks(Dim1(64), 0, testkernels.Triple); err == nil || !strings.Contains(err.Error(), "has 0 func parameters, got 1 functions") {
				t.Errorf("MaxCooperativeBlocks of a kernel without func parameters, given one: %v", err)
			}
			data := make([]int64, 2*64)
			for i := range data {
				data[i] = int64(i)
			}
			err = k.LaunchWith(LaunchConfig{Grid: Dim1(2), Block: Dim1(64), Cooperative: true}, testkernels.Triple, data)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range data {
				if w := 3 * int64((i+1)%len(data)); v != w {
					t.Fatalf("data[%d] = %d, want %d", i, v, w)
				}
			}
		})
	}
}
