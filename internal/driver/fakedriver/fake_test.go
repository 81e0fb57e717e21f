package fakedriver_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

const testPTX = `.version 7.8
.target sm_75
.address_size 64
.visible .global .align 8 .b8 __rec[64];
.global .u32 counter;
.visible .entry inc(.param .u64 p, .param .u64 n) { ret; }
.visible .entry scale(.param .u64 p, .param .f32 s) { ret; }
.visible .entry nop() { ret; }
`

// ready returns an initialised fake with device 0's primary context current on
// this goroutine's OS thread, which stays locked for the test.
func ready(t *testing.T, cfg fakedriver.Config) *fakedriver.Fake {
	t.Helper()
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	f := fakedriver.New(cfg)
	if err := f.Init(); err != nil {
		t.Fatal(err)
	}
	d, err := f.DeviceGet(0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.PrimaryCtxRetain(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.CtxSetCurrent(c); err != nil {
		t.Fatal(err)
	}
	return f
}

// wantCode checks that err is a *driver.Error from call with code.
func wantCode(t *testing.T, err error, call string, code driver.Result) {
	t.Helper()
	var e *driver.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want a *driver.Error %s from %s", err, code.Name(), call)
	}
	if e.Call != call || e.Code != code || e.Name != code.Name() || e.Message == "" {
		t.Fatalf("got %+v, want %s from %s", e, code.Name(), call)
	}
}

// Every entry point: succeeds on a healthy fake and returns an injected fault
// as a *driver.Error naming the call.
func TestEveryCallSuccessAndInjectedError(t *testing.T) {
	type env struct {
		f   *fakedriver.Fake
		dev driver.Device
		ptr driver.DevicePtr
		mod driver.Module
		fn  driver.Function
		s   driver.Stream
		ev  [2]driver.Event
		buf []byte
	}
	setup := func(t *testing.T) *env {
		f := ready(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{fakedriver.DefaultDevice(), fakedriver.DefaultDevice()}})
		e := &env{f: f, buf: make([]byte, 64)}
		var err error
		if e.ptr, err = f.MemAlloc(64); err != nil {
			t.Fatal(err)
		}
		if e.mod, _, err = f.ModuleLoadData(testPTX, driver.JITOptions{}); err != nil {
			t.Fatal(err)
		}
		if e.fn, err = f.ModuleGetFunction(e.mod, "inc"); err != nil {
			t.Fatal(err)
		}
		if e.s, err = f.StreamCreate(driver.StreamNonBlocking); err != nil {
			t.Fatal(err)
		}
		for i := range e.ev {
			if e.ev[i], err = f.EventCreate(driver.EventDefault); err != nil {
				t.Fatal(err)
			}
			if err := f.EventRecord(e.ev[i], e.s); err != nil {
				t.Fatal(err)
			}
		}
		return e
	}
	host := func(e *env) unsafe.Pointer { return unsafe.Pointer(&e.buf[0]) }
	var params driver.Params
	params.AddPtr(0x1234)
	params.AddU64(64)
	calls := []struct {
		name string
		do   func(e *env) error
	}{
		{"cuInit", func(e *env) error { return e.f.Init() }},
		{"cuDriverGetVersion", func(e *env) error { _, err := e.f.DriverVersion(); return err }},
		{"cuDeviceGetCount", func(e *env) error { _, err := e.f.DeviceCount(); return err }},
		{"cuDeviceGet", func(e *env) error { _, err := e.f.DeviceGet(0); return err }},
		{"cuDeviceGetName", func(e *env) error { _, err := e.f.DeviceName(e.dev); return err }},
		{"cuDeviceGetAttribute", func(e *env) error { _, err := e.f.DeviceAttribute(e.dev, driver.AttrWarpSize); return err }},
		{"cuDeviceTotalMem", func(e *env) error { _, err := e.f.DeviceTotalMem(e.dev); return err }},
		{"cuDevicePrimaryCtxRetain", func(e *env) error { _, err := e.f.PrimaryCtxRetain(e.dev); return err }},
		{"cuDevicePrimaryCtxRelease", func(e *env) error {
			if _, err := e.f.PrimaryCtxRetain(e.dev); err != nil {
				return err
			}
			return e.f.PrimaryCtxRelease(e.dev)
		}},
		{"cuCtxSetCurrent", func(e *env) error {
			c, err := e.f.CtxGetCurrent()
			if err != nil {
				return err
			}
			return e.f.CtxSetCurrent(c)
		}},
		{"cuCtxGetCurrent", func(e *env) error { _, err := e.f.CtxGetCurrent(); return err }},
		{"cuCtxSynchronize", func(e *env) error { return e.f.CtxSynchronize() }},
		{"cuMemAlloc", func(e *env) error { _, err := e.f.MemAlloc(16); return err }},
		{"cuMemFree", func(e *env) error { return e.f.MemFree(e.ptr) }},
		{"cuMemsetD8", func(e *env) error { return e.f.MemsetD8(e.ptr, 7, 64) }},
		{"cuMemsetD8Async", func(e *env) error { return e.f.MemsetD8Async(e.ptr, 7, 64, e.s) }},
		{"cuMemsetD16", func(e *env) error { return e.f.MemsetD16(e.ptr, 7, 32) }},
		{"cuMemsetD32", func(e *env) error { return e.f.MemsetD32(e.ptr, 7, 16) }},
		{"cuMemGetInfo", func(e *env) error { _, _, err := e.f.MemGetInfo(); return err }},
		{"cuMemcpyHtoD", func(e *env) error { return e.f.MemcpyHtoD(e.ptr, host(e), 64) }},
		{"cuMemcpyDtoH", func(e *env) error { return e.f.MemcpyDtoH(host(e), e.ptr, 64) }},
		{"cuMemcpyDtoD", func(e *env) error { return e.f.MemcpyDtoD(e.ptr, e.ptr+32, 32) }},
		{"cuMemcpyHtoDAsync", func(e *env) error { return e.f.MemcpyHtoDAsync(e.ptr, host(e), 64, e.s) }},
		{"cuMemcpyDtoHAsync", func(e *env) error { return e.f.MemcpyDtoHAsync(host(e), e.ptr, 64, e.s) }},
		{"cuMemcpyDtoDAsync", func(e *env) error { return e.f.MemcpyDtoDAsync(e.ptr+32, e.ptr, 32, e.s) }},
		{"cuDeviceCanAccessPeer", func(e *env) error { _, err := e.f.DeviceCanAccessPeer(0, 1); return err }},
		{"cuCtxEnablePeerAccess", func(e *env) error {
			c1, err := e.f.PrimaryCtxRetain(1)
			if err != nil {
				return err
			}
			return e.f.CtxEnablePeerAccess(c1)
		}},
		{"cuMemcpyPeerAsync", func(e *env) error {
			c0, err := e.f.CtxGetCurrent()
			if err != nil {
				return err
			}
			return e.f.MemcpyPeerAsync(e.ptr+32, c0, e.ptr, c0, 32, e.s)
		}},
		{"cuMemHostAlloc", func(e *env) error { _, err := e.f.MemHostAlloc(64, driver.HostAllocPortable); return err }},
		{"cuMemFreeHost", func(e *env) error {
			p, err := e.f.MemHostAlloc(64, 0)
			if err != nil {
				return err
			}
			return e.f.MemFreeHost(p)
		}},
		{"cuModuleLoadDataEx", func(e *env) error { _, _, err := e.f.ModuleLoadData(testPTX, driver.JITOptions{}); return err }},
		{"cuModuleGetFunction", func(e *env) error { _, err := e.f.ModuleGetFunction(e.mod, "scale"); return err }},
		{"cuModuleUnload", func(e *env) error { return e.f.ModuleUnload(e.mod) }},
		{"cuModuleGetGlobal", func(e *env) error { _, _, err := e.f.ModuleGetGlobal(e.mod, "__rec"); return err }},
		{"cuFuncGetAttribute", func(e *env) error { _, err := e.f.FuncGetAttribute(e.fn, driver.FuncNumRegs); return err }},
		{"cuFuncSetAttribute", func(e *env) error { return e.f.FuncSetAttribute(e.fn, driver.FuncMaxDynamicSharedSize, 64<<10) }},
		{"cuMemHostRegister", func(e *env) error {
			return e.f.MemHostRegister(host(e), len(e.buf), driver.HostRegisterPortable)
		}},
		{"cuMemHostUnregister", func(e *env) error {
			if err := e.f.MemHostRegister(host(e), len(e.buf), 0); err != nil {
				return err
			}
			return e.f.MemHostUnregister(host(e))
		}},
		{"cuMemHostGetDevicePointer", func(e *env) error {
			p, err := e.f.MemHostAlloc(64, driver.HostAllocDeviceMap)
			if err != nil {
				return err
			}
			_, err = e.f.MemHostGetDevicePointer(p)
			return err
		}},
		{"cuMemAllocManaged", func(e *env) error { _, err := e.f.MemAllocManaged(64, driver.MemAttachGlobal); return err }},
		{"cuMemPrefetchAsync", func(e *env) error {
			p, err := e.f.MemAllocManaged(64, driver.MemAttachGlobal)
			if err != nil {
				return err
			}
			return e.f.MemPrefetchAsync(driver.DevicePtr(uintptr(p)), 64, 0, e.s)
		}},
		{"cuMemAdvise", func(e *env) error {
			p, err := e.f.MemAllocManaged(64, driver.MemAttachGlobal)
			if err != nil {
				return err
			}
			return e.f.MemAdvise(driver.DevicePtr(uintptr(p)), 64, driver.AdviseSetPreferredLocation, driver.DeviceCPU)
		}},
		{"cuCtxSetLimit", func(e *env) error { return e.f.CtxSetLimit(driver.LimitPrintfFIFOSize, 4<<20) }},
		{"cuCtxGetLimit", func(e *env) error { _, err := e.f.CtxGetLimit(driver.LimitStackSize); return err }},
		{"cuProfilerStart", func(e *env) error { return e.f.ProfilerStart() }},
		{"cuProfilerStop", func(e *env) error { return e.f.ProfilerStop() }},
		{"cuOccupancyMaxPotentialBlockSize", func(e *env) error {
			_, b, err := e.f.OccupancyMaxPotentialBlockSize(e.fn, 0, 0)
			if err == nil && (b <= 0 || b%32 != 0) {
				t.Errorf("OccupancyMaxPotentialBlockSize: block %d", b)
			}
			return err
		}},
		{"cuLaunchKernel", func(e *env) error {
			return e.f.LaunchKernel(e.fn, driver.Dim3{X: 2, Y: 1, Z: 1}, driver.Dim3{X: 32, Y: 1, Z: 1}, 0, e.s, &params)
		}},
		{"cuLaunchCooperativeKernel", func(e *env) error {
			return e.f.LaunchCooperativeKernel(e.fn, driver.Dim3{X: 2, Y: 1, Z: 1}, driver.Dim3{X: 32, Y: 1, Z: 1}, 0, e.s, &params)
		}},
		{"cuOccupancyMaxActiveBlocksPerMultiprocessor", func(e *env) error {
			n, err := e.f.OccupancyMaxActiveBlocksPerMultiprocessor(e.fn, 256, 0)
			if err == nil && n <= 0 {
				t.Errorf("OccupancyMaxActiveBlocksPerMultiprocessor: %d blocks", n)
			}
			return err
		}},
		{"cuStreamCreate", func(e *env) error { _, err := e.f.StreamCreate(driver.StreamDefault); return err }},
		{"cuStreamDestroy", func(e *env) error { return e.f.StreamDestroy(e.s) }},
		{"cuStreamSynchronize", func(e *env) error { return e.f.StreamSynchronize(e.s) }},
		{"cuStreamQuery", func(e *env) error {
			done, err := e.f.StreamQuery(e.s)
			if err == nil && !done {
				t.Errorf("StreamQuery on an idle stream: done = false")
			}
			return err
		}},
		{"cuStreamWaitEvent", func(e *env) error { return e.f.StreamWaitEvent(e.s, e.ev[1]) }},
		{"cuEventCreate", func(e *env) error { _, err := e.f.EventCreate(driver.EventDisableTiming); return err }},
		{"cuEventRecord", func(e *env) error { return e.f.EventRecord(e.ev[0], 0) }},
		{"cuEventSynchronize", func(e *env) error { return e.f.EventSynchronize(e.ev[1]) }},
		{"cuEventQuery", func(e *env) error {
			done, err := e.f.EventQuery(e.ev[1])
			if err == nil && !done {
				t.Errorf("EventQuery on a recorded event: done = false")
			}
			return err
		}},
		{"cuEventElapsedTime", func(e *env) error { _, err := e.f.EventElapsedTime(e.ev[0], e.ev[1]); return err }},
		{"cuEventDestroy", func(e *env) error { return e.f.EventDestroy(e.ev[0]) }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			e := setup(t)
			before := e.f.Count(c.name)
			if err := c.do(e); err != nil {
				t.Fatalf("success path: %v", err)
			}
			if e.f.Count(c.name) <= before {
				t.Fatalf("%s was not recorded as called", c.name)
			}

			e = setup(t)
			e.f.Inject(fakedriver.Fault{Call: c.name, Code: driver.ErrorUnknown})
			err := c.do(e)
			wantCode(t, err, c.name, driver.ErrorUnknown)
			if c.name == "cuInit" && !errors.Is(err, driver.ErrNoDevice) {
				t.Fatalf("cuInit failure %v does not wrap ErrNoDevice", err)
			}
			// One failure by default: the next call goes through.
			if err := c.do(setup(t)); err != nil {
				t.Fatalf("after the fault: %v", err)
			}
		})
	}
	if got, want := len(calls), reflect.TypeFor[driver.API]().NumMethod(); got != want {
		t.Fatalf("%d calls covered; driver.API has %d methods", got, want)
	}
}

