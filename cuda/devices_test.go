package cuda_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
	"github.com/nugo-dev/nugo/internal/primes"
)

// multiDeviceSetups are the ways of having several devices without a GPU:
// virtual devices of the cpu and ptxsim backends, and the fake driver's
// simulated GPUs. Each makes n devices current for the test and returns a
// function counting module loads (nil where nothing is loaded).
var multiDeviceSetups = []struct {
	name  string
	setup func(t *testing.T, n int) (loads func() int)
}{
	{"cpu", func(t *testing.T, n int) func() int { useHostDevices(t, CPU, n); return nil }},
	{"ptxsim", func(t *testing.T, n int) func() int { useHostDevices(t, PTXSim, n); return nil }},
	{"fake-gpu", func(t *testing.T, n int) func() int {
		devs := make([]fakedriver.DeviceSpec, n)
		for i := range devs {
			devs[i] = fakedriver.DefaultDevice()
		}
		f := fakeGPU(t, fakedriver.Config{Devices: devs, Sim: &fakedriver.SimConfig{}})
		return func() int { return f.Count("cuModuleLoadDataEx") }
	}},
}

// useHostDevices makes backend b, with n virtual devices, current for the
// test; the cpu backend returns after it.
func useHostDevices(t *testing.T, b Backend, n int) {
	t.Helper()
	t.Setenv(VirtualDevicesEnv, fmt.Sprint(n))
	if err := SetBackend(b); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := SetBackend(CPU); err != nil {
			t.Error(err)
		}
	})
}

// TestDevicesConcurrently drives every device from a goroutine of its
// own: arrays, a launch on the device's default stream, one on a stream
// of its own timed by its events, and the copy back; each device's result
// is its own.
func TestDevicesConcurrently(t *testing.T) {
	const n = 3
	for _, c := range multiDeviceSetups {
		t.Run(c.name, func(t *testing.T) {
			loads := c.setup(t, n)
			if got, err := DeviceCount(); err != nil || got != n {
				t.Fatalf("DeviceCount() = %d, %v; want %d", got, err, n)
			}
			devs, err := AllDevices()
			if err != nil || len(devs) != n {
				t.Fatalf("AllDevices() = %v, %v", devs, err)
			}
			k := Jit(testkernels.Increment)
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i, d := range devs {
				if d.ID() != i || !strings.Contains(d.String(), fmt.Sprintf("device %d", i)) {
					t.Errorf("device %d: ID %d, String %q", i, d.ID(), d)
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = useDevice(d, k, i)
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("device %d: %v", i, err)
				}
			}
			// Two goroutines per device, each asking for its device itself.
			errs = make([]error, 2*n)
			for g := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					d, err := DeviceAt(g % n)
					if err == nil {
						err = useDevice(d, k, g)
					}
					errs[g] = err
				}()
			}
			wg.Wait()
			for g, err := range errs {
				if err != nil {
					t.Errorf("goroutine %d on device %d: %v", g, g%n, err)
				}
			}
			if loads != nil {
				if got := loads(); got != n {
					t.Errorf("%d module loads for %d devices, want one per device", got, n)
				}
			}
		})
	}
}

