package cuda_test

import (
	"errors"
	"slices"
	"testing"
	"unsafe"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// pinnedRoundTrip pins a host slice and moves it through the device on a
// stream: an async copy in, a kernel on the device array, a kernel on the
// pinned host slice itself, an async copy out into another pinned slice.
// It returns what came back from both paths.
func pinnedRoundTrip(t *testing.T, n int) (viaDevice, viaHostArg []float64) {
	t.Helper()
	src, dst := make([]float64, n), make([]float64, n)
	for i := range src {
		src[i] = float64(i) / 4
	}
	ps, err := Pin(src)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := ps.Unpin(); err != nil {
			t.Error(err)
		}
	}()
	pd, err := Pin(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := pd.Unpin(); err != nil {
			t.Error(err)
		}
	}()
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	d, err := ToDeviceAsync(src, s)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	inc := Jit(testkernels.Increment)
	blocks := (n + 127) / 128
	if err := inc.LaunchWith(LaunchConfig{Grid: Dim1(blocks), Block: Dim1(128), Stream: s}, d); err != nil {
		t.Fatal(err)
	}
	if err := d.CopyToHostAsync(dst, s); err != nil {
		t.Fatal(err)
	}
	if err := inc.LaunchWith(LaunchConfig{Grid: Dim1(blocks), Block: Dim1(128), Stream: s}, src); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	return slices.Clone(dst), slices.Clone(src)
}

// Pinned memory moves through the device with the same results on every
// backend, and bad pins are errors.
func TestPinnedMemory(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		const n = 1000
		viaDevice, viaHostArg := pinnedRoundTrip(t, n)
		if backend != "gpu-fake" { // the recording fake runs no kernels
			for i := range n {
				if want := float64(i)/4 + 1; viaDevice[i] != want || viaHostArg[i] != want {
					t.Fatalf("element %d: %v through a device array, %v as a host argument; want %v", i, viaDevice[i], viaHostArg[i], want)
				}
			}
		}

		buf := make([]int32, 100)
		p, err := Pin(buf[10:20])
		if err != nil {
			t.Fatal(err)
		}
		if p.Bytes() != 40 {
			t.Errorf("Bytes = %d, want 40", p.Bytes())
		}
		_, err = Pin(buf[15:30])
		wantErr(t, "overlapping Pin", err, "overlaps memory pinned before")
		q, err := Pin(buf[20:30])
		if err != nil {
			t.Fatalf("adjacent Pin: %v", err)
		}
		for _, x := range []*Pinned{p, q, p} {
			if err := x.Unpin(); err != nil {
				t.Errorf("Unpin: %v", err)
			}
		}
		if p.Bytes() != 0 {
			t.Errorf("Bytes after Unpin = %d", p.Bytes())
		}
		if p, err = Pin(buf[15:30]); err != nil {
			t.Fatalf("Pin after Unpin: %v", err)
		} else if err := p.Unpin(); err != nil {
			t.Error(err)
		}
		empty, err := Pin([]float32(nil))
		if err != nil || empty.Bytes() != 0 || empty.Unpin() != nil {
			t.Errorf("Pin(nil) = %v, %v", empty, err)
		}
		wantErr(t, "nil Unpin", (*Pinned)(nil).Unpin(), "nil *cuda.Pinned")
	})
}

// On the GPU, pinned memory is registered with the driver while pinned,
// and async copies and stream launches use it directly: no staging
// buffer is allocated, unlike for ordinary memory.
func TestSimGPUPinnedCopiesSkipStaging(t *testing.T) {
	f := simGPU(t)
	viaDevice, viaHostArg := pinnedRoundTrip(t, 4096)
	if viaDevice[4095] != 4095.0/4+1 || viaHostArg[4095] != 4095.0/4+1 {
		t.Fatalf("last elements %v, %v", viaDevice[4095], viaHostArg[4095])
	}
	if n := f.Count("cuMemHostAlloc"); n != 0 {
		t.Errorf("%d staging buffers allocated for pinned memory", n)
	}
	if n := f.Count("cuMemHostRegister"); n != 2 {
		t.Errorf("%d registrations, want 2", n)
	}
	if l := f.Live(); l.Registered != 0 || l.HostAllocs != 0 {
		t.Errorf("after Unpin: %+v", l)
	}

	// The same moves with ordinary memory go through staging buffers.
	x := make([]float64, 64)
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	d, err := ToDeviceAsync(x, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if f.Count("cuMemHostAlloc") == 0 {
		t.Error("an unpinned async copy allocated no staging buffer")
	}
	_ = d.Free()

	// While pinned, the driver holds the registration of exactly that range.
	y := make([]byte, 1<<16)
	p, err := Pin(y)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Registered(unsafe.Pointer(&y[0]), len(y)) {
		t.Error("pinned memory is not registered with the driver")
	}
	if err := p.Unpin(); err != nil {
		t.Fatal(err)
	}
	if f.Registered(unsafe.Pointer(&y[0]), 1) {
		t.Error("unpinned memory is still registered")
	}
}

// A driver refusing the registration is Pin's error, and leaves nothing
// pinned.
func TestPinDriverFailure(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuMemHostRegister", Code: driver.ErrorOutOfMemory})
	buf := make([]float32, 256)
	_, err := Pin(buf)
	var de *DriverError
	if !errors.As(err, &de) {
		t.Fatalf("Pin with a failing driver: %v; want a *cuda.DriverError", err)
	}
	wantErr(t, "failed Pin", err, "Pin 1024 bytes", "CUDA_ERROR_OUT_OF_MEMORY")
	p, err := Pin(buf)
	if err != nil {
		t.Fatalf("Pin after a failed one: %v", err)
	}
	if err := p.Unpin(); err != nil {
		t.Fatal(err)
	}
	f.Inject(fakedriver.Fault{Call: "cuMemHostUnregister", Code: driver.ErrorUnknown})
	if p, err = Pin(buf); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "failed Unpin", p.Unpin(), "Unpin", "CUDA_ERROR_UNKNOWN")
	if p.Bytes() != 0 {
		t.Error("a failed Unpin left the memory counted as pinned")
	}
}