// TestProfiler: ProfilerStart and ProfilerStop turn the current context's
// profiling on and off (twice is no error), need a current context as the
// driver's do, and a new context starts with profiling off.
func TestProfiler(t *testing.T) {
	f := ready(t, fakedriver.Config{})
	steps := []struct {
		name string
		do   func() error
		want bool
	}{
		{"start", f.ProfilerStart, true},
		{"start again", f.ProfilerStart, true},
		{"stop", f.ProfilerStop, false},
		{"stop again", f.ProfilerStop, false},
		{"restart", f.ProfilerStart, true},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := f.Profiling(0); got != s.want {
			t.Fatalf("after %s: Profiling(0) = %v, want %v", s.name, got, s.want)
		}
	}
	if f.Profiling(1) || f.Profiling(-1) {
		t.Error("devices without a context report profiling")
	}
	if err := f.CtxSetCurrent(0); err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.ProfilerStart(), "cuProfilerStart", driver.ErrorInvalidContext)
	wantCode(t, f.ProfilerStop(), "cuProfilerStop", driver.ErrorInvalidContext)
	if err := f.PrimaryCtxRelease(0); err != nil {
		t.Fatal(err)
	}
	c, err := f.PrimaryCtxRetain(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.CtxSetCurrent(c); err != nil {
		t.Fatal(err)
	}
	if f.Profiling(0) {
		t.Error("a new context starts with profiling on")
	}
}