// useDevice runs Increment on device d twice (default stream, then a
// stream of d's) over data that starts at i, and checks the result.
func useDevice(d *DeviceHandle, k *Kernel, i int) error {
	if err := d.Compile(k); err != nil {
		return err
	}
	host := make([]float64, 1000)
	for j := range host {
		host[j] = float64(i*10000 + j)
	}
	a, err := ToDeviceOn(d, host)
	if err != nil {
		return err
	}
	defer a.Free()
	if a.Device().ID() != d.ID() {
		return fmt.Errorf("array on device %d, want %d", a.Device().ID(), d.ID())
	}
	if err := d.Launch(k, Dim1(4), Dim1(256), a); err != nil {
		return err
	}
	s, err := d.NewStream()
	if err != nil {
		return err
	}
	start, err := d.NewEvent()
	if err != nil {
		return err
	}
	end, err := d.NewEvent()
	if err != nil {
		return err
	}
	if err := start.Record(s); err != nil {
		return err
	}
	if err := k.LaunchWith(LaunchConfig{Grid: Dim1(4), Block: Dim1(256), Stream: s}, a); err != nil {
		return err
	}
	if err := end.Record(s); err != nil {
		return err
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	if _, err := ElapsedTime(start, end); err != nil {
		return err
	}
	got, err := a.ToHost()
	if err != nil {
		return err
	}
	for j, v := range got {
		if want := float64(i*10000+j) + 2; v != want {
			return fmt.Errorf("element %d is %v, want %v", j, v, want)
		}
	}
	return d.Synchronize()
}

// TestDeviceArrayBelongsToItsDevice: every use of an array, stream or
// event on another device is an error naming both devices, and CopyPeer
// copies between them.
func TestDeviceArrayBelongsToItsDevice(t *testing.T) {
	for _, c := range multiDeviceSetups {
		t.Run(c.name, func(t *testing.T) {
			c.setup(t, 2)
			d0, err := DeviceAt(0)
			if err != nil {
				t.Fatal(err)
			}
			d1, err := DeviceAt(1)
			if err != nil {
				t.Fatal(err)
			}
			a1, err := ToDeviceOn(d1, []float64{1, 2, 3, 4})
			if err != nil {
				t.Fatal(err)
			}
			a0, err := NewDeviceArrayOn[float64](d0, 4)
			if err != nil {
				t.Fatal(err)
			}
			s0, err := d0.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			e1, err := d1.NewEvent()
			if err != nil {
				t.Fatal(err)
			}
			k := Jit(testkernels.Increment)
			for _, m := range []struct {
				name string
				err  error
			}{
				{"launch on device 0", d0.Launch(k, Dim1(1), Dim1(4), a1)},
				{"launch on device 1's array through the default device", k.Launch(Dim1(1), Dim1(4), a1)},
				{"launch on a stream of device 0", k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(4), Stream: s0}, a1)},
				{"stream of device 0 with Device 1", k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(4), Stream: s0, Device: d1}, a1)},
				{"copy on a stream of device 0", a1.CopyToHostAsync(make([]float64, 4), s0)},
				{"CopyFrom", a0.CopyFrom(a1)},
				{"record on another device's stream", e1.Record(s0)},
			} {
				if m.err == nil || !strings.Contains(m.err.Error(), "device 0") || !strings.Contains(m.err.Error(), "device 1") {
					t.Errorf("%s: %v; want an error naming devices 0 and 1", m.name, m.err)
				}
			}
			if err := CopyPeer(a0, a1); err != nil {
				t.Fatal(err)
			}
			got, err := a0.ToHost()
			if err != nil || fmt.Sprint(got) != "[1 2 3 4]" {
				t.Fatalf("after CopyPeer device 0 holds %v, %v", got, err)
			}
			half, err := a1.Slice(0, 2)
			if err != nil {
				t.Fatal(err)
			}
			if err := CopyPeer(a0, half); err == nil {
				t.Error("CopyPeer of different lengths succeeded")
			}
			if _, err := DeviceAt(2); err == nil || !strings.Contains(err.Error(), "device 2 does not exist") {
				t.Errorf("DeviceAt(2) of 2 = %v", err)
			}
			var bad DeviceHandle
			if _, err := NewDeviceArrayOn[float64](&bad, 1); err == nil {
				t.Error("an array on a zero DeviceHandle was made")
			}
			if err := (*DeviceHandle)(nil).Launch(k, Dim1(1), Dim1(1), a0); err == nil {
				t.Error("a launch on a nil DeviceHandle succeeded")
			}
		})
	}
}

// TestVirtualDevicesEnv: bad values of the variable are errors that name
// it; unset, there is one device.
func TestVirtualDevicesEnv(t *testing.T) {
	for _, c := range []struct {
		val  string
		want int
		err  string
	}{
		{"", 1, ""},
		{"4", 4, ""},
		{"0", 0, VirtualDevicesEnv},
		{"x", 0, VirtualDevicesEnv},
		{"100000", 0, VirtualDevicesEnv},
	} {
		t.Setenv(VirtualDevicesEnv, c.val)
		n, err := DeviceCount()
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s=%q: %d, %v; want an error naming the variable", VirtualDevicesEnv, c.val, n, err)
			}
			continue
		}
		if err != nil || n != c.want {
			t.Errorf("%s=%q: %d, %v; want %d", VirtualDevicesEnv, c.val, n, err, c.want)
		}
	}
}

// TestVirtualFault: the injected fault fails one device's launches from
// the one named on, with an error naming the device; the others run.
func TestVirtualFault(t *testing.T) {
	for _, b := range []Backend{CPU, PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			useHostDevices(t, b, 2)
			t.Setenv(VirtualFaultEnv, "1:2")
			k := Jit(testkernels.Increment)
			d0, _ := DeviceAt(0)
			d1, _ := DeviceAt(1)
			data := make([]float64, 4)
			for i, want := range []string{"", "injected fault"} {
				if err := d0.Launch(k, Dim1(1), Dim1(4), data); err != nil {
					t.Errorf("launch %d on device 0: %v", i+1, err)
				}
				err := d1.Launch(k, Dim1(1), Dim1(4), data)
				if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "device 1")) {
					t.Errorf("launch %d on device 1: %v; want %q", i+1, err, want)
				}
			}
			// Unset and set again, it counts afresh.
			t.Setenv(VirtualFaultEnv, "")
			if err := d1.Launch(k, Dim1(1), Dim1(4), data); err != nil {
				t.Errorf("device 1 with %s unset: %v", VirtualFaultEnv, err)
			}
			t.Setenv(VirtualFaultEnv, "1:2")
			if err := d1.Launch(k, Dim1(1), Dim1(4), data); err != nil {
				t.Errorf("device 1's first launch after %s is set again: %v", VirtualFaultEnv, err)
			}
			t.Setenv(VirtualFaultEnv, "1")
			if err := d1.Launch(k, Dim1(1), Dim1(4), data); err == nil || !strings.Contains(err.Error(), VirtualFaultEnv) {
				t.Errorf("a malformed %s: %v", VirtualFaultEnv, err)
			}
		})
	}
}

