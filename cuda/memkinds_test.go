package cuda_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// sharedArray is what MappedArray and ManagedArray have in common.
type sharedArray interface {
	Host() []float64
	Free() error
	Len() int
	Slice(lo, hi int) (*DeviceArray[float64], error)
	CopyToHost([]float64) error
}

// sharedKinds makes either kind of array, for tests that run on both.
var sharedKinds = []struct {
	name string
	make func(n int) (sharedArray, error)
}{
	{"mapped", func(n int) (sharedArray, error) { return NewMappedArray[float64](n) }},
	{"managed", func(n int) (sharedArray, error) { return NewManagedArray[float64](n) }},
}

// A kernel given a mapped or managed array works on the memory the host
// sees: the host's writes reach the kernel and the kernel's come back,
// on the default stream and on a stream, through the array and through
// a view, on every backend; after Free the array is an error to use.
func TestSharedArrays(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		sharedArraysRoundTrip(t, backend != "gpu-fake") // the recording fake runs no kernels
	})
}

// sharedArraysRoundTrip is TestSharedArrays on the current backend;
// runsKernels says whether kernels really run there.
func sharedArraysRoundTrip(t *testing.T, runsKernels bool) {
	for _, kind := range sharedKinds {
		t.Run(kind.name, func(t *testing.T) {
			const n = 300
			a, err := kind.make(n)
			if err != nil {
				t.Fatal(err)
			}
			h := a.Host()
			if len(h) != n || a.Len() != n {
				t.Fatalf("Host has %d elements, Len %d; want %d", len(h), a.Len(), n)
			}
			for i, v := range h {
				if v != 0 {
					t.Fatalf("element %d of a new array is %v, want 0", i, v)
				}
			}
			for i := range h {
				h[i] = float64(i) / 2
			}
			inc := Jit(testkernels.Increment)
			if err := inc.Launch(Dim1(3), Dim1(128), a); err != nil {
				t.Fatal(err)
			}
			s, err := NewStream()
			if err != nil {
				t.Fatal(err)
			}
			view, err := a.Slice(100, 200)
			if err != nil {
				t.Fatal(err)
			}
			if err := inc.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(128), Stream: s}, view); err != nil {
				t.Fatal(err)
			}
			if err := s.Synchronize(); err != nil {
				t.Fatal(err)
			}
			if runsKernels {
				for i, v := range h {
					want := float64(i)/2 + 1
					if i >= 100 && i < 200 {
						want++
					}
					if v != want {
						t.Fatalf("host sees %v at %d after the launches, want %v", v, i, want)
					}
				}
				back := make([]float64, n)
				if err := a.CopyToHost(back); err != nil || back[150] != 150.0/2+2 {
					t.Fatalf("CopyToHost: %v, element 150 = %v", err, back[150])
				}
			}
			if err := a.Free(); err != nil {
				t.Fatal(err)
			}
			if a.Host() != nil {
				t.Error("Host after Free is not nil")
			}
			if err := a.Free(); err != nil {
				t.Errorf("second Free: %v", err)
			}
			if err := inc.Launch(Dim1(1), Dim1(32), a); !errors.Is(err, ErrFreed) {
				t.Errorf("launch with a freed array: %v, want ErrFreed", err)
			}
			if err := inc.Launch(Dim1(1), Dim1(32), view); !errors.Is(err, ErrFreed) {
				t.Errorf("launch with a view of a freed array: %v, want ErrFreed", err)
			}
		})
	}
}

type stringer struct{ s string }

