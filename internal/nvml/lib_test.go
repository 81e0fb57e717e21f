package nvml

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// realLibrary loads libnvidia-ml.so.1. Without it the test fails under CI
// (which installs it with scripts/install-libcuda.sh) and on the GPU
// machine (NUGO_REQUIRE_GPU=1), and is skipped, visibly, elsewhere.
func realLibrary(t *testing.T) *Library {
	t.Helper()
	l, err := Load()
	if err != nil {
		if inCI() {
			t.Fatalf("CI requires the real NVML library: %v (install it with scripts/install-libcuda.sh)", err)
		}
		if os.Getenv("NUGO_REQUIRE_GPU") == "1" {
			t.Fatalf("NUGO_REQUIRE_GPU=1 but NVML cannot be loaded: %v", err)
		}
		t.Skipf("SKIP real-library test: %v; run scripts/install-libcuda.sh as root to enable it", err)
	}
	return l
}

// A library that is not there is ErrNoLibrary, naming the path and the
// variable that overrides it.
func TestLoadMissing(t *testing.T) {
	t.Setenv(LibraryEnv, "/nonexistent/libnvidia-ml.so.1")
	l, err := Load()
	if l != nil || !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("Load = %v, %v; want ErrNoLibrary", l, err)
	}
	for _, want := range []string{"cannot load /nonexistent/libnvidia-ml.so.1", LibraryEnv, "NVIDIA driver"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, err := Open(DefaultLibrary); err != nil {
		if !errors.Is(err, ErrNoLibrary) || !strings.Contains(err.Error(), DefaultLibrary) {
			t.Errorf("Open(%s) = %v", DefaultLibrary, err)
		}
	}
}

// Through the real library: on a machine without a GPU nvmlInit_v2 answers
// NVML_ERROR_DRIVER_NOT_LOADED with NVML's own description, and calls before
// a successful Init are NVML_ERROR_UNINITIALIZED; with a GPU every reading
// nugo top shows comes back.
func TestRealLibrary(t *testing.T) {
	l := realLibrary(t)
	if _, err := l.DeviceCount(); Code(err) != ErrorUninitialized {
		t.Errorf("DeviceCount before Init = %v, want NVML_ERROR_UNINITIALIZED", err)
	}
	err := l.Init()
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Func != "nvmlInit_v2" || e.Message == "" {
			t.Fatalf("Init = %v; want an *Error from nvmlInit_v2 with NVML's description", err)
		}
		if os.Getenv("NUGO_REQUIRE_GPU") == "1" {
			t.Fatalf("NUGO_REQUIRE_GPU=1 but NVML does not start: %v", err)
		}
		if e.Code != ErrorDriverNotLoaded {
			t.Errorf("Init without a GPU = %v, want NVML_ERROR_DRIVER_NOT_LOADED", err)
		}
		t.Logf("%s without a GPU: %v", l.Path(), err)
		return
	}
	defer func() {
		if err := l.Shutdown(); err != nil {
			t.Error(err)
		}
	}()
	v, err := l.DriverVersion()
	n, err2 := l.DeviceCount()
	if err != nil || err2 != nil || n < 1 || v == "" {
		t.Fatalf("driver %q (%v), %d devices (%v)", v, err, n, err2)
	}
	for i := range n {
		d, err := l.DeviceByIndex(i)
		if err != nil {
			t.Fatal(err)
		}
		name, err := l.DeviceName(d)
		if err != nil || name == "" {
			t.Errorf("device %d: name %q, %v", i, name, err)
		}
		m, err := l.DeviceMemory(d)
		if err != nil || m.Total == 0 || m.Used > m.Total {
			t.Errorf("device %d: memory %+v, %v", i, m, err)
		}
		u, err := l.DeviceUtilization(d)
		if err != nil || u.GPU > 100 || u.Memory > 100 {
			t.Errorf("device %d: utilization %+v, %v", i, u, err)
		}
		sm, err := l.DeviceClock(d, ClockSM)
		if err != nil || sm <= 0 {
			t.Errorf("device %d: SM clock %d, %v", i, sm, err)
		}
		temp, terr := l.DeviceTemperature(d)
		p, perr := l.DevicePower(d)
		procs, prerr := l.DeviceProcesses(d)
		t.Logf("device %d: %s, %d/%d MiB, %d%%, %d °C (%v), %d mW (%v), SM %d MHz, %d processes (%v)",
			i, name, m.Used>>20, m.Total>>20, u.GPU, temp, terr, p, perr, sm, len(procs), prerr)
	}
}

// The real-library test fails, not skips, under CI when the library is
// missing; elsewhere it skips with a message saying how to enable it.
func TestRealLibraryRequiredInCI(t *testing.T) {
	if os.Getenv("NUGO_NVML_CHILD") == "1" {
		realLibrary(t)
		return
	}
	run := func(ci string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRealLibraryRequiredInCI$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "NUGO_NVML_CHILD=1", "CI="+ci, "NUGO_REQUIRE_GPU=", LibraryEnv+"=/nonexistent/libnvidia-ml.so.1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("true"); err == nil || !strings.Contains(out, "CI requires the real NVML library") {
		t.Fatalf("with CI=true and no library the child should fail; err=%v\n%s", err, out)
	}
	if out, err := run(""); err != nil || !strings.Contains(out, "SKIP real-library test") || !strings.Contains(out, "install-libcuda.sh") {
		t.Fatalf("without CI the child should skip visibly; err=%v\n%s", err, out)
	}
}

func TestErrorText(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
		code Return
	}{
		{&Error{Func: "nvmlInit_v2", Code: ErrorDriverNotLoaded, Message: "Driver Not Loaded"}, "nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED (Driver Not Loaded)", ErrorDriverNotLoaded},
		{&Error{Func: "nvmlDeviceGetPowerUsage", Code: ErrorNotSupported}, "nvmlDeviceGetPowerUsage: NVML_ERROR_NOT_SUPPORTED", ErrorNotSupported},
		{&Error{Func: "f", Code: Return(4242)}, "f: NVML result 4242", Return(4242)},
		{errors.New("other"), "other", ErrorUnknown},
	} {
		if c.err.Error() != c.want || Code(c.err) != c.code {
			t.Errorf("%v: text %q code %v; want %q, %v", c.err, c.err.Error(), Code(c.err), c.want, c.code)
		}
	}
	if Code(nil) != Success {
		t.Error("Code(nil) is not Success")
	}
	wrapped := errors.Join(errors.New("context"), &Error{Func: "g", Code: ErrorGPUIsLost})
	if Code(wrapped) != ErrorGPUIsLost {
		t.Errorf("Code through a wrap = %v", Code(wrapped))
	}
}
