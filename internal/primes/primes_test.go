package primes

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nugo-dev/nugo/cuda"
)

func TestFactorSum(t *testing.T) {
	for n, want := range map[int64]int64{0: 0, 1: 0, 2: 2, 4: 4, 60: 12, 91: 20, 101: 101, 100_000_000: 56, 1<<40 + 0: 80, 999_999_937: 999_999_937} {
		if got := FactorSum(n); got != want {
			t.Errorf("FactorSum(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestRunChecksums(t *testing.T) {
	tests := []struct {
		n, chunk int64
		want     int64
	}{
		{100_000, 0, 795571828},
		{1_000_000, 0, 64989338772},
		{1_000_000, 77_777, 64989338772}, // uneven chunks, a short last one
	}
	for _, tc := range tests {
		var progress []int64
		res, err := Run(Config{N: tc.n, Chunk: int(tc.chunk), Samples: 10, Progress: func(d int64) { progress = append(progress, d) }})
		if err != nil {
			t.Fatal(err)
		}
		if res.Checksum != tc.want {
			t.Errorf("N=%d chunk=%d: checksum %d, want %d", tc.n, tc.chunk, res.Checksum, tc.want)
		}
		if len(progress) == 0 || progress[len(progress)-1] != tc.n-1 {
			t.Errorf("progress %v does not end at %d", progress, tc.n-1)
		}
		if res.Verified == 0 || res.KernelTime <= 0 || res.Throughput() <= 0 {
			t.Errorf("result %+v lacks verification or timing", res)
		}
	}
}

func TestRunWritesEveryResult(t *testing.T) {
	var buf bytes.Buffer
	res, err := Run(Config{N: 1_000, Chunk: 300, Out: &buf})
	if err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 999*8 {
		t.Fatalf("wrote %d bytes, want %d", buf.Len(), 999*8)
	}
	for i := range 999 {
		if got := int64(binary.LittleEndian.Uint64(buf.Bytes()[8*i:])); got != FactorSum(int64(i+2)) {
			t.Fatalf("result %d is %d, want %d", i+2, got, FactorSum(int64(i+2)))
		}
	}
	if res.First[0] != 2 || res.Last[2] != FactorSum(1000) {
		t.Errorf("first %v last %v", res.First, res.Last)
	}
}

func TestRunRejectsSmallN(t *testing.T) {
	if _, err := Run(Config{N: 1}); err == nil {
		t.Fatal("N=1 accepted")
	}
}

// useDevices makes backend b current with n virtual devices and returns
// them; the cpu backend returns after the test. (The fake driver's
// simulated GPUs run the job in cuda's TestGPUPrimesOnSeveralDevices,
// where the fake can be installed and removed for one test.)
func useDevices(t *testing.T, b cuda.Backend, n int) []*cuda.DeviceHandle {
	t.Helper()
	t.Setenv(cuda.VirtualDevicesEnv, fmt.Sprint(n))
	if err := cuda.SetBackend(b); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cuda.SetBackend(cuda.CPU); err != nil {
			t.Error(err)
		}
	})
	devs, err := cuda.AllDevices()
	if err != nil || len(devs) != n {
		t.Fatalf("AllDevices() = %v, %v; want %d", devs, err, n)
	}
	return devs
}

// TestRunOnSeveralDevices: the chunks shared over several devices give
// the checksum and the output of a single-device run, and every device
// takes part.
func TestRunOnSeveralDevices(t *testing.T) {
	for _, c := range []struct {
		backend  cuda.Backend
		devices  int
		n, chunk int64
	}{
		{cuda.CPU, 1, 200_000, 7_000},
		{cuda.CPU, 4, 200_000, 7_000},
		{cuda.CPU, 3, 1_000, 1_000}, // one chunk for three devices
		{cuda.PTXSim, 3, 5_000, 600},
	} {
		t.Run(fmt.Sprintf("%s-%d", c.backend, c.devices), func(t *testing.T) {
			devs := useDevices(t, c.backend, c.devices)
			var want bytes.Buffer
			single, err := Run(Config{N: c.n, Chunk: int(c.chunk), Out: &want})
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			var progress []int64
			res, err := Run(Config{N: c.n, Chunk: int(c.chunk), Out: &got, Devices: devs, Samples: 5,
				Progress: func(d int64) { progress = append(progress, d) }})
			if err != nil {
				t.Fatal(err)
			}
			if res.Checksum != single.Checksum || !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%d devices: checksum %d and %d bytes; one device: %d and %d bytes", c.devices, res.Checksum, got.Len(), single.Checksum, want.Len())
			}
			if fmt.Sprint(res.First, res.Last) != fmt.Sprint(single.First, single.Last) {
				t.Errorf("first/last %v %v, one device %v %v", res.First, res.Last, single.First, single.Last)
			}
			if len(progress) == 0 || progress[len(progress)-1] != c.n-1 {
				t.Errorf("progress %v does not end at %d", progress, c.n-1)
			}
			var chunks int
			var numbers int64
			for _, d := range res.PerDevice {
				chunks += d.Chunks
				numbers += d.Numbers
			}
			if chunks != int((c.n-1+c.chunk-1)/c.chunk) || numbers != c.n-1 || len(res.PerDevice) != c.devices {
				t.Errorf("per device %+v: %d chunks, %d numbers", res.PerDevice, chunks, numbers)
			}
		})
	}
}

