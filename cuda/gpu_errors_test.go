package cuda_test

// The GPU backend's errors for launches a GPU refuses for the kernel's
// resources, and for kernel faults, which end a device for the process: on
// the fake driver with injected faults and set kernel attributes, and with
// kernels run in the PTX interpreter.

import (
	"errors"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// wantContains checks that err's text has every one of wants and none of
// nots.
func wantContains(t *testing.T, err error, wants []string, nots ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one saying %q", wants)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q\ndoes not say %q", err, w)
		}
	}
	for _, n := range nots {
		if strings.Contains(err.Error(), n) {
			t.Errorf("error %q\nshould not say %q", err, n)
		}
	}
}

// A block larger than the kernel's registers allow is refused before
// anything reaches the driver, with the kernel's figures.
func TestGPUBlockOverKernelLimit(t *testing.T) {
	cases := []struct {
		name   string
		attr   driver.FunctionAttribute
		value  int
		block  Dim3
		stream bool
		want   string // "" for a launch that runs
	}{
		{"255 registers, 1024 threads", driver.FuncNumRegs, 255, Dim1(1024), false,
			"launch Scale: block (1024,1,1) has 1024 threads; this kernel can run at most 256 per block on device 0 (sm_75), " +
				"because it uses 255 registers per thread and the device has 65536 per block; launch it with blocks of at most 256 threads"},
		{"255 registers, 256 threads", driver.FuncNumRegs, 255, Dim1(256), false, ""},
		{"72 registers, 32x32 threads", driver.FuncNumRegs, 72, Dim2(32, 32), false,
			"block (32,32,1) has 1024 threads; this kernel can run at most 896 per block on device 0 (sm_75), because it uses 72 registers"},
		{"72 registers, on a stream", driver.FuncNumRegs, 72, Dim1(1024), true, "at most 896 per block"},
		{"72 registers, 896 threads on a stream", driver.FuncNumRegs, 72, Dim1(896), true, ""},
		{"the driver's limit", driver.FuncMaxThreadsPerBlock, 128, Dim1(160), false,
			"block (160,1,1) has 160 threads; this kernel can run at most 128 per block on device 0 (sm_75), as the driver reports for it (it uses 16 registers and 0 bytes of local memory per thread); launch it with blocks of at most 128 threads"},
		{"16 registers, 1024 threads", driver.FuncNumRegs, 16, Dim1(1024), false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fakeGPU(t, fakedriver.Config{})
			f.SetFuncAttr("Scale", c.attr, c.value)
			f.OnLaunch = scaleHook
			cfg := LaunchConfig{Grid: Dim1(1), Block: c.block}
			if c.stream {
				s, err := NewStream()
				if err != nil {
					t.Fatal(err)
				}
				cfg.Stream = s
			}
			x := []float32{1, 2, 3}
			err := Jit(testkernels.Scale).LaunchWith(cfg, x, 2)
			if err == nil && cfg.Stream != nil {
				err = cfg.Stream.Synchronize()
			}
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if want := []float32{2, 4, 6}; !equal(x, want) {
					t.Fatalf("x = %v, want %v", x, want)
				}
				return
			}
			wantContains(t, err, []string{c.want})
			if n := f.Count("cuLaunchKernel"); n != 0 {
				t.Fatalf("a refused launch reached the driver %d times", n)
			}
			wantLive(t, f, 0, 0)
		})
	}
}

// A launch the driver still refuses for its resources says what the
// kernel needs and what the device has.
func TestGPUOutOfResourcesHasFigures(t *testing.T) {
	for _, stream := range []bool{false, true} {
		f := fakeGPU(t, fakedriver.Config{})
		f.SetFuncAttr("Reverse", driver.FuncNumRegs, 40)
		f.SetFuncAttr("Reverse", driver.FuncLocalSizeBytes, 24)
		f.SetFuncAttr("Reverse", driver.FuncSharedSizeBytes, 2048)
		f.Inject(fakedriver.Fault{Call: "cuLaunchKernel", Code: driver.ErrorLaunchOutOfRes})
		cfg := LaunchConfig{Grid: Dim1(1), Block: Dim1(256), SharedMem: 1024}
		if stream {
			s, err := NewStream()
			if err != nil {
				t.Fatal(err)
			}
			cfg.Stream = s
		}
		err := Jit(testkernels.Reverse).LaunchWith(cfg, make([]float32, 256))
		wantDriverError(t, err, "cuLaunchKernel", driver.ErrorLaunchOutOfRes)
		wantContains(t, err, []string{
			"launch Reverse: cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701): too many resources requested for launch: ",
			"block (256,1,1) of 256 threads with 1024 bytes of dynamic shared memory",
			"the kernel uses 40 registers and 24 bytes of local memory per thread and 2048 bytes of static shared memory",
			"at most 1024 threads per block on device 0 (sm_75), which has 65536 registers and 65536 bytes of shared memory per block",
			"try a smaller block",
		})
		if errors.Is(err, ErrContextLost) {
			t.Fatalf("a refused launch is no kernel fault: %v", err)
		}
		if cfg.Stream != nil {
			if err := cfg.Stream.Synchronize(); err != nil {
				t.Fatal(err)
			}
		}
		wantLive(t, f, 0, 0)
	}
}

