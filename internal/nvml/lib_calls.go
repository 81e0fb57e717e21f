package nvml

import (
	"fmt"
	"math"
	"unsafe"
)

// Compile-time check: the real binding is an API.
var _ API = (*Library)(nil)

// Buffer sizes of nvml.h: NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE and the _V2
// name and UUID sizes, large enough for every product.
const (
	driverVersionSize = 80
	nameSize          = 96
	uuidSize          = 96
)

// Init implements API.
func (l *Library) Init() error { return l.call(pInit) }

// Shutdown implements API.
func (l *Library) Shutdown() error { return l.call(pShutdown) }

// DriverVersion implements API.
func (l *Library) DriverVersion() (string, error) {
	buf := make([]byte, driverVersionSize)
	if err := l.call(pSystemGetDriverVersion, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf))); err != nil {
		return "", err
	}
	return bufString(buf), nil
}

// DeviceCount implements API.
func (l *Library) DeviceCount() (int, error) {
	var n uint32
	if err := l.call(pDeviceGetCount, uintptr(unsafe.Pointer(&n))); err != nil {
		return 0, err
	}
	return int(n), nil
}

// DeviceByIndex implements API. An index that does not fit NVML's unsigned
// int is refused before the call.
func (l *Library) DeviceByIndex(i int) (Device, error) {
	if i < 0 || i > math.MaxUint32 {
		return 0, &Error{Func: procNames[pDeviceGetHandleByIndex], Code: ErrorInvalidArgument, Message: fmt.Sprintf("device index %d out of range", i)}
	}
	var d uintptr
	if err := l.call(pDeviceGetHandleByIndex, uintptr(uint32(i)), uintptr(unsafe.Pointer(&d))); err != nil {
		return 0, err
	}
	return Device(d), nil
}

// DeviceName implements API.
func (l *Library) DeviceName(d Device) (string, error) {
	buf := make([]byte, nameSize)
	if err := l.call(pDeviceGetName, uintptr(d), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf))); err != nil {
		return "", err
	}
	return bufString(buf), nil
}

// DeviceUUID implements API.
func (l *Library) DeviceUUID(d Device) (string, error) {
	buf := make([]byte, uuidSize)
	if err := l.call(pDeviceGetUUID, uintptr(d), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf))); err != nil {
		return "", err
	}
	return bufString(buf), nil
}

// DeviceUtilization implements API.
func (l *Library) DeviceUtilization(d Device) (Utilization, error) {
	var u Utilization // the layout of nvmlUtilization_t: two unsigned ints
	err := l.call(pDeviceGetUtilizationRates, uintptr(d), uintptr(unsafe.Pointer(&u)))
	return u, err
}

// DeviceMemory implements API.
func (l *Library) DeviceMemory(d Device) (Memory, error) {
	var m Memory // the layout of nvmlMemory_t: three unsigned long longs
	err := l.call(pDeviceGetMemoryInfo, uintptr(d), uintptr(unsafe.Pointer(&m)))
	return m, err
}

// temperatureGPU is NVML_TEMPERATURE_GPU, the GPU die's sensor.
const temperatureGPU = 0

// DeviceTemperature implements API.
func (l *Library) DeviceTemperature(d Device) (int, error) {
	var t uint32
	if err := l.call(pDeviceGetTemperature, uintptr(d), temperatureGPU, uintptr(unsafe.Pointer(&t))); err != nil {
		return 0, err
	}
	return int(t), nil
}

// DevicePower implements API.
func (l *Library) DevicePower(d Device) (int, error) {
	var mw uint32
	if err := l.call(pDeviceGetPowerUsage, uintptr(d), uintptr(unsafe.Pointer(&mw))); err != nil {
		return 0, err
	}
	return int(mw), nil
}

// DeviceClock implements API.
func (l *Library) DeviceClock(d Device, c Clock) (int, error) {
	var mhz uint32
	if err := l.call(pDeviceGetClockInfo, uintptr(d), uintptr(uint32(c)), uintptr(unsafe.Pointer(&mhz))); err != nil {
		return 0, err
	}
	return int(mhz), nil
}

// cProcess is nvmlProcessInfo_t as the _v3 call fills it: an unsigned int,
// padding, an unsigned long long and two unsigned ints (24 bytes).
type cProcess struct {
	pid             uint32
	_               uint32
	usedGPUMemory   uint64
	gpuInstance     uint32
	computeInstance uint32
}

// DeviceProcesses implements API. NVML takes a caller's array and answers
// NVML_ERROR_INSUFFICIENT_SIZE, with the count it needs, when the array is
// too small; processes come and go between calls, so it asks a few times.
func (l *Library) DeviceProcesses(d Device) ([]Process, error) {
	var count uint32
	err := l.call(pDeviceGetComputeRunningProcesses, uintptr(d), uintptr(unsafe.Pointer(&count)), 0)
	for attempt := 0; Code(err) == ErrorInsufficientSize && attempt < 4; attempt++ {
		buf := make([]cProcess, count+4)
		count = uint32(len(buf))
		err = l.call(pDeviceGetComputeRunningProcesses, uintptr(d), uintptr(unsafe.Pointer(&count)), uintptr(unsafe.Pointer(&buf[0])))
		if err == nil {
			out := make([]Process, min(int(count), len(buf)))
			for i := range out {
				c := buf[i]
				out[i] = Process{PID: c.pid, UsedMemory: c.usedGPUMemory, GPUInstance: c.gpuInstance, ComputeInstance: c.computeInstance}
			}
			return out, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return nil, nil // count 0 with no array: no process
}
