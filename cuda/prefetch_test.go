package cuda_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unsafe"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// Prefetch to the device, a launch and a prefetch back on a stream, then
// the host reads the kernel's results; a prefetch on the default stream
// and every advice with a valid location succeed; empty ranges and arrays
// are no work. On every backend (on cpu and ptxsim the calls do nothing,
// on the fake GPU they reach the driver).
func TestManagedPrefetchAndAdvise(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		managedPrefetchRoundTrip(t, backend != "gpu-fake") // the recording fake runs no kernels
	})
}

// The same on a real GPU; on one without concurrent managed access,
// Prefetch must be refused with the sentence that says why.
func TestGPUManagedPrefetchAndAdvise(t *testing.T) {
	realGPU(t)
	a, err := NewManagedArray[float64](1)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	if !a.ConcurrentAccess() {
		wantErr(t, "prefetch without concurrent access", a.Prefetch(DeviceLocation(0), nil), "ConcurrentAccess is false")
		t.Skip("SKIP: the device has no concurrent managed access, so no prefetch")
	}
	managedPrefetchRoundTrip(t, true)
}

// managedPrefetchRoundTrip is TestManagedPrefetchAndAdvise on the current
// backend; runsKernels says whether kernels really run there.
func managedPrefetchRoundTrip(t *testing.T, runsKernels bool) {
	const n = 300
	a, err := NewManagedArray[float64](n)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	h := a.Host()
	for i := range h {
		h[i] = float64(i)
	}
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Prefetch(DeviceLocation(0), s); err != nil {
		t.Fatal(err)
	}
	if err := Jit(testkernels.Increment).LaunchWith(LaunchConfig{Grid: Dim1(3), Block: Dim1(128), Stream: s}, a); err != nil {
		t.Fatal(err)
	}
	if err := a.PrefetchRange(100, 200, HostLocation, s); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if runsKernels {
		for i, v := range h {
			if v != float64(i)+1 {
				t.Fatalf("host sees %v at %d after prefetch, launch, prefetch; want %v", v, i, float64(i)+1)
			}
		}
	}
	if err := a.Prefetch(HostLocation, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		advice Advice
		loc    Location
	}{
		{AdviseSetReadMostly, HostLocation},
		{AdviseUnsetReadMostly, DeviceLocation(0)},
		{AdviseSetPreferredLocation, DeviceLocation(0)},
		{AdviseUnsetPreferredLocation, DeviceLocation(0)},
		{AdviseSetPreferredLocation, HostLocation},
		{AdviseSetAccessedBy, DeviceLocation(0)},
		{AdviseUnsetAccessedBy, DeviceLocation(0)},
		{AdviseSetAccessedBy, HostLocation},
	} {
		if err := a.Advise(c.advice, c.loc); err != nil {
			t.Errorf("Advise(%s, %s): %v", c.advice, c.loc, err)
		}
		if err := a.AdviseRange(10, 20, c.advice, c.loc); err != nil {
			t.Errorf("AdviseRange(10, 20, %s, %s): %v", c.advice, c.loc, err)
		}
	}
	if err := a.PrefetchRange(7, 7, DeviceLocation(0), s); err != nil {
		t.Errorf("empty range: %v", err)
	}
	empty, err := NewManagedArray[int32](0)
	if err != nil {
		t.Fatal(err)
	}
	if err := empty.Prefetch(DeviceLocation(0), nil); err != nil {
		t.Errorf("Prefetch of an empty array: %v", err)
	}
	if err := empty.Advise(AdviseSetReadMostly, HostLocation); err != nil {
		t.Errorf("Advise about an empty array: %v", err)
	}
}

