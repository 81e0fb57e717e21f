package fakedriver_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
	"github.com/nugo-dev/nugo/internal/ptxsim"
)

// simPTX is a module for the executing fake: scale multiplies n float32s by
// s and counts the threads that did in the global counter (initialised to
// 5); poke stores 7 at p; hello prints its thread index.
const simPTX = `.version 7.8
.target sm_75
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 $fmt[7] = {104, 105, 32, 37, 100, 10, 0};
.global .align 4 .u32 counter = 5;
.visible .entry scale(.param .u64 p, .param .u32 n, .param .f32 s)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .f32 %f<3>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r1, [n];
	ld.param.f32 %f1, [s];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mad.lo.s32 %r2, %r3, %r4, %r2;
	setp.ge.u32 %p1, %r2, %r1;
	@%p1 bra DONE;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.f32 %f2, [%rd3];
	mul.rn.f32 %f2, %f2, %f1;
	st.global.f32 [%rd3], %f2;
	atom.global.add.u32 %r5, [counter], 1;
DONE:
	ret;
}
.visible .entry poke(.param .u64 p)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, 7;
	st.global.u32 [%rd1], %r1;
	ret;
}
.visible .entry hello()
{
	.local .align 8 .b8 depot[8];
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	st.local.u32 [depot], %r1;
	mov.u64 %rd1, depot;
	cvta.local.u64 %rd2, %rd1;
	mov.u64 %rd3, $fmt;
	{
	.param .b64 a0;
	st.param.b64 [a0], %rd3;
	.param .b64 a1;
	st.param.b64 [a1], %rd2;
	.param .b32 rv;
	call.uni (rv), vprintf, (a0, a1);
	}
	ret;
}
`

// The executing fake runs a kernel over its own device memory, with the
// arguments as cuLaunchKernel passes them, and its globals where
// ModuleGetGlobal says.
func TestSimRunsKernels(t *testing.T) {
	var out bytes.Buffer
	f := ready(t, fakedriver.Config{Sim: &fakedriver.SimConfig{Stdout: &out}})
	m, _, err := f.ModuleLoadData(simPTX, driver.JITOptions{})
	if err != nil {
		t.Fatal(err)
	}
	scale, _ := f.ModuleGetFunction(m, "scale")
	const n = 300
	in := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(in[4*i:], math.Float32bits(float32(i)-100))
	}
	p, err := f.MemAlloc(len(in))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.MemcpyHtoD(p, unsafe.Pointer(&in[0]), len(in)); err != nil {
		t.Fatal(err)
	}
	var params driver.Params
	params.AddPtr(p)
	params.AddU32(n)
	params.AddF32(-1.5)
	if err := f.LaunchKernel(scale, driver.Dim3{X: 3, Y: 1, Z: 1}, driver.Dim3{X: 128, Y: 1, Z: 1}, 0, 0, &params); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(in))
	if err := f.MemcpyDtoH(unsafe.Pointer(&got[0]), p, len(got)); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if v, want := math.Float32frombits(binary.LittleEndian.Uint32(got[4*i:])), (float32(i)-100)*-1.5; v != want {
			t.Fatalf("element %d = %v, want %v", i, v, want)
		}
	}
	cp, size, err := f.ModuleGetGlobal(m, "counter")
	if err != nil || size != 4 {
		t.Fatalf("ModuleGetGlobal(counter) = %#x, %d, %v", uint64(cp), size, err)
	}
	if c, _ := f.Read(cp, 4); binary.LittleEndian.Uint32(c) != 5+n {
		t.Fatalf("counter = %d, want %d (its initial 5 plus one per thread in range)", binary.LittleEndian.Uint32(c), 5+n)
	}

	// printf goes to the configured writer.
	hello, _ := f.ModuleGetFunction(m, "hello")
	if err := f.LaunchKernel(hello, driver.Dim3{X: 1, Y: 1, Z: 1}, driver.Dim3{X: 3, Y: 1, Z: 1}, 0, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.CtxSynchronize(); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); s != "hi 0\nhi 1\nhi 2\n" {
		t.Fatalf("printf output %q", s)
	}

	// Freed memory is gone for kernels too; unloading frees the globals.
	poke, _ := f.ModuleGetFunction(m, "poke")
	var pp driver.Params
	pp.AddPtr(p)
	if err := f.MemFree(p); err != nil {
		t.Fatal(err)
	}
	if err := f.LaunchKernel(poke, driver.Dim3{X: 1, Y: 1, Z: 1}, driver.Dim3{X: 1, Y: 1, Z: 1}, 0, 0, &pp); err != nil {
		t.Fatalf("a faulting kernel's launch itself succeeds: %v", err)
	}
	wantCode(t, f.CtxSynchronize(), "cuCtxSynchronize", driver.ErrorIllegalAddress)
	var ee *ptxsim.ExecError
	if err := f.KernelFault(); !errors.As(err, &ee) || ee.Kernel != "poke" || ee.Addr != uint64(p) {
		t.Fatalf("KernelFault() = %v, want poke's store to %#x", err, uint64(p))
	}
	f.ClearFaults()
	if f.KernelFault() != nil {
		t.Fatal("ClearFaults kept the kernel fault")
	}
	if err := f.ModuleUnload(m); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Read(cp, 4); err == nil {
		t.Fatal("the module's global outlived its unload")
	}
	if l := f.Live(); l != (fakedriver.Live{}) {
		t.Fatalf("live after unload: %+v", l)
	}
}

