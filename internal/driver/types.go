package driver

import "fmt"

// Device is a device handle (CUdevice) as DeviceGet returns it.
type Device int32

// Context is a CUDA context handle (CUcontext). Zero means none.
type Context uintptr

// Module is a loaded module handle (CUmodule).
type Module uintptr

// Function is a kernel handle (CUfunction) inside a loaded module.
type Function uintptr

// Stream is a stream handle (CUstream). Zero is the context's default
// (legacy, synchronising) stream.
type Stream uintptr

// Event is an event handle (CUevent).
type Event uintptr

// DevicePtr is an address in device memory (CUdeviceptr). Arithmetic on it
// addresses bytes inside an allocation.
type DevicePtr uint64

// Dim3 is a grid or block shape in the driver's terms. It mirrors cuda.Dim3,
// which this package cannot import.
type Dim3 struct{ X, Y, Z int }

// String formats the shape as "(x,y,z)", the form launch errors use.
func (d Dim3) String() string { return fmt.Sprintf("(%d,%d,%d)", d.X, d.Y, d.Z) }

// DeviceAttribute selects a device property for DeviceAttribute
// (CUdevice_attribute). The values are the driver's.
type DeviceAttribute int

// Device attributes nugo reads.
const (
	AttrMaxThreadsPerBlock           DeviceAttribute = 1
	AttrMaxBlockDimX                 DeviceAttribute = 2
	AttrMaxBlockDimY                 DeviceAttribute = 3
	AttrMaxBlockDimZ                 DeviceAttribute = 4
	AttrMaxGridDimX                  DeviceAttribute = 5
	AttrMaxGridDimY                  DeviceAttribute = 6
	AttrMaxGridDimZ                  DeviceAttribute = 7
	AttrMaxSharedMemoryPerBlock      DeviceAttribute = 8
	AttrTotalConstantMemory          DeviceAttribute = 9
	AttrWarpSize                     DeviceAttribute = 10
	AttrMaxRegistersPerBlock         DeviceAttribute = 12
	AttrClockRate                    DeviceAttribute = 13 // kHz
	AttrMultiprocessorCount          DeviceAttribute = 16
	AttrKernelExecTimeout            DeviceAttribute = 17
	AttrIntegrated                   DeviceAttribute = 18
	AttrCanMapHostMemory             DeviceAttribute = 19
	AttrConcurrentKernels            DeviceAttribute = 31
	AttrPCIBusID                     DeviceAttribute = 33
	AttrPCIDeviceID                  DeviceAttribute = 34
	AttrMemoryClockRate              DeviceAttribute = 36 // kHz
	AttrGlobalMemoryBusWidth         DeviceAttribute = 37 // bits
	AttrL2CacheSize                  DeviceAttribute = 38
	AttrMaxThreadsPerMultiprocessor  DeviceAttribute = 39
	AttrAsyncEngineCount             DeviceAttribute = 40
	AttrUnifiedAddressing            DeviceAttribute = 41
	AttrPCIDomainID                  DeviceAttribute = 50
	AttrComputeCapabilityMajor       DeviceAttribute = 75
	AttrComputeCapabilityMinor       DeviceAttribute = 76
	AttrMaxSharedMemoryPerSM         DeviceAttribute = 81
	AttrMaxRegistersPerSM            DeviceAttribute = 82
	AttrManagedMemory                DeviceAttribute = 83
	AttrConcurrentManagedAccess      DeviceAttribute = 89 // the host may touch managed memory while kernels run
	AttrCooperativeLaunch            DeviceAttribute = 95 // cuLaunchCooperativeKernel is supported
	AttrMaxSharedMemoryPerBlockOptin DeviceAttribute = 97
)

// FunctionAttribute selects a kernel property for FuncGetAttribute
// (CUfunction_attribute).
type FunctionAttribute int

// Kernel attributes: the reflection a Kernel offers (registers, memory).
const (
	FuncMaxThreadsPerBlock   FunctionAttribute = 0
	FuncSharedSizeBytes      FunctionAttribute = 1 // static shared memory
	FuncConstSizeBytes       FunctionAttribute = 2
	FuncLocalSizeBytes       FunctionAttribute = 3 // per thread
	FuncNumRegs              FunctionAttribute = 4 // per thread
	FuncPTXVersion           FunctionAttribute = 5 // major*10+minor
	FuncBinaryVersion        FunctionAttribute = 6 // SASS target, major*10+minor
	FuncMaxDynamicSharedSize FunctionAttribute = 8 // settable: opt in above 48 KiB
	FuncPreferredCarveout    FunctionAttribute = 9 // settable: % of L1 given to shared memory
)

