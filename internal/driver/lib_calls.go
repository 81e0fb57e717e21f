package driver

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/dynlib"
)

// Compile-time check: the real binding is an API.
var _ API = (*Library)(nil)

// newError builds the *Error for a failed call, with the name and description
// the driver itself gives (nugo's table when the driver cannot say).
func (l *Library) newError(id procID, code Result) *Error {
	e := NewError(procSpecs[id].name, code)
	var name, msg *byte
	if res, err := l.result(pGetErrorName, uintptr(code), uintptr(unsafe.Pointer(&name))); err == nil && res == Success && name != nil {
		e.Name = dynlib.CString(name)
	}
	if res, err := l.result(pGetErrorString, uintptr(code), uintptr(unsafe.Pointer(&msg))); err == nil && res == Success && msg != nil {
		e.Message = dynlib.CString(msg)
	}
	return e
}

// ErrorName asks the driver for a result code's name (cuGetErrorName); it
// works before Init.
func (l *Library) ErrorName(code Result) (string, error) {
	var s *byte
	if err := l.call(pGetErrorName, uintptr(code), uintptr(unsafe.Pointer(&s))); err != nil {
		return "", err
	}
	return dynlib.CString(s), nil
}

// ErrorString asks the driver for a result code's description
// (cuGetErrorString); it works before Init.
func (l *Library) ErrorString(code Result) (string, error) {
	var s *byte
	if err := l.call(pGetErrorString, uintptr(code), uintptr(unsafe.Pointer(&s))); err != nil {
		return "", err
	}
	return dynlib.CString(s), nil
}

// size converts a byte count, refusing negatives before the driver sees a
// huge size_t.
func size(call string, n int) (uintptr, error) {
	if n < 0 {
		e := NewError(call, ErrorInvalidValue)
		e.Message = fmt.Sprintf("negative byte count %d", n)
		return 0, e
	}
	return uintptr(n), nil
}

// Init implements API.
func (l *Library) Init() error {
	if err := l.call(pInit, 0); err != nil {
		return NoDevice(err)
	}
	return nil
}

// DriverVersion implements API.
func (l *Library) DriverVersion() (int, error) {
	var v int32
	err := l.call(pDriverGetVersion, uintptr(unsafe.Pointer(&v)))
	return int(v), err
}

// DeviceCount implements API.
func (l *Library) DeviceCount() (int, error) {
	var n int32
	err := l.call(pDeviceGetCount, uintptr(unsafe.Pointer(&n)))
	return int(n), err
}

// DeviceGet implements API.
func (l *Library) DeviceGet(ordinal int) (Device, error) {
	if ordinal < math.MinInt32 || ordinal > math.MaxInt32 {
		// The ordinal is a C int: cut to 32 bits it could name device 0.
		e := NewError("cuDeviceGet", ErrorInvalidDevice)
		e.Message = fmt.Sprintf("device ordinal %d out of range", ordinal)
		return 0, e
	}
	var d int32
	err := l.call(pDeviceGet, uintptr(unsafe.Pointer(&d)), uintptr(ordinal))
	return Device(d), err
}

// DeviceName implements API.
func (l *Library) DeviceName(d Device) (string, error) {
	buf := make([]byte, 256)
	if err := l.call(pDeviceGetName, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(d)); err != nil {
		return "", err
	}
	if i := strings.IndexByte(string(buf), 0); i >= 0 {
		buf = buf[:i]
	}
	return string(buf), nil
}

// DeviceAttribute implements API.
func (l *Library) DeviceAttribute(d Device, attr DeviceAttribute) (int, error) {
	var v int32
	err := l.call(pDeviceGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(attr), uintptr(d))
	return int(v), err
}

// DeviceTotalMem implements API.
func (l *Library) DeviceTotalMem(d Device) (int, error) {
	var n uint64
	err := l.call(pDeviceTotalMem, uintptr(unsafe.Pointer(&n)), uintptr(d))
	return int(n), err
}

// PrimaryCtxRetain implements API.
func (l *Library) PrimaryCtxRetain(d Device) (Context, error) {
	var c uintptr
	err := l.call(pDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(&c)), uintptr(d))
	return Context(c), err
}

// PrimaryCtxRelease implements API.
func (l *Library) PrimaryCtxRelease(d Device) error {
	return l.call(pDevicePrimaryCtxRelease, uintptr(d))
}