// Arguments that do not match the kernel's parameters, which a GPU would
// misread silently, are rejected; PTX the interpreter cannot take is
// CUDA_ERROR_INVALID_PTX with the reason in the log.
func TestSimChecksLaunchesAndPTX(t *testing.T) {
	f := ready(t, fakedriver.Config{Sim: &fakedriver.SimConfig{}})
	m, _, err := f.ModuleLoadData(simPTX, driver.JITOptions{})
	if err != nil {
		t.Fatal(err)
	}
	scale, _ := f.ModuleGetFunction(m, "scale")
	p, _ := f.MemAlloc(16)
	one := driver.Dim3{X: 1, Y: 1, Z: 1}
	for _, c := range []struct {
		name string
		pack func(*driver.Params)
		want string
	}{
		{"32-bit pointer", func(pr *driver.Params) { pr.AddU32(uint32(p)); pr.AddU32(4); pr.AddF32(1) }, "parameter 0 has 8 bytes, the launch passes 4"},
		{"64-bit count", func(pr *driver.Params) { pr.AddPtr(p); pr.AddU64(4); pr.AddF32(1) }, "parameter 1 has 4 bytes, the launch passes 8"},
		{"missing argument", func(pr *driver.Params) { pr.AddPtr(p); pr.AddU32(4) }, "3 parameters, the launch passes 2"},
	} {
		var pr driver.Params
		c.pack(&pr)
		err := f.LaunchKernel(scale, one, one, 0, 0, &pr)
		wantCode(t, err, "cuLaunchKernel", driver.ErrorInvalidValue)
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want it to say %q", c.name, err, c.want)
		}
	}
	if err := f.CtxSynchronize(); err != nil {
		t.Fatalf("rejected launches poisoned the context: %v", err)
	}

	bad := strings.Replace(simPTX, "mov.u32 %r1, 7;", "redux.sync.add.u32 %r1, %r1, -1;", 1)
	_, log, err := f.ModuleLoadData(bad, driver.JITOptions{})
	wantCode(t, err, "cuModuleLoadDataEx", driver.ErrorInvalidPTX)
	if !strings.Contains(log.Error, "redux") {
		t.Fatalf("JIT log %q does not name the instruction", log.Error)
	}
	if l := f.Live(); l.Modules != 1 {
		t.Fatalf("live after a failed load: %+v", l)
	}

	// Static shared memory comes from the PTX and leaves the rest of
	// 48 KiB to dynamic shared memory.
	shared := strings.Replace(simPTX, ".global .align 4 .u32 counter = 5;", ".global .align 4 .u32 counter = 5;\n.shared .align 8 .b8 tile[4096];", 1)
	m2, _, err := f.ModuleLoadData(shared, driver.JITOptions{})
	if err != nil {
		t.Fatal(err)
	}
	poke, _ := f.ModuleGetFunction(m2, "poke")
	for attr, want := range map[driver.FunctionAttribute]int{driver.FuncSharedSizeBytes: 4096, driver.FuncMaxDynamicSharedSize: 44 << 10} {
		if v, err := f.FuncGetAttribute(poke, attr); err != nil || v != want {
			t.Errorf("attribute %d = %d, %v; want %d", attr, v, err, want)
		}
	}
	var pp driver.Params
	pp.AddPtr(p)
	wantCode(t, f.LaunchKernel(poke, one, one, 45<<10, 0, &pp), "cuLaunchKernel", driver.ErrorInvalidValue)
}