// Misuse of Prefetch and Advise is the same error on every backend, never
// a panic: a nil, zero or freed array, a location that is no device, a
// range out of bounds, advice that is none of CUDA's.
func TestManagedPrefetchMisuse(t *testing.T) {
	seen := map[string]map[string]string{} // case → backend → error text
	eachBackend(t, func(t *testing.T, backend string) {
		a, err := NewManagedArray[float32](64)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Free()
		freed, err := NewManagedArray[float32](64)
		if err != nil {
			t.Fatal(err)
		}
		if err := freed.Free(); err != nil {
			t.Fatal(err)
		}
		var nilArray *ManagedArray[float32]
		for _, c := range []struct {
			name  string
			do    func() error
			want  []string
			freed bool
		}{
			{"nil array", func() error { return nilArray.Prefetch(HostLocation, nil) }, []string{"Prefetch to host", "nil *cuda.ManagedArray"}, false},
			{"nil array advice", func() error { return nilArray.Advise(AdviseSetReadMostly, HostLocation) }, []string{"Advise(set read-mostly, host)", "nil"}, false},
			{"zero array", func() error { return (&ManagedArray[float32]{}).Prefetch(DeviceLocation(0), nil) }, []string{"Prefetch to device 0", "not made by"}, false},
			{"freed array", func() error { return freed.Prefetch(DeviceLocation(0), nil) }, []string{"Prefetch to device 0", "after Free"}, true},
			{"freed array advice", func() error { return freed.AdviseRange(0, 4, AdviseSetAccessedBy, HostLocation) }, []string{"AdviseRange [0:4]", "after Free"}, true},
			{"device 1", func() error { return a.Prefetch(DeviceLocation(1), nil) }, []string{"device 1 does not exist; there are 1 (0..0)"}, false},
			{"device -1", func() error { return a.Prefetch(DeviceLocation(-1), nil) }, []string{"Prefetch to device -1: device -1 does not exist"}, false},
			{"location -7", func() error { return a.Advise(AdviseSetPreferredLocation, Location(-7)) }, []string{"Advise(set preferred location, device -6)", "does not exist"}, false},
			{"advice about device 2", func() error { return a.Advise(AdviseSetAccessedBy, DeviceLocation(2)) }, []string{"device 2 does not exist"}, false},
			{"read-mostly about device 2", func() error { return a.Advise(AdviseSetReadMostly, DeviceLocation(2)) }, []string{"device 2 does not exist"}, false},
			{"range past the end", func() error { return a.PrefetchRange(0, 65, HostLocation, nil) }, []string{"PrefetchRange [0:65] to host", "64 elements", "past the end (at most 64)"}, false},
			{"negative range", func() error { return a.PrefetchRange(-1, 3, HostLocation, nil) }, []string{"low bound is negative"}, false},
			{"reversed range", func() error { return a.AdviseRange(9, 3, AdviseSetReadMostly, HostLocation) }, []string{"AdviseRange [9:3]", "low bound is above the high one"}, false},
			{"advice 0", func() error { return a.Advise(0, HostLocation) }, []string{"Advise(Advice(0), host): unknown advice 0", "AdviseSetReadMostly"}, false},
			{"advice 7", func() error { return a.AdviseRange(0, 1, 7, DeviceLocation(0)) }, []string{"unknown advice 7"}, false},
			{"zero stream", func() error { return a.Prefetch(HostLocation, &Stream{}) }, []string{"Prefetch to host: stream was not made by NewStream"}, false},
		} {
			err := call(t, c.name, c.do)
			wantErr(t, c.name, err, c.want...)
			if c.freed && !errors.Is(err, ErrFreed) {
				t.Errorf("%s: %v is not ErrFreed", c.name, err)
			}
			if err != nil {
				if seen[c.name] == nil {
					seen[c.name] = map[string]string{}
				}
				seen[c.name][backend] = err.Error()
			}
		}
	})
	for name, byBackend := range seen {
		var first, firstText string
		for b, text := range byBackend {
			if first == "" {
				first, firstText = b, text
			} else if text != firstText {
				t.Errorf("%s: %s says %q, %s says %q", name, first, firstText, b, text)
			}
		}
	}
}

// On the GPU, Prefetch and Advise are cuMemPrefetchAsync and cuMemAdvise
// on the array's bytes (or the range's), with the device's handle or
// CU_DEVICE_CPU, on the stream given; on the default stream a prefetch is
// followed by a wait for it; empty ranges reach no driver.
func TestSimGPUPrefetchDriverCalls(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	a, err := NewManagedArray[float64](1000)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	base := driver.DevicePtr(uintptr(unsafe.Pointer(&a.Host()[0])))
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Prefetch(DeviceLocation(0), s); err != nil {
		t.Fatal(err)
	}
	// The stream's handle, as the driver saw it: launch there too.
	if err := Jit(testkernels.Increment).LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(32), Stream: s}, a); err != nil {
		t.Fatal(err)
	}
	l := f.Launches()
	h := l[len(l)-1].Stream
	if h == 0 {
		t.Fatal("the launch on a stream reached the driver on the default stream")
	}
	calls := len(f.Calls())
	if err := a.PrefetchRange(10, 20, HostLocation, nil); err != nil {
		t.Fatal(err)
	}
	tail := f.Calls()[calls:]
	if i := slices.Index(tail, "cuMemPrefetchAsync"); i < 0 || !slices.Contains(tail[i+1:], "cuStreamSynchronize") {
		t.Errorf("a prefetch on the default stream made the calls %v; want cuMemPrefetchAsync, then cuStreamSynchronize", tail)
	}
	if err := a.Prefetch(HostLocation, s); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	want := []fakedriver.Prefetch{
		{Ptr: base, Bytes: 8000, Device: 0, Stream: h},
		{Ptr: base + 80, Bytes: 80, Device: driver.DeviceCPU, Stream: 0},
		{Ptr: base, Bytes: 8000, Device: driver.DeviceCPU, Stream: h},
	}
	if got := f.Prefetches(); !slices.Equal(got, want) {
		t.Errorf("prefetches %+v\nwant %+v", got, want)
	}

	if err := a.Advise(AdviseSetPreferredLocation, HostLocation); err != nil {
		t.Fatal(err)
	}
	if err := a.AdviseRange(0, 500, AdviseSetAccessedBy, DeviceLocation(0)); err != nil {
		t.Fatal(err)
	}
	if err := a.Advise(AdviseSetReadMostly, DeviceLocation(0)); err != nil {
		t.Fatal(err)
	}
	wantAdvice := []fakedriver.Advice{
		{Ptr: base, Bytes: 8000, Advice: driver.AdviseSetPreferredLocation, Device: driver.DeviceCPU},
		{Ptr: base, Bytes: 4000, Advice: driver.AdviseSetAccessedBy, Device: 0},
		{Ptr: base, Bytes: 8000, Advice: driver.AdviseSetReadMostly, Device: 0},
	}
	if got := f.Advice(); !slices.Equal(got, wantAdvice) {
		t.Errorf("advice %+v\nwant %+v", got, wantAdvice)
	}

	calls = len(f.Calls())
	if err := a.PrefetchRange(3, 3, DeviceLocation(0), s); err != nil {
		t.Fatal(err)
	}
	if err := a.AdviseRange(999, 999, AdviseSetReadMostly, HostLocation); err != nil {
		t.Fatal(err)
	}
	if extra := f.Calls()[calls:]; len(extra) != 0 {
		t.Errorf("empty ranges called the driver: %v", extra)
	}
}