// CtxSetCurrent implements API.
func (l *Library) CtxSetCurrent(c Context) error {
	return l.call(pCtxSetCurrent, uintptr(c))
}

// CtxGetCurrent implements API.
func (l *Library) CtxGetCurrent() (Context, error) {
	var c uintptr
	err := l.call(pCtxGetCurrent, uintptr(unsafe.Pointer(&c)))
	return Context(c), err
}

// CtxSynchronize implements API.
func (l *Library) CtxSynchronize() error { return l.call(pCtxSynchronize) }

// MemAlloc implements API.
func (l *Library) MemAlloc(bytes int) (DevicePtr, error) {
	n, err := size("cuMemAlloc", bytes)
	if err != nil {
		return 0, err
	}
	var p uint64
	err = l.call(pMemAlloc, uintptr(unsafe.Pointer(&p)), n)
	return DevicePtr(p), err
}

// MemFree implements API.
func (l *Library) MemFree(p DevicePtr) error { return l.call(pMemFree, uintptr(p)) }

// MemsetD8Async implements API.
func (l *Library) MemsetD8Async(p DevicePtr, value byte, n int, s Stream) error {
	sz, err := size("cuMemsetD8Async", n)
	if err != nil {
		return err
	}
	return l.call(pMemsetD8Async, uintptr(p), uintptr(value), sz, uintptr(s))
}

// MemsetD8 implements API.
func (l *Library) MemsetD8(p DevicePtr, value byte, n int) error {
	sz, err := size("cuMemsetD8", n)
	if err != nil {
		return err
	}
	return l.call(pMemsetD8, uintptr(p), uintptr(value), sz)
}

// MemsetD16 implements API.
func (l *Library) MemsetD16(p DevicePtr, value uint16, n int) error {
	sz, err := size("cuMemsetD16", n)
	if err != nil {
		return err
	}
	return l.call(pMemsetD16, uintptr(p), uintptr(value), sz)
}

// MemsetD32 implements API.
func (l *Library) MemsetD32(p DevicePtr, value uint32, n int) error {
	sz, err := size("cuMemsetD32", n)
	if err != nil {
		return err
	}
	return l.call(pMemsetD32, uintptr(p), uintptr(value), sz)
}

// MemGetInfo implements API.
func (l *Library) MemGetInfo() (free, total int, err error) {
	var f, t uint64
	err = l.call(pMemGetInfo, uintptr(unsafe.Pointer(&f)), uintptr(unsafe.Pointer(&t)))
	return int(f), int(t), err
}

// MemcpyHtoD implements API.
func (l *Library) MemcpyHtoD(dst DevicePtr, src unsafe.Pointer, bytes int) error {
	n, err := size("cuMemcpyHtoD", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemcpyHtoD, uintptr(dst), uintptr(src), n)
}

// MemcpyDtoH implements API.
func (l *Library) MemcpyDtoH(dst unsafe.Pointer, src DevicePtr, bytes int) error {
	n, err := size("cuMemcpyDtoH", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemcpyDtoH, uintptr(dst), uintptr(src), n)
}

// MemcpyDtoD implements API.
func (l *Library) MemcpyDtoD(dst, src DevicePtr, bytes int) error {
	n, err := size("cuMemcpyDtoD", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemcpyDtoD, uintptr(dst), uintptr(src), n)
}

// MemcpyHtoDAsync implements API.
func (l *Library) MemcpyHtoDAsync(dst DevicePtr, src unsafe.Pointer, bytes int, s Stream) error {
	n, err := size("cuMemcpyHtoDAsync", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemcpyHtoDAsync, uintptr(dst), uintptr(src), n, uintptr(s))
}

// MemcpyDtoHAsync implements API.
func (l *Library) MemcpyDtoHAsync(dst unsafe.Pointer, src DevicePtr, bytes int, s Stream) error {
	n, err := size("cuMemcpyDtoHAsync", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemcpyDtoHAsync, uintptr(dst), uintptr(src), n, uintptr(s))
}

// DeviceCanAccessPeer implements API.
func (l *Library) DeviceCanAccessPeer(d, peer Device) (bool, error) {
	var can int32
	err := l.call(pDeviceCanAccessPeer, uintptr(unsafe.Pointer(&can)), uintptr(d), uintptr(peer))
	return can != 0, err
}

