package nvml

// API is the part of NVML nugo uses. Init must succeed before any other
// call, and every successful Init needs its Shutdown (NVML counts them).
type API interface {
	// Init initialises NVML (nvmlInit_v2).
	Init() error
	// Shutdown releases what Init set up (nvmlShutdown).
	Shutdown() error
	// DriverVersion is the installed driver's version, e.g. "535.309.01"
	// (nvmlSystemGetDriverVersion).
	DriverVersion() (string, error)
	// DeviceCount is the number of GPUs NVML sees (nvmlDeviceGetCount_v2).
	DeviceCount() (int, error)
	// DeviceByIndex returns the handle of GPU i, 0 <= i < DeviceCount
	// (nvmlDeviceGetHandleByIndex_v2). NVML's order need not be CUDA's.
	DeviceByIndex(i int) (Device, error)
	// DeviceName is the product name (nvmlDeviceGetName).
	DeviceName(d Device) (string, error)
	// DeviceUUID is the GPU's globally unique id, "GPU-..."
	// (nvmlDeviceGetUUID).
	DeviceUUID(d Device) (string, error)
	// DeviceUtilization is the percentage of the last sample period in which
	// a kernel ran and in which device memory was accessed
	// (nvmlDeviceGetUtilizationRates).
	DeviceUtilization(d Device) (Utilization, error)
	// DeviceMemory is the device memory in bytes (nvmlDeviceGetMemoryInfo).
	DeviceMemory(d Device) (Memory, error)
	// DeviceTemperature is the GPU die's temperature in degrees Celsius
	// (nvmlDeviceGetTemperature, NVML_TEMPERATURE_GPU).
	DeviceTemperature(d Device) (int, error)
	// DevicePower is the board's power draw in milliwatts
	// (nvmlDeviceGetPowerUsage).
	DevicePower(d Device) (int, error)
	// DeviceClock is a clock's current frequency in MHz
	// (nvmlDeviceGetClockInfo).
	DeviceClock(d Device, c Clock) (int, error)
	// DeviceProcesses lists the processes with a compute context on the
	// device (nvmlDeviceGetComputeRunningProcesses_v3).
	DeviceProcesses(d Device) ([]Process, error)
}

// Device is an NVML device handle (nvmlDevice_t), valid between Init and
// Shutdown.
type Device uintptr

// Utilization is nvmlUtilization_t: percentages of the last sample period
// (between 1/6 s and 1 s, depending on the product).
type Utilization struct {
	GPU    uint32 // one or more kernels were running
	Memory uint32 // device memory was being read or written
}

// Memory is nvmlMemory_t, in bytes.
type Memory struct {
	Total uint64
	Free  uint64
	Used  uint64
}

// Clock is nvmlClockType_t.
type Clock int32

// The clocks of nvmlClockType_t.
const (
	ClockGraphics Clock = 0
	ClockSM       Clock = 1
	ClockMem      Clock = 2
	ClockVideo    Clock = 3
)

// NotAvailable is NVML_VALUE_NOT_AVAILABLE, what Process.UsedMemory holds
// where the driver cannot tell (under Windows' WDDM, or without permission).
const NotAvailable = ^uint64(0)

// Process is one entry of nvmlProcessInfo_t.
type Process struct {
	PID        uint32
	UsedMemory uint64 // bytes of device memory, or NotAvailable
	// GPUInstance and ComputeInstance identify the MIG instance the process
	// runs in; 0xFFFFFFFF without MIG.
	GPUInstance     uint32
	ComputeInstance uint32
}
