package driver

import (
	"errors"
	"fmt"
	"strconv"
)

// Result is a CUDA driver result code (CUresult). Zero is success.
type Result int

// The result codes nugo branches on. The full list of names and descriptions
// lives in the generated resultTable; these are the ones code refers to.
const (
	Success                          Result = 0
	ErrorInvalidValue                Result = 1
	ErrorOutOfMemory                 Result = 2
	ErrorNotInitialized              Result = 3
	ErrorDeinitialized               Result = 4
	ErrorStubLibrary                 Result = 34
	ErrorDeviceUnavailable           Result = 46
	ErrorNoDevice                    Result = 100
	ErrorInvalidDevice               Result = 101
	ErrorInvalidImage                Result = 200
	ErrorInvalidContext              Result = 201
	ErrorNoBinaryForGPU              Result = 209
	ErrorUnsupportedLimit            Result = 215
	ErrorInvalidPTX                  Result = 218
	ErrorJITCompilerMissing          Result = 221
	ErrorUnsupportedPTX              Result = 222
	ErrorInvalidHandle               Result = 400
	ErrorNotFound                    Result = 500
	ErrorNotReady                    Result = 600
	ErrorIllegalAddress              Result = 700
	ErrorLaunchOutOfRes              Result = 701
	ErrorLaunchTimeout               Result = 702
	ErrorPeerAccessAlreadyEnabled    Result = 704
	ErrorPeerAccessUnsupported       Result = 217
	ErrorContextIsDestroyed          Result = 709
	ErrorHostMemoryAlreadyRegistered Result = 712
	ErrorHostMemoryNotRegistered     Result = 713
	ErrorAssert                      Result = 710
	ErrorIllegalInstruction          Result = 715
	ErrorMisalignedAddress           Result = 716
	ErrorLaunchFailed                Result = 719
	ErrorCooperativeLaunchTooLarge   Result = 720
	ErrorNotPermitted                Result = 800
	ErrorNotSupported                Result = 801
	ErrorSystemDriverMismatch        Result = 803
	ErrorUnknown                     Result = 999
)

type resultInfo struct{ name, message string }

// Name is the result's CUDA name, e.g. "CUDA_ERROR_OUT_OF_MEMORY", or
// "CUDA_ERROR_<code>" for a code this table does not know.
func (r Result) Name() string {
	if info, ok := resultTable[r]; ok {
		return info.name
	}
	return "CUDA_ERROR_" + strconv.Itoa(int(r))
}

// Message is the driver's one-line description of the result.
func (r Result) Message() string {
	if info, ok := resultTable[r]; ok {
		return info.message
	}
	return "unrecognized CUDA result code " + strconv.Itoa(int(r))
}

// String returns the result's name.
func (r Result) String() string { return r.Name() }

// Sticky reports whether the result leaves the context unusable: after a fault
// inside a kernel every later call in the same context fails with the same code,
// and only a new process (or a reset of the primary context) recovers.
func (r Result) Sticky() bool {
	switch r {
	case ErrorIllegalAddress, ErrorLaunchTimeout, ErrorAssert, ErrorIllegalInstruction,
		ErrorMisalignedAddress, ErrorLaunchFailed, 714 /* hardware stack error */, 717 /* invalid address space */, 718 /* invalid PC */ :
		return true
	}
	return false
}

// Error is a driver call that returned something other than CUDA_SUCCESS.
// Callers branch on Code; Name and Message are what the driver calls it.
type Error struct {
	Call    string // the driver entry point, without version suffix: "cuMemAlloc"
	Code    Result // the CUresult
	Name    string // "CUDA_ERROR_OUT_OF_MEMORY"
	Message string // "out of memory"
	// Log is the JIT compiler's error log when Call is cuModuleLoadDataEx, else empty.
	Log string
}

// NewError builds the error a call returning code reports, with the name and
// description from nugo's table (the real binding asks the driver instead).
func NewError(call string, code Result) *Error {
	return &Error{Call: call, Code: code, Name: code.Name(), Message: code.Message()}
}

// Error formats as "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory",
// followed by the JIT log on its own lines when there is one.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s (%d): %s", e.Call, e.Name, int(e.Code), e.Message)
	if e.Log != "" {
		s += "\n" + e.Log
	}
	return s
}

// ErrNoDevice is wrapped by every error that means the GPU backend cannot run
// here: libcuda.so.1 missing or unloadable, cuInit failing (no device, driver
// and library mismatch, stub library), or zero devices. The wrapping error says
// which; errors.As still finds the *Error underneath when there is one.
var ErrNoDevice = errors.New("no usable CUDA device")

// ErrSymbol is wrapped when the loaded libcuda.so.1 does not export an entry
// point nugo needs (a driver older than CUDA 12).
var ErrSymbol = errors.New("driver entry point missing")

// NoDevice wraps reason (an *Error from cuInit, a loader error, ...) so that it
// matches ErrNoDevice while keeping the reason in the chain and the text.
func NoDevice(reason error) error {
	return fmt.Errorf("%w: %w", ErrNoDevice, reason)
}

// Code returns the CUDA result carried by err, Success for nil, and
// ErrorUnknown for an error that carries no result code.
func Code(err error) Result {
	if err == nil {
		return Success
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ErrorUnknown
}