func TestFaultAfterAndTimes(t *testing.T) {
	f := ready(t, fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuMemAlloc", Code: driver.ErrorOutOfMemory, After: 2, Times: 2})
	var got []driver.Result
	for range 6 {
		_, err := f.MemAlloc(8)
		got = append(got, driver.Code(err))
	}
	want := []driver.Result{0, 0, driver.ErrorOutOfMemory, driver.ErrorOutOfMemory, 0, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("results %v, want %v", got, want)
		}
	}
	f.Inject(fakedriver.Fault{Call: "cuMemAlloc", Code: driver.ErrorOutOfMemory, Times: -1})
	for range 3 {
		if _, err := f.MemAlloc(8); driver.Code(err) != driver.ErrorOutOfMemory {
			t.Fatalf("Times: -1 should fail every call, got %v", err)
		}
	}
	f.ClearFaults()
	if _, err := f.MemAlloc(8); err != nil {
		t.Fatalf("after ClearFaults: %v", err)
	}
}

func TestNotInitializedAndNoDevice(t *testing.T) {
	f := fakedriver.New(fakedriver.Config{})
	if v, err := f.DriverVersion(); err != nil || v != 12020 {
		t.Fatalf("DriverVersion before Init = %d, %v; want 12020", v, err)
	}
	_, err := f.DeviceCount()
	wantCode(t, err, "cuDeviceGetCount", driver.ErrorNotInitialized)

	none := fakedriver.New(fakedriver.Config{Devices: []fakedriver.DeviceSpec{}})
	err = none.Init()
	if !errors.Is(err, driver.ErrNoDevice) {
		t.Fatalf("Init without devices = %v, want ErrNoDevice", err)
	}
	wantCode(t, err, "cuInit", driver.ErrorNoDevice)
	if !strings.Contains(err.Error(), "CUDA_ERROR_NO_DEVICE") {
		t.Fatalf("error text %q lacks the code name", err)
	}
	if _, err := driver.Start(none); !errors.Is(err, driver.ErrNoDevice) {
		t.Fatalf("Start = %v, want ErrNoDevice", err)
	}
}

