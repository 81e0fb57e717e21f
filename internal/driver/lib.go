package driver

import (
	"fmt"
	"os"

	"github.com/ebitengine/purego"

	"github.com/nugo-dev/nugo/internal/dynlib"
)

// DefaultLibrary is the soname Load opens: the driver's user-space library, as
// installed by the NVIDIA driver (or Debian's libcuda1 package).
const DefaultLibrary = "libcuda.so.1"

// Library is the real driver: libcuda.so.1 opened with dlopen through purego,
// no cgo. Each entry point is looked up on its first use; where the driver
// exports a versioned "_v2" form (the one CUDA 12's headers call: 64-bit sizes,
// fixed semantics) that form is bound. A Library is safe for concurrent use.
type Library struct {
	path   string
	handle uintptr
	procs  [numProcs]dynlib.Proc
}

// procID names one driver entry point nugo calls.
type procID int

const (
	pInit procID = iota
	pDriverGetVersion
	pDeviceGetCount
	pDeviceGet
	pDeviceGetName
	pDeviceGetAttribute
	pDeviceTotalMem
	pDevicePrimaryCtxRetain
	pDevicePrimaryCtxRelease
	pCtxSetCurrent
	pCtxGetCurrent
	pCtxSynchronize
	pMemAlloc
	pMemFree
	pMemsetD8
	pMemsetD8Async
	pMemsetD16
	pMemsetD32
	pMemGetInfo
	pMemcpyHtoD
	pMemcpyDtoH
	pMemcpyDtoD
	pMemcpyHtoDAsync
	pMemcpyDtoHAsync
	pMemcpyDtoDAsync
	pDeviceCanAccessPeer
	pCtxEnablePeerAccess
	pMemcpyPeerAsync
	pMemHostAlloc
	pMemFreeHost
	pMemHostRegister
	pMemHostUnregister
	pMemHostGetDevicePointer
	pMemAllocManaged
	pMemPrefetchAsync
	pMemAdvise
	pCtxSetLimit
	pCtxGetLimit
	pProfilerStart
	pProfilerStop
	pModuleLoadDataEx
	pModuleGetFunction
	pModuleUnload
	pModuleGetGlobal
	pFuncGetAttribute
	pFuncSetAttribute
	pOccupancyMaxPotentialBlockSize
	pLaunchKernel
	pLaunchCooperativeKernel
	pOccupancyMaxActiveBlocksPerMultiprocessor
	pStreamCreate
	pStreamDestroy
	pStreamSynchronize
	pStreamQuery
	pStreamWaitEvent
	pEventCreate
	pEventRecord
	pEventSynchronize
	pEventQuery
	pEventElapsedTime
	pEventDestroy
	pGetErrorName
	pGetErrorString
	numProcs
)

// procSpec is an entry point's API name (what errors report) and whether CUDA
// 12's cuda.h maps that name to a "_v2" symbol.
type procSpec struct {
	name string
	v2   bool
}

var procSpecs = [numProcs]procSpec{
	pInit:                           {"cuInit", false},
	pDriverGetVersion:               {"cuDriverGetVersion", false},
	pDeviceGetCount:                 {"cuDeviceGetCount", false},
	pDeviceGet:                      {"cuDeviceGet", false},
	pDeviceGetName:                  {"cuDeviceGetName", false},
	pDeviceGetAttribute:             {"cuDeviceGetAttribute", false},
	pDeviceTotalMem:                 {"cuDeviceTotalMem", true},
	pDevicePrimaryCtxRetain:         {"cuDevicePrimaryCtxRetain", false},
	pDevicePrimaryCtxRelease:        {"cuDevicePrimaryCtxRelease", true},
	pCtxSetCurrent:                  {"cuCtxSetCurrent", false},
	pCtxGetCurrent:                  {"cuCtxGetCurrent", false},
	pCtxSynchronize:                 {"cuCtxSynchronize", false},
	pMemAlloc:                       {"cuMemAlloc", true},
	pMemFree:                        {"cuMemFree", true},
	pMemsetD8:                       {"cuMemsetD8", true},
	pMemsetD8Async:                  {"cuMemsetD8Async", false},
	pMemsetD16:                      {"cuMemsetD16", true},
	pMemsetD32:                      {"cuMemsetD32", true},
	pMemGetInfo:                     {"cuMemGetInfo", true},
	pMemcpyHtoD:                     {"cuMemcpyHtoD", true},
	pMemcpyDtoH:                     {"cuMemcpyDtoH", true},
	pMemcpyDtoD:                     {"cuMemcpyDtoD", true},
	pMemcpyHtoDAsync:                {"cuMemcpyHtoDAsync", true},
	pMemcpyDtoHAsync:                {"cuMemcpyDtoHAsync", true},
	pMemcpyDtoDAsync:                {"cuMemcpyDtoDAsync", true},
	pDeviceCanAccessPeer:            {"cuDeviceCanAccessPeer", false},
	pCtxEnablePeerAccess:            {"cuCtxEnablePeerAccess", false},
	pMemcpyPeerAsync:                {"cuMemcpyPeerAsync", false},
	pMemHostAlloc:                   {"cuMemHostAlloc", false},
	pMemFreeHost:                    {"cuMemFreeHost", false},
	pMemHostRegister:                {"cuMemHostRegister", true},
	pMemHostUnregister:              {"cuMemHostUnregister", false},
	pMemHostGetDevicePointer:        {"cuMemHostGetDevicePointer", true},
	pMemAllocManaged:                {"cuMemAllocManaged", false},
	pCtxSetLimit:                    {"cuCtxSetLimit", false},
	pCtxGetLimit:                    {"cuCtxGetLimit", false},
	pProfilerStart:                  {"cuProfilerStart", false},
	pProfilerStop:                   {"cuProfilerStop", false},
	pModuleLoadDataEx:               {"cuModuleLoadDataEx", false},
	pModuleGetFunction:              {"cuModuleGetFunction", false},
	pModuleUnload:                   {"cuModuleUnload", false},
	pModuleGetGlobal:                {"cuModuleGetGlobal", true},
	pFuncGetAttribute:               {"cuFuncGetAttribute", false},
	pFuncSetAttribute:               {"cuFuncSetAttribute", false},
	pOccupancyMaxPotentialBlockSize: {"cuOccupancyMaxPotentialBlockSize", false},
	pLaunchKernel:                   {"cuLaunchKernel", false},
	pLaunchCooperativeKernel:        {"cuLaunchCooperativeKernel", false},
	pOccupancyMaxActiveBlocksPerMultiprocessor: {"cuOccupancyMaxActiveBlocksPerMultiprocessor", false},
	pStreamCreate:      {"cuStreamCreate", false},
	pStreamDestroy:     {"cuStreamDestroy", true},
	pStreamSynchronize: {"cuStreamSynchronize", false},
	pStreamQuery:       {"cuStreamQuery", false},
	pStreamWaitEvent:   {"cuStreamWaitEvent", false},
	pEventCreate:       {"cuEventCreate", false},
	pEventRecord:       {"cuEventRecord", false},
	pEventSynchronize:  {"cuEventSynchronize", false},
	pEventQuery:        {"cuEventQuery", false},
	pEventElapsedTime:  {"cuEventElapsedTime", false},
	pEventDestroy:      {"cuEventDestroy", true},
	pGetErrorName:      {"cuGetErrorName", false},
	pGetErrorString:    {"cuGetErrorString", false},
	// CUDA 12.2 added cuMemPrefetchAsync_v2 and cuMemAdvise_v2, which take
	// a CUmemLocation (and prefetch flags) where these take a CUdevice: not
	// the same call under a new name, so the plain forms, which every CUDA
	// 12 driver exports, are bound.
	pMemPrefetchAsync: {"cuMemPrefetchAsync", false},
	pMemAdvise:        {"cuMemAdvise", false},
}

