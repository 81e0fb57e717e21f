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
	"fmt"
	"slices"
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
// does not tell, and lifts the poisoning (the fake's and the backend's) so
// that the next case runs.
func reportFault(f *fakedriver.Fake) func(t *testing.T) {
	return func(t *testing.T) {
		if err := f.KernelFault(); err != nil {
			t.Errorf("kernel fault: %v", err)
			f.ClearFaults()
			ForgetGPUFaults()
		}
	}
}

func TestSimGPUCorpusMatchesCPU(t *testing.T) {
	f := simGPU(t)
	cases := corpus.All()
	corpusMatchesCPU(t, cases, reportFault(f))
	if n := len(f.Launches()); n != 3*len(cases) {
		t.Errorf("%d launches reached the fake driver, want 3 for each of %d cases", n, len(cases))
	}
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
	cases := simExtraKernels(t)
	extraKernelsMatchCPU(t, cases, reportFault(f))
	if n := len(f.Launches()); n != 3*len(cases) {
		t.Errorf("%d launches reached the fake driver, want 3 for each of %d cases", n, len(cases))
	}
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
// sticky error a GPU gives where the host waits for the kernel (the copy
// back, or the stream's Synchronize), naming the kernel and saying that
// the device is done for; later calls fail at once, naming the fault.
func TestSimGPUFaultIsStickyDriverError(t *testing.T) {
	cases := []struct {
		name   string
		run    func() error
		call   string
		prefix string
	}{
		{"host slice", func() error {
			return Jit(testkernels.OutOfRange).Launch(Dim1(4), Dim1(256), make([]int32, 1000))
		}, "cuMemcpyDtoH", "launch OutOfRange: cuMemcpyDtoH: CUDA_ERROR_ILLEGAL_ADDRESS (700)"},
		{"device array", func() error {
			d, err := NewDeviceArray[int32](1000)
			if err != nil {
				return err
			}
			return Jit(testkernels.OutOfRange).Launch(Dim1(4), Dim1(256), d)
		}, "cuStreamSynchronize", "launch OutOfRange: cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (700)"},
		{"host slice on a stream", func() error {
			s, err := NewStream()
			if err != nil {
				return err
			}
			err = Jit(testkernels.OutOfRange).LaunchWith(LaunchConfig{Grid: Dim1(4), Block: Dim1(256), Stream: s}, make([]int32, 1000))
			if err != nil {
				return fmt.Errorf("queuing: %w", err)
			}
			return s.Synchronize()
		}, "cuStreamSynchronize", "cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (700)"},
		{"callback on a stream", func() error {
			s, err := NewStream()
			if err != nil {
				return err
			}
			d, err := NewDeviceArray[int32](1000)
			if err != nil {
				return err
			}
			err = Jit(testkernels.OutOfRange).LaunchWith(LaunchConfig{Grid: Dim1(4), Block: Dim1(256), Stream: s}, d)
			if err != nil {
				return fmt.Errorf("queuing: %w", err)
			}
			var got error
			if err := s.AddCallback(func(err error) { got = err }); err != nil {
				return fmt.Errorf("AddCallback: %w", err)
			}
			// The callback's wait meets the fault; Synchronize reports it.
			err = s.Synchronize()
			if got == nil || err == nil || got.Error() != err.Error() {
				return fmt.Errorf("the callback was given %v, Synchronize returned %v; want the same fault", got, err)
			}
			return err
		}, "cuEventSynchronize", "cuEventSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (700)"},
		{"Query of a stream", func() error {
			s, err := NewStream()
			if err != nil {
				return err
			}
			d, err := NewDeviceArray[int32](1000)
			if err != nil {
				return err
			}
			err = Jit(testkernels.OutOfRange).LaunchWith(LaunchConfig{Grid: Dim1(4), Block: Dim1(256), Stream: s}, d)
			if err != nil {
				return fmt.Errorf("queuing: %w", err)
			}
			// cuStreamQuery meets the fault; the stream counts as done, and
			// the Synchronize inside Query reports it, blamed on the kernel.
			done, err := s.Query()
			if !done {
				return fmt.Errorf("Query of a faulted stream = false, %v", err)
			}
			return err
		}, "cuStreamSynchronize", "cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (700)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := simGPU(t)
			err := c.run()
			wantDriverError(t, err, c.call, driver.ErrorIllegalAddress)
			if !errors.Is(err, ErrContextLost) || !strings.HasPrefix(err.Error(), c.prefix) {
				t.Fatalf("got %v, want ErrContextLost starting %q", err, c.prefix)
			}
			wantContains(t, err, []string{"kernel OutOfRange faulted, and the CUDA context of device 0 cannot be used again in this process", "NUGO_DEBUG=1"})
			var ee *ptxsim.ExecError
			if err := f.KernelFault(); !errors.As(err, &ee) || ee.Kernel != "OutOfRange" || ee.Kind != ptxsim.FaultAddress {
				t.Fatalf("KernelFault() = %v, want OutOfRange's store outside its allocation", err)
			}
			calls := len(f.Calls())
			err = Jit(testkernels.Increment).Launch(Dim1(1), Dim1(32), make([]float64, 32))
			wantDriverError(t, err, c.call, driver.ErrorIllegalAddress)
			wantContains(t, err, []string{"launch Increment: the CUDA context of device 0 was lost earlier in this process, when kernel OutOfRange faulted (" + c.call})
			if n := len(f.Calls()); n != calls {
				t.Fatalf("%d driver calls after the fault, want none", n-calls)
			}
		})
	}
}

