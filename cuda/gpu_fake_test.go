package cuda_test

// The GPU backend over the fake driver (package fakedriver): the launch path,
// argument packing, caching, error mapping, streams and events, and the debug
// record, on machines without a GPU. The fake does not run kernels; where a
// test needs results, an OnLaunch hook plays the kernel on fake device memory.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// fakeGPU makes a GPU backend over a new fake driver the current backend for
// the test.
func fakeGPU(t testing.TB, cfg fakedriver.Config) *fakedriver.Fake {
	t.Helper()
	f := fakedriver.New(cfg)
	UseGPUDriver(t, f)
	return f
}

// u64 reads a recorded launch argument (at most 8 bytes, little-endian).
func u64(b []byte) uint64 {
	var w [8]byte
	copy(w[:], b)
	return binary.LittleEndian.Uint64(w[:])
}

// scaleHook plays testkernels.Scale: data[i] *= f for every element.
func scaleHook(f *fakedriver.Fake, l fakedriver.Launch) error {
	if l.Function != "Scale" {
		return nil
	}
	ptr, n, factor := driver.DevicePtr(u64(l.Args[0])), int(u64(l.Args[1])), math.Float32frombits(uint32(u64(l.Args[3])))
	b, err := f.Read(ptr, 4*n)
	if err != nil {
		return err
	}
	for i := range n {
		v := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v*factor))
	}
	return f.Write(ptr, b)
}

// wantDriverError checks that err carries a *DriverError from call with code.
func wantDriverError(t *testing.T, err error, call string, code driver.Result) *DriverError {
	t.Helper()
	var de *DriverError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a *cuda.DriverError %s from %s", err, code.Name(), call)
	}
	if de.Call != call || de.Code != int(code) || de.Name != code.Name() || de.Message == "" {
		t.Fatalf("got %+v, want %s (%d) from %s", de, code.Name(), int(code), call)
	}
	return de
}

// wantLive checks the fake's outstanding allocations.
func wantLive(t *testing.T, f *fakedriver.Fake, allocs, hostAllocs int) {
	t.Helper()
	if l := f.Live(); l.Allocs != allocs || l.HostAllocs != hostAllocs {
		t.Fatalf("live %+v; want %d device and %d pinned host allocations", l, allocs, hostAllocs)
	}
}