// TestRunDeviceFailure: a device that fails mid-run stops the run with an
// error naming it and its chunk, and the output lacks results.
func TestRunDeviceFailure(t *testing.T) {
	for _, b := range []cuda.Backend{cuda.CPU, cuda.PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			devs := useDevices(t, b, 3)
			t.Setenv(cuda.VirtualFaultEnv, "2:2")
			var out bytes.Buffer
			const n = 30_000
			// The healthy devices are slowed down, so that device 2 surely
			// reaches its second launch before they run out of chunks.
			res, err := Run(Config{N: n, Chunk: 500, Out: &out, Devices: devs, beforeLaunch: func(i, _ int) {
				if i != 2 {
					time.Sleep(2 * time.Millisecond)
				}
			}})
			var de *DeviceError
			if !errors.As(err, &de) || !strings.Contains(err.Error(), "device 2") || !strings.Contains(err.Error(), "chunk ") ||
				!strings.Contains(err.Error(), "injected fault") {
				t.Fatalf("run with a failing device: %v; want a DeviceError naming device 2 and its chunk", err)
			}
			if de.Last-de.First+1 != 500 {
				t.Errorf("failed chunk %d..%d", de.First, de.Last)
			}
			var done int64
			for _, d := range res.PerDevice {
				done += d.Numbers
			}
			if done >= n-1-500 {
				t.Errorf("the devices computed %d of %d numbers: the others did not stop", done, n-1)
			}
			if out.Len() >= (n-1)*8 {
				t.Errorf("the output of a failed run holds %d bytes, as many as a complete one", out.Len())
			}
		})
	}
}

// BenchmarkRunDevices runs 2..10^6 on one and on four virtual cpu devices,
// side by side: the four share the same cores, so the ratio is the cost of
// the queue, the in-order collection and four concurrent launches.
func BenchmarkRunDevices(b *testing.B) {
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("devices=%d", n), func(b *testing.B) {
			b.Setenv(cuda.VirtualDevicesEnv, fmt.Sprint(n))
			if err := cuda.SetBackend(cuda.CPU); err != nil {
				b.Fatal(err)
			}
			devs, err := cuda.AllDevices()
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := Run(Config{N: 1_000_000, Chunk: 50_000, Devices: devs}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRunSlowDeviceTakesFewerChunks: the chunks go through a queue, so a
// device slowed down before each launch takes fewer than the others, and
// the results do not change.
func TestRunSlowDeviceTakesFewerChunks(t *testing.T) {
	devs := useDevices(t, cuda.CPU, 3)
	want, err := Run(Config{N: 20_000, Chunk: 500})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(Config{N: 20_000, Chunk: 500, Devices: devs, beforeLaunch: func(i, _ int) {
		if i == 0 {
			time.Sleep(50 * time.Millisecond)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Checksum != want.Checksum {
		t.Fatalf("checksum %d, want %d", res.Checksum, want.Checksum)
	}
	slow := res.PerDevice[0].Chunks
	for _, d := range res.PerDevice[1:] {
		if d.Chunks <= slow {
			t.Errorf("per device %+v: the slow device 0 took %d chunks, %s %d", res.PerDevice, slow, d.Device, d.Chunks)
		}
	}
}
