package cuda_test

// Raw handles: DevicePointer, WrapDevicePointer, Stream.Handle,
// ExternalStream and ContextHandle, on the host backends (where they are
// tokens valid within nugo) and on the simulated GPU, where memory and
// streams made by the driver API directly, as a CUDA library would make
// them, are launched on through nugo.

import (
	"encoding/binary"
	"errors"
	"math"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver"
)

func TestHandlesHostBackends(t *testing.T) {
	for _, b := range []Backend{CPU, PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			d, err := ToDevice([]float32{1, 2, 3, 4})
			if err != nil {
				t.Fatal(err)
			}
			p := d.DevicePointer()
			if p == 0 {
				t.Fatal("DevicePointer of a live array is 0")
			}
			if v, err := d.Slice(1, 3); err != nil || v.DevicePointer() != p+4 {
				t.Errorf("a view's DevicePointer = %#x, %v; want the array's + 4 = %#x", v.DevicePointer(), err, p+4)
			}
			// The middle two elements, wrapped and scaled through nugo.
			w, err := WrapDevicePointer[float32](p+4, 2)
			if err != nil {
				t.Fatal(err)
			}
			if err := Jit(testkernels.Scale).Launch(Dim1(1), Dim1(32), w, float32(10)); err != nil {
				t.Fatal(err)
			}
			if err := w.Free(); err != nil { // ends the wrapper only
				t.Fatal(err)
			}
			got, err := d.ToHost()
			if err != nil {
				t.Fatalf("the array after its wrapper's Free: %v", err)
			}
			if want := []float32{1, 20, 30, 4}; !slices.Equal(got, want) {
				t.Errorf("array after a launch on its wrapped middle = %v, want %v", got, want)
			}

			var local [4]float32
			for _, c := range []struct {
				name  string
				ptr   uintptr
				shape []int
			}{
				{"nil pointer", 0, []int{1}},
				{"past the end", p + 4, []int{4}},
				{"misaligned", p + 1, []int{1}},
				{"not an array", uintptr(unsafe.Pointer(&local)), []int{4}},
				{"no shape", p, nil},
				{"four dimensions", p, []int{1, 1, 1, 1}},
				{"negative", p, []int{-1}},
			} {
				if _, err := WrapDevicePointer[float32](c.ptr, c.shape...); err == nil {
					t.Errorf("%s: WrapDevicePointer accepted %#x %v", c.name, c.ptr, c.shape)
				}
			}
			runtime.KeepAlive(&local)

			s, err := NewStream()
			if err != nil {
				t.Fatal(err)
			}
			h := s.Handle()
			if h == 0 {
				t.Fatal("Handle of a stream is 0")
			}
			ext, err := ExternalStream(h)
			if err != nil {
				t.Fatal(err)
			}
			if ext.Handle() != h {
				t.Errorf("ExternalStream(%#x).Handle() = %#x", h, ext.Handle())
			}
			cfg := LaunchConfig{Grid: Dim1(1), Block: Dim1(32), Stream: ext}
			if err := Jit(testkernels.Scale).LaunchWith(cfg, d, float32(2)); err != nil {
				t.Fatal(err)
			}
			if err := s.Synchronize(); err != nil { // the same stream
				t.Fatal(err)
			}
			if got, _ := d.ToHost(); got[0] != 2 {
				t.Errorf("after a launch on the external stream d[0] = %v, want 2", got[0])
			}
			for _, bad := range []uintptr{0, h + 8} {
				if _, err := ExternalStream(bad); err == nil {
					t.Errorf("ExternalStream(%#x) accepted", bad)
				}
			}
			if (*Stream)(nil).Handle() != 0 {
				t.Error("the nil stream's Handle is not 0")
			}
			if _, err := ContextHandle(); !errors.Is(err, ErrNoDevice) {
				t.Errorf("ContextHandle on %s = %v, want ErrNoDevice", b, err)
			}
			if err := d.Free(); err != nil {
				t.Fatal(err)
			}
			if p := d.DevicePointer(); p != 0 {
				t.Errorf("DevicePointer after Free = %#x, want 0", p)
			}
		})
	}
}

// TestHandlesSimGPU plays a CUDA library: memory and a stream made with
// the driver API in nugo's context, launched on through nugo, and a nugo
// array read by the driver through its DevicePointer.
func TestHandlesSimGPU(t *testing.T) {
	f := simGPU(t)
	ctx, err := ContextHandle()
	if err != nil || ctx == 0 {
		t.Fatalf("ContextHandle = %#x, %v", ctx, err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := f.CtxSetCurrent(driver.Context(ctx)); err != nil {
		t.Fatalf("binding nugo's context: %v", err)
	}
	p, err := f.MemAlloc(16)
	if err != nil {
		t.Fatal(err)
	}
	in := []float32{1, 2, 3, 4}
	if err := f.MemcpyHtoD(p, unsafe.Pointer(&in[0]), 16); err != nil {
		t.Fatal(err)
	}
	h, err := f.StreamCreate(driver.StreamDefault)
	if err != nil {
		t.Fatal(err)
	}

	d, err := WrapDevicePointer[float32](uintptr(p), 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if d.DevicePointer() != uintptr(p) {
		t.Errorf("DevicePointer of a wrapped %#x = %#x", p, d.DevicePointer())
	}
	s, err := ExternalStream(uintptr(h))
	if err != nil {
		t.Fatal(err)
	}
	if s.Handle() != uintptr(h) {
		t.Errorf("Handle = %#x, want %#x", s.Handle(), h)
	}
	cfg := LaunchConfig{Grid: Dim1(1), Block: Dim1(32), Stream: s}
	if err := Jit(testkernels.Scale).LaunchWith(cfg, d, float32(3)); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if l := f.Launches(); len(l) == 0 || l[len(l)-1].Stream != h {
		t.Errorf("the launch was not queued on the external stream %#x", h)
	}
	b, err := f.Read(p, 16)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float32{3, 6, 9, 12} {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])); got != want {
			t.Errorf("element %d = %v, want %v", i, got, want)
		}
	}
	if err := d.Free(); err != nil {
		t.Fatal(err)
	}
	// nugo freed and destroyed nothing of the library's.
	if err := f.MemFree(p); err != nil {
		t.Errorf("the library's MemFree after nugo's Free: %v", err)
	}
	if err := f.StreamDestroy(h); err != nil {
		t.Errorf("the library's StreamDestroy: %v", err)
	}

	// The other way: a nugo array and stream read by the driver.
	n, err := ToDevice([]float32{5, 6})
	if err != nil {
		t.Fatal(err)
	}
	b, err = f.Read(driver.DevicePtr(n.DevicePointer()), 8)
	if err != nil {
		t.Fatal(err)
	}
	if got := math.Float32frombits(binary.LittleEndian.Uint32(b[4:])); got != 6 {
		t.Errorf("the driver read %v at DevicePointer+4, want 6", got)
	}
	ns, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.StreamQuery(driver.Stream(ns.Handle())); err != nil {
		t.Errorf("cuStreamQuery of a nugo stream's Handle: %v", err)
	}
	if _, err := WrapDevicePointer[float32](0, 1); err == nil {
		t.Error("WrapDevicePointer accepted a nil pointer")
	}
	if _, err := WrapDevicePointer[float64](uintptr(p)+4, 1); err == nil {
		t.Error("WrapDevicePointer accepted a misaligned float64 pointer")
	}
	runtime.KeepAlive(n)
}