// Misuse of the constructors and of nil or zero arrays is an error, never
// a panic, on every backend.
func TestSharedArrayMisuse(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		inc := Jit(testkernels.Increment)
		for _, c := range []struct {
			name string
			do   func() error
			want []string
		}{
			{"negative length", func() error { _, err := NewMappedArray[float64](-1); return err }, []string{"NewMappedArray(-1)", "negative"}},
			{"negative managed length", func() error { _, err := NewManagedArray[int32](-5); return err }, []string{"NewManagedArray(-5)", "negative"}},
			{"size overflows int", func() error { _, err := NewManagedArray[float64](math.MaxInt / 4); return err }, []string{"too large"}},
			{"string elements", func() error { _, err := NewMappedArray[string](4); return err }, []string{"NewMappedArray", "elements of type string"}},
			{"pointer elements", func() error { _, err := NewManagedArray[*int](4); return err }, []string{"NewManagedArray", "elements of type *int"}},
			{"struct with a string", func() error { _, err := NewMappedArray[stringer](4); return err }, []string{"elements of type cuda_test.stringer"}},
			{"zero mapped array launched", func() error { return inc.Launch(Dim1(1), Dim1(32), &MappedArray[float64]{}) }, []string{"not made by"}},
			{"nil managed array launched", func() error { return inc.Launch(Dim1(1), Dim1(32), (*ManagedArray[float64])(nil)) }, []string{"nil device array"}},
			{"wrong element type", func() error {
				a, err := NewMappedArray[float32](4)
				if err != nil {
					return err
				}
				defer a.Free()
				return inc.Launch(Dim1(1), Dim1(32), a)
			}, []string{"device array of float32"}},
		} {
			err := call(t, c.name, c.do)
			wantErr(t, c.name, err, c.want...)
		}
		var nilMapped *MappedArray[float64]
		var nilManaged *ManagedArray[float64]
		zero := &ManagedArray[float64]{}
		if nilMapped.Host() != nil || nilMapped.Len() != 0 || nilMapped.Free() != nil ||
			nilManaged.Host() != nil || nilManaged.Len() != 0 || nilManaged.Free() != nil || nilManaged.ConcurrentAccess() ||
			zero.Host() != nil || zero.Free() != nil {
			t.Error("nil or zero arrays: Host, Len or Free did not answer nil, 0 and nil")
		}
		for _, make := range []func() (int, error){
			func() (int, error) { a, err := NewMappedArray[float64](0); return len(a.Host()), err },
			func() (int, error) { a, err := NewManagedArray[float64](0); return len(a.Host()), err },
		} {
			if n, err := make(); err != nil || n != 0 {
				t.Errorf("empty array: %d elements, %v", n, err)
			}
		}
	})
}

// On the GPU, a mapped array is Go memory registered with the driver
// (mapped, portable), whole pages of it, and a launch passes its device
// address without allocating or copying; Free unregisters it.
func TestSimGPUMappedArrayIsZeroCopy(t *testing.T) {
	f := simGPU(t)
	a, err := NewMappedArray[float64](1000)
	if err != nil {
		t.Fatal(err)
	}
	h := a.Host()
	if l := f.Live(); l.Registered != 1 || l.HostAllocs != 0 || l.Allocs != 0 {
		t.Fatalf("live %+v; want one registration and no allocation", l)
	}
	if page := uintptr(os.Getpagesize()); !f.Registered(unsafe.Pointer(&h[0]), len(h)*8) || uintptr(unsafe.Pointer(&h[0]))%page != 0 {
		t.Errorf("the host slice at %p is not the start of a registered page-aligned range", &h[0])
	}
	h[999] = 41
	allocs, htod, dtoh := f.Count("cuMemAlloc"), f.Count("cuMemcpyHtoD"), f.Count("cuMemcpyDtoH")
	if err := Jit(testkernels.Increment).Launch(Dim1(8), Dim1(128), a); err != nil {
		t.Fatal(err)
	}
	if h[999] != 42 || h[0] != 1 {
		t.Fatalf("host sees %v, %v after the launch; want 1, 42", h[0], h[999])
	}
	if f.Count("cuMemAlloc") != allocs || f.Count("cuMemcpyHtoD") != htod || f.Count("cuMemcpyDtoH") != dtoh {
		t.Errorf("the launch allocated or copied: calls %v", f.Calls())
	}
	l := f.Launches()
	arg := driver.DevicePtr(u64(l[len(l)-1].Args[0]))
	b, err := f.Read(arg+999*8, 8)
	if err != nil || math.Float64frombits(u64(b)) != 42 {
		t.Errorf("the kernel's pointer does not address the mapped memory: %v, %v", b, err)
	}
	syncs := f.Count("cuCtxSynchronize")
	if err := a.Free(); err != nil {
		t.Fatal(err)
	}
	if l := f.Live(); l.Registered != 0 {
		t.Errorf("live after Free: %+v", l)
	}
	if f.Count("cuMemHostUnregister") != 1 || f.Count("cuCtxSynchronize") != syncs+1 {
		t.Errorf("Free made %d unregistrations after %d context synchronizations; want 1 after 1",
			f.Count("cuMemHostUnregister"), f.Count("cuCtxSynchronize")-syncs)
	}
	if h[999] != 42 {
		t.Error("the host slice changed at Free")
	}
}

