package driver

// Tests against a real GPU. They run when libcuda.so.1 finds a device, skip
// visibly otherwise, and fail instead of skipping when NUGO_REQUIRE_GPU=1.
// The test that faults a kernel on purpose runs it in a child process
// (drivertest), because the fault poisons the context for the whole process.

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver/drivertest"
)

// gpu opens device 0's primary context on the real driver.
func gpu(t *testing.T) *DeviceContext {
	t.Helper()
	l, err := Load()
	if err == nil {
		_, err = Start(l)
	}
	if err != nil {
		if os.Getenv("NUGO_REQUIRE_GPU") == "1" {
			t.Fatalf("NUGO_REQUIRE_GPU=1 but no GPU can be used: %v", err)
		}
		t.Skipf("SKIP GPU test: %v", err)
	}
	dc, err := OpenDevice(l, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := dc.Close(); err != nil {
			t.Error(err)
		}
	})
	return dc
}

func testPTX(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/kernels.ptx")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGPUDeviceProps(t *testing.T) {
	dc := gpu(t)
	p := dc.Props()
	t.Logf("%s %s: %d SMs, %d MiB, shared/block %d (opt-in %d), max block %v, max grid %v",
		p.Name, p.Arch(), p.SMs, p.TotalMem>>20, p.SharedPerBlock, p.SharedPerBlockOpt, p.MaxBlock, p.MaxGrid)
	if p.Major < 5 || p.SMs < 1 || p.WarpSize != 32 || p.MaxThreadsPerBlk < 512 || p.MaxBlock.X < 512 ||
		p.MaxGrid.X < 65535 || p.SharedPerBlock < 16<<10 || p.TotalMem < 1<<28 || p.Name == "" {
		t.Fatalf("implausible device properties %+v", p)
	}
	err := dc.Do(func(api API) error {
		free, total, err := api.MemGetInfo()
		if err != nil {
			return err
		}
		if free <= 0 || free > total || total > p.TotalMem+(1<<30) {
			t.Errorf("MemGetInfo = %d free of %d; device has %d", free, total, p.TotalMem)
		}
		c, err := api.CtxGetCurrent()
		if err == nil && c != dc.Context() {
			t.Errorf("current context %#x inside Do, want %#x", c, dc.Context())
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGPULaunch(t *testing.T) {
	dc := gpu(t)
	src := testPTX(t)
	const n = 1000
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(i)
	}
	err := dc.Do(func(api API) error {
		mod, log, err := api.ModuleLoadData(src, JITOptions{OptLevel: O3, Verbose: true})
		if err != nil {
			return err
		}
		t.Logf("JIT %.2f ms; info log:\n%s", log.WallMS, log.Info)
		defer api.ModuleUnload(mod)
		fn, err := api.ModuleGetFunction(mod, "add_one")
		if err != nil {
			return err
		}
		regs, err := api.FuncGetAttribute(fn, FuncNumRegs)
		if err != nil {
			return err
		}
		maxT, err := api.FuncGetAttribute(fn, FuncMaxThreadsPerBlock)
		if err != nil {
			return err
		}
		if regs < 1 || maxT < 256 {
			t.Errorf("add_one: %d registers, %d max threads", regs, maxT)
		}
		if _, err := api.ModuleGetFunction(mod, "no_such_kernel"); Code(err) != ErrorNotFound {
			t.Errorf("missing kernel: %v, want CUDA_ERROR_NOT_FOUND", err)
		}
		p, err := api.MemAlloc(n * 4)
		if err != nil {
			return err
		}
		defer api.MemFree(p)
		if err := api.MemcpyHtoD(p, unsafe.Pointer(&data[0]), n*4); err != nil {
			return err
		}
		start, err := api.EventCreate(EventDefault)
		if err != nil {
			return err
		}
		defer api.EventDestroy(start)
		end, err := api.EventCreate(EventBlockingSync)
		if err != nil {
			return err
		}
		defer api.EventDestroy(end)
		var params Params
		params.AddPtr(p)
		params.AddU64(n)
		params.AddF32(1.5)
		if err := api.EventRecord(start, 0); err != nil {
			return err
		}
		if err := api.LaunchKernel(fn, Dim3{(n + 255) / 256, 1, 1}, Dim3{256, 1, 1}, 0, 0, &params); err != nil {
			return err
		}
		if err := api.EventRecord(end, 0); err != nil {
			return err
		}
		if err := api.EventSynchronize(end); err != nil {
			return err
		}
		ms, err := api.EventElapsedTime(start, end)
		if err != nil {
			return err
		}
		if ms < 0 {
			t.Errorf("elapsed %v ms", ms)
		}
		// Too many threads per block: refused by the driver, context intact.
		if err := api.LaunchKernel(fn, Dim3{1, 1, 1}, Dim3{4096, 1, 1}, 0, 0, &params); Code(err) == Success {
			t.Error("a 4096-thread block launched")
		}
		return api.MemcpyDtoH(unsafe.Pointer(&data[0]), p, n*4)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range data {
		if v != float32(i)+1.5 {
			t.Fatalf("data[%d] = %v, want %v", i, v, float32(i)+1.5)
		}
	}
}

func TestGPUAsyncCopiesWithPinnedMemory(t *testing.T) {
	dc := gpu(t)
	const n = 1 << 20
	err := dc.Do(func(api API) error {
		h, err := api.MemHostAlloc(n, HostAllocPortable)
		if err != nil {
			return err
		}
		defer api.MemFreeHost(h)
		host := unsafe.Slice((*byte)(h), n)
		for i := range host {
			host[i] = byte(i * 7)
		}
		s, err := api.StreamCreate(StreamNonBlocking)
		if err != nil {
			return err
		}
		defer api.StreamDestroy(s)
		a, err := api.MemAlloc(n)
		if err != nil {
			return err
		}
		defer api.MemFree(a)
		b, err := api.MemAlloc(n)
		if err != nil {
			return err
		}
		defer api.MemFree(b)
		if err := api.MemsetD8(b, 0xEE, n); err != nil {
			return err
		}
		if err := api.MemcpyHtoDAsync(a, h, n, s); err != nil {
			return err
		}
		if err := api.MemcpyDtoDAsync(b, a, n, s); err != nil {
			return err
		}
		// The copy from pinned memory may still be reading host: wait
		// before overwriting it.
		if err := api.StreamSynchronize(s); err != nil {
			return err
		}
		clear(host)
		if err := api.MemcpyDtoHAsync(h, b, n, s); err != nil {
			return err
		}
		if err := api.StreamSynchronize(s); err != nil {
			return err
		}
		if done, err := api.StreamQuery(s); err != nil || !done {
			t.Errorf("StreamQuery after sync = %v, %v", done, err)
		}
		for i := range host {
			if host[i] != byte(i*7) {
				t.Errorf("byte %d = %d, want %d", i, host[i], byte(i*7))
				break
			}
		}
		return api.CtxSynchronize()
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGPUInvalidPTXLog(t *testing.T) {
	dc := gpu(t)
	bad := ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k() {\n\tadd.f32 %f1, %f2, %f3;\n\tret;\n}\n"
	err := dc.Do(func(api API) error {
		_, log, err := api.ModuleLoadData(bad, JITOptions{})
		var e *Error
		if !errors.As(err, &e) || e.Code != ErrorInvalidPTX {
			t.Fatalf("invalid PTX: %v, want CUDA_ERROR_INVALID_PTX", err)
		}
		if e.Log == "" || e.Log != log.Error || !strings.Contains(err.Error(), e.Log) {
			t.Fatalf("error log %q (JITLog.Error %q)", e.Log, log.Error)
		}
		t.Logf("%v", err)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGPUContextFollowsGoroutines(t *testing.T) {
	dc := gpu(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				err := dc.Do(func(api API) error {
					p, err := api.MemAlloc(4096)
					if err != nil {
						return err
					}
					defer api.MemFree(p)
					return api.MemsetD8(p, byte(g+i), 4096)
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// A kernel that stores through a null pointer poisons its context, so it
// runs in a child process; the parent's context must stay healthy.
func TestGPUFaultInSubprocess(t *testing.T) {
	if drivertest.InChild(t) {
		dc := gpu(t)
		_ = dc.Do(func(api API) error {
			mod, _, err := api.ModuleLoadData(testPTX(t), JITOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fn, err := api.ModuleGetFunction(mod, "store_null")
			if err != nil {
				t.Fatal(err)
			}
			var params Params
			params.AddU64(0)
			err = api.LaunchKernel(fn, Dim3{1, 1, 1}, Dim3{1, 1, 1}, 0, 0, &params)
			if err == nil {
				err = api.CtxSynchronize()
			}
			t.Logf("CHILD fault: %v (sticky %v)", err, Code(err).Sticky())
			_, err = api.MemAlloc(16)
			t.Logf("CHILD after: %v", err)
			return nil
		})
		// Releasing a poisoned context may itself report the fault; that
		// is expected here, so the child logs it instead of failing (the
		// cleanup's Close is then a no-op).
		t.Logf("CHILD close: %v", dc.Close())
		return
	}
	if _, err := Load(); err != nil && os.Getenv("NUGO_REQUIRE_GPU") != "1" {
		t.Skipf("SKIP GPU test: %v", err)
	}
	out, err := drivertest.RunChild(t)
	if strings.Contains(out, "SKIP GPU test") {
		t.Skip("SKIP GPU test: the child found no GPU")
	}
	if err != nil {
		t.Fatalf("child failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, "CHILD fault: cu") || !strings.Contains(out, "sticky true") {
		t.Fatalf("the faulting kernel did not report a sticky driver error:\n%s", out)
	}
	if !strings.Contains(out, "CHILD after: cuMemAlloc: CUDA_ERROR_") {
		t.Fatalf("the context was not poisoned after the fault:\n%s", out)
	}
	// This process never faulted: its context works.
	dc := gpu(t)
	if err := dc.Do(func(api API) error { _, _, err := api.MemGetInfo(); return err }); err != nil {
		t.Fatal(err)
	}
}

// A module's .global variable: found by name with its size, zeroed by
// MemsetD8, written by a kernel and read back (the debug error record's path).
func TestGPUModuleGlobal(t *testing.T) {
	dc := gpu(t)
	const src = `.version 7.0
.target sm_75
.address_size 64
.visible .global .align 8 .b8 rec[64];
.visible .entry mark(.param .u32 v)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u32 %r1, [v];
	mov.u64 %rd1, rec;
	st.global.u32 [%rd1+8], %r1;
	ret;
}
`
	err := dc.Do(func(api API) error {
		mod, log, err := api.ModuleLoadData(src, JITOptions{})
		if err != nil {
			return fmt.Errorf("%w\n%s", err, log.Error)
		}
		defer api.ModuleUnload(mod)
		p, n, err := api.ModuleGetGlobal(mod, "rec")
		if err != nil {
			return err
		}
		if n != 64 || p == 0 {
			t.Errorf("ModuleGetGlobal(rec) = %#x, %d bytes; want 64", p, n)
		}
		if _, _, err := api.ModuleGetGlobal(mod, "missing"); Code(err) != ErrorNotFound {
			t.Errorf("missing global: %v, want CUDA_ERROR_NOT_FOUND", err)
		}
		if err := api.MemsetD8(p, 0xff, 64); err != nil {
			return err
		}
		if err := api.MemsetD8(p, 0, 64); err != nil {
			return err
		}
		fn, err := api.ModuleGetFunction(mod, "mark")
		if err != nil {
			return err
		}
		var params Params
		params.AddU32(0xfeed)
		if err := api.LaunchKernel(fn, Dim3{1, 1, 1}, Dim3{1, 1, 1}, 0, 0, &params); err != nil {
			return err
		}
		var rec [64]byte
		if err := api.MemcpyDtoH(unsafe.Pointer(&rec[0]), p, 64); err != nil {
			return err
		}
		for i, b := range rec {
			want := byte(0)
			switch i {
			case 8:
				want = 0xed
			case 9:
				want = 0xfe
			}
			if b != want {
				t.Errorf("record byte %d = %#x, want %#x (record %x)", i, b, want, rec)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Mapped memory written by the host is what the device reads at its device
// address; managed memory set by the device is what the host reads at the
// same address; a limit set is read back (the driver may round it up).
func TestGPUMappedManagedAndLimits(t *testing.T) {
	dc := gpu(t)
	const n = 1 << 16
	err := dc.Do(func(api API) error {
		h, err := api.MemHostAlloc(n, HostAllocDeviceMap|HostAllocPortable)
		if err != nil {
			return err
		}
		defer api.MemFreeHost(h)
		host := unsafe.Slice((*byte)(h), n)
		for i := range host {
			host[i] = byte(i * 5)
		}
		d, err := api.MemHostGetDevicePointer(h)
		if err != nil {
			return err
		}
		back := make([]byte, n)
		if err := api.MemcpyDtoH(unsafe.Pointer(&back[0]), d, n); err != nil {
			return err
		}
		for i, b := range back {
			if b != byte(i*5) {
				return fmt.Errorf("mapped memory: device address reads %d at %d, want %d", b, i, byte(i*5))
			}
		}

		// Registered Go memory, mapped, as cuda.NewMappedArray makes it.
		goMem := make([]byte, 2*n)
		reg := goMem[n-int(uintptr(unsafe.Pointer(&goMem[0]))%n):][:n] // n-aligned
		for i := range reg {
			reg[i] = byte(i * 3)
		}
		rp := unsafe.Pointer(&reg[0])
		var pin runtime.Pinner
		pin.Pin(rp)
		defer pin.Unpin()
		if err := api.MemHostRegister(rp, n, HostRegisterDeviceMap|HostRegisterPortable); err != nil {
			return err
		}
		rd, err := api.MemHostGetDevicePointer(rp)
		if err != nil {
			return err
		}
		if err := api.MemcpyDtoH(unsafe.Pointer(&back[0]), rd, n); err != nil {
			return err
		}
		if err := api.MemHostUnregister(rp); err != nil {
			return err
		}
		for i, b := range back {
			if b != byte(i*3) {
				return fmt.Errorf("registered mapped memory: device address reads %d at %d, want %d", b, i, byte(i*3))
			}
		}

		m, err := api.MemAllocManaged(n, MemAttachGlobal)
		if err != nil {
			return err
		}
		defer api.MemFree(DevicePtr(uintptr(m)))
		if err := api.MemsetD8(DevicePtr(uintptr(m)), 0x3C, n); err != nil {
			return err
		}
		if err := api.CtxSynchronize(); err != nil {
			return err
		}
		for i, b := range unsafe.Slice((*byte)(m), n) {
			if b != 0x3C {
				return fmt.Errorf("managed memory: host reads %#x at %d, want 0x3c", b, i)
			}
		}

		old, err := api.CtxGetLimit(LimitStackSize)
		if err != nil {
			return err
		}
		if err := api.CtxSetLimit(LimitStackSize, 4000); err != nil {
			return err
		}
		v, err := api.CtxGetLimit(LimitStackSize)
		if err != nil {
			return err
		}
		if v < 4000 {
			return fmt.Errorf("stack size %d after setting 4000", v)
		}
		return api.CtxSetLimit(LimitStackSize, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Prefetch and advice on a real device, in the CUdevice forms nugo binds:
// every advice with the device and with CU_DEVICE_CPU, a prefetch to the
// device and back on a stream, after which the host reads what the device
// wrote. A device without concurrent managed access must refuse the
// prefetch; the code it gives is logged (the fake says
// CUDA_ERROR_INVALID_DEVICE).
func TestGPUManagedPrefetchAndAdvise(t *testing.T) {
	dc := gpu(t)
	const n = 4 << 20
	err := dc.Do(func(api API) error {
		concurrent, err := api.DeviceAttribute(dc.Device(), AttrConcurrentManagedAccess)
		if err != nil {
			return err
		}
		m, err := api.MemAllocManaged(n, MemAttachGlobal)
		if err != nil {
			return err
		}
		p := DevicePtr(uintptr(m))
		defer api.MemFree(p)
		for _, a := range []MemAdvice{AdviseSetReadMostly, AdviseUnsetReadMostly, AdviseSetPreferredLocation,
			AdviseUnsetPreferredLocation, AdviseSetAccessedBy, AdviseUnsetAccessedBy} {
			for _, d := range []Device{dc.Device(), DeviceCPU} {
				if err := api.MemAdvise(p, n, a, d); err != nil {
					return fmt.Errorf("advice %d about device %d: %w", a, d, err)
				}
			}
		}
		s, err := api.StreamCreate(StreamDefault)
		if err != nil {
			return err
		}
		defer api.StreamDestroy(s)
		err = api.MemPrefetchAsync(p, n, dc.Device(), s)
		if concurrent == 0 {
			t.Logf("device without concurrent managed access: prefetch = %v", err)
			if err == nil {
				return errors.New("cuMemPrefetchAsync succeeded on a device without concurrent managed access")
			}
			return nil
		}
		if err != nil {
			return err
		}
		if err := api.MemsetD8Async(p+n/2, 0x5D, n/2, s); err != nil {
			return err
		}
		if err := api.MemPrefetchAsync(p, n, DeviceCPU, s); err != nil {
			return err
		}
		if err := api.StreamSynchronize(s); err != nil {
			return err
		}
		b := unsafe.Slice((*byte)(m), n)
		if b[n/2] != 0x5D || b[n-1] != 0x5D {
			return fmt.Errorf("host reads %#x, %#x after the device's memset and a prefetch back; want 0x5d", b[n/2], b[n-1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The profiler calls succeed in a context without a profiler attached
// (the driver then does nothing), twice in a row too, and a module loaded
// with line information and a .maxnreg entry reports at most that many
// registers.
func TestGPUProfilerAndRegisterCap(t *testing.T) {
	dc := gpu(t)
	const ptx = `.version 7.8
.target sm_75
.address_size 64
.file 1 "capped.go"
.visible .entry capped(.param .u64 p)
.maxnreg 32
{
	.reg .b64 %rd<3>;
	.loc 1 3 2
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd2, %rd1;
	.loc 1 4 2
	st.global.u64 [%rd2], %rd1;
	ret;
}
`
	err := dc.Do(func(api API) error {
		for _, f := range []func() error{api.ProfilerStart, api.ProfilerStart, api.ProfilerStop, api.ProfilerStop} {
			if err := f(); err != nil {
				return err
			}
		}
		m, _, err := api.ModuleLoadData(ptx, JITOptions{LineInfo: true})
		if err != nil {
			return err
		}
		defer api.ModuleUnload(m)
		fn, err := api.ModuleGetFunction(m, "capped")
		if err != nil {
			return err
		}
		regs, err := api.FuncGetAttribute(fn, FuncNumRegs)
		if err != nil {
			return err
		}
		if regs < 1 || regs > 32 {
			return fmt.Errorf("capped kernel uses %d registers; .maxnreg is 32", regs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
