package fakenvml

import (
	"testing"

	"github.com/nugo-dev/nugo/internal/nvml"
)

// The fake refuses what the real library refuses.
func TestFakeRefusals(t *testing.T) {
	f := New(Device{Name: "A", Clocks: map[nvml.Clock]int{nvml.ClockSM: 1500}, Fail: map[string]nvml.Return{"nvmlDeviceGetPowerUsage": nvml.ErrorNotSupported}})
	if _, err := f.DeviceCount(); nvml.Code(err) != nvml.ErrorUninitialized {
		t.Errorf("DeviceCount before Init = %v", err)
	}
	if err := f.Shutdown(); nvml.Code(err) != nvml.ErrorUninitialized {
		t.Errorf("Shutdown before Init = %v", err)
	}
	if err := f.Init(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.DeviceByIndex(1); nvml.Code(err) != nvml.ErrorInvalidArgument {
		t.Errorf("DeviceByIndex(1) of 1 device = %v", err)
	}
	if _, err := f.DeviceName(nvml.Device(12345)); nvml.Code(err) != nvml.ErrorInvalidArgument {
		t.Errorf("DeviceName(unknown handle) = %v", err)
	}
	d, err := f.DeviceByIndex(0)
	if err != nil {
		t.Fatal(err)
	}
	if mhz, err := f.DeviceClock(d, nvml.ClockSM); err != nil || mhz != 1500 {
		t.Errorf("SM clock = %d, %v", mhz, err)
	}
	if _, err := f.DeviceClock(d, nvml.ClockMem); nvml.Code(err) != nvml.ErrorNotSupported {
		t.Errorf("memory clock without a reading = %v", err)
	}
	if _, err := f.DevicePower(d); nvml.Code(err) != nvml.ErrorNotSupported {
		t.Errorf("injected power failure = %v", err)
	}
	f.Fail = map[string]nvml.Return{"nvmlDeviceGetName": nvml.ErrorGPUIsLost}
	if _, err := f.DeviceName(d); nvml.Code(err) != nvml.ErrorGPUIsLost {
		t.Errorf("injected global failure = %v", err)
	}
	if err := f.Shutdown(); err != nil || f.Inits() != 0 {
		t.Errorf("Shutdown = %v, %d inits left", err, f.Inits())
	}
	if f.Calls["nvmlDeviceGetName"] != 2 || f.Calls["nvmlInit_v2"] != 1 {
		t.Errorf("calls %v", f.Calls)
	}
}