// A mapped array dropped without Free is unregistered by the garbage
// collector, as device memory is freed.
func TestSimGPUMappedArrayCleanup(t *testing.T) {
	f := simGPU(t)
	func() {
		a, err := NewMappedArray[int32](100)
		if err != nil {
			t.Fatal(err)
		}
		a.Host()[0] = 1
	}()
	for range 20 {
		runtime.GC()
		if f.Live().Registered == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("an unreachable mapped array is still registered: %+v", f.Live())
}

// On the GPU, a managed array is cuMemAllocManaged memory whose address is
// the host slice's; a launch passes it without copies, and Free returns it
// with cuMemFree.
func TestSimGPUManagedArray(t *testing.T) {
	f := simGPU(t)
	a, err := NewManagedArray[float64](512)
	if err != nil {
		t.Fatal(err)
	}
	if !a.ConcurrentAccess() {
		t.Error("ConcurrentAccess is false on a device that reports concurrent managed access")
	}
	wantLive(t, f, 1, 0)
	h := a.Host()
	h[7] = 6.5
	htod := f.Count("cuMemcpyHtoD")
	if err := Jit(testkernels.Increment).Launch(Dim1(4), Dim1(128), a); err != nil {
		t.Fatal(err)
	}
	if h[7] != 7.5 || h[511] != 1 {
		t.Fatalf("host sees %v, %v; want 7.5, 1", h[7], h[511])
	}
	if f.Count("cuMemcpyHtoD") != htod {
		t.Error("the launch copied the managed array")
	}
	l := f.Launches()
	if got, want := u64(l[len(l)-1].Args[0]), uint64(uintptr(unsafe.Pointer(&h[0]))); got != want {
		t.Errorf("kernel pointer %#x, want the host address %#x", got, want)
	}
	if err := a.Free(); err != nil {
		t.Fatal(err)
	}
	wantLive(t, f, 0, 0)
}

// Driver failures while making a mapped or managed array are errors that
// leave nothing allocated; a device without managed memory is refused with
// a sentence saying so.
func TestSharedArrayDriverFailures(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault string
		code  driver.Result
		make  func() error
		want  []string
	}{
		{"mapped out of memory", "cuMemHostRegister", driver.ErrorOutOfMemory,
			func() error { _, err := NewMappedArray[int64](64); return err }, []string{"NewMappedArray(64 of int64)", "CUDA_ERROR_OUT_OF_MEMORY"}},
		{"no device pointer", "cuMemHostGetDevicePointer", driver.ErrorInvalidValue,
			func() error { _, err := NewMappedArray[int64](64); return err }, []string{"cuMemHostGetDevicePointer"}},
		{"managed out of memory", "cuMemAllocManaged", driver.ErrorOutOfMemory,
			func() error { _, err := NewManagedArray[float32](64); return err }, []string{"NewManagedArray(64 of float32)", "CUDA_ERROR_OUT_OF_MEMORY"}},
		{"managed memset fails", "cuMemsetD8", driver.ErrorUnknown,
			func() error { _, err := NewManagedArray[float32](64); return err }, []string{"cuMemsetD8"}},
		{"attribute unreadable", "cuDeviceGetAttribute", driver.ErrorUnknown,
			func() error { _, err := NewManagedArray[float32](64); return err }, []string{"cuDeviceGetAttribute"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := fakeGPU(t, fakedriver.Config{})
			f.Inject(fakedriver.Fault{Call: c.fault, Code: c.code})
			err := c.make()
			var de *DriverError
			if !errors.As(err, &de) || de.Code != int(c.code) {
				t.Fatalf("got %v, want a *DriverError %s", err, c.code.Name())
			}
			wantErr(t, c.name, err, c.want...)
			if l := f.Live(); l != (fakedriver.Live{}) {
				t.Errorf("live after the failure: %+v; want nothing", l)
			}
		})
	}

	spec := fakedriver.DefaultDevice()
	spec.Attrs[driver.AttrManagedMemory] = 0
	f := fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{spec}})
	_, err := NewManagedArray[float64](16)
	wantErr(t, "no managed memory", err, "does not support managed memory", "NewMappedArray")
	if n := f.Count("cuMemAllocManaged"); n != 0 {
		t.Errorf("cuMemAllocManaged called %d times on a device without managed memory", n)
	}

	spec = fakedriver.DefaultDevice()
	spec.Attrs[driver.AttrConcurrentManagedAccess] = 0
	fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{spec}})
	a, err := NewManagedArray[float64](16)
	if err != nil {
		t.Fatal(err)
	}
	if a.ConcurrentAccess() {
		t.Error("ConcurrentAccess is true on a device without concurrent managed access")
	}
	if err := a.Free(); err != nil {
		t.Fatal(err)
	}
}

