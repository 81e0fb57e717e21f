package cuda

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
)

// Several devices at once.
//
// # RATIONALE: a handle per device, not a current device per goroutine
//
// SelectDevice changes the device of the whole process, so goroutines that
// drive different GPUs cannot use it. A DeviceHandle names one device for
// good: the arrays, streams and events made from it belong to that device,
// and launches through it (or on its streams) run there, whatever
// SelectDevice says and whichever goroutine asks. Each is a backend of its
// own that shares the backend's state (the GPU's driver and contexts, the
// kernels compiled per compute capability and loaded per device), so the
// existing checks of "same backend" became checks of "same device"
// (sameDevice) without a second mechanism. The default device stays what
// SelectDevice (or nothing) made it; DeviceAt(0) on a fresh process is
// that device.
//
// A device array belongs to one device. Using it on another (a launch, a
// stream, CopyFrom) is an error that names both devices; CopyPeer copies
// between devices explicitly: between GPUs with cuMemcpyPeerAsync, peer
// access enabled (cuCtxEnablePeerAccess) where the devices allow it, and
// through host memory where the driver refuses the peer copy; between the
// host backends' virtual devices it is a plain memory copy.

// DeviceHandle is one device of the current backend, to be driven
// independently of the others: from a goroutine of its own, with arrays
// (NewDeviceArrayOn, ToDeviceOn), streams, events and launches that all
// run on it. It is safe for concurrent use. Get one from DeviceAt or
// AllDevices; the backend's devices are its GPUs, or, on the cpu and
// ptxsim backends, the virtual devices VirtualDevicesEnv asks for.
type DeviceHandle struct {
	be backend // this device's backend
}

// DeviceCount is how many devices the current backend has: its GPUs, or
// its virtual devices (VirtualDevicesEnv, 1 when unset) on the cpu and
// ptxsim backends.
func DeviceCount() (int, error) {
	be, err := current()
	if err != nil {
		return 0, fmt.Errorf("DeviceCount: %w", err)
	}
	n, err := be.numDevices()
	if err != nil {
		return 0, fmt.Errorf("DeviceCount: %w", err)
	}
	return n, nil
}

// DeviceAt returns device i of the current backend.
func DeviceAt(i int) (*DeviceHandle, error) {
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("DeviceAt(%d): %w", i, err)
	}
	b, err := be.onDevice(i)
	if err != nil {
		return nil, fmt.Errorf("DeviceAt(%d): %w", i, err)
	}
	return &DeviceHandle{be: b}, nil
}

// CurrentDevice returns the device that work not given a device goes to
// now: the one SelectDevice chose, device 0 by default. The handle keeps
// naming that device after a later SelectDevice.
func CurrentDevice() (*DeviceHandle, error) {
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("CurrentDevice: %w", err)
	}
	return &DeviceHandle{be: be.bound()}, nil
}

