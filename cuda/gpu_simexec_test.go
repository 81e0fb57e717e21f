package cuda_test

// The GPU backend over a fake driver that runs the kernels (fakedriver's
// Config.Sim: nugo's PTX interpreter over the fake's device memory): the
// whole path — compile, module load, the debug record through
// cuModuleGetGlobal, allocation, copies in and out (staged through pinned
// memory on streams), the cuLaunchKernel argument list, dynamic shared
// memory, frees — with real kernel semantics, checked against the CPU
// backend as the tests of gpu_test.go check a real GPU.

import (
	"errors"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
	"github.com/nugo-dev/nugo/internal/ptxsim"
)

// simGPU makes a GPU backend over an executing fake driver the current
// backend for the test.
func simGPU(t *testing.T) *fakedriver.Fake {
	t.Helper()
	return fakeGPU(t, fakedriver.Config{Sim: &fakedriver.SimConfig{}})
}

// reportFault is an afterCase for the comparisons: it reports the
// interpreter's account of a kernel fault, which the driver's sticky error
// does not tell, and lifts the poisoning so that the next case runs.
func reportFault(f *fakedriver.Fake) func(t *testing.T) {
	return func(t *testing.T) {
		if err := f.KernelFault(); err != nil {
			t.Errorf("kernel fault: %v", err)
			f.ClearFaults()
		}
	}
}

func TestSimGPUCorpusMatchesCPU(t *testing.T) {
	f := simGPU(t)
	corpusMatchesCPU(t, corpus.All(), reportFault(f))
	wantLive(t, f, 0, 0)
}

// simExtraKernels is extraKernels at 4096 elements, with the primes case
// cut to 64 numbers across 2^32 (both of its paths still run): the
// interpreter takes minutes for trial division up to 2^16 over thousands of
// numbers, and the race detector (CI) multiplies its time by twenty.
func simExtraKernels(t *testing.T) []corpusCase {
	cases := extraKernels(1 << 12)
	for i := range cases {
		if cases[i].name == "primes" {
			cases[i].grid = Dim1(1)
			cases[i].args = func() []any { return []any{int64(1<<32 - 32), make([]int64, 64)} }
			return cases
		}
	}
	t.Fatal("extraKernels has no primes case to cut down")
	return nil
}

func TestSimGPUExtraKernelsMatchCPU(t *testing.T) {
	f := simGPU(t)
	extraKernelsMatchCPU(t, simExtraKernels(t), reportFault(f))
	wantLive(t, f, 0, 0)
}

func TestSimGPUDeviceArraysAndStreams(t *testing.T) {
	f := simGPU(t)
	deviceArraysAndStreams(t, 1<<12)
	wantLive(t, f, 0, 0)
}

func TestSimGPUDebugReportsOutOfRange(t *testing.T) {
	f := simGPU(t)
	debugReportsOutOfRange(t)
	if err := f.KernelFault(); err != nil {
		t.Fatalf("the debug check let the bad store through: %v", err)
	}
	// On a stream the failure is reported by Synchronize, once; the record
	// is clean for the next launch.
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	k := Jit(testkernels.OutOfRange, Debug)
	if err := k.LaunchWith(LaunchConfig{Grid: Dim1(4), Block: Dim1(256), Stream: s}, make([]int32, 1000)); err != nil {
		t.Fatalf("queuing: %v", err)
	}
	var ke *KernelError
	if err := s.Synchronize(); !errors.As(err, &ke) || ke.Block.X != 3 || !strings.HasSuffix(ke.Msg, "with length 1000") {
		t.Fatalf("Synchronize = %v, want the kernel error", err)
	}
	if err := k.Launch(Dim1(4), Dim1(250), make([]int32, 1000)); err != nil {
		t.Fatalf("a clean launch after a reported failure: %v", err)
	}
	wantLive(t, f, 0, 0)
}

// Without debug checks the same out-of-range store runs past the end of
// the allocation: the interpreter faults, and the backend reports the
// sticky error a GPU gives at the copy back.
func TestSimGPUFaultIsStickyDriverError(t *testing.T) {
	f := simGPU(t)
	err := Jit(testkernels.OutOfRange).Launch(Dim1(4), Dim1(256), make([]int32, 1000))
	wantDriverError(t, err, "cuMemcpyDtoH", driver.ErrorIllegalAddress)
	var ee *ptxsim.ExecError
	if err := f.KernelFault(); !errors.As(err, &ee) || ee.Kernel != "OutOfRange" || ee.Kind != ptxsim.FaultAddress {
		t.Fatalf("KernelFault() = %v, want OutOfRange's store outside its allocation", err)
	}
	f.ClearFaults() // lifts the poisoning, so that the backend closes cleanly
}

