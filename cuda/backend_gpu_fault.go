package cuda

import (
	"errors"
	"fmt"

	"github.com/nugo-dev/nugo/internal/driver"
)

// # RATIONALE: a kernel fault ends the device for the process
//
// A fault inside a kernel — an access outside device memory, a misaligned
// access, a trap (driver.Result.Sticky) — leaves the CUDA context it ran
// in unusable: every later driver call in it fails with the same result,
// and only a new process recovers (resetting the primary context would
// invalidate the device's arrays, streams and loaded kernels behind the
// program's back). The driver reports the fault at the next call that
// waits for the kernel, often far from the launch and without naming it.
//
// So the backend keeps the first such error of each device (gpuDevice.do).
// The error that reports it names the kernel whose completion the failing
// call waited for (a launch on the nil stream, or the last launch on the
// stream being synchronized) or, where none was waited for, the last kernel
// launched on the device; it says that the device cannot be used again in
// this process, and points to debug mode, which reports an out-of-range
// index as a KernelError with its Go source line before it can fault. Every
// later call on the device fails at once, without calling the driver, with
// an error that names that fault. Both match ErrContextLost and carry the
// fault's *DriverError.

// deviceFault is a device's first kernel fault, as the error that reports
// it.
type deviceFault struct {
	dev    int
	kernel string // the kernel blamed; "" when none was launched
	waited bool   // kernel's completion reported the fault; else it is the last launched
	debug  bool   // kernel has debug checks: the fault is not an index they check
	err    error  // the failing call's error, as driverError makes it
	de     *DriverError
}

// culprit says which kernel faulted, as well as the backend knows.
func (f *deviceFault) culprit() string {
	switch {
	case f.kernel != "" && f.waited:
		return "kernel " + f.kernel + " faulted"
	case f.kernel != "":
		return fmt.Sprintf("a kernel faulted (the last one launched on device %d was %s)", f.dev, f.kernel)
	}
	return "a kernel faulted"
}

// hint is what to do about the fault.
func (f *deviceFault) hint() string {
	if f.debug {
		return ""
	}
	switch driver.Result(f.de.Code) {
	case driver.ErrorLaunchTimeout:
		return "the kernel ran longer than the driver allows (on a GPU that drives a display, a watchdog stops long kernels)"
	case driver.ErrorAssert:
		return ""
	}
	return "run with NUGO_DEBUG=1 (or compile the kernel with cuda.Debug) to have an out-of-range index reported as a KernelError with its Go source line"
}

func (f *deviceFault) Error() string {
	s := fmt.Sprintf("%v: %s, and the CUDA context of device %d cannot be used again in this process: every later GPU call on the device fails",
		f.err, f.culprit(), f.dev)
	if h := f.hint(); h != "" {
		s += "; " + h
	}
	return s
}

func (f *deviceFault) Unwrap() []error { return []error{ErrContextLost, f.err} }

// deviceLost is the error of every call on a device after its fault.
type deviceLost struct{ f *deviceFault }

func (e *deviceLost) Error() string {
	return fmt.Sprintf("the CUDA context of device %d was lost earlier in this process, when %s (%v); the device cannot be used again until the process restarts",
		e.f.dev, e.f.culprit(), e.f.de)
}

func (e *deviceLost) Unwrap() []error { return []error{ErrContextLost, e.f.de} }

// awaited marks a driver error met while waiting for kernel's launch to
// finish, so that a kernel fault it reports is blamed on kernel.
type awaited struct {
	kernel *gpuKernel
	err    error
}

func (e *awaited) Error() string { return e.err.Error() }
func (e *awaited) Unwrap() error { return e.err }

// awaiting wraps err, met while waiting for kernel, as an awaited.
func awaiting(kernel *gpuKernel, err error) error {
	if err == nil || kernel == nil {
		return err
	}
	return &awaited{kernel: kernel, err: err}
}

// do runs f with d's context current (DeviceContext.Do) and returns its
// error as driverError makes it. After a kernel fault on d it runs nothing
// and returns a deviceLost; a sticky result f meets becomes d's fault.
func (d *gpuDevice) do(f func(api driver.API) error) error {
	if ft := d.fault.Load(); ft != nil {
		return &deviceLost{ft}
	}
	raw := d.ctx.Do(f)
	if raw == nil {
		return nil
	}
	if !driver.Code(raw).Sticky() {
		return driverError(raw)
	}
	ft := &deviceFault{dev: d.props.Ordinal, err: driverError(raw)}
	if !errors.As(ft.err, &ft.de) {
		return ft.err // a sticky code is always a driver error: not reached
	}
	if w := (*awaited)(nil); errors.As(raw, &w) {
		ft.kernel, ft.waited, ft.debug = w.kernel.name, true, w.kernel.rec != 0
	} else if k := d.lastKernel.Load(); k != nil {
		ft.kernel, ft.debug = k.name, k.rec != 0
	}
	if !d.fault.CompareAndSwap(nil, ft) {
		return &deviceLost{d.fault.Load()} // another call reported it first
	}
	return ft
}