func TestGPULaunchPacksArguments(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	x := []float32{1, 2, 3, 4, 5, 6, 7}
	a := NewArray2[int32](3, 5)
	for i := range a.Data() {
		a.Data()[i] = int32(i * i)
	}
	var seen [][]byte // device memory behind each pointer argument, at launch
	f.OnLaunch = func(f *fakedriver.Fake, l fakedriver.Launch) error {
		for _, i := range []int{0, 4} { // ptr of x, ptr of a
			b, err := f.Read(driver.DevicePtr(u64(l.Args[i])), int(u64(l.Args[i+1]))*4)
			if err != nil {
				return err
			}
			seen = append(seen, b)
		}
		return nil
	}
	k := Jit(testkernels.Mixed)
	args := []any{x, 1.5, a, -3}
	if err := k.Launch(Dim1(2), Dim1(64), args...); err != nil {
		t.Fatal(err)
	}
	ls := f.Launches()
	if len(ls) != 1 {
		t.Fatalf("%d launches recorded, want 1", len(ls))
	}
	l := ls[0]
	if l.Function != "Mixed" || l.Grid != (driver.Dim3{X: 2, Y: 1, Z: 1}) || l.Block != (driver.Dim3{X: 64, Y: 1, Z: 1}) || l.SharedMem != 0 || l.Stream != 0 {
		t.Fatalf("launch %+v", l)
	}
	// The packed buffer is exactly what packParams makes for the addresses
	// the backend used, one driver argument per PTX parameter.
	addrs := []uint64{u64(l.Args[0]), 0, u64(l.Args[4]), 0}
	want, m, err := PackForTest(k, args, addrs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(l.Params, want) {
		t.Fatalf("packed parameters\n%x\nwant\n%x", l.Params, want)
	}
	nPTX := 0
	for _, p := range m.Params {
		nPTX += len(p.PTX)
	}
	if len(l.Args) != nPTX {
		t.Fatalf("%d driver arguments, want one per PTX parameter (%d)", len(l.Args), nPTX)
	}
	// The host data was on the device at launch time.
	if len(seen) != 2 || !bytes.Equal(seen[0], bytesOf(x)) || !bytes.Equal(seen[1], bytesOf(a.Data())) {
		t.Fatalf("device memory at launch %v, want the host slices", seen)
	}
	if addrs[0] == 0 || addrs[2] == 0 || addrs[0] == addrs[2] {
		t.Fatalf("pointer arguments %#x, %#x", addrs[0], addrs[2])
	}
	wantLive(t, f, 0, 0)
}

func bytesOf[T int32 | float32](s []T) []byte {
	b := make([]byte, 4*len(s))
	for i, v := range s {
		var u uint32
		switch v := any(v).(type) {
		case int32:
			u = uint32(v)
		case float32:
			u = math.Float32bits(v)
		}
		binary.LittleEndian.PutUint32(b[4*i:], u)
	}
	return b
}

func TestGPUHostSlicesAndDeviceArrays(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	f.OnLaunch = scaleHook
	k := Jit(testkernels.Scale)
	host := []float32{1, 2, 3, 4}
	if err := k.Launch(Dim1(1), Dim1(32), host, 2); err != nil {
		t.Fatal(err)
	}
	if want := []float32{2, 4, 6, 8}; !equal(host, want) {
		t.Fatalf("host slice after launch %v, want %v", host, want)
	}
	wantLive(t, f, 0, 0)

	d, err := ToDevice([]float32{1, 10, 100})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := k.Launch(Dim1(1), Dim1(32), d, float32(0.5)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := d.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{0.125, 1.25, 12.5}; !equal(got, want) {
		t.Fatalf("device array after launches %v, want %v", got, want)
	}
	if f.Count("cuMemcpyHtoD") != 2 || f.Count("cuMemcpyDtoH") != 2 {
		t.Fatalf("copies: %d in, %d out; device arrays must not be copied by Launch", f.Count("cuMemcpyHtoD"), f.Count("cuMemcpyDtoH"))
	}
	// An empty host slice needs no device memory.
	if err := k.Launch(Dim1(1), Dim1(32), []float32{}, 2); err != nil {
		t.Fatal(err)
	}
	wantLive(t, f, 1, 0)
	if err := d.Free(); err != nil {
		t.Fatal(err)
	}
	if err := d.Free(); err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuMemFree"); n != 2 {
		t.Fatalf("cuMemFree called %d times, want 2 (one temporary, one array freed twice)", n)
	}
	wantLive(t, f, 0, 0)
	if err := k.Launch(Dim1(1), Dim1(32), d, 1); !errors.Is(err, ErrFreed) {
		t.Fatalf("launch with a freed array = %v, want ErrFreed", err)
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestGPUUnreachableArrayIsFreed(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	func() {
		if _, err := NewDeviceArray[float64](1000); err != nil {
			t.Fatal(err)
		}
	}()
	wantLive(t, f, 1, 0)
	for i := 0; i < 100 && f.Live().Allocs != 0; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	wantLive(t, f, 0, 0)
}

func TestGPUCompilesAndLoadsOncePerDeviceAndTarget(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{fakedriver.DefaultDevice(), fakedriver.DefaultDevice()}})
	k := Jit(testkernels.Scale)
	data := make([]float32, 8)
	for range 3 {
		if err := k.Launch(Dim1(1), Dim1(8), data, 1); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.Count("cuModuleLoadDataEx"); n != 1 {
		t.Fatalf("%d module loads for three launches, want 1", n)
	}
	if err := Jit(testkernels.Scale, Debug).Launch(Dim1(1), Dim1(8), data, 1); err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuModuleLoadDataEx"); n != 2 {
		t.Fatalf("%d module loads after a debug launch, want 2 (another target)", n)
	}
	if err := SelectDevice(1); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := k.Launch(Dim1(1), Dim1(8), data, 1); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.Count("cuModuleLoadDataEx"); n != 3 {
		t.Fatalf("%d module loads after launching on device 1, want 3", n)
	}
	// Compile loads eagerly on the selected device; the launch then reuses it.
	k2, err := Compile(testkernels.Increment)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuModuleLoadDataEx"); n != 4 {
		t.Fatalf("%d module loads after Compile, want 4", n)
	}
	if err := k2.Launch(Dim1(1), Dim1(8), make([]float64, 8)); err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuModuleLoadDataEx"); n != 4 {
		t.Fatalf("%d module loads after launching a compiled kernel, want 4", n)
	}
	if err := SelectDevice(2); err == nil || !strings.Contains(err.Error(), "device 2 does not exist") {
		t.Fatalf("SelectDevice(2) = %v", err)
	}
}

func TestGPUDevicesAndLimits(t *testing.T) {
	small := fakedriver.DefaultDevice()
	small.Name = "small"
	small.Attrs[driver.AttrMaxThreadsPerBlock] = 512
	small.Attrs[driver.AttrComputeCapabilityMajor] = 8
	small.Attrs[driver.AttrComputeCapabilityMinor] = 6
	f := fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{small}})
	gpus, err := Gpus()
	if err != nil {
		t.Fatal(err)
	}
	if len(gpus) != 1 {
		t.Fatalf("Gpus() = %+v", gpus)
	}
	g := gpus[0]
	if g.Name != "small" || g.ComputeCapability != [2]int{8, 6} || g.Multiprocessors != 40 || g.MaxThreadsPerBlock != 512 ||
		g.TotalMemory != 1<<30 || g.WarpSize != 32 || g.SharedMemPerBlock != 48<<10 || g.MaxBlock != (Dim3{1024, 1024, 64}) {
		t.Fatalf("device %+v", g)
	}
	if b, err := CurrentBackend(); err != nil || b != GPU {
		t.Fatalf("CurrentBackend = %v, %v", b, err)
	}
	err = Jit(testkernels.Scale).Launch(Dim1(1), Dim1(1024), make([]float32, 4), 1)
	if err == nil || !strings.Contains(err.Error(), "at most 512") {
		t.Fatalf("launch of 1024 threads on a 512-thread device = %v", err)
	}
	if n := f.Count("cuLaunchKernel"); n != 0 {
		t.Fatalf("a launch beyond the device's limits reached the driver")
	}
	ptx, err := Jit(testkernels.Scale).PTX(86)
	if err != nil || !strings.Contains(ptx, "sm_86") {
		t.Fatalf("PTX(86): %v", err)
	}
	if err := Jit(testkernels.Scale).Launch(Dim1(1), Dim1(4), make([]float32, 4), 1); err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuModuleLoadDataEx"); n != 1 {
		t.Fatal("no module loaded")
	}
}