// The kernel's attributes are read once per load; a failure to read them
// fails the load, which leaves nothing loaded and is tried again.
func TestGPUKernelAttributesReadOncePerLoad(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuFuncGetAttribute", Code: driver.ErrorInvalidValue, After: 2})
	k := Jit(testkernels.Scale)
	err := k.Launch(Dim1(1), Dim1(32), make([]float32, 4), 1)
	wantDriverError(t, err, "cuFuncGetAttribute", driver.ErrorInvalidValue)
	wantContains(t, err, []string{"launch Scale: load on device 0 (sm_75): cuFuncGetAttribute"})
	if l := f.Live(); l.Modules != 0 || l.Allocs != 0 {
		t.Fatalf("live after a failed load: %+v", l)
	}
	for range 3 {
		if err := k.Launch(Dim1(1), Dim1(32), make([]float32, 4), 1); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.Count("cuFuncGetAttribute"); n != 3+4 {
		t.Fatalf("cuFuncGetAttribute called %d times, want 3 (the failed load) + 4 (one load)", n)
	}
}

// A fault inside a kernel ends the device for the process: the error that
// reports it names the kernel and says so; every later call on the device
// fails at once, without calling the driver, naming the fault.
func TestGPUKernelFaultEndsTheDevice(t *testing.T) {
	const debugHint = "run with NUGO_DEBUG=1 (or compile the kernel with cuda.Debug) to have an out-of-range index reported as a KernelError with its Go source line"
	const watchdog = "a watchdog stops long kernels"
	scale := Jit(testkernels.Scale)
	// Each run arms a fault inside Scale (a sticky result the calls after
	// its launch report) and returns the first error.
	cases := []struct {
		name    string
		code    driver.Result
		run     func(f *fakedriver.Fake, inject func()) error
		call    string // the driver call that reports the fault
		prefix  string // how the first error starts
		culprit string
		hint    string
		notHint string
	}{
		{"host slice on the nil stream", driver.ErrorIllegalAddress, func(f *fakedriver.Fake, inject func()) error {
			inject()
			return scale.Launch(Dim1(1), Dim1(16), make([]float32, 16), 1)
		}, "cuMemcpyDtoH", "launch Scale: cuMemcpyDtoH: CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access was encountered: kernel Scale faulted, and",
			"kernel Scale faulted", debugHint, watchdog},
		{"kernel with debug checks", driver.ErrorIllegalAddress, func(f *fakedriver.Fake, inject func()) error {
			inject()
			return Jit(testkernels.Scale, Debug).Launch(Dim1(1), Dim1(16), make([]float32, 16), 1)
		}, "cuMemcpyDtoH", "launch Scale: cuMemcpyDtoH: CUDA_ERROR_ILLEGAL_ADDRESS (700)", "kernel Scale faulted", "every later GPU call on the device fails", "NUGO_DEBUG"},
		{"device array on the nil stream", driver.ErrorMisalignedAddress, func(f *fakedriver.Fake, inject func()) error {
			d, err := NewDeviceArray[float32](16)
			if err != nil {
				return err
			}
			inject()
			return scale.Launch(Dim1(1), Dim1(16), d, 1)
		}, "cuStreamSynchronize", "launch Scale: cuStreamSynchronize: CUDA_ERROR_MISALIGNED_ADDRESS (716)", "kernel Scale faulted", debugHint, watchdog},
		{"stream", driver.ErrorLaunchFailed, func(f *fakedriver.Fake, inject func()) error {
			s, err := NewStream()
			if err != nil {
				return err
			}
			d, err := NewDeviceArray[float32](16)
			if err != nil {
				return err
			}
			inject()
			if err := scale.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(16), Stream: s}, d, 1); err != nil {
				return err
			}
			return s.Synchronize()
		}, "cuStreamSynchronize", "cuStreamSynchronize: CUDA_ERROR_LAUNCH_FAILED (719)", "kernel Scale faulted", debugHint, watchdog},
		{"event after a stream launch", driver.ErrorLaunchTimeout, func(f *fakedriver.Fake, inject func()) error {
			s, err := NewStream()
			if err != nil {
				return err
			}
			e, err := NewEvent()
			if err != nil {
				return err
			}
			d, err := NewDeviceArray[float32](16)
			if err != nil {
				return err
			}
			inject()
			if err := scale.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(16), Stream: s}, d, 1); err != nil {
				return err
			}
			return e.Record(s)
		}, "cuEventRecord", "cuEventRecord: CUDA_ERROR_LAUNCH_TIMEOUT (702)", "a kernel faulted (the last one launched on device 0 was Scale)", watchdog, "NUGO_DEBUG"},
		{"no kernel launched", driver.ErrorAssert, func(f *fakedriver.Fake, inject func()) error {
			f.Inject(fakedriver.Fault{Call: "cuMemAlloc", Code: driver.ErrorAssert})
			_, err := NewDeviceArray[float32](16)
			return err
		}, "cuMemAlloc", "NewDeviceArray([16] of float32): cuMemAlloc: CUDA_ERROR_ASSERT (710): device-side assert triggered: a kernel faulted, and", "a kernel faulted", "every later GPU call on the device fails", "NUGO_DEBUG"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fakeGPU(t, fakedriver.Config{})
			keep, err := ToDevice([]float32{1, 2})
			if err != nil {
				t.Fatal(err)
			}
			err = c.run(f, func() {
				f.Inject(fakedriver.Fault{Call: "cuLaunchKernel", Code: c.code, Sticky: true})
			})
			wantDriverError(t, err, c.call, c.code)
			if !errors.Is(err, ErrContextLost) {
				t.Fatalf("%v does not match ErrContextLost", err)
			}
			if !strings.HasPrefix(err.Error(), c.prefix) {
				t.Errorf("error %q\ndoes not start with %q", err, c.prefix)
			}
			wantContains(t, err, []string{c.culprit, "and the CUDA context of device 0 cannot be used again in this process: every later GPU call on the device fails", c.hint}, c.notHint)

			calls := len(f.Calls())
			later := []struct {
				what string
				err  func() error
			}{
				{"NewDeviceArray", func() error { _, err := NewDeviceArray[float32](4); return err }},
				{"ToDevice", func() error { _, err := ToDevice([]float32{1}); return err }},
				{"ToHost", func() error { _, err := keep.ToHost(); return err }},
				{"Free", keep.Free},
				{"Launch", func() error { return Jit(testkernels.Increment).Launch(Dim1(1), Dim1(8), make([]float64, 8)) }},
				{"Launch again", func() error { return scale.Launch(Dim1(1), Dim1(4), make([]float32, 4), 1) }},
				{"Synchronize", Synchronize},
				{"NewStream", func() error { _, err := NewStream(); return err }},
				{"NewEvent", func() error { _, err := NewEvent(); return err }},
			}
			for _, l := range later {
				err := l.err()
				if !errors.Is(err, ErrContextLost) {
					t.Fatalf("%s after the fault = %v, want ErrContextLost", l.what, err)
				}
				wantDriverError(t, err, c.call, c.code)
				wantContains(t, err, []string{"the CUDA context of device 0 was lost earlier in this process, when " + c.culprit,
					"the device cannot be used again until the process restarts"}, "NUGO_DEBUG")
			}
			if n := len(f.Calls()); n != calls {
				t.Fatalf("%d driver calls after the fault; want none: %q", n-calls, f.Calls()[calls:])
			}
		})
	}
}

