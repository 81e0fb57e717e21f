package cuda

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// VirtualDevicesEnv names the environment variable that gives the cpu and
// ptxsim backends several devices: with NUGO_VIRTUAL_DEVICES=4,
// DeviceCount reports 4 and DeviceAt(1..3) are devices of their own, each
// with its own memory, streams and default stream, whose arrays are
// refused by the others as a GPU's are. A virtual device runs its
// kernels on all the host's cores, as the backend does. It is for
// running multi-device programs for real (and under -race) on a machine
// without GPUs; unset, it is 1.
const VirtualDevicesEnv = "NUGO_VIRTUAL_DEVICES"

// VirtualFaultEnv names the environment variable that makes one virtual
// device fail, for testing how a multi-device program copes: "D:K" makes
// device D's K-th launch, and every later one, fail with an error that
// says so (launches are counted from the first launch that sees this
// value, after launches saw the variable unset or with another value).
const VirtualFaultEnv = "NUGO_VIRTUAL_FAULT"

// maxVirtualDevices bounds VirtualDevicesEnv: more would only be a typo.
const maxVirtualDevices = 256

// virtual is what a host backend knows of its place among the virtual
// devices. The backend the registry opened is device 0 and makes the
// others on first use (DeviceAt); they live as long as the process.
type virtual struct {
	id    int
	first *hostBackend        // device 0; nil on device 0 itself
	self  backend             // this device as a backend (ptxsim's embeds the hostBackend)
	spawn func() *hostBackend // makes another device of the same kind

	vmu   sync.Mutex
	vdevs map[int]backend // on device 0: devices 1.. made so far

	fmu        sync.Mutex
	faultFor   string // the VirtualFaultEnv value launches are counted for
	launches   int
	faultArmed atomic.Bool // launches are being counted (faultFor != "")
}

// virtualDevices parses VirtualDevicesEnv.
func virtualDevices() (int, error) {
	v := os.Getenv(VirtualDevicesEnv)
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > maxVirtualDevices {
		return 0, fmt.Errorf("%s=%q: want a number of devices from 1 to %d", VirtualDevicesEnv, v, maxVirtualDevices)
	}
	return n, nil
}

func (h *hostBackend) device0() *hostBackend {
	if h.first != nil {
		return h.first
	}
	return h
}

func (h *hostBackend) root() backend  { return h.device0().self }
func (h *hostBackend) ordinal() int   { return h.id }
func (h *hostBackend) bound() backend { return h.self }

func (h *hostBackend) numDevices() (int, error) { return virtualDevices() }

// onDevice returns virtual device i, making it on first use.
func (h *hostBackend) onDevice(i int) (backend, error) {
	n, err := virtualDevices()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= n {
		return nil, fmt.Errorf("device %d does not exist; the %s backend has %d (0..%d; %s sets how many)", i, h.kind(), n, n-1, VirtualDevicesEnv)
	}
	d0 := h.device0()
	if i == 0 {
		return d0.self, nil
	}
	d0.vmu.Lock()
	defer d0.vmu.Unlock()
	if b, ok := d0.vdevs[i]; ok {
		return b, nil
	}
	nd := d0.spawn()
	nd.id, nd.first = i, d0
	if d0.vdevs == nil {
		d0.vdevs = map[int]backend{}
	}
	d0.vdevs[i] = nd.self
	return nd.self, nil
}

// others are the virtual devices made besides device 0, for device 0's
// synchronize.
func (h *hostBackend) others() []backend {
	if h.first != nil {
		return nil
	}
	h.vmu.Lock()
	defer h.vmu.Unlock()
	out := make([]backend, 0, len(h.vdevs))
	for _, b := range h.vdevs {
		out = append(out, b)
	}
	return out
}

func (h *hostBackend) deviceName() string { return fmt.Sprintf("%s device %d", h.kind(), h.id) }

// injectedFault is the error VirtualFaultEnv asks this device's launch to
// fail with, if any.
func (h *hostBackend) injectedFault() error {
	v := os.Getenv(VirtualFaultEnv)
	if v == "" {
		if h.faultArmed.Load() {
			// Unset: the next value, even the same again, counts afresh.
			h.fmu.Lock()
			h.faultFor, h.launches = "", 0
			h.faultArmed.Store(false)
			h.fmu.Unlock()
		}
		return nil
	}
	h.fmu.Lock()
	defer h.fmu.Unlock()
	if h.faultFor != v {
		h.faultFor, h.launches = v, 0
		h.faultArmed.Store(true)
	}
	d, k, ok := strings.Cut(v, ":")
	dev, err1 := strconv.Atoi(d)
	at, err2 := strconv.Atoi(k)
	if !ok || err1 != nil || err2 != nil || at < 1 {
		return fmt.Errorf("%s=%q: want DEVICE:LAUNCH, such as 2:3", VirtualFaultEnv, v)
	}
	if dev != h.id {
		return nil
	}
	h.launches++
	if h.launches >= at {
		return fmt.Errorf("%s: injected fault at launch %d (%s=%s)", h.deviceName(), h.launches, VirtualFaultEnv, v)
	}
	return nil
}