// TestFakeGPUEnvDevices: NUGO_FAKE_GPU=N gives N simulated GPUs.
func TestFakeGPUEnvDevices(t *testing.T) {
	ForgetBackend(t)
	t.Setenv("NUGO_BACKEND", "gpu")
	t.Setenv(FakeGPUEnv, "3")
	n, err := DeviceCount()
	if err != nil || n != 3 {
		t.Fatalf("%s=3: DeviceCount() = %d, %v", FakeGPUEnv, n, err)
	}
	d, err := DeviceAt(2)
	if err != nil {
		t.Fatal(err)
	}
	info, err := d.Info()
	if err != nil || info.ID != 2 || !strings.Contains(info.Name, "fake") || d.Backend() != GPU {
		t.Fatalf("device 2: %+v, %v", info, err)
	}
	data := []float64{1, 2}
	if err := d.Launch(Jit(testkernels.Increment), Dim1(1), Dim1(32), data); err != nil || data[1] != 3 {
		t.Fatalf("launch on simulated GPU 2: %v, data %v", err, data)
	}
	ForgetBackend(t)
	t.Setenv(FakeGPUEnv, "0x")
	if _, err := DeviceCount(); err == nil || !strings.Contains(err.Error(), FakeGPUEnv) {
		t.Fatalf("%s=0x: %v", FakeGPUEnv, err)
	}
}

// TestGPUCopyPeer: between simulated GPUs CopyPeer is one
// cuMemcpyPeerAsync, with peer access enabled once per direction.
func TestGPUCopyPeer(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{Devices: []fakedriver.DeviceSpec{fakedriver.DefaultDevice(), fakedriver.DefaultDevice()}, Sim: &fakedriver.SimConfig{}})
	d0, _ := DeviceAt(0)
	d1, _ := DeviceAt(1)
	src, err := ToDeviceOn(d0, []int32{1, 2, 3, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	dst, err := NewDeviceArrayOn[int32](d1, 5)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := CopyPeer(dst, src); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := dst.ToHost(); err != nil || fmt.Sprint(got) != "[1 2 3 4 5]" {
		t.Fatalf("device 1 after CopyPeer: %v, %v", got, err)
	}
	if n := f.Count("cuMemcpyPeerAsync"); n != 2 {
		t.Errorf("%d peer copies, want 2", n)
	}
	if n := f.Count("cuCtxEnablePeerAccess"); n != 1 || !f.PeerAccess(0, 1) {
		t.Errorf("peer access enabled %d times (0→1: %v), want once", n, f.PeerAccess(0, 1))
	}
	if err := src.Free(); err != nil {
		t.Fatal(err)
	}
	if err := CopyPeer(dst, src); err == nil || !strings.Contains(err.Error(), "Free") {
		t.Errorf("CopyPeer from a freed array: %v", err)
	}
}

// TestGPUPrimesOnSeveralDevices runs the capstone job over three simulated
// GPUs: the kernel is loaded once per device, every device takes chunks,
// and the checksum and results are the single device's.
func TestGPUPrimesOnSeveralDevices(t *testing.T) {
	devs := make([]fakedriver.DeviceSpec, 3)
	for i := range devs {
		devs[i] = fakedriver.DefaultDevice()
	}
	f := fakeGPU(t, fakedriver.Config{Devices: devs, Sim: &fakedriver.SimConfig{}})
	var one, all bytes.Buffer
	want, err := primes.Run(primes.Config{N: 5_000, Chunk: 400, Out: &one})
	if err != nil {
		t.Fatal(err)
	}
	handles, err := AllDevices()
	if err != nil {
		t.Fatal(err)
	}
	before := f.Count("cuModuleLoadDataEx")
	res, err := primes.Run(primes.Config{N: 5_000, Chunk: 400, Out: &all, Devices: handles})
	if err != nil {
		t.Fatal(err)
	}
	if res.Checksum != want.Checksum || !bytes.Equal(one.Bytes(), all.Bytes()) {
		t.Fatalf("three GPUs: checksum %d, %d bytes; one: %d, %d bytes", res.Checksum, all.Len(), want.Checksum, one.Len())
	}
	chunks := 0
	for _, d := range res.PerDevice {
		chunks += d.Chunks
	}
	if chunks != 13 || len(res.PerDevice) != 3 {
		t.Errorf("per device %+v, want 13 chunks in all", res.PerDevice)
	}
	if n := f.Count("cuModuleLoadDataEx") - before; n != 3 {
		t.Errorf("%d module loads for the run on three devices, want one per device", n)
	}
}