func TestContextIsPerThread(t *testing.T) {
	f := ready(t, fakedriver.Config{})
	if _, err := f.MemAlloc(8); err != nil {
		t.Fatal(err)
	}
	// A different OS thread has no current context.
	done := make(chan error)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		_, err := f.MemAlloc(8)
		done <- err
	}()
	wantCode(t, <-done, "cuMemAlloc", driver.ErrorInvalidContext)
	if err := f.CtxSetCurrent(0); err != nil {
		t.Fatal(err)
	}
	_, err := f.MemAlloc(8)
	wantCode(t, err, "cuMemAlloc", driver.ErrorInvalidContext)
	if c, err := f.CtxGetCurrent(); err != nil || c != 0 {
		t.Fatalf("CtxGetCurrent after unbinding = %v, %v", c, err)
	}
	wantCode(t, f.CtxSetCurrent(0xdead), "cuCtxSetCurrent", driver.ErrorInvalidContext)
}

func TestMemory(t *testing.T) {
	f := ready(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{{Name: "small", TotalMem: 4096, Attrs: fakedriver.DefaultDevice().Attrs}}})
	p, err := f.MemAlloc(1000)
	if err != nil {
		t.Fatal(err)
	}
	if free, total, err := f.MemGetInfo(); err != nil || free != 3096 || total != 4096 {
		t.Fatalf("MemGetInfo = %d, %d, %v", free, total, err)
	}
	_, err = f.MemAlloc(4000)
	wantCode(t, err, "cuMemAlloc", driver.ErrorOutOfMemory)
	_, err = f.MemAlloc(0)
	wantCode(t, err, "cuMemAlloc", driver.ErrorInvalidValue)

	src := []byte("hello, device")
	if err := f.MemsetD8(p, 0xAB, 1000); err != nil {
		t.Fatal(err)
	}
	if err := f.MemcpyHtoD(p+10, unsafe.Pointer(&src[0]), len(src)); err != nil {
		t.Fatal(err)
	}
	if err := f.MemcpyDtoD(p+100, p+10, len(src)); err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, len(src)+2)
	if err := f.MemcpyDtoH(unsafe.Pointer(&dst[0]), p+99, len(dst)); err != nil {
		t.Fatal(err)
	}
	want := append(append([]byte{0xAB}, src...), 0xAB)
	if !bytes.Equal(dst, want) {
		t.Fatalf("round trip = %q, want %q", dst, want)
	}
	wantCode(t, f.MemcpyHtoD(p+990, unsafe.Pointer(&src[0]), len(src)), "cuMemcpyHtoD", driver.ErrorInvalidValue)
	wantCode(t, f.MemcpyDtoH(unsafe.Pointer(&dst[0]), 0x10, 4), "cuMemcpyDtoH", driver.ErrorInvalidValue)
	wantCode(t, f.MemcpyHtoDAsync(p, unsafe.Pointer(&src[0]), 4, 0x999), "cuMemcpyHtoDAsync", driver.ErrorInvalidHandle)
	wantCode(t, f.MemFree(p+1), "cuMemFree", driver.ErrorInvalidValue)

	h, err := f.MemHostAlloc(256, driver.HostAllocPortable)
	if err != nil {
		t.Fatal(err)
	}
	pinned := unsafe.Slice((*byte)(h), 256)
	copy(pinned, "pinned")
	if err := f.MemcpyHtoDAsync(p, h, 6, 0); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.Read(p, 6); string(got) != "pinned" {
		t.Fatalf("async copy from pinned memory: %q", got)
	}
	if l := f.Live(); l.Allocs != 1 || l.Bytes != 1000 || l.HostAllocs != 1 {
		t.Fatalf("Live = %+v", l)
	}
	if err := f.MemFreeHost(h); err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.MemFreeHost(h), "cuMemFreeHost", driver.ErrorInvalidValue)
	if err := f.MemFree(p); err != nil {
		t.Fatal(err)
	}
	if l := f.Live(); l != (fakedriver.Live{}) {
		t.Fatalf("Live after freeing = %+v", l)
	}
}