// MemInfo answers on every backend: the device's memory on the GPU (which
// an allocation reduces), the host's elsewhere.
func TestMemInfo(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		free, total, err := MemInfo()
		if err != nil {
			t.Fatal(err)
		}
		if total <= 0 || free <= 0 || free > total {
			t.Fatalf("MemInfo = %d free of %d", free, total)
		}
		if !strings.HasPrefix(backend, "gpu") {
			return
		}
		if total != 1<<30 {
			t.Errorf("total %d, want the fake device's 1 GiB", total)
		}
		d, err := NewDeviceArray[byte](1 << 20)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Free()
		if f2, _, err := MemInfo(); err != nil || f2 != free-1<<20 {
			t.Errorf("free after a 1 MiB allocation: %d, %v; want %d", f2, err, free-1<<20)
		}
	})
	f := fakeGPU(t, fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuMemGetInfo", Code: driver.ErrorUnknown})
	_, _, err := MemInfo()
	var de *DriverError
	if !errors.As(err, &de) {
		t.Fatalf("MemInfo with a failing driver: %v; want a *DriverError", err)
	}
	wantErr(t, "MemInfo", err, "MemInfo: device 0", "CUDA_ERROR_UNKNOWN")
}

// Limits: CUDA's defaults at first, set values read back (the fake
// driver rounds the stack size up, as drivers may), bad limits and values
// refused before any backend sees them.
func TestLimits(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		for _, c := range []struct {
			limit      Limit
			def, value int
			want       []int // what GetLimit may answer: the value, or the driver's rounding of it
		}{
			{LimitStackSize, 1024, 2000, []int{2000, 2000}},
			{LimitStackSize, 2000, 1001, []int{1001, 1008}},
			{LimitPrintfFIFOSize, 1 << 20, 8 << 20, []int{8 << 20}},
			{LimitMallocHeapSize, 8 << 20, 0, []int{0}},
		} {
			if v, err := GetLimit(c.limit); err != nil || v != c.def {
				t.Errorf("GetLimit(%s) = %d, %v; want %d", c.limit, v, err, c.def)
			}
			if err := SetLimit(c.limit, c.value); err != nil {
				t.Fatal(err)
			}
			want := c.want[0]
			if strings.HasPrefix(backend, "gpu") {
				want = c.want[len(c.want)-1]
			}
			if v, err := GetLimit(c.limit); err != nil || v != want {
				t.Errorf("GetLimit(%s) after SetLimit(%d) = %d, %v; want %d", c.limit, c.value, v, err, want)
			}
		}
		// Leave the host backends' limits as other tests expect them.
		for l, v := range map[Limit]int{LimitStackSize: 1024, LimitPrintfFIFOSize: 1 << 20, LimitMallocHeapSize: 8 << 20} {
			if err := SetLimit(l, v); err != nil {
				t.Fatal(err)
			}
		}
		wantErr(t, "unknown limit", SetLimit(Limit(9), 1), "unknown limit 9", "LimitStackSize")
		_, err := GetLimit(Limit(-1))
		wantErr(t, "unknown limit", err, "GetLimit", "unknown limit -1")
		wantErr(t, "negative value", SetLimit(LimitStackSize, -8), "SetLimit(stack size, -8)", "negative")
	})
	f := fakeGPU(t, fakedriver.Config{})
	f.Inject(fakedriver.Fault{Call: "cuCtxSetLimit", Code: driver.ErrorInvalidValue})
	wantErr(t, "late printf FIFO", SetLimit(LimitPrintfFIFOSize, 1<<24), "SetLimit(printf FIFO size, 16777216)", "CUDA_ERROR_INVALID_VALUE", "before the first launch")
	f.Inject(fakedriver.Fault{Call: "cuCtxGetLimit", Code: driver.ErrorUnknown})
	_, err := GetLimit(LimitStackSize)
	var de *DriverError
	if !errors.As(err, &de) || de.Code != int(driver.ErrorUnknown) {
		t.Errorf("GetLimit with a failing driver: %v", err)
	}
	if Limit(7).String() != "Limit(7)" || LimitMallocHeapSize.String() != "malloc heap size" {
		t.Errorf("Limit names: %q, %q", Limit(7), LimitMallocHeapSize)
	}
}

