package cuda_test

// The kernel corpus on a real GPU against the CPU backend's results. These
// tests run wherever the GPU backend opens (a device and its driver), skip
// visibly elsewhere, and fail instead of skipping when NUGO_REQUIRE_GPU=1
// (scripts/gpu-check.sh sets it on the GPU machine).

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/primes"
)

// onBackend makes b the backend for the rest of the test.
func onBackend(t *testing.T, b Backend) {
	t.Helper()
	prev, err := CurrentBackend()
	if err != nil {
		prev = CPU
	}
	if err := SetBackend(b); err != nil {
		t.Fatalf("SetBackend(%s): %v", b, err)
	}
	t.Cleanup(func() { _ = SetBackend(prev) })
}

// realGPU selects the GPU backend for the test, or skips (fails with
// NUGO_REQUIRE_GPU=1) when there is none.
func realGPU(t *testing.T) {
	t.Helper()
	if _, err := Gpus(); err != nil {
		if os.Getenv("NUGO_REQUIRE_GPU") == "1" {
			t.Fatalf("NUGO_REQUIRE_GPU=1 but no GPU can be used: %v", err)
		}
		t.Skipf("SKIP GPU test: %v", err)
	}
	onBackend(t, GPU)
}

// corpusCase is a kernel with its launch and a generator of fresh inputs;
// every slice and array argument is compared after the launch. These few
// complement internal/corpus (the shared table every engine runs) with the
// benchmark's kernels, a dynamic shared memory kernel, 3-D arrays and the
// primes kernel across 2^32 (its 32- and 64-bit paths).
type corpusCase struct {
	name        string
	kernel      any
	grid, block Dim3
	shared      int
	args        func() []any
	ulps        int // float tolerance in units in the last place; 0: bitwise
}

func randFloats(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]float64, n)
	for i := range out {
		out[i] = r.NormFloat64() * 100
	}
	return out
}

// extraN is the length of extraKernels' 1-D cases on a GPU.
const extraN = 1 << 16

// extraKernels returns the cases with n elements (a multiple of 512) in the
// 1-D ones; the logs array is (n/128-12)×(n/128-1), 500×511 at extraN.
func extraKernels(n int) []corpusCase {
	grid1 := Dim1((n + 255) / 256)
	logRows, logCols := n/128-12, n/128-1
	return []corpusCase{
		{name: "increment", kernel: testkernels.Increment, grid: grid1, block: Dim1(256),
			args: func() []any { return []any{randFloats(n, 1)} }},
		{name: "vecadd", kernel: testkernels.VecAdd, grid: grid1, block: Dim1(256), args: func() []any {
			a, b := make([]float32, n), make([]float32, n)
			for i, v := range randFloats(n, 2) {
				a[i], b[i] = float32(v), float32(v/3)
			}
			return []any{a, b, make([]float32, n)}
		}},
		{name: "add2d", kernel: testkernels.Add2D, grid: Dim2(20, 9), block: Dim2(16, 16), args: func() []any {
			a, b := NewArray2[float32](300, 130), NewArray2[float32](300, 130)
			for i, v := range randFloats(300*130, 3) {
				a.Data()[i], b.Data()[i] = float32(v), float32(-v*v)
			}
			return []any{a, b, NewArray2[float32](300, 130)}
		}},
		{name: "logs", kernel: testkernels.Logs, grid: Dim2((logRows+15)/16, (logCols+15)/16), block: Dim2(16, 16), ulps: 2,
			args: func() []any { return []any{NewArray2[float64](logRows, logCols)} }},
		{name: "permuted", kernel: testkernels.Permuted, grid: grid1, block: Dim1(256), ulps: 2, args: func() []any {
			perm := make([]int32, n)
			for i, p := range rand.New(rand.NewPCG(4, 5)).Perm(n) {
				perm[i] = int32(p)
			}
			return []any{perm, make([]float64, n)}
		}},
		{name: "movingavg", kernel: testkernels.MovingAverage, grid: grid1, block: Dim1(256),
			args: func() []any { return []any{randFloats(n, 6), 101, make([]float64, n)} }},
		{name: "intops", kernel: testkernels.IntOps, grid: grid1, block: Dim1(256), args: func() []any {
			r := rand.New(rand.NewPCG(8, 9))
			a, b := make([]int64, n), make([]int64, n)
			for i := range a {
				a[i], b[i] = int64(r.Uint64()), r.Int64N(2001)-1000
				if i%5 == 0 {
					a[i] = r.Int64N(200) - 100
				}
			}
			return []any{a, b, make([]int64, n), make([]int8, n), make([]uint32, n)}
		}},
		{name: "blocksum", kernel: testkernels.BlockSum, grid: grid1, block: Dim1(256), args: func() []any {
			x := make([]int64, n)
			for i := range x {
				x[i] = int64(i*i%1000) - 500
			}
			return []any{x, make([]int64, 1)}
		}},
		{name: "reverse", kernel: testkernels.Reverse, grid: Dim1(n / 512), block: Dim1(512), shared: 512 * 4, args: func() []any {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(i)
			}
			return []any{x}
		}},
		{name: "histogram", kernel: testkernels.Histogram, grid: Dim1(32), block: Dim1(128), args: func() []any {
			r := rand.New(rand.NewPCG(10, 11))
			x := make([]uint32, n)
			for i := range x {
				x[i] = r.Uint32()
			}
			return []any{x, make([]int32, 97)}
		}},
		{name: "volume", kernel: testkernels.Volume, grid: Dim3{4, 5, 6}, block: Dim3{8, 8, 4}, args: func() []any {
			return []any{NewArray3[float32](30, 37, 21)}
		}},
		{name: "primes", kernel: primes.Kernel, grid: grid1, block: Dim1(256), args: func() []any {
			return []any{int64(1<<32 - n/2), make([]int64, n)}
		}},
	}
}

