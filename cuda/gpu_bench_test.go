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
	defer SetBackend(prev)
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