func TestGPUDynamicSharedMemory(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	k := Jit(testkernels.Reverse)
	x := make([]float32, 256)
	for _, shared := range []int{1 << 10, 60 << 10, 60 << 10, 62 << 10} {
		if err := k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(256), SharedMem: shared}, x); err != nil {
			t.Fatalf("%d bytes: %v", shared, err)
		}
	}
	ls := f.Launches()
	if len(ls) != 4 || ls[1].SharedMem != 60<<10 || ls[3].SharedMem != 62<<10 {
		t.Fatalf("launches %+v", ls)
	}
	if n := f.Count("cuFuncSetAttribute"); n != 2 {
		t.Fatalf("cuFuncSetAttribute called %d times, want 2 (opt-in above 48 KiB, raised once more)", n)
	}
	err := k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(256), SharedMem: 65 << 10}, x)
	if err == nil || !strings.Contains(err.Error(), "dynamic shared memory") {
		t.Fatalf("launch beyond the opt-in limit = %v", err)
	}
}

func TestGPUAllocationFailureFreesWhatItAllocated(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuMemAlloc", Code: driver.ErrorOutOfMemory, After: 1})
	// Host arguments are copied in address order (see hostSpans), so the
	// three come from one array, in order and apart: the second copy is
	// then b's. Separate makes may lie in any order (they did under -race).
	buf := make([]float32, 5*16)
	a, b, c := buf[0:16:16], buf[32:48:48], buf[64:80:80]
	err := Jit(testkernels.VecAdd).Launch(Dim1(1), Dim1(16), a, b, c)
	wantDriverError(t, err, "cuMemAlloc", driver.ErrorOutOfMemory)
	if !strings.Contains(err.Error(), "launch VecAdd: argument 2") {
		t.Fatalf("error %q does not name the kernel and the argument", err)
	}
	wantLive(t, f, 0, 0)
	if n := f.Count("cuLaunchKernel"); n != 0 {
		t.Fatal("the kernel was launched after an allocation failed")
	}

	// A real shortage: the device has 1 GiB.
	_, err = NewDeviceArray[float64](1 << 28)
	wantDriverError(t, err, "cuMemAlloc", driver.ErrorOutOfMemory)
	wantLive(t, f, 0, 0)

	// Asynchronous: the staging buffers go as well.
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	f.Inject(fakedriver.Fault{Call: "cuMemAlloc", Code: driver.ErrorOutOfMemory, After: 2})
	err = Jit(testkernels.VecAdd).LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(16), Stream: s}, a, b, c)
	wantDriverError(t, err, "cuMemAlloc", driver.ErrorOutOfMemory)
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	wantLive(t, f, 0, 0)
}

func TestGPUInvalidPTXReportsTheLog(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	const log = "ptxas application ptx input, line 12; error   : Arguments mismatch for instruction 'mul'"
	f.Inject(fakedriver.Fault{Call: "cuModuleLoadDataEx", Code: driver.ErrorInvalidPTX, Log: log})
	k := Jit(testkernels.Scale)
	err := k.Launch(Dim1(1), Dim1(4), make([]float32, 4), 1)
	de := wantDriverError(t, err, "cuModuleLoadDataEx", driver.ErrorInvalidPTX)
	if !strings.Contains(de.Message, log) || !strings.Contains(err.Error(), "launch Scale: load on device 0 (sm_75)") {
		t.Fatalf("error %q lacks the JIT log or the context", err)
	}
	if l := f.Live(); l.Modules != 0 || l.Allocs != 0 {
		t.Fatalf("live after a failed load: %+v", l)
	}
	// A failed load is not cached: the next launch loads again.
	if err := k.Launch(Dim1(1), Dim1(4), make([]float32, 4), 1); err != nil {
		t.Fatal(err)
	}
	// A module without the entry, or without the record in debug mode.
	f.Inject(fakedriver.Fault{Call: "cuModuleGetFunction", Code: driver.ErrorNotFound})
	err = Jit(testkernels.Increment).Launch(Dim1(1), Dim1(4), make([]float64, 4))
	wantDriverError(t, err, "cuModuleGetFunction", driver.ErrorNotFound)
	f.Inject(fakedriver.Fault{Call: "cuModuleGetGlobal", Code: driver.ErrorNotFound})
	err = Jit(testkernels.OutOfRange, Debug).Launch(Dim1(1), Dim1(4), make([]int32, 4))
	wantDriverError(t, err, "cuModuleGetGlobal", driver.ErrorNotFound)
	if l := f.Live(); l.Modules != 1 || l.Allocs != 0 {
		t.Fatalf("live after failed loads: %+v; want only Scale's module", l)
	}
}