// CtxEnablePeerAccess implements API.
func (l *Library) CtxEnablePeerAccess(peer Context) error {
	return l.call(pCtxEnablePeerAccess, uintptr(peer), 0)
}

// MemcpyPeerAsync implements API.
func (l *Library) MemcpyPeerAsync(dst DevicePtr, dstCtx Context, src DevicePtr, srcCtx Context, bytes int, s Stream) error {
	n, err := size("cuMemcpyPeerAsync", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemcpyPeerAsync, uintptr(dst), uintptr(dstCtx), uintptr(src), uintptr(srcCtx), n, uintptr(s))
}

// MemcpyDtoDAsync implements API.
func (l *Library) MemcpyDtoDAsync(dst, src DevicePtr, bytes int, s Stream) error {
	n, err := size("cuMemcpyDtoDAsync", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemcpyDtoDAsync, uintptr(dst), uintptr(src), n, uintptr(s))
}

// MemHostAlloc implements API.
func (l *Library) MemHostAlloc(bytes int, flags HostAllocFlags) (unsafe.Pointer, error) {
	n, err := size("cuMemHostAlloc", bytes)
	if err != nil {
		return nil, err
	}
	var p unsafe.Pointer // written by the driver; points outside the Go heap
	err = l.call(pMemHostAlloc, uintptr(unsafe.Pointer(&p)), n, uintptr(flags))
	return p, err
}

// MemFreeHost implements API.
func (l *Library) MemFreeHost(p unsafe.Pointer) error {
	return l.call(pMemFreeHost, uintptr(p))
}

// MemHostRegister implements API.
func (l *Library) MemHostRegister(p unsafe.Pointer, bytes int, flags HostRegisterFlags) error {
	n, err := size("cuMemHostRegister", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemHostRegister, uintptr(p), n, uintptr(flags))
}

// MemHostUnregister implements API.
func (l *Library) MemHostUnregister(p unsafe.Pointer) error {
	return l.call(pMemHostUnregister, uintptr(p))
}

// MemHostGetDevicePointer implements API. The flags argument, reserved by
// CUDA, is 0.
func (l *Library) MemHostGetDevicePointer(p unsafe.Pointer) (DevicePtr, error) {
	var d uint64 // CUdeviceptr
	err := l.call(pMemHostGetDevicePointer, uintptr(unsafe.Pointer(&d)), uintptr(p), 0)
	return DevicePtr(d), err
}

// MemAllocManaged implements API. The driver writes a CUdeviceptr, a 64-bit
// address valid on the host too, into a pointer-sized slot.
func (l *Library) MemAllocManaged(bytes int, flags MemAttachFlags) (unsafe.Pointer, error) {
	n, err := size("cuMemAllocManaged", bytes)
	if err != nil {
		return nil, err
	}
	var p unsafe.Pointer // written by the driver; points outside the Go heap
	err = l.call(pMemAllocManaged, uintptr(unsafe.Pointer(&p)), n, uintptr(flags))
	return p, err
}

// MemPrefetchAsync implements API. CUdevice is a C int: DeviceCPU (-1)
// arrives as -1 in the low 32 bits, all the callee reads.
func (l *Library) MemPrefetchAsync(p DevicePtr, bytes int, dst Device, s Stream) error {
	n, err := size("cuMemPrefetchAsync", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemPrefetchAsync, uintptr(p), n, uintptr(dst), uintptr(s))
}

// MemAdvise implements API.
func (l *Library) MemAdvise(p DevicePtr, bytes int, advice MemAdvice, d Device) error {
	n, err := size("cuMemAdvise", bytes)
	if err != nil {
		return err
	}
	return l.call(pMemAdvise, uintptr(p), n, uintptr(advice), uintptr(d))
}

// CtxSetLimit implements API.
func (l *Library) CtxSetLimit(limit Limit, value int) error {
	n, err := size("cuCtxSetLimit", value)
	if err != nil {
		return err
	}
	return l.call(pCtxSetLimit, uintptr(limit), n)
}

// CtxGetLimit implements API.
func (l *Library) CtxGetLimit(limit Limit) (int, error) {
	var v uint64 // size_t
	err := l.call(pCtxGetLimit, uintptr(unsafe.Pointer(&v)), uintptr(limit))
	return int(v), err
}

