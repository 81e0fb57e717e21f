package driver

import "unsafe"

// API is the CUDA driver as nugo uses it: one method per driver entry point,
// with Go types in and out and every failure an *Error. *Library implements it
// over libcuda.so.1; fakedriver.Fake implements it in host memory for tests.
//
// As in CUDA, the calls from CtxSynchronize on act on the context current on
// the calling OS thread; DeviceContext.Do is how nugo makes that the right one
// (see the package documentation).
//
// Host memory handed to a synchronous copy only has to be valid during the
// call, so Go memory is fine. For the Async forms it must stay alive (for Go
// memory: referenced, e.g. runtime.KeepAlive after the wait) and untouched
// until the stream has passed the copy (StreamSynchronize, or an event
// recorded after it). CUDA says an async copy to or from pageable memory "might
// be synchronous" with the host but does not promise it; page-locked memory
// from MemHostAlloc, outside the Go heap, is what makes copies overlap.
type API interface {
	// Init initialises the driver (cuInit). Any failure wraps ErrNoDevice.
	Init() error
	// DriverVersion is the CUDA version the driver supports, e.g. 12020.
	DriverVersion() (int, error)

	// DeviceCount, DeviceGet, DeviceName, DeviceAttribute and DeviceTotalMem
	// describe the devices (cuDeviceGetCount, cuDeviceGet, ...).
	DeviceCount() (int, error)
	DeviceGet(ordinal int) (Device, error)
	DeviceName(d Device) (string, error)
	DeviceAttribute(d Device, attr DeviceAttribute) (int, error)
	DeviceTotalMem(d Device) (int, error)

	// PrimaryCtxRetain and PrimaryCtxRelease count references to the device's
	// primary context, the one context per device and process that nugo uses.
	PrimaryCtxRetain(d Device) (Context, error)
	PrimaryCtxRelease(d Device) error
	// CtxSetCurrent binds c to the calling OS thread; CtxGetCurrent reports
	// the binding (0 for none).
	CtxSetCurrent(c Context) error
	CtxGetCurrent() (Context, error)
	// CtxSynchronize waits for all work in the current context.
	CtxSynchronize() error

	// MemAlloc and MemFree manage device memory; MemsetD8 sets n bytes.
	MemAlloc(bytes int) (DevicePtr, error)
	MemFree(p DevicePtr) error
	MemsetD8(p DevicePtr, value byte, n int) error
	// MemsetD8Async is MemsetD8 queued on stream s (cuMemsetD8Async).
	MemsetD8Async(p DevicePtr, value byte, n int, s Stream) error
	// MemsetD16 and MemsetD32 set n 2-byte or 4-byte words (p aligned to
	// the word) to value (cuMemsetD16, cuMemsetD32).
	MemsetD16(p DevicePtr, value uint16, n int) error
	MemsetD32(p DevicePtr, value uint32, n int) error
	// MemGetInfo is the free and total device memory of the current context.
	MemGetInfo() (free, total int, err error)

	// Synchronous copies: they return when the bytes have arrived.
	MemcpyHtoD(dst DevicePtr, src unsafe.Pointer, bytes int) error
	MemcpyDtoH(dst unsafe.Pointer, src DevicePtr, bytes int) error
	MemcpyDtoD(dst, src DevicePtr, bytes int) error
	// Copies ordered on stream s; see above for the host memory's lifetime.
	MemcpyHtoDAsync(dst DevicePtr, src unsafe.Pointer, bytes int, s Stream) error
	MemcpyDtoHAsync(dst unsafe.Pointer, src DevicePtr, bytes int, s Stream) error
	MemcpyDtoDAsync(dst, src DevicePtr, bytes int, s Stream) error

	// DeviceCanAccessPeer says whether device d can use peer's memory
	// directly (cuDeviceCanAccessPeer). CtxEnablePeerAccess lets the
	// current context do so (cuCtxEnablePeerAccess); a second time is
	// ErrorPeerAccessAlreadyEnabled. MemcpyPeerAsync copies bytes from src
	// in srcCtx to dst in dstCtx on stream s of the current context
	// (cuMemcpyPeerAsync): directly where peer access is enabled, staged
	// by the driver otherwise.
	DeviceCanAccessPeer(d, peer Device) (bool, error)
	CtxEnablePeerAccess(peer Context) error
	MemcpyPeerAsync(dst DevicePtr, dstCtx Context, src DevicePtr, srcCtx Context, bytes int, s Stream) error

	// MemHostAlloc allocates page-locked host memory outside the Go heap
	// (cuMemHostAlloc); MemFreeHost frees it.
	MemHostAlloc(bytes int, flags HostAllocFlags) (unsafe.Pointer, error)
	MemFreeHost(p unsafe.Pointer) error
	// MemHostRegister page-locks existing host memory, bytes from p
	// (cuMemHostRegister), so that async copies to and from it go straight
	// to the device; MemHostUnregister undoes it. Go memory registered must
	// stay alive and pinned (runtime.Pinner) until unregistered.
	MemHostRegister(p unsafe.Pointer, bytes int, flags HostRegisterFlags) error
	MemHostUnregister(p unsafe.Pointer) error
	// MemHostGetDevicePointer is the device address of page-locked host
	// memory allocated by MemHostAlloc with HostAllocDeviceMap
	// (cuMemHostGetDevicePointer): kernels read and write p's bytes through
	// it, without copies. p may point anywhere inside the allocation.
	MemHostGetDevicePointer(p unsafe.Pointer) (DevicePtr, error)
	// MemAllocManaged allocates managed (unified) memory
	// (cuMemAllocManaged), not cleared: one address, valid on the host and
	// on every device that supports managed memory, and returned as a host
	// pointer (DevicePtr(uintptr(p)) is its device address). MemFree frees
	// it. flags is MemAttachGlobal or MemAttachHost.
	MemAllocManaged(bytes int, flags MemAttachFlags) (unsafe.Pointer, error)

	// MemPrefetchAsync queues on stream s the migration of bytes of managed
	// memory at p to device dst, or to the host with DeviceCPU
	// (cuMemPrefetchAsync in its CUdevice form; see lib.go for why not
	// cuMemPrefetchAsync_v2). The range must lie in managed memory; the
	// stream's device, and dst when it is a GPU, must have
	// AttrConcurrentManagedAccess, or the driver refuses the prefetch.
	MemPrefetchAsync(p DevicePtr, bytes int, dst Device, s Stream) error
	// MemAdvise tells the driver how bytes of managed memory at p will be
	// used (cuMemAdvise in its CUdevice form): advice about device d, or
	// the host with DeviceCPU (the read-mostly advice ignores d). It is not
	// ordered on any stream.
	MemAdvise(p DevicePtr, bytes int, advice MemAdvice, d Device) error

	// CtxSetLimit requests a resource limit of the current context
	// (cuCtxSetLimit): the driver may round or clamp the value, which
	// CtxGetLimit then reports (cuCtxGetLimit).
	CtxSetLimit(limit Limit, value int) error
	CtxGetLimit(limit Limit) (int, error)

	// ProfilerStart and ProfilerStop enable and disable the collection of
	// profile data for the current context by an attached profiling tool
	// (cuProfilerStart, cuProfilerStop): without one they do nothing, and
	// starting twice is no error.
	ProfilerStart() error
	ProfilerStop() error

	// ModuleLoadData JIT-compiles PTX text into the current context
	// (cuModuleLoadDataEx). The log is filled on success and on failure; a
	// compile failure's *Error carries the error log in its Log field.
	ModuleLoadData(ptx string, opts JITOptions) (Module, JITLog, error)
	ModuleGetFunction(m Module, name string) (Function, error)
	ModuleUnload(m Module) error
	// ModuleGetGlobal returns the device address and size in bytes of the
	// module's global variable name (cuModuleGetGlobal), e.g. the debug error
	// record that nugo zeroes before a launch and reads after it.
	ModuleGetGlobal(m Module, name string) (DevicePtr, int, error)
	FuncGetAttribute(f Function, attr FunctionAttribute) (int, error)
	// FuncSetAttribute sets FuncMaxDynamicSharedSize (needed before a launch
	// with more than 48 KiB of dynamic shared memory) or FuncPreferredCarveout.
	FuncSetAttribute(f Function, attr FunctionAttribute, value int) error

	// OccupancyMaxPotentialBlockSize is the CUDA occupancy calculator
	// (cuOccupancyMaxPotentialBlockSize): the block size that lets the most
	// threads of f be resident on each multiprocessor with dynamicSMem bytes
	// of dynamic shared memory per block, at most blockSizeLimit threads (0
	// for the kernel's own limit), and the smallest grid that fills the
	// device at that size. A blockSize of 0 means no block size fits.
	OccupancyMaxPotentialBlockSize(f Function, dynamicSMem, blockSizeLimit int) (minGridSize, blockSize int, err error)

	// LaunchKernel queues f on stream s over grid×block threads with
	// sharedMem bytes of dynamic shared memory; params holds the arguments in
	// the kernel's parameter order (nil for none).
	LaunchKernel(f Function, grid, block Dim3, sharedMem int, s Stream, params *Params) error
	// LaunchCooperativeKernel is LaunchKernel for a cooperative launch
	// (cuLaunchCooperativeKernel): every block of the grid is resident at
	// once, so that they can synchronise with each other. A grid of more
	// blocks than OccupancyMaxActiveBlocksPerMultiprocessor times the
	// multiprocessors fails with ErrorCooperativeLaunchTooLarge; a device
	// without AttrCooperativeLaunch refuses it with ErrorNotSupported.
	LaunchCooperativeKernel(f Function, grid, block Dim3, sharedMem int, s Stream, params *Params) error
	// OccupancyMaxActiveBlocksPerMultiprocessor is how many blocks of
	// blockSize threads of f, each with dynamicSMem bytes of dynamic shared
	// memory, one multiprocessor holds at once
	// (cuOccupancyMaxActiveBlocksPerMultiprocessor); 0 when none fits.
	OccupancyMaxActiveBlocksPerMultiprocessor(f Function, blockSize, dynamicSMem int) (int, error)

	// Streams: created, destroyed, waited for, or polled (Query reports
	// whether all work queued so far has completed).
	StreamCreate(flags StreamFlags) (Stream, error)
	StreamDestroy(s Stream) error
	StreamSynchronize(s Stream) error
	StreamQuery(s Stream) (done bool, err error)
	// StreamWaitEvent makes work queued on s after the call wait until the
	// work before e's most recent record has completed (cuStreamWaitEvent),
	// without blocking the host. An event never recorded is no wait at all.
	StreamWaitEvent(s Stream, e Event) error

	// Events: markers in a stream, for ordering and timing.
	EventCreate(flags EventFlags) (Event, error)
	EventRecord(e Event, s Stream) error
	EventSynchronize(e Event) error
	// EventQuery reports whether the work before the event has completed.
	EventQuery(e Event) (done bool, err error)
	// EventElapsedTime is the time between two completed events, in ms.
	EventElapsedTime(start, end Event) (float32, error)
	EventDestroy(e Event) error
}