func TestGPULaunchFailure(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuLaunchKernel", Code: driver.ErrorLaunchOutOfRes})
	err := Jit(testkernels.VecAdd).Launch(Dim1(1), Dim1(16), make([]float32, 16), make([]float32, 16), make([]float32, 16))
	wantDriverError(t, err, "cuLaunchKernel", driver.ErrorLaunchOutOfRes)
	wantLive(t, f, 0, 0)
	// A fault inside a kernel: see TestGPUKernelFaultEndsTheDevice.
}

func TestGPUCopyFailures(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	host := []int64{1, 2, 3}
	f.Inject(fakedriver.Fault{Call: "cuMemcpyHtoD", Code: driver.ErrorUnknown})
	_, err := ToDevice(host)
	wantDriverError(t, err, "cuMemcpyHtoD", driver.ErrorUnknown)
	wantLive(t, f, 0, 0)

	d, err := ToDevice(host)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	f.Inject(fakedriver.Fault{Call: "cuMemcpyDtoH", Code: driver.ErrorUnknown})
	wantDriverError(t, d.CopyToHost(make([]int64, 3)), "cuMemcpyDtoH", driver.ErrorUnknown)
	d2, err := NewDeviceArray[int64](3)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Free()
	f.Inject(fakedriver.Fault{Call: "cuMemcpyDtoD", Code: driver.ErrorUnknown})
	wantDriverError(t, d2.CopyFrom(d), "cuMemcpyDtoD", driver.ErrorUnknown)
	if err := d2.CopyFrom(d); err != nil {
		t.Fatal(err)
	}
	if got, err := d2.ToHost(); err != nil || !equal(got, host) {
		t.Fatalf("device-to-device copy gave %v, %v", got, err)
	}

	// Copies back after a launch: the temporaries are freed all the same.
	f.Inject(fakedriver.Fault{Call: "cuMemcpyDtoH", Code: driver.ErrorUnknown})
	err = Jit(testkernels.Scale).Launch(Dim1(1), Dim1(4), make([]float32, 4), 1)
	wantDriverError(t, err, "cuMemcpyDtoH", driver.ErrorUnknown)
	wantLive(t, f, 2, 0)

	// Asynchronous copies: staging allocation and the copy itself.
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	f.Inject(fakedriver.Fault{Call: "cuMemHostAlloc", Code: driver.ErrorOutOfMemory})
	wantDriverError(t, d.CopyFromHostAsync(host, s), "cuMemHostAlloc", driver.ErrorOutOfMemory)
	f.Inject(fakedriver.Fault{Call: "cuMemcpyDtoHAsync", Code: driver.ErrorUnknown})
	wantDriverError(t, d.CopyToHostAsync(make([]int64, 3), s), "cuMemcpyDtoHAsync", driver.ErrorUnknown)
	f.Inject(fakedriver.Fault{Call: "cuMemcpyHtoDAsync", Code: driver.ErrorUnknown})
	wantDriverError(t, d.CopyFromHostAsync(host, s), "cuMemcpyHtoDAsync", driver.ErrorUnknown)
	wantLive(t, f, 2, 0)
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}