// Pin of a mapped array's host memory, which is pinned already, works on
// every backend, as often as asked, and its Unpin leaves the array
// usable; once the array is freed the same memory pins as ordinary memory.
func TestPinMappedArray(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		runsKernels := backend != "gpu-fake"
		const n = 1000
		m, err := NewMappedArray[float64](n)
		if err != nil {
			t.Fatal(err)
		}
		h := m.Host()
		for i := range h {
			h[i] = float64(i)
		}
		whole, err := Pin(h)
		if err != nil {
			t.Fatalf("Pin of a mapped array's Host: %v", err)
		}
		part, err := Pin(h[10:20])
		if err != nil {
			t.Fatalf("second Pin inside a mapped array: %v", err)
		}
		if whole.Bytes() != n*8 || part.Bytes() != 80 {
			t.Errorf("pins of %d and %d bytes, want %d and 80", whole.Bytes(), part.Bytes(), n*8)
		}
		s, err := NewStream()
		if err != nil {
			t.Fatal(err)
		}
		d, err := ToDeviceAsync(h, s)
		if err != nil {
			t.Fatal(err)
		}
		back := make([]float64, n)
		if err := d.CopyToHostAsync(back, s); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		_ = d.Free()
		if runsKernels && back[n-1] != n-1 {
			t.Errorf("async round trip from pinned mapped memory gave %v at %d", back[n-1], n-1)
		}
		for _, p := range []*Pinned{part, whole, whole} {
			if err := p.Unpin(); err != nil {
				t.Fatalf("Unpin: %v", err)
			}
		}
		if err := Jit(testkernels.Increment).Launch(Dim1(8), Dim1(128), m); err != nil {
			t.Fatalf("launch with the mapped array after Unpin: %v", err)
		}
		if runsKernels && h[5] != 6 {
			t.Errorf("host sees %v after the launch, want 6", h[5])
		}
		if err := m.Free(); err != nil {
			t.Fatal(err)
		}
		p, err := Pin(h)
		if err != nil {
			t.Fatalf("Pin of a freed mapped array's memory: %v", err)
		}
		if err := p.Unpin(); err != nil {
			t.Fatal(err)
		}
	})
}

// On the GPU, Pin of mapped memory registers nothing, copies from it skip
// staging, and its Unpin does not unregister the array's memory.
func TestSimGPUPinMappedArray(t *testing.T) {
	f := simGPU(t)
	m, err := NewMappedArray[float32](4096)
	if err != nil {
		t.Fatal(err)
	}
	h := m.Host()
	p, err := Pin(h[100:200])
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuMemHostRegister"); n != 1 {
		t.Errorf("%d registrations after Pin of mapped memory, want the array's 1", n)
	}
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	d, err := ToDeviceAsync(h[100:200], s)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	_ = d.Free()
	if n := f.Count("cuMemHostAlloc"); n != 0 {
		t.Errorf("%d staging buffers for a copy from pinned mapped memory", n)
	}
	if err := p.Unpin(); err != nil {
		t.Fatal(err)
	}
	if f.Count("cuMemHostUnregister") != 0 || !f.Registered(unsafe.Pointer(&h[0]), len(h)*4) {
		t.Error("Unpin of mapped memory unregistered the array")
	}
	if err := m.Free(); err != nil {
		t.Fatal(err)
	}
	if l := f.Live(); l.Registered != 0 {
		t.Errorf("live after Free: %+v", l)
	}
}