// ProfilerStart implements API.
func (l *Library) ProfilerStart() error { return l.call(pProfilerStart) }

// ProfilerStop implements API.
func (l *Library) ProfilerStop() error { return l.call(pProfilerStop) }

// ModuleLoadData implements API. The log buffers live on the Go heap, pinned
// for the call; the driver writes the lengths it used and the compile time back
// into the option value slots, which is where the log sizes are read from.
func (l *Library) ModuleLoadData(ptx string, opts JITOptions) (Module, JITLog, error) {
	logSize := opts.LogSize
	if logSize <= 0 {
		logSize = DefaultLogSize
	}
	info := make([]byte, logSize)
	errLog := make([]byte, logSize)
	image := make([]byte, len(ptx)+1) // NUL-terminated
	copy(image, ptx)

	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&info[0])
	pin.Pin(&errLog[0])

	// CUjit_option is a C enum (32 bits); each value slot is a void*.
	keys := make([]int32, 0, 10)
	vals := make([]uintptr, 0, 10)
	add := func(k int32, v uintptr) int {
		keys = append(keys, k)
		vals = append(vals, v)
		return len(vals) - 1
	}
	add(jitInfoLogBuffer, uintptr(unsafe.Pointer(&info[0])))
	infoSize := add(jitInfoLogBufferSizeBytes, uintptr(logSize))
	add(jitErrorLogBuffer, uintptr(unsafe.Pointer(&errLog[0])))
	errSize := add(jitErrorLogBufferSizeByte, uintptr(logSize))
	wall := add(jitWallTime, 0)
	if opts.OptLevel < OptDefault || opts.OptLevel > O4 {
		e := NewError("cuModuleLoadDataEx", ErrorInvalidValue)
		e.Message = fmt.Sprintf("optimisation level %d: use O0..O4", int(opts.OptLevel))
		return 0, JITLog{}, e
	}
	if opts.OptLevel != OptDefault {
		add(jitOptimizationLevel, uintptr(opts.OptLevel-O0))
	}
	if opts.MaxRegisters > 0 {
		add(jitMaxRegisters, uintptr(opts.MaxRegisters))
	}
	if opts.Verbose {
		add(jitLogVerbose, 1)
	}
	if opts.LineInfo {
		add(jitGenerateLineInfo, 1)
	}
	if opts.DebugInfo {
		add(jitGenerateDebugInfo, 1)
	}

	var m uintptr
	err := l.call(pModuleLoadDataEx, uintptr(unsafe.Pointer(&m)), uintptr(unsafe.Pointer(&image[0])),
		uintptr(len(keys)), uintptr(unsafe.Pointer(&keys[0])), uintptr(unsafe.Pointer(&vals[0])))
	runtime.KeepAlive(info)
	runtime.KeepAlive(errLog)

	log := JITLog{
		Info:   logText(info, vals[infoSize]),
		Error:  logText(errLog, vals[errSize]),
		WallMS: math.Float32frombits(uint32(vals[wall])),
	}
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Log = log.Error
		}
		return 0, log, err
	}
	return Module(m), log, nil
}

// logText cuts a JIT log at the length the driver reported and at its NUL.
func logText(buf []byte, n uintptr) string {
	if n > uintptr(len(buf)) {
		n = uintptr(len(buf))
	}
	b := buf[:n]
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimRight(string(b), "\n")
}

// ModuleGetFunction implements API.
func (l *Library) ModuleGetFunction(m Module, name string) (Function, error) {
	cname := make([]byte, len(name)+1)
	copy(cname, name)
	var f uintptr
	err := l.call(pModuleGetFunction, uintptr(unsafe.Pointer(&f)), uintptr(m), uintptr(unsafe.Pointer(&cname[0])))
	if e, ok := err.(*Error); ok {
		e.Message += ": " + name
	}
	return Function(f), err
}

// ModuleUnload implements API.
func (l *Library) ModuleUnload(m Module) error { return l.call(pModuleUnload, uintptr(m)) }