func TestGPUStreamsAndEvents(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{LaunchTimeMS: 2.5})
	f.OnLaunch = scaleHook
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	in := []float32{1, 2, 3}
	d, err := ToDeviceAsync(in, s)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	in[0] = 100 // the copy was staged: the device keeps 1
	start, err := NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	end, _ := NewEvent()
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	k := Jit(testkernels.Scale)
	host := []float32{1, 1}
	for range 2 {
		if err := k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(4), Stream: s}, d, 2); err != nil {
			t.Fatal(err)
		}
	}
	if err := k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(4), Stream: s}, host, 3); err != nil {
		t.Fatal(err)
	}
	out := make([]float32, 3)
	if err := d.CopyToHostAsync(out, s); err != nil {
		t.Fatal(err)
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	if out[0] != 0 || host[0] != 1 {
		t.Fatalf("results arrived before Synchronize: out %v, host %v", out, host)
	}
	for _, l := range f.Launches() {
		if l.Stream == 0 {
			t.Fatalf("a stream launch went to the default stream: %+v", l)
		}
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if want := []float32{4, 8, 12}; !equal(out, want) {
		t.Fatalf("out = %v, want %v", out, want)
	}
	if want := []float32{3, 3}; !equal(host, want) {
		t.Fatalf("host slice of an async launch = %v, want %v", host, want)
	}
	wantLive(t, f, 1, 0)
	if n := f.Count("cuMemHostAlloc"); n != 3 {
		t.Fatalf("%d staging buffers, want 3 (one per async copy, one shared by a host slice's copies in and out)", n)
	}
	el, err := ElapsedTime(start, end)
	if err != nil {
		t.Fatal(err)
	}
	if el != 7500*time.Microsecond {
		t.Fatalf("elapsed %v, want 7.5ms (three launches of the fake's 2.5 ms)", el)
	}
	if err := end.Synchronize(); err != nil {
		t.Fatal(err)
	}
	never, _ := NewEvent()
	if err := never.Synchronize(); err == nil || !strings.Contains(err.Error(), "never recorded") {
		t.Fatalf("Synchronize of an unrecorded event = %v", err)
	}
	if _, err := ElapsedTime(start, never); err == nil {
		t.Fatal("ElapsedTime with an unrecorded event succeeded")
	}

	// The default stream finishes other streams' pending work first.
	if err := d.CopyToHostAsync(out, s); err != nil {
		t.Fatal(err)
	}
	clear(out)
	if err := k.Launch(Dim1(1), Dim1(4), d, 1); err != nil {
		t.Fatal(err)
	}
	if out[2] != 12 {
		t.Fatalf("out = %v after a default-stream launch; the stream's copy should have completed", out)
	}
	wantLive(t, f, 1, 0)

	// Driver failures of stream calls.
	f.Inject(fakedriver.Fault{Call: "cuStreamCreate", Code: driver.ErrorOutOfMemory})
	_, err = NewStream()
	wantDriverError(t, err, "cuStreamCreate", driver.ErrorOutOfMemory)
	f.Inject(fakedriver.Fault{Call: "cuEventCreate", Code: driver.ErrorOutOfMemory})
	_, err = NewEvent()
	wantDriverError(t, err, "cuEventCreate", driver.ErrorOutOfMemory)
	f.Inject(fakedriver.Fault{Call: "cuEventRecord", Code: driver.ErrorInvalidHandle})
	wantDriverError(t, start.Record(nil), "cuEventRecord", driver.ErrorInvalidHandle)
	f.Inject(fakedriver.Fault{Call: "cuEventElapsedTime", Code: driver.ErrorNotReady})
	_, err = ElapsedTime(start, end)
	wantDriverError(t, err, "cuEventElapsedTime", driver.ErrorNotReady)
	f.Inject(fakedriver.Fault{Call: "cuStreamSynchronize", Code: driver.ErrorInvalidHandle})
	wantDriverError(t, s.Synchronize(), "cuStreamSynchronize", driver.ErrorInvalidHandle)
	f.Inject(fakedriver.Fault{Call: "cuCtxSynchronize", Code: driver.ErrorUnknown})
	wantDriverError(t, Synchronize(), "cuCtxSynchronize", driver.ErrorUnknown)
	// A kernel fault ends the device: later calls name it.
	f.Inject(fakedriver.Fault{Call: "cuStreamSynchronize", Code: driver.ErrorLaunchFailed})
	err = s.Synchronize()
	wantDriverError(t, err, "cuStreamSynchronize", driver.ErrorLaunchFailed)
	if !errors.Is(err, ErrContextLost) {
		t.Fatalf("a launch failure on a stream = %v, want ErrContextLost", err)
	}
	err = Synchronize()
	wantDriverError(t, err, "cuStreamSynchronize", driver.ErrorLaunchFailed)
	if !errors.Is(err, ErrContextLost) || !strings.Contains(err.Error(), "was lost earlier") {
		t.Fatalf("Synchronize after the fault = %v, want the fault named", err)
	}
}

func TestGPUStreamsAndEventsAreReleased(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	func() {
		for range 3 {
			if _, err := NewStream(); err != nil {
				t.Fatal(err)
			}
			if _, err := NewEvent(); err != nil {
				t.Fatal(err)
			}
		}
	}()
	for i := 0; i < 100 && (f.Live().Streams != 0 || f.Live().Events != 0); i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if l := f.Live(); l.Streams != 0 || l.Events != 0 {
		t.Fatalf("live %+v: unreachable streams and events were not destroyed", l)
	}
}

// recordHook plays a debug-mode kernel whose thread (232,0,0) of block
// (3,0,0) indexes element 1000 of 1000 at check site 0.
func recordHook(f *fakedriver.Fake, l fakedriver.Launch) error {
	return writeRecord(f, l, compiler.ErrIndex)
}

// writeRecord fills the launch's debug record as a failing check with code
// would in thread (232,0,0) of block (3,0,0), at site 0, its values all 1000.
func writeRecord(f *fakedriver.Fake, l fakedriver.Launch, code int) error {
	p, n, err := f.ModuleGetGlobal(l.Module, compiler.ErrorSymbol)
	if err != nil {
		return err
	}
	rec := make([]byte, n)
	copy(rec, compiler.EncodeRecord(code, 0, false, [3]int{3, 0, 0}, [3]int{232, 0, 0}, 1000, 1000, 1000, 1000, 1000, 1000))
	return f.Write(p, rec)
}

func TestGPUDebugRecordBecomesKernelError(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	k := Jit(testkernels.OutOfRange, Debug)
	d := make([]int32, 1000)
	if err := k.Launch(Dim1(4), Dim1(256), d); err != nil {
		t.Fatalf("a launch without a recorded failure: %v", err)
	}
	f.OnLaunch = recordHook
	err := k.Launch(Dim1(4), Dim1(256), d)
	var ke *KernelError
	if !errors.As(err, &ke) {
		t.Fatalf("got %v, want a *KernelError", err)
	}
	if ke.Kernel != "OutOfRange" || ke.Block != (Dim3{3, 0, 0}) || ke.Thread != (Dim3{232, 0, 0}) ||
		ke.Msg != "index out of range [1000] with length 1000" || !strings.Contains(ke.Pos, "corpus.go:") {
		t.Fatalf("kernel error %+v", ke)
	}
	if !strings.Contains(err.Error(), "launch OutOfRange: block (3,0,0) thread (232,0,0): index out of range [1000] with length 1000 at ") {
		t.Fatalf("error text %q", err)
	}
	wantLive(t, f, 0, 0)

	// The record was zeroed: a clean launch reports nothing.
	f.OnLaunch = nil
	if err := k.Launch(Dim1(4), Dim1(256), d); err != nil {
		t.Fatalf("after a reported failure: %v", err)
	}

	// On a stream the failure is reported by Synchronize.
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	f.OnLaunch = recordHook
	if err := k.LaunchWith(LaunchConfig{Grid: Dim1(4), Block: Dim1(256), Stream: s}, d); err != nil {
		t.Fatalf("queuing: %v", err)
	}
	err = s.Synchronize()
	if !errors.As(err, &ke) || !strings.HasPrefix(err.Error(), "launch OutOfRange: ") {
		t.Fatalf("Synchronize = %v, want the kernel error", err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatalf("the error was reported twice: %v", err)
	}
	// Release-mode kernels have no record to read.
	f.OnLaunch = nil
	before := f.Count("cuMemcpyDtoH")
	if err := Jit(testkernels.Increment).Launch(Dim1(1), Dim1(4), make([]float64, 4)); err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuMemcpyDtoH") - before; n != 1 {
		t.Fatalf("%d device-to-host copies for one host slice without debug checks, want 1", n)
	}
}

func TestGPUNoDevice(t *testing.T) {
	err := NewGPUBackendError(fakedriver.New(fakedriver.Config{Devices: []fakedriver.DeviceSpec{}}))
	if !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "CUDA_ERROR_NO_DEVICE") {
		t.Fatalf("no devices: %v; want ErrNoDevice with the driver's reason", err)
	}
	f := fakedriver.New(fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuDevicePrimaryCtxRetain", Code: driver.ErrorDeviceUnavailable})
	if err := NewGPUBackendError(f); !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "CUDA_ERROR_DEVICE_UNAVAILABLE") {
		t.Fatalf("unavailable device: %v", err)
	}
	if err := NewGPUBackendError(fakedriver.New(fakedriver.Config{})); err != nil {
		t.Fatalf("a healthy fake: %v", err)
	}

	// No library at all, through NUGO_BACKEND.
	ForgetBackend(t)
	t.Setenv(FakeGPUEnv, "") // the real library's path, also in a dry run with a simulated GPU
	t.Setenv("NUGO_LIBCUDA", "/nonexistent/libcuda.so.1")
	t.Setenv("NUGO_BACKEND", "gpu")
	_, err = CurrentBackend()
	if !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "cannot load /nonexistent/libcuda.so.1") {
		t.Fatalf("NUGO_BACKEND=gpu without a library: %v", err)
	}
	t.Setenv("NUGO_BACKEND", "auto")
	if b, err := CurrentBackend(); err != nil || b != CPU {
		t.Fatalf("NUGO_BACKEND=auto without a library: %v, %v; want the CPU", b, err)
	}
}

