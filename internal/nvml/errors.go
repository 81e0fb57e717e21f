package nvml

import (
	"errors"
	"fmt"
)

// Return is an NVML result code (nvmlReturn_t).
type Return int32

// The result codes of nvmlReturn_t.
const (
	Success                   Return = 0
	ErrorUninitialized        Return = 1
	ErrorInvalidArgument      Return = 2
	ErrorNotSupported         Return = 3
	ErrorNoPermission         Return = 4
	ErrorAlreadyInitialized   Return = 5
	ErrorNotFound             Return = 6
	ErrorInsufficientSize     Return = 7
	ErrorInsufficientPower    Return = 8
	ErrorDriverNotLoaded      Return = 9
	ErrorTimeout              Return = 10
	ErrorIRQIssue             Return = 11
	ErrorLibraryNotFound      Return = 12
	ErrorFunctionNotFound     Return = 13
	ErrorCorruptedInforom     Return = 14
	ErrorGPUIsLost            Return = 15
	ErrorResetRequired        Return = 16
	ErrorOperatingSystem      Return = 17
	ErrorLibRMVersionMismatch Return = 18
	ErrorInUse                Return = 19
	ErrorMemory               Return = 20
	ErrorNoData               Return = 21
	ErrorVGPUECCNotSupported  Return = 22
	ErrorInsufficientResource Return = 23
	ErrorFreqNotSupported     Return = 24
	ErrorArgumentVersion      Return = 25
	ErrorDeprecated           Return = 26
	ErrorNotReady             Return = 27
	ErrorGPUNotFound          Return = 28
	ErrorInvalidState         Return = 29
	ErrorUnknown              Return = 999
)

var returnNames = map[Return]string{
	Success:                   "NVML_SUCCESS",
	ErrorUninitialized:        "NVML_ERROR_UNINITIALIZED",
	ErrorInvalidArgument:      "NVML_ERROR_INVALID_ARGUMENT",
	ErrorNotSupported:         "NVML_ERROR_NOT_SUPPORTED",
	ErrorNoPermission:         "NVML_ERROR_NO_PERMISSION",
	ErrorAlreadyInitialized:   "NVML_ERROR_ALREADY_INITIALIZED",
	ErrorNotFound:             "NVML_ERROR_NOT_FOUND",
	ErrorInsufficientSize:     "NVML_ERROR_INSUFFICIENT_SIZE",
	ErrorInsufficientPower:    "NVML_ERROR_INSUFFICIENT_POWER",
	ErrorDriverNotLoaded:      "NVML_ERROR_DRIVER_NOT_LOADED",
	ErrorTimeout:              "NVML_ERROR_TIMEOUT",
	ErrorIRQIssue:             "NVML_ERROR_IRQ_ISSUE",
	ErrorLibraryNotFound:      "NVML_ERROR_LIBRARY_NOT_FOUND",
	ErrorFunctionNotFound:     "NVML_ERROR_FUNCTION_NOT_FOUND",
	ErrorCorruptedInforom:     "NVML_ERROR_CORRUPTED_INFOROM",
	ErrorGPUIsLost:            "NVML_ERROR_GPU_IS_LOST",
	ErrorResetRequired:        "NVML_ERROR_RESET_REQUIRED",
	ErrorOperatingSystem:      "NVML_ERROR_OPERATING_SYSTEM",
	ErrorLibRMVersionMismatch: "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
	ErrorInUse:                "NVML_ERROR_IN_USE",
	ErrorMemory:               "NVML_ERROR_MEMORY",
	ErrorNoData:               "NVML_ERROR_NO_DATA",
	ErrorVGPUECCNotSupported:  "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED",
	ErrorInsufficientResource: "NVML_ERROR_INSUFFICIENT_RESOURCES",
	ErrorFreqNotSupported:     "NVML_ERROR_FREQ_NOT_SUPPORTED",
	ErrorArgumentVersion:      "NVML_ERROR_ARGUMENT_VERSION_MISMATCH",
	ErrorDeprecated:           "NVML_ERROR_DEPRECATED",
	ErrorNotReady:             "NVML_ERROR_NOT_READY",
	ErrorGPUNotFound:          "NVML_ERROR_GPU_NOT_FOUND",
	ErrorInvalidState:         "NVML_ERROR_INVALID_STATE",
	ErrorUnknown:              "NVML_ERROR_UNKNOWN",
}

// String is the code's name in nvml.h, e.g. "NVML_ERROR_NOT_SUPPORTED".
func (r Return) String() string {
	if n, ok := returnNames[r]; ok {
		return n
	}
	return fmt.Sprintf("NVML result %d", int32(r))
}

// Error is a failed NVML call.
type Error struct {
	Func    string // the entry point, e.g. "nvmlInit_v2"
	Code    Return
	Message string // NVML's description of Code (nvmlErrorString), if known
}

// Error reads "nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED (Driver Not Loaded)".
func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("%s: %v", e.Func, e.Code)
	}
	return fmt.Sprintf("%s: %v (%s)", e.Func, e.Code, e.Message)
}

// Code is the NVML result code err carries: Success for nil, ErrorUnknown
// for an error that is not an *Error.
func Code(err error) Return {
	if err == nil {
		return Success
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ErrorUnknown
}

// ErrNoLibrary is what Load and Open return, wrapped with the loader's
// reason, when the library cannot be loaded: no NVIDIA driver is installed.
var ErrNoLibrary = errors.New("NVML library not available")

// ErrSymbol is wrapped by calls to an entry point the library does not
// export (a driver older than the call).
var ErrSymbol = errors.New("entry point missing from the NVML library")