// A kernel fault poisons the context with the code a GPU reports.
func TestSimFaultCodes(t *testing.T) {
	body := map[string]string{
		"address":    "mov.u64 %rd1, 4096;\n\tst.global.u32 [%rd1], %r1;",
		"misaligned": "mov.u64 %rd1, counter;\n\tatom.global.add.u32 %r1, [%rd1+2], 1;",
		"trap":       "trap;",
		"loop":       "L:\n\tbra.uni L;",
	}
	for _, c := range []struct {
		name string
		code driver.Result
	}{
		{"address", driver.ErrorIllegalAddress},
		{"misaligned", driver.ErrorMisalignedAddress},
		{"trap", driver.ErrorLaunchFailed},
		{"loop", driver.ErrorLaunchTimeout},
	} {
		f := ready(t, fakedriver.Config{Sim: &fakedriver.SimConfig{MaxSteps: 1000}})
		src := ".version 7.8\n.target sm_75\n.address_size 64\n.global .align 8 .u64 counter;\n" +
			".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n\t" + body[c.name] + "\n\tret;\n}\n"
		m, _, err := f.ModuleLoadData(src, driver.JITOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		k, _ := f.ModuleGetFunction(m, "k")
		if err := f.LaunchKernel(k, driver.Dim3{X: 1, Y: 1, Z: 1}, driver.Dim3{X: 1, Y: 1, Z: 1}, 0, 0, nil); err != nil {
			t.Fatalf("%s: launch: %v", c.name, err)
		}
		wantCode(t, f.StreamSynchronize(0), "cuStreamSynchronize", c.code)
		if f.KernelFault() == nil {
			t.Errorf("%s: no kernel fault recorded", c.name)
		}
		if err := f.PrimaryCtxRelease(0); err != nil {
			t.Fatal(err)
		}
		if f.KernelFault() != nil {
			t.Errorf("%s: the kernel fault outlived the context", c.name)
		}
	}
}

// Device work is asynchronous: queued launches, asynchronous copies and
// memsets run, in order, when the host waits; until then page-locked
// buffers hold what they held.
func TestSimWorkRunsWhenTheHostWaits(t *testing.T) {
	f := ready(t, fakedriver.Config{Sim: &fakedriver.SimConfig{}})
	m, _, err := f.ModuleLoadData(simPTX, driver.JITOptions{})
	if err != nil {
		t.Fatal(err)
	}
	scale, _ := f.ModuleGetFunction(m, "scale")
	s, _ := f.StreamCreate(driver.StreamDefault)
	p, _ := f.MemAlloc(8)
	pinned, err := f.MemHostAlloc(8, 0)
	if err != nil {
		t.Fatal(err)
	}
	host := unsafe.Slice((*byte)(pinned), 8)
	if host[0] != fakedriver.Garbage {
		t.Fatalf("fresh page-locked memory holds %#x, want Garbage", host[0])
	}
	binary.LittleEndian.PutUint32(host, math.Float32bits(3))
	binary.LittleEndian.PutUint32(host[4:], math.Float32bits(5))
	if err := f.MemsetD8(p, 0, 8); err != nil {
		t.Fatal(err)
	}
	if err := f.MemcpyHtoDAsync(p, pinned, 8, s); err != nil {
		t.Fatal(err)
	}
	var params driver.Params
	params.AddPtr(p)
	params.AddU32(2)
	params.AddF32(10)
	one := driver.Dim3{X: 1, Y: 1, Z: 1}
	if err := f.LaunchKernel(scale, one, driver.Dim3{X: 32, Y: 1, Z: 1}, 0, s, &params); err != nil {
		t.Fatal(err)
	}
	if err := f.MemcpyDtoHAsync(pinned, p, 8, s); err != nil {
		t.Fatal(err)
	}
	if v := math.Float32frombits(binary.LittleEndian.Uint32(host)); v != 3 {
		t.Fatalf("the result arrived before the host waited: %v", v)
	}
	if err := f.StreamSynchronize(s); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float32{30, 50} {
		if v := math.Float32frombits(binary.LittleEndian.Uint32(host[4*i:])); v != want {
			t.Fatalf("element %d after the wait = %v, want %v", i, v, want)
		}
	}
	// A queued fault surfaces at the call that waits; later work is dropped.
	poke, _ := f.ModuleGetFunction(m, "poke")
	var bad driver.Params
	bad.AddPtr(16)
	if err := f.LaunchKernel(poke, one, one, 0, s, &bad); err != nil {
		t.Fatalf("queuing a faulting kernel: %v", err)
	}
	if err := f.LaunchKernel(scale, one, one, 0, s, &params); err != nil {
		t.Fatalf("queuing after it: %v", err)
	}
	wantCode(t, f.StreamSynchronize(s), "cuStreamSynchronize", driver.ErrorIllegalAddress)
	f.ClearFaults()
	if got, _ := f.Read(p, 4); math.Float32frombits(binary.LittleEndian.Uint32(got)) != 30 {
		t.Fatalf("the kernel queued after the fault ran")
	}
}