// With the real libcuda.so.1 on a machine without a GPU (Debian's libcuda1,
// as CI installs it), the driver itself says there is no device.
func TestGPURealLibraryWithoutDevice(t *testing.T) {
	t.Setenv(FakeGPUEnv, "") // the real library, also in a dry run with a simulated GPU
	lib, err := driver.Load()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI installs libcuda1 (scripts/install-libcuda.sh): %v", err)
		}
		t.Skipf("SKIP: no libcuda.so.1 here (scripts/install-libcuda.sh installs it): %v", err)
	}
	if _, err := driver.Start(lib); err == nil {
		t.Skip("SKIP: this machine has a GPU; the GPU tests cover it")
	}
	ForgetBackend(t)
	t.Setenv("NUGO_BACKEND", "gpu")
	_, err = CurrentBackend()
	if !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "CUDA_ERROR_NO_DEVICE") {
		t.Fatalf("NUGO_BACKEND=gpu: %v; want ErrNoDevice with CUDA_ERROR_NO_DEVICE", err)
	}
	if _, err := Gpus(); !errors.Is(err, ErrNoDevice) {
		t.Fatalf("Gpus() = %v", err)
	}
	ForgetBackend(t)
	t.Setenv("NUGO_BACKEND", "")
	if b, err := CurrentBackend(); err != nil || b != CPU {
		t.Fatalf("auto: %v, %v; want the CPU", b, err)
	}
}

