package driver

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestErrorFormatAndChain(t *testing.T) {
	e := NewError("cuMemAlloc", ErrorOutOfMemory)
	if got, want := e.Error(), "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	jit := NewError("cuModuleLoadDataEx", ErrorInvalidPTX)
	jit.Log = "ptxas application ptx input, line 7; error   : Unknown symbol 'x'"
	if s := jit.Error(); !strings.HasSuffix(s, "\n"+jit.Log) || !strings.Contains(s, "CUDA_ERROR_INVALID_PTX (218)") {
		t.Fatalf("JIT error text %q", s)
	}

	wrapped := fmt.Errorf("launch inc: %w", e)
	if Code(wrapped) != ErrorOutOfMemory || Code(nil) != Success || Code(errors.New("other")) != ErrorUnknown {
		t.Fatal("Code does not see through wrapping")
	}
	nd := NoDevice(NewError("cuInit", ErrorNoDevice))
	var got *Error
	if !errors.Is(nd, ErrNoDevice) || !errors.As(nd, &got) || got.Code != ErrorNoDevice {
		t.Fatalf("NoDevice(%v) loses the sentinel or the *Error", nd)
	}
	if errors.Is(e, ErrNoDevice) {
		t.Fatal("an out-of-memory error matches ErrNoDevice")
	}
}

func TestResultNames(t *testing.T) {
	cases := []struct {
		r      Result
		name   string
		sticky bool
	}{
		{Success, "CUDA_SUCCESS", false},
		{ErrorInvalidValue, "CUDA_ERROR_INVALID_VALUE", false},
		{ErrorNoDevice, "CUDA_ERROR_NO_DEVICE", false},
		{ErrorInvalidPTX, "CUDA_ERROR_INVALID_PTX", false},
		{ErrorNotReady, "CUDA_ERROR_NOT_READY", false},
		{ErrorIllegalAddress, "CUDA_ERROR_ILLEGAL_ADDRESS", true},
		{ErrorLaunchFailed, "CUDA_ERROR_LAUNCH_FAILED", true},
		{ErrorLaunchOutOfRes, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", false},
		{ErrorAssert, "CUDA_ERROR_ASSERT", true},
		{4242, "CUDA_ERROR_4242", false},
	}
	for _, c := range cases {
		if c.r.Name() != c.name || c.r.String() != c.name || c.r.Sticky() != c.sticky || c.r.Message() == "" {
			t.Errorf("%d: name %q sticky %v message %q; want %q sticky %v", int(c.r), c.r.Name(), c.r.Sticky(), c.r.Message(), c.name, c.sticky)
		}
	}
	// Every named constant is in the generated table under the name its Go
	// identifier spells.
	for _, r := range namedResults {
		if _, ok := resultTable[r]; !ok {
			t.Errorf("code %d is not in the result table", int(r))
		}
	}
}

// namedResults are the result codes errors.go names: the ones nugo branches
// on, whose names must agree with every driver.
var namedResults = []Result{Success, ErrorInvalidValue, ErrorOutOfMemory, ErrorNotInitialized,
	ErrorDeinitialized, ErrorStubLibrary, ErrorDeviceUnavailable, ErrorNoDevice, ErrorInvalidDevice,
	ErrorInvalidImage, ErrorInvalidContext, ErrorNoBinaryForGPU, ErrorInvalidPTX, ErrorJITCompilerMissing,
	ErrorUnsupportedPTX, ErrorInvalidHandle, ErrorNotFound, ErrorNotReady, ErrorIllegalAddress,
	ErrorLaunchOutOfRes, ErrorLaunchTimeout, ErrorContextIsDestroyed, ErrorAssert, ErrorIllegalInstruction,
	ErrorMisalignedAddress, ErrorLaunchFailed, ErrorNotPermitted, ErrorNotSupported,
	ErrorSystemDriverMismatch, ErrorUnknown}