// ModuleGetGlobal implements API.
func (l *Library) ModuleGetGlobal(m Module, name string) (DevicePtr, int, error) {
	cname := make([]byte, len(name)+1)
	copy(cname, name)
	var p, n uint64 // CUdeviceptr and size_t
	err := l.call(pModuleGetGlobal, uintptr(unsafe.Pointer(&p)), uintptr(unsafe.Pointer(&n)), uintptr(m), uintptr(unsafe.Pointer(&cname[0])))
	if e, ok := err.(*Error); ok {
		e.Message += ": " + name
	}
	return DevicePtr(p), int(n), err
}

// FuncGetAttribute implements API.
func (l *Library) FuncGetAttribute(f Function, attr FunctionAttribute) (int, error) {
	var v int32
	err := l.call(pFuncGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(attr), uintptr(f))
	return int(v), err
}

// FuncSetAttribute implements API.
func (l *Library) FuncSetAttribute(f Function, attr FunctionAttribute, value int) error {
	if value < 0 || value > math.MaxInt32 {
		e := NewError("cuFuncSetAttribute", ErrorInvalidValue)
		e.Message = fmt.Sprintf("value %d out of range", value)
		return e
	}
	return l.call(pFuncSetAttribute, uintptr(f), uintptr(attr), uintptr(value))
}

// OccupancyMaxPotentialBlockSize implements API. No callback for the
// dynamic shared memory is passed: every block size gets dynamicSMem bytes.
func (l *Library) OccupancyMaxPotentialBlockSize(f Function, dynamicSMem, blockSizeLimit int) (minGridSize, blockSize int, err error) {
	const call = "cuOccupancyMaxPotentialBlockSize"
	n, err := size(call, dynamicSMem)
	if err != nil {
		return 0, 0, err
	}
	if blockSizeLimit < 0 || blockSizeLimit > math.MaxInt32 {
		e := NewError(call, ErrorInvalidValue)
		e.Message = fmt.Sprintf("block size limit %d out of range", blockSizeLimit)
		return 0, 0, e
	}
	var grid, block int32
	err = l.call(pOccupancyMaxPotentialBlockSize, uintptr(unsafe.Pointer(&grid)), uintptr(unsafe.Pointer(&block)), uintptr(f), 0, n, uintptr(blockSizeLimit))
	return int(grid), int(block), err
}

// dims checks a launch shape and converts it to the driver's unsigned ints.
func dims(call, what string, d Dim3) (x, y, z uintptr, err error) {
	for _, v := range [3]int{d.X, d.Y, d.Z} {
		if v < 0 || uint64(v) > math.MaxUint32 {
			e := NewError(call, ErrorInvalidValue)
			e.Message = fmt.Sprintf("%s %v out of range", what, d)
			return 0, 0, 0, e
		}
	}
	return uintptr(d.X), uintptr(d.Y), uintptr(d.Z), nil
}

// LaunchKernel implements API. The driver receives an array of pointers, one
// per argument, into params' buffer; both are Go heap memory pinned for the
// call with the Pinner the Params keeps for reuse (the driver copies the
// values before cuLaunchKernel returns).
func (l *Library) LaunchKernel(f Function, grid, block Dim3, sharedMem int, s Stream, params *Params) error {
	return l.launch(pLaunchKernel, f, grid, block, sharedMem, s, params)
}

// LaunchCooperativeKernel implements API: cuLaunchCooperativeKernel takes
// cuLaunchKernel's arguments but extra.
func (l *Library) LaunchCooperativeKernel(f Function, grid, block Dim3, sharedMem int, s Stream, params *Params) error {
	return l.launch(pLaunchCooperativeKernel, f, grid, block, sharedMem, s, params)
}

// OccupancyMaxActiveBlocksPerMultiprocessor implements API.
func (l *Library) OccupancyMaxActiveBlocksPerMultiprocessor(f Function, blockSize, dynamicSMem int) (int, error) {
	const call = "cuOccupancyMaxActiveBlocksPerMultiprocessor"
	n, err := size(call, dynamicSMem)
	if err != nil {
		return 0, err
	}
	if blockSize <= 0 || blockSize > math.MaxInt32 {
		e := NewError(call, ErrorInvalidValue)
		e.Message = fmt.Sprintf("block size %d out of range", blockSize)
		return 0, e
	}
	var blocks int32
	err = l.call(pOccupancyMaxActiveBlocksPerMultiprocessor, uintptr(unsafe.Pointer(&blocks)), uintptr(f), uintptr(blockSize), n)
	return int(blocks), err
}

