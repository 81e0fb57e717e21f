package nvml

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/nugo-dev/nugo/internal/dynlib"
)

// DefaultLibrary is the soname Load opens, installed with the NVIDIA driver
// (on Debian, by the libnvidia-ml1 package).
const DefaultLibrary = "libnvidia-ml.so.1"

// LibraryEnv names the environment variable that, when set, replaces
// DefaultLibrary as the library Load opens.
const LibraryEnv = "NUGO_LIBNVML"

// Library is the real NVML, opened with dlopen through purego. Each entry
// point is looked up on its first use. A Library is safe for concurrent use.
type Library struct {
	path   string
	handle uintptr
	procs  [numProcs]dynlib.Proc
}

// procID names one entry point nugo calls.
type procID int

const (
	pInit procID = iota
	pShutdown
	pErrorString
	pSystemGetDriverVersion
	pDeviceGetCount
	pDeviceGetHandleByIndex
	pDeviceGetName
	pDeviceGetUUID
	pDeviceGetUtilizationRates
	pDeviceGetMemoryInfo
	pDeviceGetTemperature
	pDeviceGetPowerUsage
	pDeviceGetClockInfo
	pDeviceGetComputeRunningProcesses
	numProcs
)

// procNames are the exported symbols, in the versions nvml.h of the R535
// driver maps the API names to.
var procNames = [numProcs]string{
	pInit:                             "nvmlInit_v2",
	pShutdown:                         "nvmlShutdown",
	pErrorString:                      "nvmlErrorString",
	pSystemGetDriverVersion:           "nvmlSystemGetDriverVersion",
	pDeviceGetCount:                   "nvmlDeviceGetCount_v2",
	pDeviceGetHandleByIndex:           "nvmlDeviceGetHandleByIndex_v2",
	pDeviceGetName:                    "nvmlDeviceGetName",
	pDeviceGetUUID:                    "nvmlDeviceGetUUID",
	pDeviceGetUtilizationRates:        "nvmlDeviceGetUtilizationRates",
	pDeviceGetMemoryInfo:              "nvmlDeviceGetMemoryInfo",
	pDeviceGetTemperature:             "nvmlDeviceGetTemperature",
	pDeviceGetPowerUsage:              "nvmlDeviceGetPowerUsage",
	pDeviceGetClockInfo:               "nvmlDeviceGetClockInfo",
	pDeviceGetComputeRunningProcesses: "nvmlDeviceGetComputeRunningProcesses_v3",
}

// Load opens NVML: $NUGO_LIBNVML when set, else DefaultLibrary. See Open.
func Load() (*Library, error) {
	if p := os.Getenv(LibraryEnv); p != "" {
		return Open(p)
	}
	return Open(DefaultLibrary)
}

// Open opens the NVML library at path (a soname searched the dynamic
// loader's way, or a file path). No entry point is resolved yet. A library
// that cannot be opened is an error wrapping ErrNoLibrary with the loader's
// reason.
func Open(path string) (*Library, error) {
	h, err := dynlib.Open(path)
	if err != nil {
		return nil, &loadError{fmt.Sprintf("%v (NVML is installed with the NVIDIA driver; %s names another path)", err, LibraryEnv)}
	}
	return &Library{path: path, handle: h}, nil
}

// loadError is a library that cannot be loaded; it is ErrNoLibrary.
type loadError struct{ msg string }

func (e *loadError) Error() string        { return e.msg }
func (e *loadError) Is(target error) bool { return target == ErrNoLibrary }

// Path is the name the library was opened by.
func (l *Library) Path() string { return l.path }

// sym resolves an entry point once; later calls return the cached address.
func (l *Library) sym(id procID) (uintptr, error) {
	return l.procs[id].Resolve(func() (uintptr, error) {
		addr, err := dynlib.Lookup(l.handle, procNames[id])
		if err != nil {
			return 0, fmt.Errorf("%s: %s does not export it (a driver older than nugo needs): %w", procNames[id], l.path, ErrSymbol)
		}
		return addr, nil
	})
}

// call invokes an entry point and maps its nvmlReturn_t to an *Error.
// Arguments that are Go pointers must be written as uintptr(unsafe.Pointer(x))
// in the call expression itself: go:uintptrescapes then keeps each pointee
// on the heap and alive until call returns.
//
//go:uintptrescapes
func (l *Library) call(id procID, args ...uintptr) error {
	addr, err := l.sym(id)
	if err != nil {
		return err
	}
	r, _, _ := purego.SyscallN(addr, args...)
	// nvmlReturn_t is a C enum: 32 bits, the rest of the register is undefined.
	if code := Return(int32(uint32(r))); code != Success {
		return l.newError(id, code)
	}
	return nil
}

// newError builds the *Error of a failed call, with NVML's description of
// the code when the library gives one.
func (l *Library) newError(id procID, code Return) *Error {
	e := &Error{Func: procNames[id], Code: code}
	if addr, err := l.sym(pErrorString); err == nil {
		r, _, _ := purego.SyscallN(addr, uintptr(uint32(int32(code))))
		// r is a const char* into the library's static storage; reading the
		// word as a pointer keeps vet's uintptr check quiet for what is
		// not Go memory.
		e.Message = dynlib.CString(*(**byte)(unsafe.Pointer(&r)))
	}
	return e
}

// bufString is the text of a NUL-terminated string NVML wrote into buf.
func bufString(buf []byte) string {
	for i, b := range buf {
		if b == 0 {
			return string(buf[:i])
		}
	}
	return string(buf)
}
