package fakedriver_test

import (
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// Mapped memory, allocated (cuMemHostAlloc) or registered Go memory
// (cuMemHostRegister): one set of bytes with a host and a device address;
// a kernel in the interpreter writes them and the host sees the store
// without a copy; freeing or unregistering unmaps them.
func TestMappedMemory(t *testing.T) {
	goMem := make([]uint64, 8)
	for _, c := range []struct {
		name   string
		mapped func(f *fakedriver.Fake) (unsafe.Pointer, error)
		live   fakedriver.Live
		undo   func(f *fakedriver.Fake, p unsafe.Pointer) error
	}{
		{"allocated", func(f *fakedriver.Fake) (unsafe.Pointer, error) {
			return f.MemHostAlloc(64, driver.HostAllocDeviceMap|driver.HostAllocPortable)
		}, fakedriver.Live{HostAllocs: 1, Modules: 1}, (*fakedriver.Fake).MemFreeHost},
		{"registered", func(f *fakedriver.Fake) (unsafe.Pointer, error) {
			p := unsafe.Pointer(&goMem[0])
			return p, f.MemHostRegister(p, 64, driver.HostRegisterDeviceMap|driver.HostRegisterPortable)
		}, fakedriver.Live{Registered: 1, Modules: 1}, (*fakedriver.Fake).MemHostUnregister},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := ready(t, fakedriver.Config{Sim: &fakedriver.SimConfig{}})
			h, err := c.mapped(f)
			if err != nil {
				t.Fatal(err)
			}
			d, err := f.MemHostGetDevicePointer(h)
			if err != nil {
				t.Fatal(err)
			}
			if inner, err := f.MemHostGetDevicePointer(unsafe.Add(h, 12)); err != nil || inner != d+12 {
				t.Errorf("device pointer of an interior address = %#x, %v; want %#x", inner, err, d+12)
			}
			m, _, err := f.ModuleLoadData(simPTX, driver.JITOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if l := f.Live(); l != c.live {
				t.Errorf("live with one mapped range: %+v; want %+v", l, c.live)
			}
			poke, _ := f.ModuleGetFunction(m, "poke")
			var pr driver.Params
			pr.AddPtr(d + 8)
			one := driver.Dim3{X: 1, Y: 1, Z: 1}
			if err := f.LaunchKernel(poke, one, one, 0, 0, &pr); err != nil {
				t.Fatal(err)
			}
			if err := f.CtxSynchronize(); err != nil {
				t.Fatal(err)
			}
			if got := *(*uint32)(unsafe.Add(h, 8)); got != 7 {
				t.Fatalf("host sees %d at the kernel's store, want 7", got)
			}
			wantCode(t, f.MemFree(d), "cuMemFree", driver.ErrorInvalidValue)
			if err := c.undo(f, h); err != nil {
				t.Fatal(err)
			}
			if _, err := f.MemHostGetDevicePointer(h); err == nil {
				t.Fatal("device pointer of unmapped memory")
			}
			if _, err := f.Read(d, 4); err == nil {
				t.Fatal("the device address of unmapped memory is still readable")
			}
		})
	}
}

// Only mapped page-locked memory has a device address.
func TestMemHostGetDevicePointerRefuses(t *testing.T) {
	f := ready(t, fakedriver.Config{})
	plain, err := f.MemHostAlloc(64, driver.HostAllocPortable)
	if err != nil {
		t.Fatal(err)
	}
	goMem, registered := make([]byte, 64), make([]byte, 64)
	if err := f.MemHostRegister(unsafe.Pointer(&registered[0]), 64, driver.HostRegisterPortable); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]unsafe.Pointer{"unmapped page-locked": plain, "registered unmapped": unsafe.Pointer(&registered[0]),
		"Go memory": unsafe.Pointer(&goMem[0]), "nil": nil} {
		_, err := f.MemHostGetDevicePointer(p)
		if driver.Code(err) != driver.ErrorInvalidValue || !strings.Contains(err.Error(), "DEVICEMAP") {
			t.Errorf("%s: %v, want CUDA_ERROR_INVALID_VALUE naming the flag", name, err)
		}
	}
}

