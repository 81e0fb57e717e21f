package vectorize

import (
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nugo-dev/nugo/cuda"
)

// onStreamBackend makes the named backend current for the test: cpu,
// ptxsim, or simgpu (the GPU backend over the fake driver, whose kernels
// run in ptxsim, asynchronously on streams as on a GPU).
func onStreamBackend(t *testing.T, name string) {
	t.Helper()
	switch name {
	case "cpu":
		onBackend(t, cuda.CPU)
	case "ptxsim":
		onBackend(t, cuda.PTXSim)
	case "simgpu":
		// Where a real GPU is open already the test runs on it instead.
		t.Setenv(cuda.FakeGPUEnv, "1")
		onBackend(t, cuda.GPU)
	default:
		t.Fatalf("unknown backend %q", name)
	}
}

var streamBackends = []string{"cpu", "ptxsim", "simgpu"}

// addOne adds 1 to x.
func addOne(x int64) int64 { return x + 1 }

// sumCore is a "(n)->()" gufunc: the sum of a row.
func sumCore(x []int64, out *int64) {
	var s int64
	for _, v := range x {
		s += v
	}
	*out = s
}

func mustStream(t *testing.T) *cuda.Stream {
	t.Helper()
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustToDevice[T any](t *testing.T, x []T) *cuda.DeviceArray[T] {
	t.Helper()
	d, err := cuda.ToDevice(x)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustToHost[T any](t *testing.T, d *cuda.DeviceArray[T]) []T {
	t.Helper()
	h, err := d.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestStreamCalls: ufunc, gufunc and reduction calls on a stream, with host
// and device operands, give after the stream's Synchronize what the
// synchronous calls give, on every backend.
func TestStreamCalls(t *testing.T) {
	for _, be := range streamBackends {
		t.Run(be, func(t *testing.T) {
			onStreamBackend(t, be)
			s := mustStream(t)
			const n = 3000 // ReduceInto folds it in two launches
			a, b := ramp[int64](n, 1, -7), ramp[int64](n, 3, 2)
			want := make([]int64, n)
			var sum int64
			for i := range want {
				want[i] = a[i] + b[i]
				sum += a[i]
			}
			u := New2(addI, CUDA)
			us := u.On(s)

			// Host slices in and out.
			out := make([]int64, n)
			if err := us.Into(out, a, b); err != nil {
				t.Fatal(err)
			}
			// A broadcast call and a call returning a new array.
			bc := make([]int64, n)
			if err := us.CallInto(Slice(bc), Slice(a), Scalar(int64(100))); err != nil {
				t.Fatal(err)
			}
			r, err := us.Call(Slice(a), Slice(b))
			if err != nil {
				t.Fatal(err)
			}
			// Device arrays in and out: nothing is copied.
			da, dout := mustToDevice(t, a), mustToDevice(t, make([]int64, n))
			if err := us.CallInto(Device(dout), Device(da), Slice(b)); err != nil {
				t.Fatal(err)
			}
			// A gufunc, bound to the stream by its option.
			g, err := GU("(n)->()", sumCore, CUDA, Stream(s))
			if err != nil {
				t.Fatal(err)
			}
			rows := make([]int64, 3)
			if err := g.Into(Of(a[:30], 3, 10), rows); err != nil {
				t.Fatal(err)
			}
			// Reductions into device memory: a 1-element array and one
			// element of a larger one.
			res := mustToDevice(t, []int64{-1})
			if err := ReduceInto(us, res, Slice(a), Init(int64(1000))); err != nil {
				t.Fatal(err)
			}
			four := mustToDevice(t, make([]int64, 4))
			third, err := four.Slice(2, 3)
			if err != nil {
				t.Fatal(err)
			}
			if err := ReduceInto(us, third, Device(da)); err != nil {
				t.Fatal(err)
			}
			empty := mustToDevice(t, []int64{-1})
			if err := ReduceInto(us, empty, Slice([]int64{}), Init(int64(42))); err != nil {
				t.Fatal(err)
			}
			if err := s.Synchronize(); err != nil {
				t.Fatal(err)
			}

			if !slices.Equal(out, want) {
				t.Errorf("Into on the stream: %v..., want %v...", out[:4], want[:4])
			}
			for i := range bc {
				if bc[i] != a[i]+100 {
					t.Fatalf("broadcast on the stream: element %d = %d, want %d", i, bc[i], a[i]+100)
				}
			}
			if !slices.Equal(r.Data, want) {
				t.Errorf("Call on the stream: %v..., want %v...", r.Data[:4], want[:4])
			}
			if got := mustToHost(t, dout); !slices.Equal(got, want) {
				t.Errorf("device CallInto on the stream: %v..., want %v...", got[:4], want[:4])
			}
			for i, v := range rows {
				var w int64
				for _, x := range a[10*i : 10*i+10] {
					w += x
				}
				if v != w {
					t.Errorf("gufunc row %d = %d, want %d", i, v, w)
				}
			}
			if got := mustToHost(t, res); got[0] != sum+1000 {
				t.Errorf("ReduceInto with Init = %d, want %d", got[0], sum+1000)
			}
			if got := mustToHost(t, four); !slices.Equal(got, []int64{0, 0, sum, 0}) {
				t.Errorf("ReduceInto element 2 = %v, want [0 0 %d 0]", got, sum)
			}
			if got := mustToHost(t, empty); got[0] != 42 {
				t.Errorf("ReduceInto of nothing with Init(42) = %d", got[0])
			}

			// Reduce returns its value: it waits for the stream.
			got, err := Reduce(us, a, Init(int64(5)))
			if err != nil || got != sum+5 {
				t.Errorf("Reduce on the stream with Init(5) = %d, %v; want %d", got, err, sum+5)
			}
			// The same calls without a stream agree.
			sync := make([]int64, n)
			if err := u.Into(sync, a, b); err != nil || !slices.Equal(sync, want) {
				t.Errorf("synchronous Into: %v", err)
			}
			res2 := mustToDevice(t, []int64{0})
			if err := ReduceInto(u, res2, Slice(a), Init(int64(-3))); err != nil {
				t.Fatal(err)
			}
			if got := mustToHost(t, res2); got[0] != sum-3 {
				t.Errorf("synchronous ReduceInto = %d, want %d", got[0], sum-3)
			}
		})
	}
}

// TestStreamKernelErrorAtSynchronize: a call on a stream whose kernel
// fails reports it at the stream's Synchronize, naming the function.
func TestStreamKernelErrorAtSynchronize(t *testing.T) {
	for _, be := range streamBackends {
		t.Run(be, func(t *testing.T) {
			onStreamBackend(t, be)
			s := mustStream(t)
			u := New2(foldDiv, CUDA).On(s)
			out := make([]int64, 4)
			if err := u.Into(out, []int64{1, 2, 3, 4}, []int64{1, 0, 1, 1}); err != nil {
				t.Fatalf("the call failed before the kernel ran: %v", err)
			}
			err := s.Synchronize()
			var ke *cuda.KernelError
			if !errors.As(err, &ke) || !strings.Contains(err.Error(), "divide by zero") {
				t.Fatalf("Synchronize: %v; want the kernel's division by zero", err)
			}
		})
	}
}

// TestStreamCallIsAsynchronous: a call on a stream returns before its
// kernel has run. On the cpu backend the function waits for a gate that
// the test opens after the call returns; on ptxsim a callback queued first
// holds the stream until the gate opens. Either way a call that waited for
// its kernel would wait for the gate and time out instead of returning.
// On the GPU backend (the simulated one here), where queuing work waits
// for the stream's callbacks, results staged for host memory reach it at
// the stream's Synchronize, not before.
func TestStreamCallIsAsynchronous(t *testing.T) {
	for _, be := range []string{"cpu", "ptxsim", "simgpu"} {
		t.Run(be, func(t *testing.T) {
			onStreamBackend(t, be)
			s := mustStream(t)
			gate := make(chan struct{})
			var timedOut atomic.Bool
			wait := func() {
				select {
				case <-gate:
				case <-time.After(time.Minute):
					timedOut.Store(true)
				}
			}
			f := addOne
			if be == "cpu" {
				f = func(x int64) int64 { wait(); return x + 1 }
			} else if be == "ptxsim" {
				if err := s.AddCallback(func(error) { wait() }); err != nil {
					t.Fatal(err)
				}
			}
			out := make([]int64, 64)
			x := ramp[int64](64, 1, 0)
			if err := New1(f, CUDA, Stream(s)).Into(out, x); err != nil {
				t.Fatal(err)
			}
			if be == "ptxsim" {
				if done, err := s.Query(); err != nil || done {
					t.Errorf("Query = %v, %v before the gate opened, want false, nil", done, err)
				}
			}
			if be != "cpu" {
				if slices.ContainsFunc(out, func(v int64) bool { return v != 0 }) {
					t.Error("host results were written before the stream ran the kernel")
				}
			}
			close(gate)
			if err := s.Synchronize(); err != nil {
				t.Fatal(err)
			}
			if timedOut.Load() {
				t.Fatal("the call waited for its kernel, which waited for the gate opened after the call")
			}
			for i, v := range out {
				if v != x[i]+1 {
					t.Fatalf("out[%d] = %d after Synchronize, want %d", i, v, x[i]+1)
				}
			}
		})
	}
}

// TestStreamNeedsCUDATarget: the host targets refuse a stream; Auto runs
// a call on a stream on the CUDA target.
func TestStreamNeedsCUDATarget(t *testing.T) {
	onBackend(t, cuda.CPU)
	s := mustStream(t)
	for _, tg := range []Target{CPU, Parallel} {
		err := New2(addI, tg, Stream(s)).Into(make([]int64, 2), []int64{1, 2}, []int64{3, 4})
		if err == nil || !strings.Contains(err.Error(), "a call on a stream needs the cuda or auto target") {
			t.Errorf("target %s on a stream: %v", tg, err)
		}
	}
	out := make([]int64, 2)
	if err := New2(addI).On(s).Into(out, []int64{1, 2}, []int64{3, 4}); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil || !slices.Equal(out, []int64{4, 6}) {
		t.Fatalf("Auto on a stream: %v, %v", out, err)
	}
}

// TestReduceInit: Init starts every target's fold from the value; with a
// non-associative function the CPU target's result is the strict left
// fold from it.
func TestReduceInit(t *testing.T) {
	onBackend(t, cuda.CPU)
	x := ramp[int64](100000, 1, -50)
	for _, tg := range []Target{CPU, Parallel, CUDA} {
		var sum int64
		for _, v := range x {
			sum += v
		}
		got, err := Reduce(New2(addI, tg), x, Init(int64(7)))
		if err != nil || got != sum+7 {
			t.Errorf("target %s: Reduce with Init(7) = %d, %v; want %d", tg, got, err, sum+7)
		}
		got, err = Reduce(New2(addI, tg), nil, Init(int64(7)))
		if err != nil || got != 7 {
			t.Errorf("target %s: Reduce of nothing with Init(7) = %d, %v", tg, got, err)
		}
	}
	small := []int64{3, 1, 4, 1, 5}
	want := int64(2)
	for _, v := range small {
		want = foldSkew(want, v)
	}
	if got, err := Reduce(New2(foldSkew, CPU), small, Init(int64(2))); err != nil || got != want {
		t.Errorf("left fold from Init(2) = %d, %v; want %d", got, err, want)
	}
}

// TestReduceIntoMultiPass folds an array needing two rounds of partial
// results on the device, and checks ReduceInto's refusals.
func TestReduceIntoMultiPass(t *testing.T) {
	onBackend(t, cuda.CPU)
	x := ramp[int64](reduceChunk*reduceChunk*2+5, 1, 3)
	var sum int64
	for _, v := range x {
		sum += v
	}
	u := New2(addI)
	res := mustToDevice(t, []int64{0})
	if err := ReduceInto(u, res, Slice(x)); err != nil {
		t.Fatal(err)
	}
	if got := mustToHost(t, res); got[0] != sum {
		t.Fatalf("ReduceInto of %d elements = %d, want %d", len(x), got[0], sum)
	}
	two := mustToDevice(t, []int64{0, 0})
	if err := ReduceInto(u, two, Slice(x)); err == nil || !strings.Contains(err.Error(), "it must have one") {
		t.Errorf("ReduceInto a 2-element array: %v", err)
	}
	if err := ReduceInto(u, nil, Slice(x)); err == nil {
		t.Error("ReduceInto a nil array succeeded")
	}
	if err := ReduceInto(u, res, Slice([]int64{})); !errors.Is(err, ErrNoIdentity) {
		t.Errorf("ReduceInto of nothing without identity or Init: %v", err)
	}
	if err := ReduceInto(New2(addI).WithIdentity(0), res, Slice([]int64{})); err != nil {
		t.Fatal(err)
	}
	if got := mustToHost(t, res); got[0] != 0 {
		t.Errorf("ReduceInto of nothing with identity 0 = %d", got[0])
	}
	if err := ReduceInto(New2(addI, Parallel), res, Slice(x)); err == nil {
		t.Error("ReduceInto on the Parallel target succeeded")
	}
}

func addC128(x, y complex128) complex128 { return x + y }

// TestReduceIntoElementTypes: ReduceInto with Init for complex, Float16
// and bool elements (the final kernel takes the initial value as a
// parameter of the element type), on every backend.
func TestReduceIntoElementTypes(t *testing.T) {
	for _, be := range streamBackends {
		t.Run(be, func(t *testing.T) {
			onStreamBackend(t, be)
			s := mustStream(t)
			zs := []complex128{1 + 2i, 3 - 1i, -0.5 + 0.25i}
			zres := mustToDevice(t, []complex128{0})
			if err := ReduceInto(New2(addC128).On(s), zres, Slice(zs), Init(complex(10, -10))); err != nil {
				t.Fatal(err)
			}
			hs := []cuda.Float16{cuda.F16(1), cuda.F16(2.5), cuda.F16(-0.5)}
			hres := mustToDevice(t, []cuda.Float16{cuda.F16(0)})
			if err := ReduceInto(New2(haddH).On(s), hres, Slice(hs), Init(cuda.F16(4))); err != nil {
				t.Fatal(err)
			}
			bs := []bool{true, true, false}
			bres := mustToDevice(t, []bool{false})
			if err := ReduceInto(New2(orB).On(s), bres, Slice(bs), Init(false)); err != nil {
				t.Fatal(err)
			}
			bres2 := mustToDevice(t, []bool{false})
			if err := ReduceInto(New2(andB).On(s), bres2, Slice([]bool{}), Init(true)); err != nil {
				t.Fatal(err)
			}
			if err := s.Synchronize(); err != nil {
				t.Fatal(err)
			}
			if got := mustToHost(t, zres)[0]; got != complex(13.5, -8.75) {
				t.Errorf("complex128: %v, want (13.5-8.75i)", got)
			}
			if got := mustToHost(t, hres)[0]; got.Float32() != 7 {
				t.Errorf("Float16: %v, want 7", got.Float32())
			}
			if got := mustToHost(t, bres)[0]; !got {
				t.Error("bool or: false, want true")
			}
			if got := mustToHost(t, bres2)[0]; !got {
				t.Error("bool and of nothing from Init(true): false")
			}
		})
	}
}