// runCase launches c on the current backend (on stream s when not nil) and
// returns its arguments afterwards.
func runCase(c corpusCase, opts []Option, s *Stream) ([]any, error) {
	args := c.args()
	err := Jit(c.kernel, opts...).LaunchWith(LaunchConfig{Grid: c.grid, Block: c.block, SharedMem: c.shared, Stream: s}, args...)
	if err == nil && s != nil {
		err = s.Synchronize()
	}
	return args, err
}

// diff compares two arguments element by element; floats within ulps.
func diff(want, got any, ulps int) error {
	w, g := reflect.ValueOf(want), reflect.ValueOf(got)
	if w.Kind() == reflect.Struct { // Array2, Array3
		w, g = w.MethodByName("Data").Call(nil)[0], g.MethodByName("Data").Call(nil)[0]
	}
	if w.Kind() != reflect.Slice {
		return nil
	}
	bad, first := 0, ""
	for i := range w.Len() {
		a, b := w.Index(i), g.Index(i)
		same := a.Equal(b)
		if !same && a.CanFloat() {
			x, y := a.Float(), b.Float()
			same = math.Abs(x-y) <= float64(ulps)*ulp(x, a.Kind())
		}
		if !same {
			if bad == 0 {
				first = fmt.Sprintf("[%d]: CPU %v, GPU %v", i, a, b)
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d elements differ; first %s", bad, w.Len(), first)
	}
	return nil
}

func ulp(x float64, k reflect.Kind) float64 {
	if k == reflect.Float32 {
		f := float32(x)
		return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
	}
	return math.Nextafter(x, math.Inf(1)) - x
}

func TestGPUExtraKernelsMatchCPU(t *testing.T) {
	realGPU(t)
	cases := extraKernels(extraN)
	if os.Getenv(FakeGPUEnv) == "1" {
		// A dry run's simulated GPU interprets every thread: the sizes of
		// the simulated-GPU test, which take seconds, not minutes.
		cases = simExtraKernels(t)
	}
	extraKernelsMatchCPU(t, cases, nil)
}

// referenceBackend is the backend whose results the GPU must reproduce:
// the CPU backend, except where the Go compiler fuses x*y+z into one
// fused multiply-add (every GOARCH but amd64 and 386 may, arm64 among them,
// as on a Grace Hopper host). There the CPU's float results can differ in
// the last bits from the PTX's separately rounded mul.rn and add.rn, which
// is not a GPU bug, so ptxsim, which runs the same PTX, is the reference
// instead. ptxsim equals the CPU backend bit for bit on amd64, where CI
// compares them.
func referenceBackend() Backend {
	if runtime.GOARCH == "amd64" || runtime.GOARCH == "386" {
		return CPU
	}
	return PTXSim
}

// gpuRuns are the ways the comparisons with the CPU launch each kernel on
// the GPU: on the default stream, on a stream, and compiled with Debug
// (whose checks must stay silent on these valid kernels).
func gpuRuns(s *Stream) []gpuRun {
	return []gpuRun{{"default stream", nil, nil}, {"stream", nil, s}, {"debug", []Option{Debug}, nil}}
}

// gpuRun is one way of launching a kernel: its options and stream.
type gpuRun struct {
	how    string
	opts   []Option
	stream *Stream
}

// extraKernelsMatchCPU runs each case on the CPU backend (the
// referenceBackend), then on the GPU
// backend in every gpuRuns way, and compares every argument. afterCase, when
// not nil, runs at the end of each case's subtest.
func extraKernelsMatchCPU(t *testing.T, cases []corpusCase, afterCase func(t *testing.T)) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if afterCase != nil {
				defer afterCase(t)
			}
			ref := referenceBackend()
			if err := SetBackend(ref); err != nil {
				t.Fatal(err)
			}
			want, err := runCase(c, nil, nil)
			if err != nil {
				t.Fatalf("%s: %v", ref, err)
			}
			if err := SetBackend(GPU); err != nil {
				t.Fatal(err)
			}
			s, err := NewStream()
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range gpuRuns(s) {
				got, err := runCase(c, run.opts, run.stream)
				if err != nil {
					t.Fatalf("GPU (%s): %v", run.how, err)
				}
				for i := range want {
					if err := diff(want[i], got[i], c.ulps); err != nil {
						t.Errorf("GPU (%s), argument %d: %v", run.how, i+1, err)
					}
				}
			}
		})
	}
}