// Managed memory: its address works on both sides, counts against the
// device's memory, and is freed by cuMemFree.
func TestManagedMemory(t *testing.T) {
	spec := fakedriver.DefaultDevice()
	spec.TotalMem = 4096
	f := ready(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{spec}, Sim: &fakedriver.SimConfig{}})
	p, err := f.MemAllocManaged(1024, driver.MemAttachGlobal)
	if err != nil {
		t.Fatal(err)
	}
	d := driver.DevicePtr(uintptr(p))
	if free, _, _ := f.MemGetInfo(); free != 3072 {
		t.Errorf("free after a 1 KiB managed allocation = %d, want 3072", free)
	}
	if err := f.MemsetD8(d, 0, 1024); err != nil {
		t.Fatal(err)
	}
	// A memset of managed memory is synchronous: no wait needed to see it.
	if b := unsafe.Slice((*byte)(p), 1024); b[0] != 0 || b[1023] != 0 {
		t.Fatalf("memset not visible on the host: %d %d", b[0], b[1023])
	}
	m, _, err := f.ModuleLoadData(simPTX, driver.JITOptions{})
	if err != nil {
		t.Fatal(err)
	}
	poke, _ := f.ModuleGetFunction(m, "poke")
	var pr driver.Params
	pr.AddPtr(d + 100)
	one := driver.Dim3{X: 1, Y: 1, Z: 1}
	if err := f.LaunchKernel(poke, one, one, 0, 0, &pr); err != nil {
		t.Fatal(err)
	}
	if err := f.CtxSynchronize(); err != nil {
		t.Fatal(err)
	}
	if got := *(*uint32)(unsafe.Add(p, 100)); got != 7 {
		t.Fatalf("host sees %d at the kernel's store, want 7", got)
	}
	for _, c := range []struct {
		name  string
		bytes int
		flags driver.MemAttachFlags
		code  driver.Result
	}{
		{"too large", 4096, driver.MemAttachGlobal, driver.ErrorOutOfMemory},
		{"zero bytes", 0, driver.MemAttachGlobal, driver.ErrorInvalidValue},
		{"single-stream flag", 64, 4, driver.ErrorInvalidValue},
	} {
		if _, err := f.MemAllocManaged(c.bytes, c.flags); driver.Code(err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, err, c.code.Name())
		}
	}
	if err := f.MemFree(d); err != nil {
		t.Fatal(err)
	}
	if l := f.Live(); l.Allocs != 0 || l.Bytes != 0 {
		t.Fatalf("live after MemFree: %+v", l)
	}
}

// Prefetch and advice: accepted calls are recorded with their exact
// arguments; each wrong argument is the error CUDA gives for it, and is
// not recorded.
func TestPrefetchAndAdvise(t *testing.T) {
	noConcurrent := fakedriver.DefaultDevice()
	noConcurrent.Attrs[driver.AttrConcurrentManagedAccess] = 0
	f := ready(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{fakedriver.DefaultDevice(), noConcurrent}})
	p, err := f.MemAllocManaged(8192, driver.MemAttachGlobal)
	if err != nil {
		t.Fatal(err)
	}
	m := driver.DevicePtr(uintptr(p))
	plain, err := f.MemAlloc(4096)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.StreamCreate(driver.StreamDefault)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.MemPrefetchAsync(m+4096, 4096, 0, s); err != nil {
		t.Fatal(err)
	}
	if err := f.MemPrefetchAsync(m, 100, driver.DeviceCPU, 0); err != nil {
		t.Fatal(err)
	}
	want := []fakedriver.Prefetch{{Ptr: m + 4096, Bytes: 4096, Device: 0, Stream: s}, {Ptr: m, Bytes: 100, Device: driver.DeviceCPU}}
	if got := f.Prefetches(); !slices.Equal(got, want) {
		t.Errorf("Prefetches = %+v, want %+v", got, want)
	}
	for _, a := range []driver.MemAdvice{driver.AdviseSetReadMostly, driver.AdviseUnsetReadMostly, driver.AdviseSetPreferredLocation,
		driver.AdviseUnsetPreferredLocation, driver.AdviseSetAccessedBy, driver.AdviseUnsetAccessedBy} {
		if err := f.MemAdvise(m, 8192, a, 1); err != nil {
			t.Errorf("advice %d: %v", a, err)
		}
	}
	if got := f.Advice(); len(got) != 6 || got[2] != (fakedriver.Advice{Ptr: m, Bytes: 8192, Advice: driver.AdviseSetPreferredLocation, Device: 1}) {
		t.Errorf("Advice = %+v", got)
	}
	for _, c := range []struct {
		name string
		err  error
		code driver.Result
	}{
		{"prefetch of device memory", f.MemPrefetchAsync(plain, 64, 0, 0), driver.ErrorInvalidValue},
		{"prefetch past the end", f.MemPrefetchAsync(m+4096, 4097, 0, 0), driver.ErrorInvalidValue},
		{"prefetch of no bytes", f.MemPrefetchAsync(m, 0, 0, 0), driver.ErrorInvalidValue},
		{"prefetch to device 2", f.MemPrefetchAsync(m, 64, 2, 0), driver.ErrorInvalidDevice},
		{"prefetch to device -2", f.MemPrefetchAsync(m, 64, -2, 0), driver.ErrorInvalidDevice},
		{"prefetch to a GPU without concurrent access", f.MemPrefetchAsync(m, 64, 1, 0), driver.ErrorInvalidDevice},
		{"prefetch on a bad stream", f.MemPrefetchAsync(m, 64, 0, 0x999), driver.ErrorInvalidHandle},
		{"advice about device memory", f.MemAdvise(plain, 64, driver.AdviseSetReadMostly, 0), driver.ErrorInvalidValue},
		{"advice 7", f.MemAdvise(m, 64, 7, 0), driver.ErrorInvalidValue},
		{"advice 0", f.MemAdvise(m, 64, 0, 0), driver.ErrorInvalidValue},
		{"advice about device 5", f.MemAdvise(m, 64, driver.AdviseSetAccessedBy, 5), driver.ErrorInvalidDevice},
	} {
		if driver.Code(c.err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, c.err, c.code.Name())
		}
	}
	// Read-mostly ignores the device, as CUDA does.
	if err := f.MemAdvise(m, 64, driver.AdviseSetReadMostly, 5); err != nil {
		t.Errorf("read-mostly advice with device 5: %v", err)
	}
	if len(f.Prefetches()) != 2 || len(f.Advice()) != 7 {
		t.Errorf("failed calls were recorded: %d prefetches, %d advice", len(f.Prefetches()), len(f.Advice()))
	}

	// On the device without concurrent managed access even a prefetch to
	// the host is refused: the stream's device needs it too.
	c, err := f.PrimaryCtxRetain(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.CtxSetCurrent(c); err != nil {
		t.Fatal(err)
	}
	if err := f.MemPrefetchAsync(m, 64, driver.DeviceCPU, 0); driver.Code(err) != driver.ErrorInvalidDevice {
		t.Errorf("prefetch from a device without concurrent access: %v, want CUDA_ERROR_INVALID_DEVICE", err)
	}
}