// AllDevices returns every device of the current backend, by ordinal.
func AllDevices() ([]*DeviceHandle, error) {
	n, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	out := make([]*DeviceHandle, n)
	for i := range out {
		if out[i], err = DeviceAt(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// errNilDevice is the error of a DeviceHandle not made by DeviceAt.
var errNilDevice = errors.New("device handle was not made by DeviceAt or AllDevices")

func (h *DeviceHandle) backend() (backend, error) {
	if h == nil || h.be == nil {
		return nil, errNilDevice
	}
	return h.be, nil
}

// ID is the device's ordinal (0 for an invalid handle).
func (h *DeviceHandle) ID() int {
	if h == nil || h.be == nil {
		return 0
	}
	return h.be.ordinal()
}

// Backend is the backend the device belongs to.
func (h *DeviceHandle) Backend() Backend {
	if h == nil || h.be == nil {
		return ""
	}
	return h.be.kind()
}

// String names the device, as errors do: "gpu device 1", "cpu device 2".
func (h *DeviceHandle) String() string {
	if h == nil || h.be == nil {
		return "invalid device"
	}
	return h.be.deviceName()
}

// Info describes the device. A virtual device of the cpu and ptxsim
// backends is described by the backend's limits.
func (h *DeviceHandle) Info() (Device, error) {
	be, err := h.backend()
	if err != nil {
		return Device{}, err
	}
	if be.kind() == GPU {
		all, err := be.devices()
		if err != nil {
			return Device{}, err
		}
		return all[be.ordinal()], nil
	}
	l := be.limits()
	return Device{ID: be.ordinal(), Name: be.deviceName() + " (virtual)", MaxThreadsPerBlock: l.MaxThreadsPerBlock,
		SharedMemPerBlock: l.MaxSharedMemory, WarpSize: 32, MaxBlock: l.MaxBlock, MaxGrid: l.MaxGrid, Cooperative: true}, nil
}

// NewStream makes a stream on the device.
func (h *DeviceHandle) NewStream() (*Stream, error) {
	be, err := h.backend()
	if err != nil {
		return nil, fmt.Errorf("NewStream: %w", err)
	}
	return newStream(be)
}

// NewEvent makes an event on the device.
func (h *DeviceHandle) NewEvent() (*Event, error) {
	be, err := h.backend()
	if err != nil {
		return nil, fmt.Errorf("NewEvent: %w", err)
	}
	return newEvent(be)
}

// Synchronize waits for all work queued on the device, its streams
// included, and returns the first error of that work.
func (h *DeviceHandle) Synchronize() error {
	be, err := h.backend()
	if err != nil {
		return fmt.Errorf("Synchronize: %w", err)
	}
	return syncDevice(be)
}

// syncDevice waits for the work of be's device alone: device 0 of the host
// backends is the backend itself, whose synchronize covers every virtual
// device.
func syncDevice(be backend) error {
	if h, ok := be.(interface{ drainAll() error }); ok && be.kind() != GPU {
		return h.drainAll()
	}
	return be.synchronize()
}

// Compile compiles k for the device and, on a GPU, loads it there, so
// that the first launch does not pay for it. A kernel is compiled once
// per compute capability and loaded once per device, however many
// goroutines launch it.
func (h *DeviceHandle) Compile(k *Kernel) error {
	be, err := h.backend()
	if err != nil {
		return fmt.Errorf("compile: %w", err)
	}
	if err := k.usable(); err != nil {
		return fmt.Errorf("compile: %w", err)
	}
	if p, ok := be.(preparer); ok {
		return p.prepare(k)
	}
	return nil
}

// Launch runs k on the device's default stream, synchronously, as
// Kernel.Launch does on the current device.
func (h *DeviceHandle) Launch(k *Kernel, grid, block Dim3, args ...any) error {
	if _, err := h.backend(); err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	return k.LaunchWith(LaunchConfig{Grid: grid, Block: block, Device: h}, args...)
}

// NewDeviceArrayOn allocates a zeroed device array with the given shape
// on device h.
func NewDeviceArrayOn[T any](h *DeviceHandle, shape ...int) (*DeviceArray[T], error) {
	be, err := h.backend()
	if err != nil {
		return nil, fmt.Errorf("NewDeviceArrayOn: %w", err)
	}
	return newDeviceArray[T](be, shape...)
}

// ToDeviceOn copies host into a new 1-D device array on device h.
func ToDeviceOn[T any](h *DeviceHandle, host []T) (*DeviceArray[T], error) {
	be, err := h.backend()
	if err != nil {
		return nil, fmt.Errorf("ToDeviceOn: %w", err)
	}
	return toDeviceOn(be, host, nil, len(host))
}

// Device is the device the array lies on (nil for a nil or zero array).
func (d *DeviceArray[T]) Device() *DeviceHandle {
	if d == nil || d.be == nil {
		return nil
	}
	return &DeviceHandle{be: d.be.bound()}
}

// sameDevice reports whether a and b run their work on one device of one
// backend.
func sameDevice(a, b backend) bool {
	return a.root() == b.root() && a.ordinal() == b.ordinal()
}

// CopyPeer copies src into dst, which may lie on different devices of the
// same backend, element by element in row-major order; both must have the
// same length. It returns when the copy is done. Between GPUs it is a peer
// copy, direct where the devices allow peer access (see the RATIONALE
// above); on one device it is CopyFrom.
func CopyPeer[T any](dst, src *DeviceArray[T]) error {
	if dst == nil || src == nil {
		return fmt.Errorf("CopyPeer: %w", errNilArray)
	}
	if src.n != dst.n {
		return fmt.Errorf("CopyPeer: source has %d elements, destination %d", src.n, dst.n)
	}
	dm, err := dst.mem()
	if err != nil {
		return fmt.Errorf("CopyPeer: destination: %w", err)
	}
	sm, err := src.mem()
	if err != nil {
		return fmt.Errorf("CopyPeer: source: %w", err)
	}
	if src.be.root() != dst.be.root() {
		return fmt.Errorf("CopyPeer: the source belongs to the %s backend, the destination to %s", src.be.kind(), dst.be.kind())
	}
	if sameDevice(src.be, dst.be) {
		return dst.CopyFrom(src)
	}
	if !src.contiguous() || !dst.contiguous() {
		return fmt.Errorf("CopyPeer: a strided view cannot be copied between devices; copy it into a contiguous array first")
	}
	n := dst.Bytes()
	if n == 0 {
		return nil
	}
	if hs, ok := sm.(*hostMemory); ok {
		// Virtual devices share the host's memory: wait for the work queued
		// on both (their default streams' semantics), then copy.
		if err := syncDevice(src.be); err != nil {
			return fmt.Errorf("CopyPeer: %s: %w", src.be.deviceName(), err)
		}
		return dst.be.copyToDevice(nil, dm, dst.off, hs.bytes()[src.off:src.off+n])
	}
	g, ok := src.be.(*gpuBackend)
	if !ok {
		return fmt.Errorf("CopyPeer: the %s backend has no copies between devices", src.be.kind())
	}
	err = g.copyPeer(dm, dst.off, sm, src.off, n)
	var de *DriverError
	if err == nil || !errors.As(err, &de) || (de.Code != int(driver.ErrorPeerAccessUnsupported) && de.Code != int(driver.ErrorNotSupported)) {
		if err != nil {
			return fmt.Errorf("CopyPeer from %s to %s: %w", src.be.deviceName(), dst.be.deviceName(), err)
		}
		return nil
	}
	// The driver refuses the peer copy between these devices: through host
	// memory, the device-to-host copy after the source's work, the
	// host-to-device copy before the destination's.
	words := make([]uint64, (n+7)/8)
	staging := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
	if err := src.be.copyToHost(nil, staging, sm, src.off); err != nil {
		return fmt.Errorf("CopyPeer: from %s: %w", src.be.deviceName(), err)
	}
	if err := dst.be.copyToDevice(nil, dm, dst.off, staging); err != nil {
		return fmt.Errorf("CopyPeer: to %s: %w", dst.be.deviceName(), err)
	}
	return nil
}
