package driver

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/nugo-dev/nugo/internal/dynlib/dynlibtest"
)

// Fields of the mock's record (testdata/mockcuda.c), in its enum's order.
const (
	fInitFlags = iota
	fOrdinal
	fNameLen
	fNameDev
	fAttr
	fAttrDev
	fTotalDev
	fRetainDev
	fReleaseDev
	fCtxSet
	fAllocSize
	fFreed
	fMemsetPtr
	fMemsetValue
	fMemsetN
	fCopyDst
	fCopySrc
	fCopyN
	fCopyStream
	fCopySum
	fHostSize
	fHostFlags
	fHostFreed
	fJITNOpts
	fJITKeys
	fJITImageLen
	fJITOptLevel
	fJITMaxRegs
	fFuncMod
	fFuncNameLen
	fUnloaded
	fGlobalMod
	fFAttr
	fFAttrFunc
	fFSetFunc
	fFSetAttr
	fFSetValue
	fLaunchF
	fGX
	fGY
	fGZ
	fBX
	fBY
	fBZ
	fShm
	fLaunchStream
	fExtra
	fNParams
	fP0
	fP1
	fP2
	fP3
	fStreamFlags
	fStreamArg
	fEventFlags
	fEventArg
	fRecordStream
	fElapsedStart
	fElapsedEnd
	fOccFunc
	fOccCallback
	fOccDyn
	fOccLimit
	fRegPtr
	fRegSize
	fRegFlags
	fUnregPtr
	fMappedPtr
	fMappedFlags
	fManagedSize
	fManagedFlags
	fSetLimit
	fSetLimitValue
	fGetLimit
	fWaitFlags
	fProfiler
	fMemsetStream
	fCoop
	fOccBlock
	fPrefetchPtr
	fPrefetchN
	fPrefetchDev
	fPrefetchStream
	fAdvisePtr
	fAdviseN
	fAdviseAdvice
	fAdviseDev
	fLocationForm
	fPeerDev
	fPeerPeer
	fPeerCtx
	fPeerFlags
	fPCopyDstCtx
	fPCopySrcCtx
)

// mockLibrary builds testdata/mockcuda.c into a shared library with the
// system C compiler and opens it as the driver. Without a compiler the test
// fails under CI and is skipped, visibly, elsewhere.
func mockLibrary(t *testing.T) (l *Library, get func(field int) uint64, setParams func(sizes ...int)) {
	t.Helper()
	so := dynlibtest.BuildMock(t, "testdata/mockcuda.c", "libmockcuda.so", inCI())
	l, err := Open(so)
	if err != nil {
		t.Fatal(err)
	}
	getAddr, err := purego.Dlsym(l.handle, "mock_get")
	if err != nil {
		t.Fatal(err)
	}
	setAddr, err := purego.Dlsym(l.handle, "mock_set_params")
	if err != nil {
		t.Fatal(err)
	}
	get = func(field int) uint64 {
		r, _, _ := purego.SyscallN(getAddr, uintptr(field))
		return uint64(r)
	}
	setParams = func(sizes ...int) {
		args := make([]uintptr, 5)
		args[0] = uintptr(len(sizes))
		for i, s := range sizes {
			args[i+1] = uintptr(s)
		}
		purego.SyscallN(setAddr, args...)
	}
	return l, get, setParams
}