// A device without managed memory refuses it as CUDA does.
func TestManagedMemoryUnsupported(t *testing.T) {
	spec := fakedriver.DefaultDevice()
	spec.Attrs[driver.AttrManagedMemory] = 0
	f := ready(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{spec}})
	if _, err := f.MemAllocManaged(64, driver.MemAttachGlobal); driver.Code(err) != driver.ErrorNotSupported {
		t.Fatalf("MemAllocManaged = %v, want CUDA_ERROR_NOT_SUPPORTED", err)
	}
}

// Limits start at CUDA's defaults, keep what is set (the stack size
// rounded up as the driver may), refuse unknown limits, and go back to
// the defaults with the context.
func TestLimits(t *testing.T) {
	f := ready(t, fakedriver.Config{})
	for _, c := range []struct {
		limit    driver.Limit
		def, set int
		want     int
	}{
		{driver.LimitStackSize, 1024, 1000, 1008},
		{driver.LimitPrintfFIFOSize, 1 << 20, 4 << 20, 4 << 20},
		{driver.LimitMallocHeapSize, 8 << 20, 0, 0},
	} {
		if v, err := f.CtxGetLimit(c.limit); err != nil || v != c.def {
			t.Errorf("limit %d before a set = %d, %v; want %d", c.limit, v, err, c.def)
		}
		if err := f.CtxSetLimit(c.limit, c.set); err != nil {
			t.Fatal(err)
		}
		if v, err := f.CtxGetLimit(c.limit); err != nil || v != c.want {
			t.Errorf("limit %d after setting %d = %d, %v; want %d", c.limit, c.set, v, err, c.want)
		}
	}
	wantCode(t, f.CtxSetLimit(99, 1), "cuCtxSetLimit", driver.ErrorUnsupportedLimit)
	_, err := f.CtxGetLimit(99)
	wantCode(t, err, "cuCtxGetLimit", driver.ErrorUnsupportedLimit)
	wantCode(t, f.CtxSetLimit(driver.LimitStackSize, -1), "cuCtxSetLimit", driver.ErrorInvalidValue)

	d, _ := f.DeviceGet(0)
	if err := f.PrimaryCtxRelease(d); err != nil {
		t.Fatal(err)
	}
	c, err := f.PrimaryCtxRetain(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.CtxSetCurrent(c); err != nil {
		t.Fatal(err)
	}
	if v, err := f.CtxGetLimit(driver.LimitPrintfFIFOSize); err != nil || v != 1<<20 {
		t.Errorf("printf FIFO size in a new context = %d, %v; want the default", v, err)
	}
}