// A fault ends only the context it happened in: another device stays
// usable. (The fake poisons all its devices at once; ClearFaults lifts that,
// leaving the backend's own account of which device faulted.)
func TestGPUKernelFaultLeavesOtherDevices(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{fakedriver.DefaultDevice(), fakedriver.DefaultDevice()}})
	scale := Jit(testkernels.Scale)
	f.Inject(fakedriver.Fault{Call: "cuLaunchKernel", Code: driver.ErrorIllegalAddress, Sticky: true})
	err := scale.Launch(Dim1(1), Dim1(16), make([]float32, 16), 1)
	if !errors.Is(err, ErrContextLost) {
		t.Fatalf("fault on device 0 = %v", err)
	}
	f.ClearFaults()
	if err := SelectDevice(1); err != nil {
		t.Fatal(err)
	}
	x := []float32{1, 2}
	f.OnLaunch = scaleHook
	if err := scale.Launch(Dim1(1), Dim1(16), x, 3); err != nil {
		t.Fatalf("device 1 after device 0's fault: %v", err)
	}
	if !equal(x, []float32{3, 6}) {
		t.Fatalf("x = %v on device 1", x)
	}
	if err := SelectDevice(0); err != nil {
		t.Fatal(err)
	}
	_, err = NewDeviceArray[float32](4)
	wantContains(t, err, []string{"the CUDA context of device 0 was lost earlier in this process, when kernel Scale faulted"})
}