// TestLibraryABI calls every entry point of a C library with the driver's
// signatures and checks what the C side received and what came back: the
// argument order and widths (int, unsigned int, size_t, 64-bit pointers),
// out-parameters, the _v2 symbols, the JIT option arrays with their
// write-backs, and cuLaunchKernel's eleven arguments (five on the stack on
// amd64) with its array of parameter pointers.
func TestLibraryABI(t *testing.T) {
	l, get, setParams := mockLibrary(t)
	type field struct {
		f    int
		want uint64
	}
	check := func(what string, err error, fields ...field) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		for _, fd := range fields {
			if got := get(fd.f); got != fd.want {
				t.Errorf("%s: mock field %d = %#x, want %#x", what, fd.f, got, fd.want)
			}
		}
	}

	check("cuInit", l.Init(), field{fInitFlags, 0})
	if v, err := l.DriverVersion(); err != nil || v != 12345 {
		t.Errorf("DriverVersion = %d, %v", v, err)
	}
	if n, err := l.DeviceCount(); err != nil || n != 3 {
		t.Errorf("DeviceCount = %d, %v", n, err)
	}
	d, err := l.DeviceGet(2)
	check("cuDeviceGet", err, field{fOrdinal, 2})
	if d != 102 {
		t.Errorf("DeviceGet(2) = %d, want 102", d)
	}
	_, err = l.DeviceGet(-1) // a negative C int, refused by the callee
	if Code(err) != ErrorInvalidDevice || get(fOrdinal) != math.MaxUint64 {
		t.Errorf("DeviceGet(-1) = %v, callee saw %#x", err, get(fOrdinal))
	}
	name, err := l.DeviceName(d)
	check("cuDeviceGetName", err, field{fNameLen, 256}, field{fNameDev, 102})
	if name != "mock device 102" {
		t.Errorf("DeviceName = %q", name)
	}
	v, err := l.DeviceAttribute(d, AttrComputeCapabilityMinor)
	check("cuDeviceGetAttribute", err, field{fAttr, 76}, field{fAttrDev, 102})
	if v != 76102 {
		t.Errorf("DeviceAttribute = %d", v)
	}
	total, err := l.DeviceTotalMem(d)
	check("cuDeviceTotalMem_v2", err, field{fTotalDev, 102})
	if total != 5<<33+102 {
		t.Errorf("DeviceTotalMem = %#x", total)
	}
	c, err := l.PrimaryCtxRetain(d)
	check("cuDevicePrimaryCtxRetain", err, field{fRetainDev, 102})
	if c != 0xC0DE0000+102 {
		t.Errorf("PrimaryCtxRetain = %#x", c)
	}
	check("cuCtxSetCurrent", l.CtxSetCurrent(c), field{fCtxSet, uint64(c)})
	if cur, err := l.CtxGetCurrent(); err != nil || cur != c {
		t.Errorf("CtxGetCurrent = %#x, %v", cur, err)
	}
	check("cuCtxSynchronize", l.CtxSynchronize())
	check("cuProfilerStart", l.ProfilerStart(), field{fProfiler, 1})
	check("cuProfilerStop", l.ProfilerStop(), field{fProfiler, 2})
	check("cuDevicePrimaryCtxRelease_v2", l.PrimaryCtxRelease(d), field{fReleaseDev, 102})

	// Memory: 64-bit sizes and addresses both ways.
	const big = 5<<32 + 7
	p, err := l.MemAlloc(big)
	check("cuMemAlloc_v2", err, field{fAllocSize, big})
	if p != 0x7F0000000000+big {
		t.Errorf("MemAlloc = %#x", p)
	}
	check("cuMemFree_v2", l.MemFree(p), field{fFreed, uint64(p)})
	check("cuMemsetD8_v2", l.MemsetD8(p+8, 0xAB, big), field{fMemsetPtr, uint64(p + 8)}, field{fMemsetValue, 0xAB}, field{fMemsetN, big})
	check("cuMemsetD16_v2", l.MemsetD16(p+2, 0xBEEF, 7), field{fMemsetPtr, uint64(p + 2)}, field{fMemsetValue, 0xBEEF}, field{fMemsetN, 7})
	check("cuMemsetD32_v2", l.MemsetD32(p+4, 0xDEADBEEF, 9), field{fMemsetPtr, uint64(p + 4)}, field{fMemsetValue, 0xDEADBEEF}, field{fMemsetN, 9})
	check("cuMemsetD8Async", l.MemsetD8Async(p+4, 0xCD, 12, 0x5005), field{fMemsetPtr, uint64(p + 4)}, field{fMemsetValue, 0xCD}, field{fMemsetN, 12}, field{fMemsetStream, 0x5005})
	free, tot, err := l.MemGetInfo()
	check("cuMemGetInfo_v2", err)
	if free != 3<<33 || tot != 7<<33 {
		t.Errorf("MemGetInfo = %#x, %#x", free, tot)
	}
	host := []byte{1, 2, 3, 4, 5}
	hp := unsafe.Pointer(&host[0])
	check("cuMemcpyHtoD_v2", l.MemcpyHtoD(p, hp, len(host)), field{fCopyDst, uint64(p)}, field{fCopySrc, uint64(uintptr(hp))}, field{fCopyN, 5}, field{fCopySum, 15})
	check("cuMemcpyHtoDAsync_v2", l.MemcpyHtoDAsync(p, hp, 3, 0x5000), field{fCopyN, 3}, field{fCopySum, 6}, field{fCopyStream, 0x5000})
	check("cuMemcpyDtoH_v2", l.MemcpyDtoH(hp, p+1, len(host)), field{fCopyDst, uint64(uintptr(hp))}, field{fCopySrc, uint64(p + 1)}, field{fCopyN, 5})
	if string(host) != "\x01\x04\x07\x0a\x0d" {
		t.Errorf("MemcpyDtoH wrote %v", host)
	}
	check("cuMemcpyDtoHAsync_v2", l.MemcpyDtoHAsync(hp, p, 2, 0x5001), field{fCopyN, 2}, field{fCopyStream, 0x5001})
	check("cuMemcpyDtoD_v2", l.MemcpyDtoD(p+16, p, big), field{fCopyDst, uint64(p + 16)}, field{fCopySrc, uint64(p)}, field{fCopyN, big})
	check("cuMemcpyDtoDAsync_v2", l.MemcpyDtoDAsync(p+16, p, 9, 0x5002), field{fCopyN, 9}, field{fCopyStream, 0x5002})
	can, err := l.DeviceCanAccessPeer(101, 102)
	check("cuDeviceCanAccessPeer", err, field{fPeerDev, 101}, field{fPeerPeer, 102})
	if !can {
		t.Error("DeviceCanAccessPeer(101, 102) = false; the mock says true")
	}
	if can, err := l.DeviceCanAccessPeer(101, 101); err != nil || can {
		t.Errorf("DeviceCanAccessPeer(101, 101) = %v, %v; the mock says false", can, err)
	}
	check("cuCtxEnablePeerAccess", l.CtxEnablePeerAccess(0xC0DE0065), field{fPeerCtx, 0xC0DE0065}, field{fPeerFlags, 0})
	check("cuMemcpyPeerAsync", l.MemcpyPeerAsync(p+16, 0xC0DE0066, p, 0xC0DE0065, big, 0x5003),
		field{fCopyDst, uint64(p + 16)}, field{fPCopyDstCtx, 0xC0DE0066}, field{fCopySrc, uint64(p)}, field{fPCopySrcCtx, 0xC0DE0065},
		field{fCopyN, big}, field{fCopyStream, 0x5003})
	hostMem, err := l.MemHostAlloc(4096, HostAllocPortable|HostAllocWriteCombined)
	check("cuMemHostAlloc", err, field{fHostSize, 4096}, field{fHostFlags, 5})
	if hostMem == nil {
		t.Fatal("MemHostAlloc returned nil")
	}
	check("cuMemFreeHost", l.MemFreeHost(hostMem), field{fHostFreed, uint64(uintptr(hostMem))})
	goMem := make([]byte, 3<<20)
	check("cuMemHostRegister_v2", l.MemHostRegister(unsafe.Pointer(&goMem[8]), len(goMem)-8, HostRegisterPortable),
		field{fRegPtr, uint64(uintptr(unsafe.Pointer(&goMem[8])))}, field{fRegSize, 3<<20 - 8}, field{fRegFlags, 1})
	check("cuMemHostUnregister", l.MemHostUnregister(unsafe.Pointer(&goMem[8])), field{fUnregPtr, uint64(uintptr(unsafe.Pointer(&goMem[8])))})
	runtime.KeepAlive(goMem)
	dp, err := l.MemHostGetDevicePointer(unsafe.Pointer(&goMem[16]))
	check("cuMemHostGetDevicePointer_v2", err, field{fMappedPtr, uint64(uintptr(unsafe.Pointer(&goMem[16])))}, field{fMappedFlags, 0})
	if want := DevicePtr(uintptr(unsafe.Pointer(&goMem[16]))) + 1<<44; dp != want {
		t.Errorf("MemHostGetDevicePointer = %#x, want %#x", dp, want)
	}
	runtime.KeepAlive(goMem)
	mp, err := l.MemAllocManaged(3<<10+5, MemAttachGlobal)
	check("cuMemAllocManaged", err, field{fManagedSize, 3<<10 + 5}, field{fManagedFlags, 1})
	if mp == nil || unsafe.Slice((*byte)(mp), 3<<10+5)[3<<10+4] != 0x5a {
		t.Errorf("MemAllocManaged = %p: want host-readable memory filled by the mock", mp)
	}
	if _, err := l.MemAllocManaged(1<<41, MemAttachHost); Code(err) != ErrorOutOfMemory || get(fManagedSize) != 1<<41 || get(fManagedFlags) != 2 {
		t.Errorf("MemAllocManaged(2 TiB) = %v (mock saw %#x bytes, flags %d)", err, get(fManagedSize), get(fManagedFlags))
	}
	// Prefetch and advice: 64-bit addresses and sizes, the C int device
	// (CU_DEVICE_CPU is -1), and the CUdevice forms, never the _v2 ones.
	check("cuMemPrefetchAsync", l.MemPrefetchAsync(0x7F00_0000_1000, 5<<32+7, 102, 0x5ee0),
		field{fPrefetchPtr, 0x7F00_0000_1000}, field{fPrefetchN, 5<<32 + 7}, field{fPrefetchDev, 102}, field{fPrefetchStream, 0x5ee0})
	check("cuMemPrefetchAsync to the host", l.MemPrefetchAsync(0x2000, 64, DeviceCPU, 0),
		field{fPrefetchPtr, 0x2000}, field{fPrefetchN, 64}, field{fPrefetchDev, math.MaxUint64}, field{fPrefetchStream, 0})
	if err := l.MemPrefetchAsync(0x2000, 64, -2, 0); Code(err) != ErrorInvalidDevice || err.(*Error).Call != "cuMemPrefetchAsync" {
		t.Errorf("MemPrefetchAsync to device -2 = %v, want CUDA_ERROR_INVALID_DEVICE from cuMemPrefetchAsync", err)
	}
	check("cuMemAdvise", l.MemAdvise(0x7F00_0000_2000, 3<<32, AdviseSetPreferredLocation, DeviceCPU),
		field{fAdvisePtr, 0x7F00_0000_2000}, field{fAdviseN, 3 << 32}, field{fAdviseAdvice, 3}, field{fAdviseDev, math.MaxUint64})
	check("cuMemAdvise for a device", l.MemAdvise(0x3000, 4096, AdviseUnsetAccessedBy, 101),
		field{fAdviseAdvice, 6}, field{fAdviseDev, 101})
	if err := l.MemAdvise(0x3000, 64, 9, 0); Code(err) != ErrorInvalidValue || get(fAdviseAdvice) != 9 {
		t.Errorf("MemAdvise(advice 9) = %v (mock saw advice %d), want CUDA_ERROR_INVALID_VALUE", err, get(fAdviseAdvice))
	}
	if n := get(fLocationForm); n != 0 {
		t.Errorf("the CUmemLocation (_v2) forms were called %d times; nugo binds the CUdevice forms", n)
	}
	check("cuCtxSetLimit", l.CtxSetLimit(LimitMallocHeapSize, 5<<32+3), field{fSetLimit, 2}, field{fSetLimitValue, 5<<32 + 3})
	lim, err := l.CtxGetLimit(LimitPrintfFIFOSize)
	check("cuCtxGetLimit", err, field{fGetLimit, 1})
	if lim != 1000+1<<33 {
		t.Errorf("CtxGetLimit = %#x, want %#x", lim, 1000+1<<33)
	}
	if err := l.CtxSetLimit(7, 1); Code(err) != ErrorUnsupportedLimit {
		t.Errorf("CtxSetLimit(7) = %v, want CUDA_ERROR_UNSUPPORTED_LIMIT", err)
	}
	if _, err := l.CtxGetLimit(7); Code(err) != ErrorUnsupportedLimit {
		t.Errorf("CtxGetLimit(7) = %v, want CUDA_ERROR_UNSUPPORTED_LIMIT", err)
	}

	// Modules: the image NUL-terminated, the option arrays, the log lengths
	// and wall time the driver writes back into the value slots.
	const ptx = ".version 7.8\n.target sm_90\n"
	m, log, err := l.ModuleLoadData(ptx, JITOptions{OptLevel: O2, MaxRegisters: 40, LogSize: 64})
	keys := uint64(1<<jitMaxRegisters | 1<<jitWallTime | 1<<jitInfoLogBuffer | 1<<jitInfoLogBufferSizeBytes |
		1<<jitErrorLogBuffer | 1<<jitErrorLogBufferSizeByte | 1<<jitOptimizationLevel)
	check("cuModuleLoadDataEx", err, field{fJITNOpts, 7}, field{fJITKeys, keys}, field{fJITImageLen, uint64(len(ptx))},
		field{fJITOptLevel, 2}, field{fJITMaxRegs, 40})
	if m != 0x3000 || log.Info != "mock info: 7 options" || log.Error != "" || log.WallMS != 2.5 {
		t.Errorf("ModuleLoadData = %#x, %+v", m, log)
	}
	_, log, err = l.ModuleLoadData("FAIL", JITOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Code != ErrorInvalidPTX || e.Name != "CUDA_ERROR_INVALID_PTX" || e.Message != "described by the mock" ||
		e.Log != "mock ptxas error: line 1: FAIL" || log.Error != e.Log || get(fJITOptLevel) != 99 {
		t.Errorf("failing load: %v (%+v), log %+v", err, e, log)
	}
	fn, err := l.ModuleGetFunction(m, "kernel")
	check("cuModuleGetFunction", err, field{fFuncMod, 0x3000}, field{fFuncNameLen, 6})
	if fn != 0x4006 {
		t.Errorf("ModuleGetFunction = %#x", fn)
	}
	if _, err := l.ModuleGetFunction(m, "missing"); Code(err) != ErrorNotFound || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing function: %v", err)
	}
	g, n, err := l.ModuleGetGlobal(m, "__rec")
	check("cuModuleGetGlobal_v2", err, field{fGlobalMod, 0x3000})
	if g != 0x7E0000000000+5 || n != 1<<32+64 {
		t.Errorf("ModuleGetGlobal = %#x, %#x", g, n)
	}
	a, err := l.FuncGetAttribute(fn, FuncNumRegs)
	check("cuFuncGetAttribute", err, field{fFAttr, 4}, field{fFAttrFunc, 0x4006})
	if a != -11 {
		t.Errorf("FuncGetAttribute = %d, want -11", a)
	}
	check("cuFuncSetAttribute", l.FuncSetAttribute(fn, FuncMaxDynamicSharedSize, 100<<10),
		field{fFSetFunc, 0x4006}, field{fFSetAttr, 8}, field{fFSetValue, 100 << 10})
	grid, block, err := l.OccupancyMaxPotentialBlockSize(fn, 5<<30, 768)
	check("cuOccupancyMaxPotentialBlockSize", err, field{fOccFunc, 0x4006}, field{fOccCallback, 0}, field{fOccDyn, 5 << 30}, field{fOccLimit, 768})
	if grid != -264 || block != 640 {
		t.Errorf("OccupancyMaxPotentialBlockSize = %d, %d; want -264, 640", grid, block)
	}
	check("cuModuleUnload", l.ModuleUnload(m), field{fUnloaded, 0x3000})

	// The launch: eleven arguments, the dimensions as unsigned ints, extra
	// NULL, and one pointer per parameter to its value.
	var params Params
	params.AddPtr(0x7F00DEADBEEF)
	params.AddU8(0xC3)
	params.AddF32(-1.5)
	params.AddU64(math.MaxUint64 - 1)
	setParams(8, 1, 4, 8)
	err = l.LaunchKernel(fn, Dim3{math.MaxUint32, 2, 3}, Dim3{4, 5, 6}, 48<<10, 0x5003, &params)
	check("cuLaunchKernel", err, field{fLaunchF, 0x4006}, field{fGX, math.MaxUint32}, field{fGY, 2}, field{fGZ, 3},
		field{fBX, 4}, field{fBY, 5}, field{fBZ, 6}, field{fShm, 48 << 10}, field{fLaunchStream, 0x5003}, field{fExtra, 0},
		field{fNParams, 4}, field{fP0, 0x7F00DEADBEEF}, field{fP1, 0xC3}, field{fP2, uint64(math.Float32bits(-1.5))},
		field{fP3, math.MaxUint64 - 1})
	setParams()
	check("cuLaunchKernel without parameters", l.LaunchKernel(fn, Dim3{1, 1, 1}, Dim3{1, 1, 1}, 0, 0, nil),
		field{fNParams, 0}, field{fShm, 0}, field{fLaunchStream, 0}, field{fCoop, 0})

	// The cooperative launch: cuLaunchKernel's arguments but extra.
	setParams(8, 1)
	var cp Params
	cp.AddPtr(0x7F00CAFE0000)
	cp.AddU8(0x5A)
	err = l.LaunchCooperativeKernel(fn, Dim3{132, 1, 1}, Dim3{256, 2, 1}, 1<<10, 0x5004, &cp)
	check("cuLaunchCooperativeKernel", err, field{fCoop, 1}, field{fLaunchF, 0x4006}, field{fGX, 132}, field{fGY, 1}, field{fGZ, 1},
		field{fBX, 256}, field{fBY, 2}, field{fBZ, 1}, field{fShm, 1 << 10}, field{fLaunchStream, 0x5004},
		field{fNParams, 2}, field{fP0, 0x7F00CAFE0000}, field{fP1, 0x5A})
	setParams()
	if err := l.LaunchCooperativeKernel(fn, Dim3{-1, 1, 1}, Dim3{1, 1, 1}, 0, 0, nil); Code(err) != ErrorInvalidValue || !strings.Contains(err.Error(), "cuLaunchCooperativeKernel") {
		t.Errorf("cooperative launch of a negative grid: %v", err)
	}
	nb, err := l.OccupancyMaxActiveBlocksPerMultiprocessor(fn, 768, 3<<30)
	check("cuOccupancyMaxActiveBlocksPerMultiprocessor", err, field{fOccFunc, 0x4006}, field{fOccBlock, 768}, field{fOccDyn, 3 << 30})
	if nb != -6 {
		t.Errorf("OccupancyMaxActiveBlocksPerMultiprocessor = %d, want -6", nb)
	}
	if _, err := l.OccupancyMaxActiveBlocksPerMultiprocessor(fn, 0, 0); Code(err) != ErrorInvalidValue {
		t.Errorf("OccupancyMaxActiveBlocksPerMultiprocessor of a block of 0 threads: %v", err)
	}

	// Streams and events.
	s, err := l.StreamCreate(StreamNonBlocking)
	check("cuStreamCreate", err, field{fStreamFlags, 1})
	if s != 0x5000 {
		t.Errorf("StreamCreate = %#x", s)
	}
	check("cuStreamSynchronize", l.StreamSynchronize(s), field{fStreamArg, 0x5000})
	if done, err := l.StreamQuery(s); err != nil || done {
		t.Errorf("StreamQuery of a busy stream = %v, %v; want false, nil", done, err)
	}
	if done, err := l.StreamQuery(0); err != nil || !done {
		t.Errorf("StreamQuery of an idle stream = %v, %v; want true, nil", done, err)
	}
	start, err := l.EventCreate(EventDisableTiming)
	check("cuEventCreate", err, field{fEventFlags, 2})
	end, _ := l.EventCreate(EventBlockingSync)
	check("cuStreamWaitEvent", l.StreamWaitEvent(s, end), field{fStreamArg, 0x5000}, field{fEventArg, uint64(end)}, field{fWaitFlags, 0})
	check("cuStreamDestroy_v2", l.StreamDestroy(s), field{fStreamArg, 0x5000})
	check("cuEventRecord", l.EventRecord(end, s), field{fEventArg, uint64(end)}, field{fRecordStream, 0x5000})
	check("cuEventSynchronize", l.EventSynchronize(start), field{fEventArg, uint64(start)})
	if done, err := l.EventQuery(end); err != nil || !done {
		t.Errorf("EventQuery = %v, %v", done, err)
	}
	ms, err := l.EventElapsedTime(start, end)
	check("cuEventElapsedTime", err, field{fElapsedStart, uint64(start)}, field{fElapsedEnd, uint64(end)})
	if ms != 1.25 {
		t.Errorf("EventElapsedTime = %v, want 1.25", ms)
	}
	check("cuEventDestroy_v2", l.EventDestroy(end), field{fEventArg, uint64(end)})

	// Every entry point nugo binds was found under the name the headers use.
	for _, spec := range procSpecs {
		want := spec.name
		if spec.v2 {
			want += "_v2"
		}
		if got, err := l.Symbol(spec.name); err != nil || got != want {
			t.Errorf("%s bound to %q (%v), want %s", spec.name, got, err, want)
		}
	}
}