// On the GPU, a driver failure is a *DriverError naming the device and
// the call; a device without concurrent managed access refuses Prefetch
// before the driver (Advise still goes through); a destination GPU
// without it is refused with a sentence, one with it gets its handle; a
// stream of another device is refused.
func TestSimGPUPrefetchFailures(t *testing.T) {
	t.Run("driver failure", func(t *testing.T) {
		f := fakeGPU(t, fakedriver.Config{})
		a, err := NewManagedArray[float64](16)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Free()
		for _, c := range []struct {
			call string
			do   func() error
			want string
		}{
			{"cuMemPrefetchAsync", func() error { return a.Prefetch(DeviceLocation(0), nil) }, "Prefetch to device 0: device 0: cuMemPrefetchAsync: CUDA_ERROR_INVALID_VALUE"},
			{"cuMemAdvise", func() error { return a.Advise(AdviseSetAccessedBy, HostLocation) }, "Advise(set accessed-by, host): device 0: cuMemAdvise: CUDA_ERROR_INVALID_VALUE"},
		} {
			f.Inject(fakedriver.Fault{Call: c.call, Code: driver.ErrorInvalidValue})
			err := c.do()
			var de *DriverError
			if !errors.As(err, &de) || de.Call != c.call || de.Code != int(driver.ErrorInvalidValue) {
				t.Errorf("%s failing: %v; want its *DriverError", c.call, err)
			}
			wantErr(t, c.call, err, c.want)
		}
	})
	t.Run("no concurrent managed access", func(t *testing.T) {
		spec := fakedriver.DefaultDevice()
		spec.Attrs[driver.AttrConcurrentManagedAccess] = 0
		f := fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{spec}})
		a, err := NewManagedArray[float64](16)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Free()
		for _, to := range []Location{DeviceLocation(0), HostLocation} {
			err := a.Prefetch(to, nil)
			wantErr(t, "prefetch without concurrent access", err, "Prefetch to "+to.String(), "ConcurrentAccess is false", "CONCURRENT_MANAGED_ACCESS")
		}
		if n := f.Count("cuMemPrefetchAsync"); n != 0 {
			t.Errorf("cuMemPrefetchAsync called %d times on a device without concurrent managed access", n)
		}
		if err := a.Advise(AdviseSetPreferredLocation, DeviceLocation(0)); err != nil {
			t.Errorf("Advise on a device without concurrent managed access: %v", err)
		}
	})
	t.Run("second device", func(t *testing.T) {
		for _, concurrent := range []int{1, 0} {
			second := fakedriver.DefaultDevice()
			second.Attrs[driver.AttrConcurrentManagedAccess] = concurrent
			f := fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{fakedriver.DefaultDevice(), second}})
			a, err := NewManagedArray[float64](16)
			if err != nil {
				t.Fatal(err)
			}
			err = a.Prefetch(DeviceLocation(1), nil)
			if concurrent == 1 {
				if p := f.Prefetches(); err != nil || len(p) != 1 || p[0].Device != 1 {
					t.Errorf("prefetch to device 1: %v, recorded %+v", err, p)
				}
			} else {
				wantErr(t, "prefetch to a device without concurrent access", err,
					"Prefetch to device 1: the destination GPU does not allow concurrent managed access")
				if n := f.Count("cuMemPrefetchAsync"); n != 0 {
					t.Errorf("cuMemPrefetchAsync called %d times", n)
				}
			}
			if err := a.Advise(AdviseSetAccessedBy, DeviceLocation(1)); err != nil {
				t.Errorf("advice about device 1: %v", err)
			}
			if err := SelectDevice(1); err != nil {
				t.Fatal(err)
			}
			s, err := NewStream()
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Prefetch(HostLocation, s); err == nil || !strings.Contains(err.Error(), "stream is on device 1, memory on device 0") {
				t.Errorf("prefetch on a stream of another device: %v", err)
			}
			if err := a.Free(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