func TestModules(t *testing.T) {
	f := ready(t, fakedriver.Config{})
	_, _, err := f.ModuleLoadData(testPTX, driver.JITOptions{OptLevel: -1})
	wantCode(t, err, "cuModuleLoadDataEx", driver.ErrorInvalidValue)
	m, log, err := f.ModuleLoadData(testPTX, driver.JITOptions{OptLevel: driver.O3})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.Info, "inc, scale") || !strings.Contains(log.Info, "O3") {
		t.Fatalf("info log %q does not list the entries", log.Info)
	}
	if _, err := f.ModuleGetFunction(m, "scale"); err != nil {
		t.Fatal(err)
	}
	_, err = f.ModuleGetFunction(m, "missing")
	wantCode(t, err, "cuModuleGetFunction", driver.ErrorNotFound)

	_, log, err = f.ModuleLoadData(".entry k() { ret; }", driver.JITOptions{})
	wantCode(t, err, "cuModuleLoadDataEx", driver.ErrorInvalidPTX)
	var e *driver.Error
	errors.As(err, &e)
	if e.Log == "" || e.Log != log.Error || !strings.Contains(err.Error(), e.Log) {
		t.Fatalf("invalid PTX: error %q, log %q", err, log.Error)
	}

	f.Inject(fakedriver.Fault{Call: "cuModuleLoadDataEx", Code: driver.ErrorInvalidPTX, Log: "ptxas error: Arguments mismatch for instruction 'add'"})
	_, log, err = f.ModuleLoadData(testPTX, driver.JITOptions{})
	wantCode(t, err, "cuModuleLoadDataEx", driver.ErrorInvalidPTX)
	if !strings.Contains(err.Error(), "Arguments mismatch") || !strings.Contains(log.Error, "Arguments mismatch") {
		t.Fatalf("injected log missing: %v / %q", err, log.Error)
	}

	// Globals: sized as declared, zeroed, readable and writable as device
	// memory, not counted as allocations, gone with the module.
	for _, g := range []struct {
		name string
		size int
	}{{"__rec", 64}, {"counter", 4}} {
		p, n, err := f.ModuleGetGlobal(m, g.name)
		if err != nil || n != g.size {
			t.Fatalf("ModuleGetGlobal(%s) = %#x, %d, %v; want %d bytes", g.name, p, n, err, g.size)
		}
		if b, err := f.Read(p, n); err != nil || !bytes.Equal(b, make([]byte, n)) {
			t.Fatalf("global %s = %v, %v; want zeroes", g.name, b, err)
		}
	}
	_, _, err = f.ModuleGetGlobal(m, "missing")
	wantCode(t, err, "cuModuleGetGlobal", driver.ErrorNotFound)
	rec, _, _ := f.ModuleGetGlobal(m, "__rec")
	if err := f.MemsetD8(rec, 0xff, 64); err != nil {
		t.Fatal(err)
	}
	if live := f.Live(); live.Allocs != 0 || live.Modules != 1 {
		t.Fatalf("Live = %+v; globals must not count as allocations", live)
	}

	fn, _ := f.ModuleGetFunction(m, "inc")
	f.SetFuncAttr("inc", driver.FuncNumRegs, 40)
	if n, err := f.FuncGetAttribute(fn, driver.FuncNumRegs); err != nil || n != 40 {
		t.Fatalf("NumRegs = %d, %v", n, err)
	}
	if err := f.ModuleUnload(m); err != nil {
		t.Fatal(err)
	}
	_, err = f.FuncGetAttribute(fn, driver.FuncNumRegs)
	wantCode(t, err, "cuFuncGetAttribute", driver.ErrorInvalidHandle)
	wantCode(t, f.ModuleUnload(m), "cuModuleUnload", driver.ErrorInvalidHandle)
	if _, err := f.Read(rec, 64); err == nil {
		t.Fatal("a global outlived its module")
	}
	_, _, err = f.ModuleGetGlobal(m, "__rec")
	wantCode(t, err, "cuModuleGetGlobal", driver.ErrorInvalidHandle)
}

// The fake's JIT checks a module's .version against the driver and its
// .target against the PTX version and the device, as the real driver does.
func TestModulePTXVersionAndTarget(t *testing.T) {
	device := func(major, minor int) fakedriver.DeviceSpec {
		d := fakedriver.DefaultDevice()
		d.Attrs[driver.AttrComputeCapabilityMajor] = major
		d.Attrs[driver.AttrComputeCapabilityMinor] = minor
		return d
	}
	cases := []struct {
		name          string
		version       string
		target        string
		driverVersion int
		major, minor  int
		want          driver.Result
		log           string
	}{
		{"7.8 for sm_75 on sm_75", "7.8", "sm_75", 12020, 7, 5, driver.Success, ""},
		{"7.8 for sm_90 on sm_90, CUDA 11.8", "7.8", "sm_90", 11080, 9, 0, driver.Success, ""},
		{"7.8 for sm_90 on sm_100", "7.8", "sm_90", 12080, 10, 0, driver.Success, ""},
		{"8.7 for sm_120 on sm_120, CUDA 12.8", "8.7", "sm_120", 12080, 12, 0, driver.Success, ""},
		{"8.3 on a CUDA 12.2 driver", "8.3", "sm_75", 12020, 7, 5, driver.ErrorUnsupportedPTX, "current version is '8.2'"},
		{"7.8 on a CUDA 11.4 driver", "7.8", "sm_75", 11040, 7, 5, driver.ErrorUnsupportedPTX, "Unsupported .version 7.8"},
		{"8.5 on a CUDA 12.6 driver", "8.5", "sm_90", 12060, 9, 0, driver.Success, ""},
		{"7.8 cannot name sm_100", "7.8", "sm_100", 12080, 10, 0, driver.ErrorInvalidPTX, "does not support .target sm_100"},
		{"7.8 cannot name sm_120", "7.8", "sm_120", 12080, 12, 0, driver.ErrorInvalidPTX, "does not support .target sm_120"},
		{"sm_90 PTX on an sm_86 device", "7.8", "sm_90", 12020, 8, 6, driver.ErrorInvalidPTX, "higher than the device's (sm_86)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ready(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{device(c.major, c.minor)}, DriverVersion: c.driverVersion})
			src := strings.Replace(strings.Replace(testPTX, "7.8", c.version, 1), "sm_75", c.target, 1)
			m, log, err := f.ModuleLoadData(src, driver.JITOptions{})
			if c.want == driver.Success {
				if err != nil || m == 0 {
					t.Fatalf("load = %#x, %v", m, err)
				}
				return
			}
			wantCode(t, err, "cuModuleLoadDataEx", c.want)
			if !strings.Contains(log.Error, c.log) || !strings.Contains(err.Error(), c.log) {
				t.Fatalf("log %q, error %v; want %q in both", log.Error, err, c.log)
			}
		})
	}
}