// asyncScenario moves data between the host and device arrays on two
// streams — staged copies in both directions, launches on device arrays
// and on a host slice, a device-to-device copy, a partial copy in — and
// returns what reached the host.
func asyncScenario() ([][]float64, error) {
	const n = 1000
	grid, block := Dim1((n+127)/128), Dim1(128)
	s1, err := NewStream()
	if err != nil {
		return nil, err
	}
	s2, err := NewStream()
	if err != nil {
		return nil, err
	}
	x := randFloats(n, 21)
	d, err := ToDeviceAsync(x, s1)
	if err != nil {
		return nil, err
	}
	defer d.Free()
	inc := Jit(testkernels.Increment)
	for range 3 {
		if err := inc.LaunchWith(LaunchConfig{Grid: grid, Block: block, Stream: s1}, d); err != nil {
			return nil, err
		}
	}
	host := randFloats(n, 22)
	if err := inc.LaunchWith(LaunchConfig{Grid: grid, Block: block, Stream: s1}, host); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	if err := d.CopyToHostAsync(out, s1); err != nil {
		return nil, err
	}
	if err := s1.Synchronize(); err != nil {
		return nil, err
	}
	d2, err := NewDeviceArray[float64](n)
	if err != nil {
		return nil, err
	}
	defer d2.Free()
	if err := d2.CopyFrom(d); err != nil {
		return nil, err
	}
	if err := d2.CopyFromHostAsync(randFloats(n, 23), s2); err != nil {
		return nil, err
	}
	if err := inc.LaunchWith(LaunchConfig{Grid: grid, Block: block, Stream: s2}, d2); err != nil {
		return nil, err
	}
	out2 := make([]float64, n)
	if err := d2.CopyToHostAsync(out2, s2); err != nil {
		return nil, err
	}
	// The nil stream finishes s2 first.
	if err := inc.Launch(grid, block, d); err != nil {
		return nil, err
	}
	out3, err := d.ToHost()
	if err != nil {
		return nil, err
	}
	return [][]float64{x, out, host, out2, out3}, nil
}

func TestSimGPUAsyncCopiesMatchCPU(t *testing.T) {
	f := simGPU(t)
	onBackend(t, CPU)
	want, err := asyncScenario()
	if err != nil {
		t.Fatalf("CPU: %v", err)
	}
	onBackend(t, GPU)
	got, err := asyncScenario()
	if err != nil {
		t.Fatalf("GPU: %v", err)
	}
	for i := range want {
		if err := diff(want[i], got[i], 0); err != nil {
			t.Errorf("result %d: %v", i+1, err)
		}
	}
	if n := f.Count("cuMemcpyHtoDAsync"); n < 3 {
		t.Errorf("%d asynchronous copies to the device; the scenario makes 3", n)
	}
	wantLive(t, f, 0, 0)
}

// Arguments of every kind, and a func parameter compiled in and dropped
// from the argument list, reach the kernel as Go passes them.
func TestSimGPUArgumentKinds(t *testing.T) {
	f := simGPU(t)
	a := NewArray2[int32](3, 5)
	x := []float32{0, 1, 2}
	if err := Jit(testkernels.Mixed).Launch(Dim1(2), Dim1(64), x, 1.5, a, int8(-3)); err != nil {
		t.Fatal(err)
	}
	if want := float32(1.5 + 15 - 3); x[0] != want {
		t.Fatalf("Mixed wrote %v, want %v", x[0], want)
	}
	y := []float32{2, 4, 6, -8}
	if err := Jit(testkernels.MixedFunc).Launch(Dim1(1), Dim1(32), y, testkernels.Halve, int8(7)); err != nil {
		t.Fatal(err)
	}
	for i, v := range []float32{2, 4, 6, -8} {
		if want := testkernels.Halve(v) + 7; y[i] != want {
			t.Fatalf("MixedFunc: y[%d] = %v, want %v", i, y[i], want)
		}
	}
	wantLive(t, f, 0, 0)
}

// More than 48 KiB of dynamic shared memory: the kernel is opted in and
// its blocks get the memory.
func TestSimGPULargeDynamicSharedMemory(t *testing.T) {
	f := simGPU(t)
	x := make([]float32, 1024)
	for i := range x {
		x[i] = float32(i)
	}
	err := Jit(testkernels.Reverse).LaunchWith(LaunchConfig{Grid: Dim1(4), Block: Dim1(256), SharedMem: 60 << 10}, x)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range x {
		if want := float32(i/256*256 + 255 - i%256); v != want {
			t.Fatalf("x[%d] = %v, want %v", i, v, want)
		}
	}
	if n := f.Count("cuFuncSetAttribute"); n != 1 {
		t.Fatalf("cuFuncSetAttribute called %d times, want 1", n)
	}
}