// The whole shared corpus (internal/corpus) on the GPU against the CPU
// backend. Printf cases compare their output lines as a set (the GPU's
// thread order is its own).
func TestGPUCorpusMatchesCPU(t *testing.T) {
	realGPU(t)
	corpusMatchesCPU(t, corpus.All(), nil)
}

// corpusMatchesCPU runs each corpus case on the CPU backend (the
// referenceBackend), then on the GPU backend in every gpuRuns way, and compares the arguments and, for
// Printf cases, the output. afterCase, when not nil, runs at the end of each
// case's subtest.
func corpusMatchesCPU(t *testing.T, cases []corpus.Case, afterCase func(t *testing.T)) {
	if err := SetBackend(GPU); err != nil {
		t.Fatal(err)
	}
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if afterCase != nil {
				defer afterCase(t)
			}
			launch := func(opts []Option, s *Stream) ([]any, string, error) {
				args := c.Args()
				out, err := captureStdout(func() error {
					err := Jit(c.Kernel, opts...).LaunchWith(LaunchConfig{Grid: c.Grid, Block: c.Block, SharedMem: c.SharedMem, Cooperative: c.Cooperative, Stream: s}, args...)
					if err == nil {
						err = Synchronize()
					}
					return err
				})
				return args, out, err
			}
			ref := referenceBackend()
			if err := SetBackend(ref); err != nil {
				t.Fatal(err)
			}
			want, wantOut, err := launch(nil, nil)
			if err != nil {
				t.Fatalf("%s: %v", ref, err)
			}
			if err := SetBackend(GPU); err != nil {
				t.Fatal(err)
			}
			for _, run := range gpuRuns(s) {
				got, gotOut, err := launch(run.opts, run.stream)
				if err != nil {
					t.Fatalf("GPU (%s): %v", run.how, err)
				}
				if err := corpus.Compare(want, got, c.MathULP); err != nil {
					t.Errorf("GPU (%s): %v", run.how, err)
				}
				if c.Printf && !sameLines(wantOut, gotOut) {
					t.Errorf("GPU (%s) printed\n%s\nthe CPU printed\n%s", run.how, gotOut, wantOut)
				}
			}
		})
	}
}

// sameLines reports whether a and b hold the same lines in any order.
func sameLines(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}

func TestGPUDeviceArraysAndStreams(t *testing.T) {
	realGPU(t)
	deviceArraysAndStreams(t, 1<<20)
}