func TestLaunchRecordsAndChecks(t *testing.T) {
	f := ready(t, fakedriver.Config{})
	m, _, err := f.ModuleLoadData(testPTX, driver.JITOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := f.ModuleGetFunction(m, "scale")
	p, _ := f.MemAlloc(16)
	f.OnLaunch = func(f *fakedriver.Fake, l fakedriver.Launch) error {
		// Play the kernel: store the float32 argument at the pointer argument.
		return f.Write(driver.DevicePtr(binary.LittleEndian.Uint64(l.Args[0])), l.Args[1])
	}
	var params driver.Params
	params.AddPtr(p)
	params.AddF32(2.5)
	grid, block := driver.Dim3{X: 3, Y: 2, Z: 1}, driver.Dim3{X: 128, Y: 1, Z: 1}
	if err := f.LaunchKernel(fn, grid, block, 256, 0, &params); err != nil {
		t.Fatal(err)
	}
	ls := f.Launches()
	if len(ls) != 1 {
		t.Fatalf("%d launches recorded", len(ls))
	}
	l := ls[0]
	if l.Function != "scale" || l.Grid != grid || l.Block != block || l.SharedMem != 256 || len(l.Args) != 2 {
		t.Fatalf("recorded %+v", l)
	}
	if !bytes.Equal(l.Params, params.Bytes()) || len(l.Params) != 12 {
		t.Fatalf("packed params %x, want %x", l.Params, params.Bytes())
	}
	// The arguments must match the .entry's parameters in number and size,
	// as the real driver reads one pointer per declared parameter and copies
	// the declared size from it.
	var none, three, wide driver.Params
	three.AddPtr(p)
	three.AddF32(1)
	three.AddU32(7)
	wide.AddPtr(p)
	wide.AddF64(2.5)
	for _, bad := range []struct {
		params *driver.Params
		why    string
	}{{nil, "passes 0"}, {&none, "passes 0"}, {&three, "passes 3"}, {&wide, "parameter 1 has 4 bytes, the launch passes 8"}} {
		err := f.LaunchKernel(fn, grid, block, 0, 0, bad.params)
		wantCode(t, err, "cuLaunchKernel", driver.ErrorInvalidValue)
		if !strings.Contains(err.Error(), bad.why) {
			t.Fatalf("bad arguments: %v, want %q", err, bad.why)
		}
	}
	if n := len(f.Launches()); n != 1 {
		t.Fatalf("%d launches recorded after refused ones, want 1", n)
	}
	if got, _ := f.Read(p, 4); !bytes.Equal(got, params.Arg(1)) {
		t.Fatalf("hook wrote %x", got)
	}

	f.SetFuncAttr("scale", driver.FuncMaxThreadsPerBlock, 64)
	bad := []struct {
		name        string
		grid, block driver.Dim3
		shared      int
		code        driver.Result
	}{
		{"zero grid", driver.Dim3{X: 0, Y: 1, Z: 1}, block, 0, driver.ErrorInvalidValue},
		{"block.z too big", grid, driver.Dim3{X: 1, Y: 1, Z: 65}, 0, driver.ErrorInvalidValue},
		{"too many threads", grid, driver.Dim3{X: 1024, Y: 2, Z: 1}, 0, driver.ErrorInvalidValue},
		{"over the kernel's limit", grid, block, 0, driver.ErrorLaunchOutOfRes},
		{"too much shared memory", grid, driver.Dim3{X: 32, Y: 1, Z: 1}, 1 << 20, driver.ErrorInvalidValue},
	}
	// Not subtests: those run on other goroutines, hence other OS threads,
	// where the context is not current.
	for _, b := range bad {
		err := f.LaunchKernel(fn, b.grid, b.block, b.shared, 0, &params)
		var e *driver.Error
		if !errors.As(err, &e) || e.Code != b.code || e.Call != "cuLaunchKernel" {
			t.Errorf("%s: got %v, want %s", b.name, err, b.code.Name())
		}
	}
	if n := len(f.Launches()); n != 1 {
		t.Fatalf("rejected launches were recorded: %d", n)
	}

	// More than 48 KiB of dynamic shared memory needs the kernel's opt-in.
	small := driver.Dim3{X: 32, Y: 1, Z: 1}
	if err := f.LaunchKernel(fn, grid, small, 60<<10, 0, &params); driver.Code(err) != driver.ErrorInvalidValue {
		t.Fatalf("60 KiB without opt-in: %v", err)
	}
	if err := f.FuncSetAttribute(fn, driver.FuncMaxDynamicSharedSize, 60<<10); err != nil {
		t.Fatal(err)
	}
	if err := f.LaunchKernel(fn, grid, small, 60<<10, 0, &params); err != nil {
		t.Fatalf("60 KiB after opt-in: %v", err)
	}
	wantCode(t, f.FuncSetAttribute(fn, driver.FuncMaxDynamicSharedSize, 1<<20), "cuFuncSetAttribute", driver.ErrorInvalidValue)
	wantCode(t, f.FuncSetAttribute(fn, driver.FuncNumRegs, 8), "cuFuncSetAttribute", driver.ErrorInvalidValue)
	if err := f.FuncSetAttribute(fn, driver.FuncPreferredCarveout, 50); err != nil {
		t.Fatal(err)
	}
	if v, _ := f.FuncGetAttribute(fn, driver.FuncPreferredCarveout); v != 50 {
		t.Fatalf("carveout = %d", v)
	}
}

// A fault inside a kernel poisons the context: the launch returns, every
// later call fails with the same code, and releasing the context recovers.
func TestStickyFaultPoisonsContext(t *testing.T) {
	for _, how := range []string{"fault", "hook"} {
		t.Run(how, func(t *testing.T) {
			f := ready(t, fakedriver.Config{})
			m, _, _ := f.ModuleLoadData(testPTX, driver.JITOptions{})
			fn, _ := f.ModuleGetFunction(m, "nop")
			one := driver.Dim3{X: 1, Y: 1, Z: 1}
			var launchErr error
			if how == "fault" {
				f.Inject(fakedriver.Fault{Call: "cuLaunchKernel", Code: driver.ErrorIllegalAddress, Sticky: true})
				launchErr = f.LaunchKernel(fn, one, one, 0, 0, nil)
				if launchErr != nil {
					t.Fatalf("a sticky fault's launch itself should succeed: %v", launchErr)
				}
			} else {
				f.OnLaunch = func(*fakedriver.Fake, fakedriver.Launch) error {
					return driver.NewError("cuLaunchKernel", driver.ErrorIllegalAddress)
				}
				wantCode(t, f.LaunchKernel(fn, one, one, 0, 0, nil), "cuLaunchKernel", driver.ErrorIllegalAddress)
				f.OnLaunch = nil
			}
			wantCode(t, f.CtxSynchronize(), "cuCtxSynchronize", driver.ErrorIllegalAddress)
			_, err := f.MemAlloc(8)
			wantCode(t, err, "cuMemAlloc", driver.ErrorIllegalAddress)
			if err := f.PrimaryCtxRelease(0); err != nil {
				t.Fatal(err)
			}
			c, err := f.PrimaryCtxRetain(0)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.CtxSetCurrent(c); err != nil {
				t.Fatal(err)
			}
			if _, err := f.MemAlloc(8); err != nil {
				t.Fatalf("after a fresh primary context: %v", err)
			}
			if l := f.Live(); l.Modules != 0 || l.Allocs != 1 {
				t.Fatalf("context destruction left %+v", l)
			}
		})
	}
}

func TestStreamsAndEvents(t *testing.T) {
	f := ready(t, fakedriver.Config{LaunchTimeMS: 2.5})
	m, _, _ := f.ModuleLoadData(testPTX, driver.JITOptions{})
	fn, _ := f.ModuleGetFunction(m, "nop")
	s, err := f.StreamCreate(driver.StreamDefault)
	if err != nil {
		t.Fatal(err)
	}
	start, _ := f.EventCreate(driver.EventDefault)
	end, _ := f.EventCreate(driver.EventBlockingSync)
	untimed, _ := f.EventCreate(driver.EventDisableTiming)
	_, err = f.EventElapsedTime(start, end)
	wantCode(t, err, "cuEventElapsedTime", driver.ErrorInvalidHandle) // not recorded yet

	one := driver.Dim3{X: 1, Y: 1, Z: 1}
	if err := f.EventRecord(start, s); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := f.LaunchKernel(fn, one, one, 0, s, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.EventRecord(end, s); err != nil {
		t.Fatal(err)
	}
	if err := f.EventRecord(untimed, s); err != nil {
		t.Fatal(err)
	}
	if err := f.EventSynchronize(end); err != nil {
		t.Fatal(err)
	}
	if ms, err := f.EventElapsedTime(start, end); err != nil || ms != 7.5 {
		t.Fatalf("elapsed = %v, %v; want 3 launches × 2.5 ms", ms, err)
	}
	_, err = f.EventElapsedTime(start, untimed)
	wantCode(t, err, "cuEventElapsedTime", driver.ErrorInvalidHandle)
	_, err = f.EventCreate(0x80)
	wantCode(t, err, "cuEventCreate", driver.ErrorInvalidValue)

	f.Inject(fakedriver.Fault{Call: "cuStreamQuery", Code: driver.ErrorNotReady})
	if done, err := f.StreamQuery(s); err != nil || done {
		t.Fatalf("StreamQuery with pending work = %v, %v; want false, nil", done, err)
	}
	if done, err := f.StreamQuery(s); err != nil || !done {
		t.Fatalf("StreamQuery = %v, %v; want true, nil", done, err)
	}
	f.Inject(fakedriver.Fault{Call: "cuEventQuery", Code: driver.ErrorNotReady})
	if done, err := f.EventQuery(end); err != nil || done {
		t.Fatalf("EventQuery with pending work = %v, %v; want false, nil", done, err)
	}
	if done, err := f.EventQuery(end); err != nil || !done {
		t.Fatalf("EventQuery = %v, %v; want true, nil", done, err)
	}
	if err := f.LaunchKernel(fn, one, one, 0, 0xbad, nil); driver.Code(err) != driver.ErrorInvalidHandle {
		t.Fatalf("launch on an unknown stream: %v", err)
	}
	if err := f.StreamDestroy(s); err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.StreamSynchronize(s), "cuStreamSynchronize", driver.ErrorInvalidHandle)
	for _, e := range []driver.Event{start, end, untimed} {
		if err := f.EventDestroy(e); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, f.EventSynchronize(start), "cuEventSynchronize", driver.ErrorInvalidHandle)
	if l := f.Live(); l.Streams != 0 || l.Events != 0 {
		t.Fatalf("Live = %+v", l)
	}
}

func TestDevices(t *testing.T) {
	two := fakedriver.DefaultDevice()
	two.Name = "second"
	f := fakedriver.New(fakedriver.Config{Devices: []fakedriver.DeviceSpec{fakedriver.DefaultDevice(), two}})
	n, err := driver.Start(f)
	if err != nil || n != 2 {
		t.Fatalf("Start = %d, %v", n, err)
	}
	props, err := driver.QueryDevice(f, 1)
	if err != nil {
		t.Fatal(err)
	}
	if props.Name != "second" || props.Arch() != "sm_75" || props.SMs != 40 || props.MaxBlock.Z != 64 || props.WarpSize != 32 {
		t.Fatalf("props = %+v", props)
	}
	_, err = f.DeviceGet(2)
	wantCode(t, err, "cuDeviceGet", driver.ErrorInvalidDevice)
	_, err = f.DeviceAttribute(0, 9999)
	wantCode(t, err, "cuDeviceGetAttribute", driver.ErrorInvalidValue)
	wantCode(t, f.PrimaryCtxRelease(0), "cuDevicePrimaryCtxRelease", driver.ErrorInvalidContext)
}

// Registered host ranges may not overlap, and only a registered start can
// be unregistered.
func TestMemHostRegister(t *testing.T) {
	f := ready(t, fakedriver.Config{})
	buf := make([]byte, 4096)
	at := func(i int) unsafe.Pointer { return unsafe.Pointer(&buf[i]) }
	if err := f.MemHostRegister(at(0), 1024, driver.HostRegisterPortable); err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.MemHostRegister(at(1000), 100, 0), "cuMemHostRegister", driver.ErrorHostMemoryAlreadyRegistered)
	if err := f.MemHostRegister(at(1024), 1024, 0); err != nil {
		t.Fatalf("adjacent range: %v", err)
	}
	if !f.Registered(at(100), 900) || f.Registered(at(1000), 100) || f.Registered(at(2048), 1) {
		t.Error("Registered does not report whole-range containment")
	}
	if live := f.Live(); live.Registered != 2 {
		t.Errorf("Live.Registered = %d, want 2", live.Registered)
	}
	wantCode(t, f.MemHostUnregister(at(8)), "cuMemHostUnregister", driver.ErrorHostMemoryNotRegistered)
	wantCode(t, f.MemHostRegister(at(0), 0, 0), "cuMemHostRegister", driver.ErrorInvalidValue)
	wantCode(t, f.MemHostRegister(at(3000), 8, 4), "cuMemHostRegister", driver.ErrorInvalidValue)
	for _, i := range []int{0, 1024} {
		if err := f.MemHostUnregister(at(i)); err != nil {
			t.Fatal(err)
		}
	}
	if live := f.Live(); live.Registered != 0 {
		t.Errorf("Live.Registered = %d after unregistering", live.Registered)
	}
}