// LibraryEnv names the environment variable that, when set, replaces
// DefaultLibrary as the library Load opens (a driver installed off the loader's
// path; a missing file to test the no-driver path).
const LibraryEnv = "NUGO_LIBCUDA"

// Load opens the driver library: $NUGO_LIBCUDA when set, else DefaultLibrary.
// See Open.
func Load() (*Library, error) {
	if p := os.Getenv(LibraryEnv); p != "" {
		return Open(p)
	}
	return Open(DefaultLibrary)
}

// Open opens the driver library at path (a soname searched the dynamic
// loader's way, or a file path). No entry point is resolved yet. A library
// that cannot be opened is an error wrapping ErrNoDevice with the loader's
// reason.
func Open(path string) (*Library, error) {
	h, err := dynlib.Open(path)
	if err != nil {
		return nil, NoDevice(err)
	}
	return &Library{path: path, handle: h}, nil
}

// Path is the name the library was opened by.
func (l *Library) Path() string { return l.path }

// Symbol reports which exported symbol serves the named API entry point
// (e.g. "cuMemAlloc" → "cuMemAlloc_v2"), resolving it if needed.
func (l *Library) Symbol(name string) (string, error) {
	for id, spec := range procSpecs {
		if spec.name == name {
			if _, err := l.sym(procID(id)); err != nil {
				return "", err
			}
			return l.symbolName(procID(id)), nil
		}
	}
	return "", fmt.Errorf("%s: not an entry point nugo binds", name)
}

func (l *Library) symbolName(id procID) string {
	spec := procSpecs[id]
	if spec.v2 {
		if _, err := dynlib.Lookup(l.handle, spec.name+"_v2"); err == nil {
			return spec.name + "_v2"
		}
	}
	return spec.name
}

// sym resolves an entry point once; later calls return the cached address.
func (l *Library) sym(id procID) (uintptr, error) {
	return l.procs[id].Resolve(func() (uintptr, error) {
		spec := procSpecs[id]
		if spec.v2 {
			if addr, err := dynlib.Lookup(l.handle, spec.name+"_v2"); err == nil {
				return addr, nil
			}
		}
		addr, err := dynlib.Lookup(l.handle, spec.name)
		if err != nil {
			return 0, fmt.Errorf("%s: %s does not export it: %w", spec.name, l.path, ErrSymbol)
		}
		return addr, nil
	})
}

// call invokes an entry point and maps its CUresult to an *Error.
// Arguments that are Go pointers must be written as uintptr(unsafe.Pointer(x))
// in the call expression itself: go:uintptrescapes then keeps each pointee on
// the heap and alive until call returns (the rule purego.SyscallN relies on).
//
//go:uintptrescapes
func (l *Library) call(id procID, args ...uintptr) error {
	res, err := l.result(id, args...)
	if err != nil {
		return err
	}
	if res != Success {
		return l.newError(id, res)
	}
	return nil
}

// result invokes an entry point and returns its raw CUresult (for calls such
// as cuStreamQuery where a non-success code is an answer, not a failure).
//
//go:uintptrescapes
func (l *Library) result(id procID, args ...uintptr) (Result, error) {
	addr, err := l.sym(id)
	if err != nil {
		return 0, err
	}
	r, _, _ := purego.SyscallN(addr, args...)
	// CUresult is a C enum: 32 bits, the rest of the register is undefined.
	return Result(int32(uint32(r))), nil
}