// Every extra kernel goes through the GPU launch path on the fake driver:
// compiled, loaded, its arguments packed one per PTX parameter, its host
// arguments copied in and back unchanged (the fake runs no kernel), nothing
// leaked.
func TestGPUExtraKernelsLaunchPathOnFake(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	for _, c := range extraKernels(extraN) {
		before := len(f.Launches())
		args := c.args()
		snapshot := c.args() // the same inputs: the generators are deterministic
		k := Jit(c.kernel)
		if err := k.LaunchWith(LaunchConfig{Grid: c.grid, Block: c.block, SharedMem: c.shared}, args...); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		ls := f.Launches()
		if len(ls) != before+1 {
			t.Errorf("%s: %d launches recorded", c.name, len(ls)-before)
			continue
		}
		l := ls[len(ls)-1]
		if l.Grid != driver.Dim3(c.grid) || l.Block != driver.Dim3(c.block) || l.SharedMem != c.shared {
			t.Errorf("%s: launch %+v", c.name, l)
		}
		_, m, err := PackForTest(k, snapshot, make([]uint64, len(args)))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		nPTX := 0
		for _, p := range m.Params {
			nPTX += len(p.PTX)
		}
		if len(l.Args) != nPTX || len(l.Params) != m.ParamBytes {
			t.Errorf("%s: %d arguments in %d bytes, want %d in %d", c.name, len(l.Args), len(l.Params), nPTX, m.ParamBytes)
		}
		for i := range args {
			if err := diff(snapshot[i], args[i], 0); err != nil {
				t.Errorf("%s: argument %d changed on the way through the fake: %v", c.name, i+1, err)
			}
		}
	}
	wantLive(t, f, 0, 0)
}

// A device array dropped right after an asynchronous launch stays allocated
// until the stream has been synchronized, then its cleanup frees it.
func TestGPUArrayOfQueuedLaunchOutlivesItsLastReference(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	func() {
		d, err := NewDeviceArray[float32](256)
		if err != nil {
			t.Fatal(err)
		}
		if err := Jit(testkernels.Scale).LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(256), Stream: s}, d, 2); err != nil {
			t.Fatal(err)
		}
	}()
	for range 5 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	wantLive(t, f, 1, 0)
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100 && f.Live().Allocs != 0; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	wantLive(t, f, 0, 0)
}

// The shared corpus (internal/corpus) through the launch path on the fake:
// every parameter kind the corpus uses is packed one argument per PTX
// parameter, and host arguments come back unchanged.
func TestGPUSharedCorpusLaunchPathOnFake(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	for _, c := range corpus.All() {
		args, snapshot := c.Args(), c.Args()
		k := Jit(c.Kernel)
		if err := k.LaunchWith(c.Config(), args...); err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		ls := f.Launches()
		l := ls[len(ls)-1]
		_, m, err := PackForTest(k, snapshot, make([]uint64, len(args)))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if len(l.Params) != m.ParamBytes {
			t.Errorf("%s: %d parameter bytes, want %d", c.Name, len(l.Params), m.ParamBytes)
		}
		if err := corpus.Compare(snapshot, args, 0); err != nil {
			t.Errorf("%s: arguments changed on the way through the fake: %v", c.Name, err)
		}
	}
	wantLive(t, f, 0, 0)
}

// Each check's code in the record becomes Go's runtime message.
func TestGPUDebugRecordMessages(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	k := Jit(testkernels.OutOfRange, Debug)
	for _, c := range []struct {
		code int
		msg  string
	}{
		{compiler.ErrIndex, "index out of range [1000] with length 1000"},
		{compiler.ErrDivide, "integer divide by zero"},
		{compiler.ErrSliceAcap, "slice bounds out of range [:1000] with capacity 1000"},
		{compiler.ErrShift, "negative shift amount"},
		{compiler.ErrShape2, "MustView2: 1000 elements cannot be viewed as 1000×1000"},
		{compiler.ErrSliceAlen, "slice bounds out of range [:1000] with length 1000"},
		{compiler.ErrSliceB, "slice bounds out of range [1000:1000]"},
		{compiler.ErrSlice3Alen, "slice bounds out of range [::1000] with length 1000"},
		{compiler.ErrSlice3Acap, "slice bounds out of range [::1000] with capacity 1000"},
		{compiler.ErrSlice3B, "slice bounds out of range [:1000:1000]"},
		{compiler.ErrSlice3C, "slice bounds out of range [1000:1000:]"},
		{compiler.ErrConvert, "cannot convert slice with length 1000 to array or pointer to array with length 1000"},
		{compiler.ErrShape3, "MustView3: 1000 elements cannot be viewed as 1000×1000×1000"},
		{compiler.ErrIndex2, "index (1000,1000) out of range for shape (1000,1000)"},
		{compiler.ErrIndex3, "index (1000,1000,1000) out of range for shape (1000,1000,1000)"},
		{99, "debug check 99 failed (value 1000, bound 1000)"},
	} {
		f.OnLaunch = func(f *fakedriver.Fake, l fakedriver.Launch) error { return writeRecord(f, l, c.code) }
		err := k.Launch(Dim1(4), Dim1(256), make([]int32, 1000))
		var ke *KernelError
		if !errors.As(err, &ke) || ke.Msg != c.msg {
			t.Errorf("code %d: %v; want a kernel error %q", c.code, err, c.msg)
		}
	}
}