// Mapped and managed arrays used from many goroutines at once, each with
// its own arrays and stream, on the backends that run kernels (for the
// race detector: Host, launches, Free).
func TestSharedArraysConcurrently(t *testing.T) {
	for _, b := range robustBackends {
		if b.name == "gpu-fake" {
			continue
		}
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			inc := Jit(testkernels.Increment)
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for g := range 8 {
				wg.Go(func() {
					a, err := sharedKinds[g%2].make(256)
					if err != nil {
						errs <- err
						return
					}
					defer a.Free()
					s, err := NewStream()
					if err != nil {
						errs <- err
						return
					}
					h := a.Host()
					for i := range h {
						h[i] = float64(g)
					}
					for range 3 {
						if err := inc.LaunchWith(LaunchConfig{Grid: Dim1(2), Block: Dim1(128), Stream: s}, a); err != nil {
							errs <- err
							return
						}
					}
					if err := s.Synchronize(); err != nil {
						errs <- err
						return
					}
					if h[255] != float64(g)+3 {
						errs <- fmt.Errorf("goroutine %d sees %v, want %v", g, h[255], g+3)
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// The same on a real GPU, with MemInfo against the device's memory and a
// limit set and read back.
func TestGPUSharedArraysMemInfoAndLimits(t *testing.T) {
	realGPU(t)
	sharedArraysRoundTrip(t, true)
	a, err := NewManagedArray[float64](1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("concurrent managed access: %v", a.ConcurrentAccess())
	_ = a.Free()

	gpus, err := Gpus()
	if err != nil {
		t.Fatal(err)
	}
	free, total, err := MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	// cuMemGetInfo may leave out memory the driver keeps for itself, so the
	// total is at most cuDeviceTotalMem's, not always equal to it.
	if total <= 0 || total > gpus[0].TotalMemory || free <= 0 || free > total {
		t.Fatalf("MemInfo = %d free of %d; the device has %d", free, total, gpus[0].TotalMemory)
	}
	d, err := NewDeviceArray[byte](256 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if f2, _, err := MemInfo(); err != nil || f2 >= free {
		t.Errorf("free after a 256 MiB allocation: %d, %v; before: %d", f2, err, free)
	}
	_ = d.Free()

	old, err := GetLimit(LimitStackSize)
	if err != nil {
		t.Fatal(err)
	}
	if err := SetLimit(LimitStackSize, 8192); err != nil {
		t.Fatal(err)
	}
	if v, err := GetLimit(LimitStackSize); err != nil || v < 8192 {
		t.Errorf("stack size after setting 8 KiB: %d, %v", v, err)
	}
	if err := SetLimit(LimitStackSize, old); err != nil {
		t.Error(err)
	}
	for _, l := range []Limit{LimitPrintfFIFOSize, LimitMallocHeapSize} {
		if v, err := GetLimit(l); err != nil || v <= 0 {
			t.Errorf("GetLimit(%s) = %d, %v", l, v, err)
		}
	}
}
