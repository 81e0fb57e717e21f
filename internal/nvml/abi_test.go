package nvml

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ebitengine/purego"

	"github.com/nugo-dev/nugo/internal/dynlib/dynlibtest"
)

// Fields of the mock's record (testdata/mocknvml.c), in its enum's order.
const (
	fInits = iota
	fShutdowns
	fVersionLen
	fIndex
	fNameLen
	fUUIDLen
	fSensor
	fClock
	fProcCalls
	fProcCountIn
)

// inCI reports whether the tests run under CI, where nothing may skip.
func inCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// mockLibrary builds testdata/mocknvml.c into a shared library with the
// system C compiler and opens it as NVML. Without a compiler the test fails
// under CI and is skipped, visibly, elsewhere.
func mockLibrary(t *testing.T) (*Library, func(field int) uint64) {
	t.Helper()
	so := dynlibtest.BuildMock(t, "testdata/mocknvml.c", "libmocknvml.so", inCI())
	l, err := Open(so)
	if err != nil {
		t.Fatal(err)
	}
	getAddr, err := purego.Dlsym(l.handle, "mock_get")
	if err != nil {
		t.Fatal(err)
	}
	return l, func(field int) uint64 {
		r, _, _ := purego.SyscallN(getAddr, uintptr(field))
		return uint64(r)
	}
}