// Every device gets PTX its driver and the device accept (the fake's JIT
// checks .version against the driver and .target against the PTX version
// and the device, as the real one does): sm_90 PTX for devices newer than
// PTX 7.8 can name; a driver older than the PTX version is no device.
func TestGPUTargetsAndDriverVersion(t *testing.T) {
	cases := []struct {
		major, minor  int
		driverVersion int
		target        string
	}{
		{7, 0, 11080, "sm_70"},
		{8, 9, 12020, "sm_89"},
		{9, 0, 12020, "sm_90"}, // H100, H200
		{10, 0, 12080, "sm_90"},
		{12, 0, 13000, "sm_90"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("cc%d.%d", c.major, c.minor), func(t *testing.T) {
			dev := fakedriver.DefaultDevice()
			dev.Attrs[driver.AttrComputeCapabilityMajor] = c.major
			dev.Attrs[driver.AttrComputeCapabilityMinor] = c.minor
			f := fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{dev}, DriverVersion: c.driverVersion})
			var seen []string
			f.OnLaunch = func(_ *fakedriver.Fake, l fakedriver.Launch) error {
				seen = append(seen, l.Function)
				return nil
			}
			if err := Jit(testkernels.Scale).Launch(Dim1(1), Dim1(4), make([]float32, 4), 2); err != nil {
				t.Fatalf("launch on compute capability %d.%d: %v", c.major, c.minor, err)
			}
			if len(seen) != 1 {
				t.Fatalf("launches %v", seen)
			}
			ptx, err := Jit(testkernels.Scale).PTX(10*c.major + c.minor)
			if err != nil || !strings.Contains(ptx, ".target "+c.target+"\n") || !strings.Contains(ptx, ".version "+compiler.PTXVersion+"\n") {
				t.Fatalf("PTX for %d.%d: %v; want .target %s, .version %s", c.major, c.minor, err, c.target, compiler.PTXVersion)
			}
		})
	}

	err := NewGPUBackendError(fakedriver.New(fakedriver.Config{DriverVersion: 11040}))
	if !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "driver supports CUDA 11.4") || !strings.Contains(err.Error(), "needs CUDA 11.8") {
		t.Fatalf("a CUDA 11.4 driver: %v; want ErrNoDevice saying the driver is too old", err)
	}
	f := fakedriver.New(fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuDriverGetVersion", Code: driver.ErrorUnknown})
	if err := NewGPUBackendError(f); !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "cuDriverGetVersion") {
		t.Fatalf("cuDriverGetVersion failing: %v; want ErrNoDevice naming it", err)
	}
}

// NUGO_FAKE_GPU=1 gives the GPU backend the fake driver's simulated device,
// whose kernels run in ptxsim; any other value is refused with the reason.
func TestFakeGPUEnv(t *testing.T) {
	ForgetBackend(t)
	t.Setenv("NUGO_BACKEND", "gpu")
	t.Setenv(FakeGPUEnv, "1")
	if b, err := CurrentBackend(); err != nil || b != GPU {
		t.Fatalf("NUGO_FAKE_GPU=1: backend %v, %v; want the GPU", b, err)
	}
	gpus, err := Gpus()
	if err != nil || len(gpus) != 1 || !strings.Contains(gpus[0].Name, "fake") {
		t.Fatalf("NUGO_FAKE_GPU=1: devices %+v, %v; want the one fake device", gpus, err)
	}
	data := []float64{1, 2, 3}
	if err := Jit(testkernels.Increment).Launch(Dim1(1), Dim1(32), data); err != nil {
		t.Fatal(err)
	}
	if data[0] != 2 || data[2] != 4 {
		t.Errorf("a kernel on the simulated GPU gave %v, want [2 3 4]", data)
	}

	ForgetBackend(t)
	t.Setenv(FakeGPUEnv, "yes")
	if _, err := CurrentBackend(); !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), FakeGPUEnv) {
		t.Fatalf("NUGO_FAKE_GPU=yes: %v; want ErrNoDevice naming the variable", err)
	}
}