// TestPeerAccess: two devices can access each other, peer access is
// enabled once per direction, and a peer copy moves bytes between the
// devices' memory, each address checked against its context's device.
func TestPeerAccess(t *testing.T) {
	f := ready(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{fakedriver.DefaultDevice(), fakedriver.DefaultDevice()}})
	c0, err := f.CtxGetCurrent()
	if err != nil {
		t.Fatal(err)
	}
	c1, err := f.PrimaryCtxRetain(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d, peer driver.Device
		want    bool
	}{{0, 1, true}, {1, 0, true}, {0, 0, false}} {
		if got, err := f.DeviceCanAccessPeer(c.d, c.peer); err != nil || got != c.want {
			t.Errorf("DeviceCanAccessPeer(%d, %d) = %v, %v; want %v", c.d, c.peer, got, err, c.want)
		}
	}
	_, err = f.DeviceCanAccessPeer(0, 7)
	wantCode(t, err, "cuDeviceCanAccessPeer", driver.ErrorInvalidDevice)
	wantCode(t, f.CtxEnablePeerAccess(c0), "cuCtxEnablePeerAccess", driver.ErrorInvalidDevice)
	if err := f.CtxEnablePeerAccess(c1); err != nil || !f.PeerAccess(0, 1) || f.PeerAccess(1, 0) {
		t.Fatalf("CtxEnablePeerAccess: %v; access 0→1 %v, 1→0 %v", err, f.PeerAccess(0, 1), f.PeerAccess(1, 0))
	}
	wantCode(t, f.CtxEnablePeerAccess(c1), "cuCtxEnablePeerAccess", driver.ErrorPeerAccessAlreadyEnabled)

	src, err := f.MemAlloc(16)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.MemcpyHtoD(src, unsafe.Pointer(&[]byte("sixteen bytes!!!")[0]), 16); err != nil {
		t.Fatal(err)
	}
	if err := f.CtxSetCurrent(c1); err != nil {
		t.Fatal(err)
	}
	dst, err := f.MemAlloc(16)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.MemcpyPeerAsync(dst, c1, src, c0, 16, 0); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 16)
	if err := f.MemcpyDtoH(unsafe.Pointer(&got[0]), dst, 16); err != nil || string(got) != "sixteen bytes!!!" {
		t.Fatalf("after the peer copy device 1 holds %q, %v", got, err)
	}
	err = f.MemcpyPeerAsync(dst, c0, src, c0, 16, 0)
	if err == nil || !strings.Contains(err.Error(), "memory of device 1") {
		t.Errorf("a peer copy with the destination's context wrong: %v", err)
	}
}