// deviceArraysAndStreams launches ten increments of a device array of n
// float64 (a multiple of 256) on a stream between two events, copies it
// back asynchronously, and checks the values and the elapsed time.
func deviceArraysAndStreams(t *testing.T, n int) {
	x := randFloats(n, 12)
	d, err := ToDevice(x)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	s1, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	start, _ := NewEvent()
	end, _ := NewEvent()
	if err := start.Record(s1); err != nil {
		t.Fatal(err)
	}
	k := Jit(testkernels.Increment)
	for range 10 {
		if err := k.LaunchWith(LaunchConfig{Grid: Dim1(n / 256), Block: Dim1(256), Stream: s1}, d); err != nil {
			t.Fatal(err)
		}
	}
	if err := end.Record(s1); err != nil {
		t.Fatal(err)
	}
	out := make([]float64, n)
	if err := d.CopyToHostAsync(out, s1); err != nil {
		t.Fatal(err)
	}
	if err := s1.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		want := x[i]
		for range 10 {
			want++ // ten roundings, as the kernel does; not x[i]+10
		}
		if out[i] != want {
			t.Fatalf("out[%d] = %v, want %v", i, out[i], want)
		}
	}
	el, err := ElapsedTime(start, end)
	if err != nil || el <= 0 {
		t.Fatalf("ElapsedTime = %v, %v", el, err)
	}
	t.Logf("10 launches over %d float64: %v", n, el)
}

func TestGPUDebugReportsOutOfRange(t *testing.T) {
	realGPU(t)
	debugReportsOutOfRange(t)
}

// debugReportsOutOfRange checks that a debug-mode kernel's out-of-range
// index on the GPU backend is the *KernelError the CPU backend reports, and
// that the context stays usable.
func debugReportsOutOfRange(t *testing.T) {
	onBackend(t, CPU)
	d := make([]int32, 1000)
	cpuErr := Jit(testkernels.OutOfRange).Launch(Dim1(4), Dim1(256), d)
	onBackend(t, GPU)
	gpuErr := Jit(testkernels.OutOfRange, Debug).Launch(Dim1(4), Dim1(256), make([]int32, 1000))
	var ce, ge *KernelError
	if !errors.As(cpuErr, &ce) || !errors.As(gpuErr, &ge) {
		t.Fatalf("CPU: %v; GPU: %v; want kernel errors from both", cpuErr, gpuErr)
	}
	if !strings.HasPrefix(ge.Msg, "index out of range [") || !strings.HasSuffix(ge.Msg, "with length 1000") ||
		!strings.Contains(ge.Pos, "corpus.go:") || ge.Block.X != 3 || ge.Thread.X < 1000-768 {
		t.Fatalf("GPU kernel error %+v (CPU: %+v)", ge, ce)
	}
	// The context is healthy afterwards: the failing thread exited cleanly.
	if err := Jit(testkernels.Increment).Launch(Dim1(1), Dim1(32), make([]float64, 32)); err != nil {
		t.Fatalf("launch after a reported failure: %v", err)
	}
}

// On a real GPU, ForAll's block size comes from the driver's occupancy
// calculator: a whole number of warps, within the device's limit, and the
// grid covers n.
func TestGPUForAll(t *testing.T) {
	realGPU(t)
	onBackend(t, GPU)
	const n = 1<<20 + 3
	hits, block, grid := forAllRun(t, Jit(testkernels.ForAllProbe), n, LaunchConfig{})
	wantEachOnce(t, hits)
	if block <= 0 || block%WarpSize != 0 || block > 1024 || grid != (n+block-1)/block {
		t.Errorf("ForAll(%d): block %d, grid %d", n, block, grid)
	}
	t.Logf("ForAll(%d) chose blocks of %d threads, %d blocks", n, block, grid)
}

// Pinned host memory on a real GPU: registered with the driver, copied
// straight to and from the device on a stream, with a kernel in between.
func TestGPUPinnedMemory(t *testing.T) {
	realGPU(t)
	onBackend(t, GPU)
	const n = 1 << 20
	viaDevice, viaHostArg := pinnedRoundTrip(t, n)
	for i := range n {
		if want := float64(i)/4 + 1; viaDevice[i] != want || viaHostArg[i] != want {
			t.Fatalf("element %d: %v through a device array, %v as a host argument; want %v", i, viaDevice[i], viaHostArg[i], want)
		}
	}
}
