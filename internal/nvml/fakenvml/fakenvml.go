// Package fakenvml is an in-memory NVML for tests: a nvml.API over a list of
// devices whose readings a test sets, which refuses what the real library
// refuses (calls before Init, handles it did not hand out, unbalanced
// Shutdown) and fails any entry point with a code a test chooses.
package fakenvml

import (
	"sync"

	"github.com/nugo-dev/nugo/internal/nvml"
)

// Device is one fake GPU's readings.
type Device struct {
	Name        string
	UUID        string
	Utilization nvml.Utilization
	Memory      nvml.Memory
	Temperature int // °C
	Power       int // mW
	Clocks      map[nvml.Clock]int
	Processes   []nvml.Process
	// Fail makes entry points of this device fail: entry point name (as in
	// nvml.Error.Func, e.g. "nvmlDeviceGetPowerUsage") to code.
	Fail map[string]nvml.Return
}

// NVML is the fake library. Its fields may be changed between calls (a test
// that changes a reading between refreshes); Calls counts every call.
type NVML struct {
	mu      sync.Mutex
	Devices []Device
	// Fail makes entry points fail everywhere: name to code (e.g.
	// "nvmlInit_v2" → nvml.ErrorDriverNotLoaded).
	Fail    map[string]nvml.Return
	Driver  string // DriverVersion's answer
	inits   int
	Calls   map[string]int
	handles map[nvml.Device]int
}

// New returns a fake NVML with the given devices and driver "535.0".
func New(devices ...Device) *NVML {
	return &NVML{Devices: devices, Driver: "535.0"}
}

// Inits is the number of Init calls not yet balanced by Shutdown.
func (f *NVML) Inits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.inits
}

// Compile-time check: the fake is an API.
var _ nvml.API = (*NVML)(nil)

// enter records a call and returns its injected or state error.
func (f *NVML) enter(name string, needInit bool) error {
	if f.Calls == nil {
		f.Calls = map[string]int{}
	}
	f.Calls[name]++
	if code, ok := f.Fail[name]; ok && code != nvml.Success {
		return &nvml.Error{Func: name, Code: code, Message: "injected by fakenvml"}
	}
	if needInit && f.inits == 0 {
		return &nvml.Error{Func: name, Code: nvml.ErrorUninitialized, Message: "Uninitialized"}
	}
	return nil
}

// device resolves a handle for an entry point of a device.
func (f *NVML) device(name string, d nvml.Device) (*Device, error) {
	if err := f.enter(name, true); err != nil {
		return nil, err
	}
	i, ok := f.handles[d]
	if !ok || i >= len(f.Devices) {
		return nil, &nvml.Error{Func: name, Code: nvml.ErrorInvalidArgument, Message: "Invalid Argument"}
	}
	dev := &f.Devices[i]
	if code, ok := dev.Fail[name]; ok && code != nvml.Success {
		return nil, &nvml.Error{Func: name, Code: code, Message: "injected by fakenvml"}
	}
	return dev, nil
}

// Init implements nvml.API.
func (f *NVML) Init() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.enter("nvmlInit_v2", false); err != nil {
		return err
	}
	f.inits++
	return nil
}

// Shutdown implements nvml.API.
func (f *NVML) Shutdown() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.enter("nvmlShutdown", true); err != nil {
		return err
	}
	f.inits--
	return nil
}

// DriverVersion implements nvml.API.
func (f *NVML) DriverVersion() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.enter("nvmlSystemGetDriverVersion", true); err != nil {
		return "", err
	}
	return f.Driver, nil
}

// DeviceCount implements nvml.API.
func (f *NVML) DeviceCount() (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.enter("nvmlDeviceGetCount_v2", true); err != nil {
		return 0, err
	}
	return len(f.Devices), nil
}

// DeviceByIndex implements nvml.API; handles are distinct non-zero values
// that look like the pointers the real library returns.
func (f *NVML) DeviceByIndex(i int) (nvml.Device, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const name = "nvmlDeviceGetHandleByIndex_v2"
	if err := f.enter(name, true); err != nil {
		return 0, err
	}
	if i < 0 || i >= len(f.Devices) {
		return 0, &nvml.Error{Func: name, Code: nvml.ErrorInvalidArgument, Message: "Invalid Argument"}
	}
	h := nvml.Device(0x7f0000001000 + 0x100*i)
	if f.handles == nil {
		f.handles = map[nvml.Device]int{}
	}
	f.handles[h] = i
	return h, nil
}

// DeviceName implements nvml.API.
func (f *NVML) DeviceName(d nvml.Device) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.device("nvmlDeviceGetName", d)
	if err != nil {
		return "", err
	}
	return dev.Name, nil
}

// DeviceUUID implements nvml.API.
func (f *NVML) DeviceUUID(d nvml.Device) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.device("nvmlDeviceGetUUID", d)
	if err != nil {
		return "", err
	}
	return dev.UUID, nil
}

// DeviceUtilization implements nvml.API.
func (f *NVML) DeviceUtilization(d nvml.Device) (nvml.Utilization, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.device("nvmlDeviceGetUtilizationRates", d)
	if err != nil {
		return nvml.Utilization{}, err
	}
	return dev.Utilization, nil
}

// DeviceMemory implements nvml.API.
func (f *NVML) DeviceMemory(d nvml.Device) (nvml.Memory, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.device("nvmlDeviceGetMemoryInfo", d)
	if err != nil {
		return nvml.Memory{}, err
	}
	return dev.Memory, nil
}

// DeviceTemperature implements nvml.API.
func (f *NVML) DeviceTemperature(d nvml.Device) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.device("nvmlDeviceGetTemperature", d)
	if err != nil {
		return 0, err
	}
	return dev.Temperature, nil
}

// DevicePower implements nvml.API.
func (f *NVML) DevicePower(d nvml.Device) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.device("nvmlDeviceGetPowerUsage", d)
	if err != nil {
		return 0, err
	}
	return dev.Power, nil
}

// DeviceClock implements nvml.API; a clock the device has no reading for is
// NVML_ERROR_NOT_SUPPORTED, as an unknown clock type is on the real library.
func (f *NVML) DeviceClock(d nvml.Device, c nvml.Clock) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const name = "nvmlDeviceGetClockInfo"
	dev, err := f.device(name, d)
	if err != nil {
		return 0, err
	}
	mhz, ok := dev.Clocks[c]
	if !ok {
		return 0, &nvml.Error{Func: name, Code: nvml.ErrorNotSupported, Message: "Not Supported"}
	}
	return mhz, nil
}

// DeviceProcesses implements nvml.API.
func (f *NVML) DeviceProcesses(d nvml.Device) ([]nvml.Process, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dev, err := f.device("nvmlDeviceGetComputeRunningProcesses_v3", d)
	if err != nil {
		return nil, err
	}
	return append([]nvml.Process(nil), dev.Processes...), nil
}