// A kernel with more registers than a 1024-thread block can hold is
// refused with the figures, and runs with the block its registers allow.
func TestSimGPUKernelRegistersLimitTheBlock(t *testing.T) {
	f := simGPU(t)
	f.SetFuncAttr("Increment", driver.FuncNumRegs, 128)
	k := Jit(testkernels.Increment)
	x := make([]float64, 1024)
	err := k.Launch(Dim1(1), Dim1(1024), x)
	wantContains(t, err, []string{"launch Increment: block (1024,1,1) has 1024 threads; this kernel can run at most 512 per block on device 0 (sm_75), because it uses 128 registers per thread"})
	if err := k.Launch(Dim1(2), Dim1(512), x); err != nil {
		t.Fatal(err)
	}
	for i, v := range x {
		if v != 1 {
			t.Fatalf("x[%d] = %v after one increment", i, v)
		}
	}
	// Without the test's register count, the fake's estimate from the PTX
	// allows the whole block.
	if err := Jit(testkernels.VecAdd).Launch(Dim1(1), Dim1(1024), make([]float32, 1024), make([]float32, 1024), make([]float32, 1024)); err != nil {
		t.Fatal(err)
	}
	wantLive(t, f, 0, 0)
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

// Static shared memory counts against the 48 KiB a kernel may use without
// opting in: 16 KiB static and 32 KiB dynamic fit, 16 and 40 need the
// opt-in (the executing fake knows the kernel's static size from its PTX).
func TestSimGPUStaticAndDynamicSharedMemory(t *testing.T) {
	f := simGPU(t)
	run := func(shared int) ([]float32, error) {
		x := make([]float32, 512)
		for i := range x {
			x[i] = float32(i)
		}
		err := Jit(testkernels.SharedBoth).LaunchWith(LaunchConfig{Grid: Dim1(2), Block: Dim1(256), SharedMem: shared}, x)
		return x, err
	}
	for _, c := range []struct{ shared, setAttr int }{{32 << 10, 0}, {40 << 10, 1}} {
		onBackend(t, CPU)
		want, err := run(c.shared)
		if err != nil {
			t.Fatalf("CPU: %v", err)
		}
		onBackend(t, GPU)
		before := f.Count("cuFuncSetAttribute")
		got, err := run(c.shared)
		if err != nil {
			t.Fatalf("GPU, %d bytes of dynamic shared memory: %v", c.shared, err)
		}
		if err := diff(want, got, 0); err != nil {
			t.Errorf("%d bytes: %v", c.shared, err)
		}
		if n := f.Count("cuFuncSetAttribute") - before; n != c.setAttr {
			t.Errorf("%d bytes: cuFuncSetAttribute called %d times, want %d", c.shared, n, c.setAttr)
		}
	}
}

// Two devices: each loads its own module (its own debug record) and keeps
// its own memory; an array of one device is refused by a launch on the
// other.
func TestSimGPUTwoDevices(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{
		Devices: []fakedriver.DeviceSpec{fakedriver.DefaultDevice(), fakedriver.DefaultDevice()},
		Sim:     &fakedriver.SimConfig{},
	})
	k := Jit(testkernels.OutOfRange, Debug)
	inc := Jit(testkernels.Increment)
	d0, err := ToDevice([]float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	defer d0.Free()
	for dev := range 2 {
		if err := SelectDevice(dev); err != nil {
			t.Fatal(err)
		}
		var ke *KernelError
		if err := k.Launch(Dim1(4), Dim1(256), make([]int32, 1000)); !errors.As(err, &ke) || ke.Block.X != 3 {
			t.Fatalf("device %d: %v, want the kernel error", dev, err)
		}
		if err := k.Launch(Dim1(4), Dim1(250), make([]int32, 1000)); err != nil {
			t.Fatalf("device %d: a clean launch: %v", dev, err)
		}
	}
	err = inc.Launch(Dim1(1), Dim1(32), d0)
	if err == nil || !strings.Contains(err.Error(), "gpu device 0, the launch on gpu device 1") {
		t.Fatalf("launch on device 1 with an array of device 0: %v", err)
	}
	if err := SelectDevice(0); err != nil {
		t.Fatal(err)
	}
	if err := inc.Launch(Dim1(1), Dim1(32), d0); err != nil {
		t.Fatal(err)
	}
	if got, err := d0.ToHost(); err != nil || !equal(got, []float64{2, 3, 4}) {
		t.Fatalf("device 0 array after an increment: %v, %v", got, err)
	}
	if n := f.Count("cuModuleLoadDataEx"); n != 3 {
		t.Fatalf("%d module loads, want 3 (the debug kernel on each device, Increment on device 0: the refused launch is refused before it loads)", n)
	}
}

// Launches from several goroutines at once, on the default stream and on
// their own streams, each on its own data.
func TestSimGPUConcurrentLaunches(t *testing.T) {
	f := simGPU(t)
	const workers, n = 4, 512
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			errs <- func() error {
				var s *Stream
				if w%2 == 1 {
					var err error
					if s, err = NewStream(); err != nil {
						return err
					}
				}
				x := make([]float32, n)
				for i := range x {
					x[i] = float32(i + w)
				}
				k := Jit(testkernels.Scale)
				for range 3 {
					if err := k.LaunchWith(LaunchConfig{Grid: Dim1(n / 128), Block: Dim1(128), Stream: s}, x, float32(2)); err != nil {
						return err
					}
					if s != nil {
						if err := s.Synchronize(); err != nil {
							return err
						}
					}
				}
				for i, v := range x {
					if want := float32(i+w) * 8; v != want {
						return fmt.Errorf("worker %d: x[%d] = %v, want %v", w, i, v, want)
					}
				}
				return nil
			}()
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	wantLive(t, f, 0, 0)
}

// A window of a larger host slice: the kernel sees the window, and only the
// window is written back.
func TestSimGPUHostSubslice(t *testing.T) {
	run := func() ([]float32, error) {
		x := make([]float32, 100)
		for i := range x {
			x[i] = float32(i)
		}
		err := Jit(testkernels.Scale).Launch(Dim1(1), Dim1(64), x[10:20], float32(-1))
		return x, err
	}
	simGPU(t)
	onBackend(t, CPU)
	want, err := run()
	if err != nil {
		t.Fatal(err)
	}
	onBackend(t, GPU)
	got, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if err := diff(want, got, 0); err != nil {
		t.Fatal(err)
	}
}

// Each kind of debug check reaches the host as the CPU backend reports the
// same failure, with Go's runtime message to the letter: the checks below
// fail in one thread each, and the slice expressions, array conversions and
// indices of testkernels.DebugFailures in thread 0.
func TestSimGPUDebugChecksMatchCPU(t *testing.T) {
	simGPU(t)
	cases := []struct {
		name   string
		kernel any
		args   func() []any
	}{
		{"divide", testkernels.DivideBy, func() []any { return []any{make([]int64, 100), int64(0)} }},
		{"shift", testkernels.ShiftBy, func() []any { return []any{make([]int64, 100), -3} }},
		// 128 threads over 127 elements: thread 127 alone is out of range.
		{"index", testkernels.OutOfRange, func() []any { return []any{make([]int32, 127)} }},
		// d[2:i+1] is out of range for thread 0 alone.
		{"slice", testkernels.SumFrom, func() []any { return []any{make([]int32, 100), 2, make([]int32, 100)} }},
	}
	for _, c := range cases {
		var msgs [2]string
		for i, b := range []Backend{CPU, GPU} {
			onBackend(t, b)
			err := Jit(c.kernel, Debug).Launch(Dim1(2), Dim1(64), c.args()...)
			var ke *KernelError
			if !errors.As(err, &ke) || ke.Kernel == "" || ke.Pos == "" {
				t.Fatalf("%s on %s: %v, want a *KernelError with a position", c.name, b, err)
			}
			msgs[i] = ke.Msg
		}
		if msgs[0] != msgs[1] {
			t.Errorf("%s: GPU says %q, the CPU %q", c.name, msgs[1], msgs[0])
		}
	}
	debugMessagesMatchCPU(t, GPU)
}

// NewDeviceArray's memory is zeroed on the GPU as on the CPU, although
// cuMemAlloc does not clear memory (the fake fills it with Garbage): a
// histogram accumulated into fresh device bins counts from zero.
func TestSimGPUNewDeviceArrayIsZeroed(t *testing.T) {
	f := simGPU(t)
	run := func() ([]int32, []float64, error) {
		x := make([]uint32, 4096)
		for i := range x {
			x[i] = uint32(i * i)
		}
		bins, err := NewDeviceArray[int32](97)
		if err != nil {
			return nil, nil, err
		}
		defer bins.Free()
		if err := Jit(testkernels.Histogram).Launch(Dim1(8), Dim1(128), x, bins); err != nil {
			return nil, nil, err
		}
		counts, err := bins.ToHost()
		if err != nil {
			return nil, nil, err
		}
		grid, err := NewDeviceArray[float64](3, 5)
		if err != nil {
			return nil, nil, err
		}
		defer grid.Free()
		fresh, err := grid.ToHost()
		return counts, fresh, err
	}
	onBackend(t, CPU)
	wantCounts, wantFresh, err := run()
	if err != nil {
		t.Fatal(err)
	}
	onBackend(t, GPU)
	counts, fresh, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if err := diff(wantCounts, counts, 0); err != nil {
		t.Errorf("histogram into fresh bins: %v", err)
	}
	if err := diff(wantFresh, fresh, 0); err != nil {
		t.Errorf("a fresh 3×5 array: %v", err)
	}
	// A failure to clear frees the allocation.
	f.Inject(fakedriver.Fault{Call: "cuMemsetD8", Code: driver.ErrorUnknown})
	_, err = NewDeviceArray[float32](16)
	wantDriverError(t, err, "cuMemsetD8", driver.ErrorUnknown)
	wantLive(t, f, 0, 0)
}

// 2-D and 3-D device arrays passed for Array2 and Array3 parameters carry
// their shape to the kernel.
func TestSimGPUShapedDeviceArrays(t *testing.T) {
	f := simGPU(t)
	run := func() ([]float32, []float32, error) {
		a, b := NewArray2[float32](37, 21), NewArray2[float32](37, 21)
		for i := range a.Data() {
			a.Data()[i], b.Data()[i] = float32(i), float32(3*i)
		}
		da, err := ToDevice2(a)
		if err != nil {
			return nil, nil, err
		}
		defer da.Free()
		db, err := ToDevice2(b)
		if err != nil {
			return nil, nil, err
		}
		defer db.Free()
		dc, err := NewDeviceArray[float32](37, 21)
		if err != nil {
			return nil, nil, err
		}
		defer dc.Free()
		if err := Jit(testkernels.Add2D).Launch(Dim2(3, 3), Dim2(16, 16), da, db, dc); err != nil {
			return nil, nil, err
		}
		sum, err := dc.ToHost()
		if err != nil {
			return nil, nil, err
		}
		dv, err := ToDevice3(NewArray3[float32](5, 7, 3))
		if err != nil {
			return nil, nil, err
		}
		defer dv.Free()
		if err := Jit(testkernels.Volume).Launch(Dim3{1, 1, 1}, Dim3{8, 8, 4}, dv); err != nil {
			return nil, nil, err
		}
		vol, err := dv.ToHost()
		return sum, vol, err
	}
	onBackend(t, CPU)
	wantSum, wantVol, err := run()
	if err != nil {
		t.Fatal(err)
	}
	onBackend(t, GPU)
	sum, vol, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if err := diff(wantSum, sum, 0); err != nil {
		t.Errorf("Add2D on device arrays: %v", err)
	}
	if err := diff(wantVol, vol, 0); err != nil {
		t.Errorf("Volume on a device array: %v", err)
	}
	wantLive(t, f, 0, 0)
}

// Kernel printf reaches file descriptor 1 from the executing fake, as from a
// GPU, with the lines the CPU backend prints.
func TestSimGPUPrintf(t *testing.T) {
	simGPU(t)
	c, ok := corpus.Lookup("printf/values")
	if !ok {
		t.Fatal("no corpus case printf/values")
	}
	var outs [2]string
	for i, b := range []Backend{CPU, GPU} {
		onBackend(t, b)
		out, err := captureStdout(func() error {
			if err := Jit(c.Kernel).LaunchWith(LaunchConfig{Grid: c.Grid, Block: c.Block}, c.Args()...); err != nil {
				return err
			}
			return Synchronize()
		})
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		outs[i] = out
	}
	if outs[0] == "" || !sameLines(outs[0], outs[1]) {
		t.Fatalf("GPU printed\n%s\nthe CPU printed\n%s", outs[1], outs[0])
	}
}

// Host arguments that share memory alias on the GPU as on the CPU: the
// kernel's writes through one are read through the other, on the default
// stream and on a stream.
func TestSimGPUOverlappingHostArgumentsAlias(t *testing.T) {
	f := simGPU(t)
	k := Jit(testkernels.Relay)
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range relayCases() {
		var results [][]float32
		for _, run := range []struct {
			be     Backend
			stream *Stream
		}{{CPU, nil}, {GPU, nil}, {GPU, s}} {
			withBackend(t, run.be, func() {
				x, in, out, res := c.args()
				err := k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(relayN), Stream: run.stream}, in, out, res)
				if err == nil && run.stream != nil {
					err = run.stream.Synchronize()
				}
				if err != nil {
					t.Fatalf("%s on %s: %v", c.name, run.be, err)
				}
				results = append(results, append(x, res...))
			})
		}
		for i, how := range []string{"default stream", "stream"} {
			if !slices.Equal(results[0], results[i+1]) {
				t.Errorf("%s: GPU (%s)\n%v\nCPU\n%v", c.name, how, results[i+1], results[0])
			}
		}
	}
	wantLive(t, f, 0, 0)
}