// TestLibraryABI calls every entry point of a C library with NVML's
// signatures and checks what the C side received and what came back:
// argument order and widths, buffer lengths, the layouts of
// nvmlUtilization_t, nvmlMemory_t and nvmlProcessInfo_t, the
// insufficient-size protocol of the process list, and error descriptions.
func TestLibraryABI(t *testing.T) {
	l, get := mockLibrary(t)
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("Init", l.Init())
	if get(fInits) != 1 {
		t.Errorf("nvmlInit_v2 called %d times", get(fInits))
	}
	v, err := l.DriverVersion()
	must("DriverVersion", err)
	if v != "999.88.77" || get(fVersionLen) != driverVersionSize {
		t.Errorf("DriverVersion = %q (buffer %d)", v, get(fVersionLen))
	}
	n, err := l.DeviceCount()
	must("DeviceCount", err)
	if n != 2 {
		t.Errorf("DeviceCount = %d", n)
	}
	d1, err := l.DeviceByIndex(1)
	must("DeviceByIndex", err)
	if get(fIndex) != 1 || d1 == 0 {
		t.Errorf("DeviceByIndex(1) = %#x, callee saw index %d", d1, get(fIndex))
	}
	d0, err := l.DeviceByIndex(0)
	must("DeviceByIndex", err)
	if d0 == d1 {
		t.Errorf("two devices, one handle %#x", d0)
	}
	// The library's own refusal comes back as an *Error with its text.
	_, err = l.DeviceByIndex(2)
	var e *Error
	if !errors.As(err, &e) || e.Code != ErrorInvalidArgument || e.Func != "nvmlDeviceGetHandleByIndex_v2" || e.Message != "mock: Invalid Argument" {
		t.Errorf("DeviceByIndex(2) = %v", err)
	}
	if _, err := l.DeviceByIndex(-1); Code(err) != ErrorInvalidArgument || get(fIndex) != 2 {
		t.Errorf("DeviceByIndex(-1) = %v; it must be refused before the call (callee last saw %d)", err, get(fIndex))
	}

	name, err := l.DeviceName(d1)
	must("DeviceName", err)
	if name != "Mock GPU 1" || get(fNameLen) != nameSize {
		t.Errorf("DeviceName = %q (buffer %d)", name, get(fNameLen))
	}
	uuid, err := l.DeviceUUID(d0)
	must("DeviceUUID", err)
	if uuid != "GPU-00000000-1111-2222-3333-444444444440" || get(fUUIDLen) != uuidSize {
		t.Errorf("DeviceUUID = %q (buffer %d)", uuid, get(fUUIDLen))
	}
	u, err := l.DeviceUtilization(d1)
	must("DeviceUtilization", err)
	if u != (Utilization{GPU: 41, Memory: 8}) {
		t.Errorf("DeviceUtilization = %+v", u)
	}
	m, err := l.DeviceMemory(d1)
	must("DeviceMemory", err)
	if want := (Memory{Total: 141<<30 + 1, Used: 3<<32 + 5, Free: 141<<30 + 1 - (3<<32 + 5)}); m != want {
		t.Errorf("DeviceMemory = %+v, want %+v", m, want)
	}
	temp, err := l.DeviceTemperature(d1)
	must("DeviceTemperature", err)
	if temp != 51 || get(fSensor) != 0 {
		t.Errorf("DeviceTemperature = %d (sensor %d)", temp, get(fSensor))
	}
	p, err := l.DevicePower(d0)
	must("DevicePower", err)
	if p != 123456 {
		t.Errorf("DevicePower = %d", p)
	}
	if _, err := l.DevicePower(d1); Code(err) != ErrorNotSupported || err.Error() != "nvmlDeviceGetPowerUsage: NVML_ERROR_NOT_SUPPORTED (mock: Not Supported)" {
		t.Errorf("DevicePower(device 1) = %v", err)
	}
	for _, c := range []Clock{ClockGraphics, ClockSM, ClockMem, ClockVideo} {
		mhz, err := l.DeviceClock(d1, c)
		must("DeviceClock", err)
		if want := 1000*int(c) + 15; mhz != want || get(fClock) != uint64(c) {
			t.Errorf("DeviceClock(%d) = %d, want %d (callee saw type %d)", c, mhz, want, get(fClock))
		}
	}
	if _, err := l.DeviceClock(d1, Clock(-1)); Code(err) != ErrorInvalidArgument || get(fClock) != ^uint64(0) {
		t.Errorf("DeviceClock(-1) = %v (callee saw %#x)", err, get(fClock))
	}

	procs, err := l.DeviceProcesses(d0)
	must("DeviceProcesses", err)
	want := []Process{
		{PID: 4000, UsedMemory: 1<<33 + 0, GPUInstance: 0xFFFFFFFF, ComputeInstance: 10},
		{PID: 4001, UsedMemory: 1<<33 + 1, GPUInstance: 0xFFFFFFFF, ComputeInstance: 11},
		{PID: 4002, UsedMemory: NotAvailable, GPUInstance: 0xFFFFFFFF, ComputeInstance: 12},
	}
	if !reflect.DeepEqual(procs, want) {
		t.Errorf("DeviceProcesses = %+v, want %+v", procs, want)
	}
	if get(fProcCalls) != 2 || get(fProcCountIn) != 7 {
		t.Errorf("process list: %d calls, the last with room for %d; want 2 calls, room for 3+4", get(fProcCalls), get(fProcCountIn))
	}
	procs, err = l.DeviceProcesses(d1)
	if err != nil || len(procs) != 0 {
		t.Errorf("DeviceProcesses(idle device) = %v, %v", procs, err)
	}

	// A handle the library never gave is refused by the library.
	if _, err := l.DeviceName(Device(8)); Code(err) != ErrorInvalidArgument {
		t.Errorf("DeviceName(bad handle) = %v", err)
	}
	must("Shutdown", l.Shutdown())
	if get(fShutdowns) != 1 {
		t.Errorf("nvmlShutdown called %d times", get(fShutdowns))
	}
}

// A library without an entry point fails that call with ErrSymbol, naming
// the symbol and the library.
func TestLibraryMissingSymbol(t *testing.T) {
	l, _ := mockLibrary(t)
	saved := procNames[pDeviceGetComputeRunningProcesses]
	procNames[pDeviceGetComputeRunningProcesses] = "nvmlDeviceGetComputeRunningProcesses_v99"
	t.Cleanup(func() { procNames[pDeviceGetComputeRunningProcesses] = saved })
	_, err := l.DeviceProcesses(Device(1))
	if !errors.Is(err, ErrSymbol) || !strings.Contains(err.Error(), "nvmlDeviceGetComputeRunningProcesses_v99") || !strings.Contains(err.Error(), l.Path()) {
		t.Errorf("missing symbol: %v", err)
	}
}