// JIT option numbers (CUjit_option) for cuModuleLoadDataEx.
const (
	jitMaxRegisters           = 0
	jitWallTime               = 2
	jitInfoLogBuffer          = 3
	jitInfoLogBufferSizeBytes = 4
	jitErrorLogBuffer         = 5
	jitErrorLogBufferSizeByte = 6
	jitOptimizationLevel      = 7
	jitGenerateDebugInfo      = 11
	jitLogVerbose             = 12
	jitGenerateLineInfo       = 13
)

// DefaultLogSize is the JIT log buffer size used when JITOptions.LogSize is 0.
const DefaultLogSize = 16 << 10

// OptLevel is ptxas's optimisation level. The zero value leaves the driver's
// default, which is O4.
type OptLevel int

// Optimisation levels for JITOptions.OptLevel.
const (
	OptDefault OptLevel = iota
	O0
	O1
	O2
	O3
	O4
)

// JITOptions are the PTX compiler settings for ModuleLoadData. The zero value
// is the driver's defaults with DefaultLogSize logs.
type JITOptions struct {
	// OptLevel selects the optimisation level; OptDefault leaves it.
	OptLevel OptLevel
	// MaxRegisters caps registers per thread; 0 leaves it to the compiler.
	MaxRegisters int
	// LogSize is the capacity of each of the info and error logs in bytes;
	// 0 means DefaultLogSize.
	LogSize int
	// Verbose asks the compiler for per-kernel resource lines in the info log.
	Verbose bool
	// LineInfo and DebugInfo ask for line tables and full debug information.
	LineInfo, DebugInfo bool
}

// JITLog is what the driver's PTX compiler reported while loading a module.
type JITLog struct {
	Info   string  // informational messages (resource usage when Verbose)
	Error  string  // the compiler's error messages; empty on success
	WallMS float32 // time the driver spent compiling and linking, ms
}

// HostAllocFlags are cuMemHostAlloc flags.
type HostAllocFlags uint32

// Page-locked host allocation flags.
const (
	HostAllocPortable      HostAllocFlags = 1 // pinned for every context, not only the current one
	HostAllocDeviceMap     HostAllocFlags = 2 // mapped into the device address space
	HostAllocWriteCombined HostAllocFlags = 4 // write-combined: fast host→device, slow host reads
)

// HostRegisterFlags are cuMemHostRegister flags.
type HostRegisterFlags uint32

// Host memory registration flags.
const (
	HostRegisterPortable  HostRegisterFlags = 1 // pinned for every context, not only the current one
	HostRegisterDeviceMap HostRegisterFlags = 2 // mapped into the device address space
)

// MemAttachFlags are cuMemAllocManaged flags: which streams may use the
// memory at first.
type MemAttachFlags uint32

// Managed memory attachment flags.
const (
	MemAttachGlobal MemAttachFlags = 1 // any stream on any device
	MemAttachHost   MemAttachFlags = 2 // the host only, until attached to a stream
)

// DeviceCPU is CU_DEVICE_CPU: the host, where a Device names a place
// managed memory can be (MemPrefetchAsync's destination, MemAdvise's
// location).
const DeviceCPU Device = -1

// MemAdvice is a cuMemAdvise advice (CUmem_advise): a hint about how a
// range of managed memory will be used. The values are the driver's.
type MemAdvice int

// Managed memory advice.
const (
	AdviseSetReadMostly          MemAdvice = 1 // mostly read: each reader gets a read-only copy of the pages it reads
	AdviseUnsetReadMostly        MemAdvice = 2 // undo AdviseSetReadMostly
	AdviseSetPreferredLocation   MemAdvice = 3 // keep the pages on the given device (or the host) where possible
	AdviseUnsetPreferredLocation MemAdvice = 4 // no preferred location
	AdviseSetAccessedBy          MemAdvice = 5 // keep the pages mapped for the given device, wherever they are
	AdviseUnsetAccessedBy        MemAdvice = 6 // undo AdviseSetAccessedBy for the given device
)

// Limit selects a context resource limit for CtxSetLimit and CtxGetLimit
// (CUlimit). The values are the driver's.
type Limit int

// Context limits nugo sets and reads.
const (
	LimitStackSize      Limit = 0 // bytes of stack per GPU thread
	LimitPrintfFIFOSize Limit = 1 // bytes of the FIFO that device printf (vprintf) writes to
	LimitMallocHeapSize Limit = 2 // bytes of the heap of device malloc and free
)

// StreamFlags are cuStreamCreate flags.
type StreamFlags uint32

// Stream creation flags.
const (
	StreamDefault     StreamFlags = 0
	StreamNonBlocking StreamFlags = 1 // does not synchronise with the default stream
)

// EventFlags are cuEventCreate flags.
type EventFlags uint32

// Event creation flags.
const (
	EventDefault       EventFlags = 0
	EventBlockingSync  EventFlags = 1 // EventSynchronize sleeps instead of spinning
	EventDisableTiming EventFlags = 2 // cheaper, but ElapsedTime refuses it
)
