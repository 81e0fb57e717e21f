package cuda_test

import (
	"os"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// The host side of a GPU launch (binding, cache lookups, packing, the
// context discipline), measured over the fake driver so that the driver's
// own cost is nearly nil: what nugo adds per launch.
func BenchmarkGPULaunchOverheadFake(b *testing.B) {
	for _, bc := range []struct {
		name   string
		stream bool
		host   bool
		view   bool
	}{{"device-array", false, false, false}, {"device-array-stream", true, false, false}, {"host-slice", false, true, false}, {"view", false, false, true}} {
		b.Run(bc.name, func(b *testing.B) {
			fakeGPU(b, fakedriver.Config{})
			d, err := NewDeviceArray[float32](1024)
			if err != nil {
				b.Fatal(err)
			}
			var arg any = d
			if bc.host {
				arg = make([]float32, 1024)
			}
			if bc.view {
				if arg, err = d.Slice(256, 768); err != nil {
					b.Fatal(err)
				}
			}
			cfg := LaunchConfig{Grid: Dim1(4), Block: Dim1(256)}
			if bc.stream {
				if cfg.Stream, err = NewStream(); err != nil {
					b.Fatal(err)
				}
			}
			k := Jit(testkernels.Scale)
			if err := k.LaunchWith(cfg, arg, float32(1)); err != nil { // compiles and loads
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := k.LaunchWith(cfg, arg, float32(1)); err != nil {
					b.Fatal(err)
				}
			}
			if err := Synchronize(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// Asynchronous launches of a small kernel on a real GPU: host time per
// launch, driver included (the kernel itself overlaps with the next launch).
func BenchmarkGPULaunchAsync(b *testing.B) {
	benchOnGPU(b)
	d, err := NewDeviceArray[float32](1024)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Free()
	s, err := NewStream()
	if err != nil {
		b.Fatal(err)
	}
	k := Jit(testkernels.Scale)
	cfg := LaunchConfig{Grid: Dim1(4), Block: Dim1(256), Stream: s}
	if err := k.LaunchWith(cfg, d, float32(1)); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if err := k.LaunchWith(cfg, d, float32(1)); err != nil {
			b.Fatal(err)
		}
		if i++; i%512 == 0 {
			if err := s.Synchronize(); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := s.Synchronize(); err != nil {
		b.Fatal(err)
	}
}

// benchOnGPU selects the GPU backend for the benchmark, or skips it
// without a GPU (fails under NUGO_REQUIRE_GPU=1).
func benchOnGPU(b *testing.B) {
	b.Helper()
	if _, err := Gpus(); err != nil {
		if os.Getenv("NUGO_REQUIRE_GPU") == "1" {
			b.Fatalf("NUGO_REQUIRE_GPU=1 but no GPU can be used: %v", err)
		}
		b.Skipf("SKIP GPU benchmark: %v", err)
	}
	prev, _ := CurrentBackend()
	if err := SetBackend(GPU); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = SetBackend(prev) })
}

// Asynchronous copies of 1 MiB to the device and back on a real GPU (its
// name avoids "GPU": gpu-check runs it with a benchtime of its own), from
// ordinary Go memory (through nugo's staging buffers) and from memory
// pinned with Pin (straight): the throughput Pin buys.
func BenchmarkPinnedCopies(b *testing.B) {
	for _, pin := range []bool{false, true} {
		name := "pageable"
		if pin {
			name = "pinned"
		}
		b.Run(name, func(b *testing.B) {
			benchOnGPU(b)
			host := make([]float32, 1<<18)
			if pin {
				p, err := Pin(host)
				if err != nil {
					b.Fatal(err)
				}
				defer p.Unpin()
			}
			s, err := NewStream()
			if err != nil {
				b.Fatal(err)
			}
			d, err := DeviceArrayLike(host)
			if err != nil {
				b.Fatal(err)
			}
			defer d.Free()
			b.SetBytes(2 * int64(d.Bytes()))
			i := 0
			for b.Loop() {
				if err := d.CopyFromHostAsync(host, s); err != nil {
					b.Fatal(err)
				}
				if err := d.CopyToHostAsync(host, s); err != nil {
					b.Fatal(err)
				}
				if i++; i%64 == 0 {
					if err := s.Synchronize(); err != nil {
						b.Fatal(err)
					}
				}
			}
			if err := s.Synchronize(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