// launch calls cuLaunchKernel or cuLaunchCooperativeKernel (proc), whose
// arguments are the same up to extra, which only the first has.
func (l *Library) launch(proc procID, f Function, grid, block Dim3, sharedMem int, s Stream, params *Params) error {
	call := procSpecs[proc].name
	gx, gy, gz, err := dims(call, "grid", grid)
	if err != nil {
		return err
	}
	bx, by, bz, err := dims(call, "block", block)
	if err != nil {
		return err
	}
	// sharedMemBytes is an unsigned int: a larger count would reach the
	// driver cut to its low 32 bits.
	shm, err := size(call, sharedMem)
	if err != nil {
		return err
	}
	if uint64(shm) > math.MaxUint32 {
		e := NewError(call, ErrorInvalidValue)
		e.Message = fmt.Sprintf("%d bytes of dynamic shared memory out of range", sharedMem)
		return e
	}
	var kernelParams uintptr
	if params != nil && params.Len() > 0 {
		kernelParams = params.pinnedPointers()
		defer params.pin.Unpin()
	}
	if proc == pLaunchKernel {
		err = l.call(proc, uintptr(f), gx, gy, gz, bx, by, bz, shm, uintptr(s), kernelParams, 0)
	} else {
		err = l.call(proc, uintptr(f), gx, gy, gz, bx, by, bz, shm, uintptr(s), kernelParams)
	}
	runtime.KeepAlive(params)
	return err
}

// StreamCreate implements API.
func (l *Library) StreamCreate(flags StreamFlags) (Stream, error) {
	var s uintptr
	err := l.call(pStreamCreate, uintptr(unsafe.Pointer(&s)), uintptr(flags))
	return Stream(s), err
}

// StreamDestroy implements API.
func (l *Library) StreamDestroy(s Stream) error { return l.call(pStreamDestroy, uintptr(s)) }

// StreamSynchronize implements API.
func (l *Library) StreamSynchronize(s Stream) error { return l.call(pStreamSynchronize, uintptr(s)) }

// StreamQuery implements API: CUDA_ERROR_NOT_READY is the answer "not done".
func (l *Library) StreamQuery(s Stream) (bool, error) {
	res, err := l.result(pStreamQuery, uintptr(s))
	switch {
	case err != nil:
		return false, err
	case res == Success:
		return true, nil
	case res == ErrorNotReady:
		return false, nil
	}
	return false, l.newError(pStreamQuery, res)
}

// StreamWaitEvent implements API. The flags argument must be 0 (CUDA
// defines none but CU_EVENT_WAIT_DEFAULT).
func (l *Library) StreamWaitEvent(s Stream, e Event) error {
	return l.call(pStreamWaitEvent, uintptr(s), uintptr(e), 0)
}

// EventCreate implements API.
func (l *Library) EventCreate(flags EventFlags) (Event, error) {
	var e uintptr
	err := l.call(pEventCreate, uintptr(unsafe.Pointer(&e)), uintptr(flags))
	return Event(e), err
}

// EventRecord implements API.
func (l *Library) EventRecord(e Event, s Stream) error {
	return l.call(pEventRecord, uintptr(e), uintptr(s))
}

// EventSynchronize implements API.
func (l *Library) EventSynchronize(e Event) error { return l.call(pEventSynchronize, uintptr(e)) }

// EventQuery implements API: CUDA_ERROR_NOT_READY is the answer "not done".
func (l *Library) EventQuery(e Event) (bool, error) {
	res, err := l.result(pEventQuery, uintptr(e))
	switch {
	case err != nil:
		return false, err
	case res == Success:
		return true, nil
	case res == ErrorNotReady:
		return false, nil
	}
	return false, l.newError(pEventQuery, res)
}

// EventElapsedTime implements API.
func (l *Library) EventElapsedTime(start, end Event) (float32, error) {
	var ms float32
	err := l.call(pEventElapsedTime, uintptr(unsafe.Pointer(&ms)), uintptr(start), uintptr(end))
	return ms, err
}

// EventDestroy implements API.
func (l *Library) EventDestroy(e Event) error { return l.call(pEventDestroy, uintptr(e)) }
