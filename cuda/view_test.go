package cuda_test

// Views of device arrays (DeviceArray.Slice and Reshape) on every backend:
// shapes and contents, partial copies, kernels on views against the CPU
// backend, overlapping views as aliasing arguments, lifetime, and errors.

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// iota32 is 0, 1, ..., n-1 plus base.
func iota32(n int, base float32) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = base + float32(i)
	}
	return x
}

// mustDevice copies host to a new device array, freed when the test ends.
func mustDevice[T Number](t *testing.T, host []T, shape ...int) *DeviceArray[T] {
	t.Helper()
	d, err := ToDevice(host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Free() })
	if len(shape) > 0 {
		r, err := d.Reshape(shape...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	return d
}

// slice is d.Slice(lo, hi), failing the test on an error.
func slice[T Number](t testing.TB, d *DeviceArray[T], lo, hi int) *DeviceArray[T] {
	t.Helper()
	v, err := d.Slice(lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// reshape is d.Reshape(shape...), failing the test on an error.
func reshape[T Number](t testing.TB, d *DeviceArray[T], shape ...int) *DeviceArray[T] {
	t.Helper()
	v, err := d.Reshape(shape...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// toHost is d.ToHost(), failing the test on an error.
func toHost[T Number](t testing.TB, d *DeviceArray[T]) []T {
	t.Helper()
	h, err := d.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestDeviceArrayViewShapes(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		host := iota32(24, 0)
		for _, c := range []struct {
			name  string
			view  func(d *DeviceArray[float32]) (*DeviceArray[float32], error)
			shape []int
			data  []float32
		}{
			{"slice", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) { return d.Slice(3, 10) }, []int{7}, host[3:10]},
			{"whole", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) { return d.Slice(0, 24) }, []int{24}, host},
			{"empty at the end", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) { return d.Slice(24, 24) }, []int{0}, []float32{}},
			{"empty inside", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) { return d.Slice(5, 5) }, []int{0}, []float32{}},
			{"slice of a slice", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) {
				v, err := d.Slice(4, 20)
				if err != nil {
					return nil, err
				}
				return v.Slice(2, 9)
			}, []int{7}, host[6:13]},
			{"2-D", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) { return d.Reshape(4, 6) }, []int{4, 6}, host},
			{"3-D", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) { return d.Reshape(2, 3, 4) }, []int{2, 3, 4}, host},
			{"inferred", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) { return d.Reshape(2, -1, 3) }, []int{2, 4, 3}, host},
			{"slice of 2-D", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) {
				v, err := d.Reshape(4, 6)
				if err != nil {
					return nil, err
				}
				return v.Slice(5, 17) // row-major: across rows 0 to 2
			}, []int{12}, host[5:17]},
			{"reshaped slice", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) {
				v, err := d.Slice(6, 18)
				if err != nil {
					return nil, err
				}
				return v.Reshape(3, 4)
			}, []int{3, 4}, host[6:18]},
			{"flattened", func(d *DeviceArray[float32]) (*DeviceArray[float32], error) {
				v, err := d.Reshape(2, 12)
				if err != nil {
					return nil, err
				}
				return v.Reshape(-1)
			}, []int{24}, host},
		} {
			t.Run(c.name, func(t *testing.T) {
				d := mustDevice(t, host)
				v, err := callView(t, c.name, func() (*DeviceArray[float32], error) { return c.view(d) })
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(v.Shape(), c.shape) || v.Len() != len(c.data) || v.Bytes() != 4*len(c.data) {
					t.Errorf("Shape %v Len %d Bytes %d; want %v, %d, %d", v.Shape(), v.Len(), v.Bytes(), c.shape, len(c.data), 4*len(c.data))
				}
				got, err := v.ToHost()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, c.data) {
					t.Errorf("ToHost = %v, want %v", got, c.data)
				}
				// The parent is unchanged by making views.
				if !slices.Equal(d.Shape(), []int{24}) {
					t.Errorf("the parent's shape became %v", d.Shape())
				}
			})
		}
	})
}

// callView is call for functions that return a view.
func callView(t *testing.T, what string, f func() (*DeviceArray[float32], error)) (v *DeviceArray[float32], err error) {
	t.Helper()
	err = call(t, what, func() error {
		var e error
		v, e = f()
		return e
	})
	return v, err
}

func TestDeviceArrayViewErrors(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		d := mustDevice(t, iota32(10, 0))
		var nilArr *DeviceArray[float32]
		zero := &DeviceArray[float32]{}
		freed, err := NewDeviceArray[float32](4)
		if err != nil {
			t.Fatal(err)
		}
		if err := freed.Free(); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			f    func() (*DeviceArray[float32], error)
			want []string
			is   error
		}{
			{"past the end", func() (*DeviceArray[float32], error) { return d.Slice(3, 20) },
				[]string{"Slice [3:20] of a device array of 10 elements", "past the end"}, nil},
			{"one past the end", func() (*DeviceArray[float32], error) { return d.Slice(11, 11) },
				[]string{"Slice [11:11] of a device array of 10 elements"}, nil},
			{"negative", func() (*DeviceArray[float32], error) { return d.Slice(-1, 4) },
				[]string{"Slice [-1:4]", "negative"}, nil},
			{"inverted", func() (*DeviceArray[float32], error) { return d.Slice(6, 2) },
				[]string{"Slice [6:2]", "low bound is above the high one"}, nil},
			{"reshape count", func() (*DeviceArray[float32], error) { return d.Reshape(3, 4) },
				[]string{"Reshape to [3 4] (12 elements) of a device array of 10 elements"}, nil},
			{"reshape 4-D", func() (*DeviceArray[float32], error) { return d.Reshape(1, 1, 2, 5) },
				[]string{"4 dimensions", "1 to 3"}, nil},
			{"reshape none", func() (*DeviceArray[float32], error) { return d.Reshape() },
				[]string{"0 dimensions"}, nil},
			{"reshape negative", func() (*DeviceArray[float32], error) { return d.Reshape(-2, -5) },
				[]string{"negative dimension"}, nil},
			{"reshape two -1", func() (*DeviceArray[float32], error) { return d.Reshape(-1, -1) },
				[]string{"more than one dimension is -1"}, nil},
			{"reshape -1 does not divide", func() (*DeviceArray[float32], error) { return d.Reshape(3, -1) },
				[]string{"no size for the -1 dimension"}, nil},
			{"reshape overflow", func() (*DeviceArray[float32], error) { return d.Reshape(1<<40, 1<<40, 1<<40) },
				[]string{"Reshape to", "10 elements"}, nil},
			{"nil slice", func() (*DeviceArray[float32], error) { return nilArr.Slice(0, 0) },
				[]string{"Slice", "nil *cuda.DeviceArray"}, nil},
			{"nil reshape", func() (*DeviceArray[float32], error) { return nilArr.Reshape(1) },
				[]string{"Reshape", "nil *cuda.DeviceArray"}, nil},
			{"zero slice", func() (*DeviceArray[float32], error) { return zero.Slice(0, 0) },
				[]string{"Slice", "not made by NewDeviceArray"}, nil},
			{"zero reshape", func() (*DeviceArray[float32], error) { return zero.Reshape(0) },
				[]string{"Reshape", "not made by NewDeviceArray"}, nil},
			{"freed slice", func() (*DeviceArray[float32], error) { return freed.Slice(0, 2) },
				[]string{"Slice [0:2]"}, ErrFreed},
			{"freed reshape", func() (*DeviceArray[float32], error) { return freed.Reshape(2, 2) },
				[]string{"Reshape to [2 2]"}, ErrFreed},
		} {
			t.Run(c.name, func(t *testing.T) {
				v, err := callView(t, c.name, c.f)
				wantErr(t, c.name, err, c.want...)
				if c.is != nil && !errors.Is(err, c.is) {
					t.Errorf("%s: %v is not %v", c.name, err, c.is)
				}
				if v != nil {
					t.Errorf("%s: a view came back with the error", c.name)
				}
			})
		}
		// A view of a view is bounded by the view, not by the array.
		v := slice(t, d, 2, 6)
		if _, err := v.Slice(0, 5); err == nil || !strings.Contains(err.Error(), "of a device array of 4 elements") {
			t.Errorf("Slice past a view's end: %v", err)
		}
		if _, err := v.Reshape(2, 3); err == nil {
			t.Error("Reshape of a 4-element view to 6 elements succeeded")
		}
		// A view checks lengths of copies against its own length.
		wantErr(t, "CopyToHost", v.CopyToHost(make([]float32, 10)), "destination has 10 elements, the device array 4")
		wantErr(t, "CopyFromHost", v.CopyFromHost(make([]float32, 10)), "source has 10 elements, the device array 4")
		wantErr(t, "CopyFrom", v.CopyFrom(d), "source has 10 elements, destination 4")
		// A 1-D view is not a 2-D argument.
		wantErr(t, "rank", Jit(testkernels.Add2D).Launch(Dim1(1), Dim1(4), v, v, v), "1-D device array for a 2-D parameter")
	})
}

// TestDeviceArrayViewCopies checks partial copies through views, in both
// directions, synchronous and on a stream, and device-to-device copies
// between views, overlapping ones included (they behave as Go's copy).
func TestDeviceArrayViewCopies(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		const n = 40
		s, err := NewStream()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			// run works on d (holding iota32(n, 0)) and on want, a host
			// copy of it, the same way.
			run func(d *DeviceArray[float32], want []float32) error
		}{
			{"CopyFromHost", func(d *DeviceArray[float32], want []float32) error {
				v, err := d.Slice(10, 15)
				if err != nil {
					return err
				}
				copy(want[10:15], iota32(5, 100))
				return v.CopyFromHost(iota32(5, 100))
			}},
			{"CopyFromHostAsync", func(d *DeviceArray[float32], want []float32) error {
				v, err := d.Slice(30, 40)
				if err != nil {
					return err
				}
				copy(want[30:], iota32(10, -50))
				if err := v.CopyFromHostAsync(iota32(10, -50), s); err != nil {
					return err
				}
				return s.Synchronize()
			}},
			{"CopyToHost", func(d *DeviceArray[float32], want []float32) error {
				v, err := d.Slice(7, 19)
				if err != nil {
					return err
				}
				out := make([]float32, 12)
				if err := v.CopyToHost(out); err != nil {
					return err
				}
				if !slices.Equal(out, want[7:19]) {
					return fmt.Errorf("CopyToHost of [7:19] = %v, want %v", out, want[7:19])
				}
				return nil
			}},
			{"CopyToHostAsync of 2-D rows", func(d *DeviceArray[float32], want []float32) error {
				m, err := d.Reshape(8, 5)
				if err != nil {
					return err
				}
				rows, err := m.Slice(2*5, 4*5) // rows 2 and 3
				if err != nil {
					return err
				}
				out := make([]float32, 10)
				if err := rows.CopyToHostAsync(out, s); err != nil {
					return err
				}
				if err := s.Synchronize(); err != nil {
					return err
				}
				if !slices.Equal(out, want[10:20]) {
					return fmt.Errorf("rows 2 and 3 = %v, want %v", out, want[10:20])
				}
				return nil
			}},
			{"CopyFrom view to view", func(d *DeviceArray[float32], want []float32) error {
				dst, err := d.Slice(0, 8)
				if err != nil {
					return err
				}
				src, err := d.Slice(20, 28)
				if err != nil {
					return err
				}
				copy(want[0:8], want[20:28])
				return dst.CopyFrom(src)
			}},
			{"CopyFrom overlapping forward", func(d *DeviceArray[float32], want []float32) error {
				dst, err := d.Slice(3, 33)
				if err != nil {
					return err
				}
				src, err := d.Slice(0, 30)
				if err != nil {
					return err
				}
				copy(want[3:33], want[0:30])
				return dst.CopyFrom(src)
			}},
			{"CopyFrom overlapping backward", func(d *DeviceArray[float32], want []float32) error {
				dst, err := d.Slice(0, 30)
				if err != nil {
					return err
				}
				src, err := d.Slice(5, 35)
				if err != nil {
					return err
				}
				copy(want[0:30], want[5:35])
				return dst.CopyFrom(src)
			}},
			{"CopyFrom onto itself", func(d *DeviceArray[float32], want []float32) error {
				v, err := d.Slice(4, 9)
				if err != nil {
					return err
				}
				return v.CopyFrom(v)
			}},
			{"CopyFrom another array", func(d *DeviceArray[float32], want []float32) error {
				other, err := ToDevice(iota32(20, 1000))
				if err != nil {
					return err
				}
				defer other.Free()
				src, err := other.Slice(5, 15)
				if err != nil {
					return err
				}
				dst, err := d.Reshape(4, 10)
				if err != nil {
					return err
				}
				row, err := dst.Slice(10, 20)
				if err != nil {
					return err
				}
				copy(want[10:20], iota32(20, 1000)[5:15])
				return row.CopyFrom(src)
			}},
			{"CopyFrom view into a whole array", func(d *DeviceArray[float32], want []float32) error {
				src, err := d.Slice(1, 11)
				if err != nil {
					return err
				}
				whole, err := NewDeviceArray[float32](10)
				if err != nil {
					return err
				}
				defer whole.Free()
				if err := whole.CopyFrom(src); err != nil {
					return err
				}
				got, err := whole.ToHost()
				if err != nil {
					return err
				}
				if !slices.Equal(got, want[1:11]) {
					return fmt.Errorf("copy of [1:11] = %v, want %v", got, want[1:11])
				}
				return nil
			}},
		} {
			t.Run(c.name, func(t *testing.T) {
				d := mustDevice(t, iota32(n, 0))
				want := iota32(n, 0)
				if err := call(t, c.name, func() error { return c.run(d, want) }); err != nil {
					t.Fatal(err)
				}
				got := toHost(t, d)
				if !slices.Equal(got, want) {
					t.Errorf("the array holds\n%v\nwant\n%v", got, want)
				}
			})
		}
	})
}

// viewScenario runs kernels on views on the current backend and returns
// what the arrays hold afterwards.
type viewScenario struct {
	name string
	run  func(t *testing.T) [][]float32
	// want, where given, computes the arrays in plain Go, so that the CPU
	// backend, the reference of the others, is itself checked.
	want func() [][]float32
}

func viewScenarios() []viewScenario {
	return []viewScenario{
		{"scale a slice", func(t *testing.T) [][]float32 {
			d := mustDevice(t, iota32(100, 1))
			v := slice(t, d, 10, 70)
			if err := Jit(testkernels.Scale).Launch(Dim1(1), Dim1(64), v, float32(3)); err != nil {
				t.Fatal(err)
			}
			return [][]float32{toHost(t, d)}
		}, func() [][]float32 {
			x := iota32(100, 1)
			for i := 10; i < 70; i++ {
				x[i] *= 3
			}
			return [][]float32{x}
		}},
		{"slice of a 2-D array", func(t *testing.T) [][]float32 {
			d := mustDevice(t, iota32(8*16, 0), 8, 16)
			v := slice(t, slice(t, d, 20, 100), 3, 70)
			if err := Jit(testkernels.Scale).Launch(Dim1(2), Dim1(64), v, float32(-0.5)); err != nil {
				t.Fatal(err)
			}
			return [][]float32{toHost(t, d)}
		}, func() [][]float32 {
			x := iota32(8*16, 0)
			for i := 23; i < 90; i++ {
				x[i] *= -0.5
			}
			return [][]float32{x}
		}},
		{"Array2 views of one array", func(t *testing.T) [][]float32 {
			d := mustDevice(t, iota32(80, 0))
			a := reshape(t, slice(t, d, 0, 24), 4, 6)
			b := reshape(t, slice(t, d, 30, 54), -1, 6)
			c := reshape(t, slice(t, d, 56, 80), 4, 6)
			if err := Jit(testkernels.Add2D).Launch(Dim2(1, 1), Dim2(8, 8), a, b, c); err != nil {
				t.Fatal(err)
			}
			return [][]float32{toHost(t, d)}
		}, func() [][]float32 {
			x := iota32(80, 0)
			for i := range 24 {
				x[56+i] = x[i] + x[30+i]
			}
			return [][]float32{x}
		}},
		{"Array3 view", func(t *testing.T) [][]float32 {
			d := mustDevice(t, make([]float32, 50))
			v := reshape(t, slice(t, d, 13, 37), 2, 3, 4)
			if err := Jit(testkernels.Volume).Launch(Dim3{1, 1, 1}, Dim3{2, 4, 4}, v); err != nil {
				t.Fatal(err)
			}
			return [][]float32{toHost(t, d)}
		}, nil},
		{"in place through equal views", func(t *testing.T) [][]float32 {
			d := mustDevice(t, iota32(64, 0))
			a, b := slice(t, d, 0, 32), slice(t, d, 32, 64)
			c := slice(t, d, 0, 32) // a second view of a's memory
			if err := Jit(testkernels.VecAdd).Launch(Dim1(1), Dim1(32), a, b, c); err != nil {
				t.Fatal(err)
			}
			return [][]float32{toHost(t, d)}
		}, func() [][]float32 {
			x := iota32(64, 0)
			for i := range 32 {
				x[i] += x[32+i]
			}
			return [][]float32{x}
		}},
		{"overlapping views relay", func(t *testing.T) [][]float32 {
			d := mustDevice(t, iota32(relayN+1, 100))
			res := mustDevice(t, make([]float32, relayN))
			in, out := slice(t, d, 1, relayN+1), slice(t, d, 0, relayN)
			if err := Jit(testkernels.Relay).Launch(Dim1(1), Dim1(relayN), in, out, res); err != nil {
				t.Fatal(err)
			}
			return [][]float32{toHost(t, d), toHost(t, res)}
		}, func() [][]float32 {
			x, res := iota32(relayN+1, 100), make([]float32, relayN)
			relay(x[1:], x[:relayN], res)
			return [][]float32{x, res}
		}},
		{"view and its parent relay", func(t *testing.T) [][]float32 {
			d := mustDevice(t, iota32(3*relayN, 100))
			res := mustDevice(t, make([]float32, relayN))
			out := slice(t, d, relayN-5, 2*relayN-5)
			if err := Jit(testkernels.Relay).Launch(Dim1(1), Dim1(relayN), d, out, res); err != nil {
				t.Fatal(err)
			}
			return [][]float32{toHost(t, d), toHost(t, res)}
		}, func() [][]float32 {
			x, res := iota32(3*relayN, 100), make([]float32, relayN)
			relay(x, x[relayN-5:2*relayN-5], res)
			return [][]float32{x, res}
		}},
		{"halves on two streams", func(t *testing.T) [][]float32 {
			return halvesOnTwoStreams(t, 1<<10)
		}, func() [][]float32 {
			x := iota32(1<<10, 0)
			for i := range x {
				x[i] *= float32(2 + i/(1<<9))
			}
			return [][]float32{x}
		}},
	}
}

// On a real GPU (skipped without one, failed with NUGO_REQUIRE_GPU=1),
// kernels on views, overlapping ones included, give the CPU backend's
// results.
func TestGPUDeviceArrayViewKernelsMatchCPU(t *testing.T) {
	realGPU(t)
	for _, c := range viewScenarios() {
		t.Run(c.name, func(t *testing.T) {
			var want [][]float32
			withBackend(t, CPU, func() { want = c.run(t) })
			got := c.run(t)
			for i := range want {
				if !slices.Equal(got[i], want[i]) {
					t.Errorf("array %d on the GPU\n%v\nCPU\n%v", i, got[i], want[i])
				}
			}
		})
	}
}

// relay is testkernels.Relay on a block of len(out) threads, in plain Go.
func relay(in, out, res []float32) {
	for i := range out {
		out[i] = float32(2*i + 1)
	}
	for i := range out { // after SyncThreads
		res[i] = in[(i+1)%len(in)]
	}
}

// halvesOnTwoStreams copies the two halves of one device array in through
// two views on two streams, scales each half on its stream and copies it
// back, as Numba users overlap copies with compute.
func halvesOnTwoStreams(t testing.TB, n int) [][]float32 {
	host, out := iota32(n, 0), make([]float32, n)
	d, err := NewDeviceArray[float32](n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	k := Jit(testkernels.Scale)
	var streams [2]*Stream
	for i := range streams {
		if streams[i], err = NewStream(); err != nil {
			t.Fatal(err)
		}
	}
	half := n / 2
	for i, s := range streams {
		lo, hi := i*half, (i+1)*half
		v, err := d.Slice(lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		if err := v.CopyFromHostAsync(host[lo:hi], s); err != nil {
			t.Fatal(err)
		}
		if err := k.LaunchWith(LaunchConfig{Grid: Dim1((half + 255) / 256), Block: Dim1(256), Stream: s}, v, float32(i+2)); err != nil {
			t.Fatal(err)
		}
		if err := v.CopyToHostAsync(out[lo:hi], s); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range streams {
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
	}
	return [][]float32{out}
}

// Kernels on views compute on every executing backend what they compute
// on the CPU backend.
func TestDeviceArrayViewKernelsMatchCPU(t *testing.T) {
	for _, c := range viewScenarios() {
		t.Run(c.name, func(t *testing.T) {
			var want [][]float32
			withBackend(t, CPU, func() { want = c.run(t) })
			if c.want != nil {
				for i, w := range c.want() {
					if !slices.Equal(want[i], w) {
						t.Fatalf("array %d on the CPU backend\n%v\nwant\n%v", i, want[i], w)
					}
				}
			}
			for _, b := range robustBackends {
				if b.name == "cpu" || b.name == "gpu-fake" { // the fake records kernels, runs none
					continue
				}
				t.Run(b.name, func(t *testing.T) {
					b.setup(t)
					got := c.run(t)
					for i := range want {
						if !slices.Equal(got[i], want[i]) {
							t.Errorf("array %d on %s\n%v\nCPU\n%v", i, b.name, got[i], want[i])
						}
					}
				})
			}
		})
	}
}

// Views whose byte ranges overlap, or a view and its parent, are
// overlapping arguments: the launch runs the variant compiled without the
// read-only cache. Views that share an array but no bytes are not.
func TestDeviceArrayViewsOverlapAsArguments(t *testing.T) {
	fakeGPU(t, fakedriver.Config{})
	k := Jit(testkernels.Relay)
	d := mustDevice(t, iota32(4*relayN, 0))
	other := mustDevice(t, iota32(4*relayN, 0))
	res := make([]float32, relayN)
	for _, c := range []struct {
		name    string
		in, out *DeviceArray[float32]
		overlap bool
	}{
		{"disjoint views", slice(t, d, 0, relayN), slice(t, d, relayN, 2*relayN), false},
		{"adjacent views", slice(t, d, relayN, 2*relayN), slice(t, d, 2*relayN, 3*relayN), false},
		{"views of two arrays at one offset", slice(t, d, 0, relayN), slice(t, other, 0, relayN), false},
		{"one element in common", slice(t, d, 0, relayN), slice(t, d, relayN-1, 2*relayN-1), true},
		{"shifted by one", slice(t, d, 1, relayN+1), slice(t, d, 0, relayN), true},
		{"equal views", slice(t, d, 5, relayN+5), slice(t, d, 5, relayN+5), true},
		{"the same view twice", d, d, true},
		{"view and its parent", d, slice(t, d, 3*relayN, 4*relayN), true},
		{"view of a reshaped view", slice(t, reshape(t, d, 4, relayN), 2*relayN, 3*relayN), slice(t, d, 3*relayN-1, 4*relayN-1), true},
		{"empty views", slice(t, d, 3, 3), slice(t, d, 3, 3), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ptx, err := LaunchPTX(k, 90, c.in, c.out, res)
			if err != nil {
				t.Fatal(err)
			}
			if nc := strings.Contains(ptx, "ld.global.nc"); nc == c.overlap {
				t.Errorf("ld.global.nc in the PTX is %v, want %v", nc, !c.overlap)
			}
		})
	}
}

// On the GPU a view is passed as its array's address plus its offset, in
// launches on the default stream and on streams.
func TestGPUViewArgumentIsBasePlusOffset(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	k := Jit(testkernels.Scale)
	parent, err := NewDeviceArray[float32](60)
	if err != nil {
		t.Fatal(err)
	}
	d := reshape(t, parent, 6, 10)
	lastPtr := func() uint64 { return u64(f.Launches()[len(f.Launches())-1].Args[0]) }
	lastLen := func() uint64 { return u64(f.Launches()[len(f.Launches())-1].Args[1]) }
	if err := k.Launch(Dim1(1), Dim1(64), d, float32(1)); err != nil {
		t.Fatal(err)
	}
	base := lastPtr()
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		v      *DeviceArray[float32]
		off, n uint64
	}{
		{"slice", slice(t, d, 7, 19), 7 * 4, 12},
		{"row of the 2-D array", slice(t, d, 30, 40), 30 * 4, 10},
		{"slice of a slice", slice(t, slice(t, d, 10, 50), 5, 6), 15 * 4, 1},
		{"reshape keeps the offset", reshape(t, slice(t, d, 20, 44), 4, 6), 20 * 4, 24},
		{"whole", reshape(t, d, -1), 0, 60},
	} {
		for _, stream := range []*Stream{nil, s} {
			if err := k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(64), Stream: stream}, c.v, float32(2)); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if got := lastPtr(); got != base+c.off {
				t.Errorf("%s (stream %v): pointer %#x, want %#x + %d", c.name, stream != nil, got, base, c.off)
			}
			if got := lastLen(); got != c.n {
				t.Errorf("%s (stream %v): length %d, want %d", c.name, stream != nil, got, c.n)
			}
		}
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	// Copies between overlapping views go through a temporary: the
	// driver's copy is undefined for overlapping ranges.
	before := f.Count("cuMemcpyDtoD")
	if err := slice(t, d, 0, 20).CopyFrom(slice(t, d, 10, 30)); err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuMemcpyDtoD") - before; n != 2 {
		t.Errorf("an overlapping CopyFrom made %d device-to-device copies, want 2 (through a temporary)", n)
	}
	before = f.Count("cuMemcpyDtoD")
	if err := slice(t, d, 0, 20).CopyFrom(slice(t, d, 20, 40)); err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuMemcpyDtoD") - before; n != 1 {
		t.Errorf("a CopyFrom between disjoint views made %d device-to-device copies, want 1", n)
	}
	if err := d.Free(); err != nil { // a view: detached, the memory stays
		t.Fatal(err)
	}
	wantLive(t, f, 1, 0)
	if err := parent.Free(); err != nil {
		t.Fatal(err)
	}
	wantLive(t, f, 0, 0)
}

// Free of an array makes all its views fail with ErrFreed; Free of a view
// detaches only the view.
func TestDeviceArrayViewLifetime(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		noLeak(t)
		k := Jit(testkernels.Scale)
		s, err := NewStream()
		if err != nil {
			t.Fatal(err)
		}
		// uses are the operations a view allows, each of which must fail
		// with ErrFreed once the view's memory is gone.
		uses := func(v, live *DeviceArray[float32]) map[string]func() error {
			buf := make([]float32, v.Len())
			return map[string]func() error{
				"CopyToHost":        func() error { return v.CopyToHost(buf) },
				"CopyFromHost":      func() error { return v.CopyFromHost(buf) },
				"CopyToHostAsync":   func() error { return v.CopyToHostAsync(buf, s) },
				"CopyFromHostAsync": func() error { return v.CopyFromHostAsync(buf, s) },
				"ToHost":            func() error { _, err := v.ToHost(); return err },
				"CopyFrom(live)":    func() error { return v.CopyFrom(live) },
				"live.CopyFrom":     func() error { return live.CopyFrom(v) },
				"Slice":             func() error { _, err := v.Slice(0, 1); return err },
				"Reshape":           func() error { _, err := v.Reshape(-1); return err },
				"Launch":            func() error { return k.Launch(Dim1(1), Dim1(8), v, float32(2)) },
				"LaunchWith stream": func() error {
					return k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(8), Stream: s}, v, float32(2))
				},
			}
		}
		live, err := NewDeviceArray[float32](4)
		if err != nil {
			t.Fatal(err)
		}
		defer live.Free()

		t.Run("free the parent", func(t *testing.T) {
			d := mustDevice(t, iota32(16, 0))
			flat, square := slice(t, d, 0, 4), reshape(t, slice(t, d, 8, 12), 2, 2)
			if err := d.Free(); err != nil {
				t.Fatal(err)
			}
			for _, v := range []*DeviceArray[float32]{flat, square} {
				for name, f := range uses(v, live) {
					if len(v.Shape()) > 1 && strings.HasPrefix(name, "Launch") {
						continue // a 2-D array is no argument for Scale's slice
					}
					err := call(t, name, f)
					if !errors.Is(err, ErrFreed) {
						t.Errorf("%s on a %d-D view of a freed array = %v, want ErrFreed", name, len(v.Shape()), err)
					} else if !strings.Contains(err.Error(), "view was made from was freed") {
						t.Errorf("%s: %q does not say the view's array was freed", name, err)
					}
				}
			}
			if flat.Len() != 4 || !slices.Equal(square.Shape(), []int{2, 2}) {
				t.Errorf("views of a freed array forgot their shapes: %v, %v", flat.Shape(), square.Shape())
			}
			if err := call(t, "Free of a view of a freed array", flat.Free); err != nil {
				t.Error(err)
			}
			if err := call(t, "Free again", d.Free); err != nil {
				t.Error(err)
			}
		})

		t.Run("free a view", func(t *testing.T) {
			d := mustDevice(t, iota32(16, 0))
			a, b := slice(t, d, 0, 4), slice(t, d, 2, 10) // overlapping
			aa := slice(t, a, 1, 3)
			for range 2 { // idempotent
				if err := call(t, "Free of a view", a.Free); err != nil {
					t.Fatal(err)
				}
			}
			for name, f := range uses(a, live) {
				if err := call(t, name, f); !errors.Is(err, ErrFreed) || !strings.Contains(err.Error(), "Free was called on this view") {
					t.Errorf("%s on a freed view = %v, want ErrFreed saying so", name, err)
				}
			}
			// The parent, other views and views of the freed view still work:
			// Free detached a only.
			if err := k.Launch(Dim1(1), Dim1(8), b, float32(10)); err != nil {
				t.Fatal(err)
			}
			want := iota32(16, 0)
			for i := 2; i < 10 && backend != "gpu-fake"; i++ { // the fake runs no kernel
				want[i] *= 10
			}
			if got := toHost(t, d); !slices.Equal(got, want) {
				t.Errorf("after freeing a view and scaling another, the array holds %v, want %v", got, want)
			}
			if got := toHost(t, aa); !slices.Equal(got, want[1:3]) {
				t.Errorf("a view of a freed view holds %v, want %v", got, want[1:3])
			}
		})

		if err := s.Synchronize(); err != nil {
			t.Fatalf("Synchronize: %v", err)
		}
	})
}

// A view keeps its memory alive when the array it was made from becomes
// unreachable: the memory is released only once the view is unreachable
// too.
func TestDeviceArrayViewOutlivesItsParent(t *testing.T) {
	for _, b := range []struct {
		name  string
		setup func(t *testing.T) *fakedriver.Fake // nil: no allocations to count
	}{
		{"cpu", func(t *testing.T) *fakedriver.Fake { onBackend(t, CPU); return nil }},
		{"ptxsim", func(t *testing.T) *fakedriver.Fake { onBackend(t, PTXSim); return nil }},
		{"gpu-fake", func(t *testing.T) *fakedriver.Fake { return fakeGPU(t, fakedriver.Config{}) }},
		{"gpu-sim", simGPU},
	} {
		t.Run(b.name, func(t *testing.T) {
			f := b.setup(t)
			gc := func(done func() bool) {
				for i := 0; i < 100 && !done(); i++ {
					runtime.GC()
					time.Sleep(time.Millisecond)
				}
			}
			collected := make(chan struct{})
			v := func() *DeviceArray[float32] {
				d, err := ToDevice(iota32(1000, 0))
				if err != nil {
					t.Fatal(err)
				}
				runtime.AddCleanup(d, func(c chan struct{}) { close(c) }, collected)
				return reshape(t, slice(t, d, 100, 400), 3, 100)
			}()
			isCollected := func() bool {
				select {
				case <-collected:
					return true
				default:
					return false
				}
			}
			gc(isCollected)
			if !isCollected() {
				t.Fatal("the parent array was not collected") // the test proves nothing then
			}
			if f != nil && f.Live().Allocs != 1 {
				t.Fatalf("%d live allocations with the parent unreachable and a view alive, want 1", f.Live().Allocs)
			}
			if got := toHost(t, v); !slices.Equal(got, iota32(1000, 0)[100:400]) {
				t.Fatalf("the view of an unreachable array holds %v", got)
			}
			row := slice(t, v, 100, 200)
			v = nil
			for range 5 {
				runtime.GC()
			}
			if err := Jit(testkernels.Scale).Launch(Dim1(1), Dim1(128), row, float32(2)); err != nil {
				t.Fatal(err)
			}
			want := iota32(1000, 0)[200:300]
			for i := range want {
				if b.name != "gpu-fake" { // the fake runs no kernel
					want[i] *= 2
				}
			}
			if got := toHost(t, row); !slices.Equal(got, want) {
				t.Fatalf("a view of a view of an unreachable array holds %v, want %v", got, want)
			}
			row = nil
			if f != nil {
				gc(func() bool { return f.Live().Allocs == 0 })
				wantLive(t, f, 0, 0)
			}
		})
	}
}

// Copies and launches queued on streams through views, then Free of the
// array (and of the views) before the streams get to them: no crash, no
// leak, and the streams drain.
func TestDeviceArrayViewFreeWhileQueued(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		noLeak(t)
		var streams [2]*Stream
		for i := range streams {
			s, err := NewStream()
			if err != nil {
				t.Fatal(err)
			}
			streams[i] = s
		}
		d, err := NewDeviceArray[float32](1 << 10)
		if err != nil {
			t.Fatal(err)
		}
		src, dst := iota32(1<<10, 0), make([]float32, 1<<10)
		var errs []error
		for i, s := range streams {
			lo, hi := i<<9, (i+1)<<9
			v := slice(t, d, lo, hi)
			errs = append(errs,
				call(t, "CopyFromHostAsync", func() error { return v.CopyFromHostAsync(src[lo:hi], s) }),
				call(t, "LaunchWith", func() error {
					return Jit(testkernels.Scale).LaunchWith(LaunchConfig{Grid: Dim1(2), Block: Dim1(256), Stream: s}, v, float32(2))
				}),
				call(t, "CopyToHostAsync", func() error { return v.CopyToHostAsync(dst[lo:hi], s) }))
			if i == 0 {
				if err := call(t, "Free of a view", v.Free); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := call(t, "Free", d.Free); err != nil {
			t.Fatalf("Free with queued copies through views: %v", err)
		}
		for _, s := range streams {
			if err := call(t, "Synchronize", s.Synchronize); err != nil && errors.Join(errs...) == nil {
				t.Logf("Synchronize after the free: %v", err)
			}
		}
	})
}

// On the GPU, a view dropped, with its array, right after an asynchronous
// launch and copy keeps the memory allocated until the stream has been
// synchronized; then the cleanup frees it.
func TestGPUViewOfQueuedWorkOutlivesItsLastReference(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, 128)
	func() {
		d, err := NewDeviceArray[float32](256)
		if err != nil {
			t.Fatal(err)
		}
		v := slice(t, d, 128, 256)
		if err := Jit(testkernels.Scale).LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(128), Stream: s}, v, 2); err != nil {
			t.Fatal(err)
		}
		if err := v.CopyToHostAsync(out, s); err != nil {
			t.Fatal(err)
		}
	}()
	for range 5 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if l := f.Live(); l.Allocs != 1 {
		t.Fatalf("%d device allocations with work queued on a dropped view, want 1", l.Allocs)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100 && f.Live().Allocs != 0; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	wantLive(t, f, 0, 0)
}

// Views made, used and freed from many goroutines while the array is
// freed: every call returns, with ErrFreed or success, never a crash (the
// race detector runs this in scripts/test.sh).
func TestDeviceArrayViewConcurrentFree(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		noLeak(t)
		d, err := ToDevice(iota32(1<<10, 0))
		if err != nil {
			t.Fatal(err)
		}
		k := Jit(testkernels.Scale)
		const workers = 8
		var wg sync.WaitGroup
		errs := make(chan error, 4*workers)
		for w := range workers {
			wg.Go(func() {
				ok := func(err error) {
					if err != nil && !errors.Is(err, ErrFreed) {
						errs <- err
					}
				}
				lo := w * 128
				v, err := d.Slice(lo, lo+128)
				ok(err)
				if err != nil {
					return
				}
				ok(k.Launch(Dim1(1), Dim1(128), v, float32(2)))
				ok(v.CopyFromHost(iota32(128, 0)))
				_, err = v.ToHost()
				ok(err)
				if w == workers/2 {
					ok(d.Free())
				}
				ok(v.Free())
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if err := d.Free(); err != nil {
			t.Fatal(err)
		}
	})
}

// Copies in, a kernel and copies back of one device array, whole on one
// stream or in halves through two views on two streams, on the backend
// NUGO_BACKEND selects (the CPU backend by default; on a GPU the halves
// overlap one's copies with the other's kernel).
func BenchmarkViewHalvesOnTwoStreams(b *testing.B) {
	const n = 1 << 22
	host := iota32(n, 0)
	for _, parts := range []int{1, 2} {
		b.Run(fmt.Sprintf("streams=%d", parts), func(b *testing.B) {
			d, err := NewDeviceArray[float32](n)
			if err != nil {
				b.Fatal(err)
			}
			defer d.Free()
			k := Jit(testkernels.Scale)
			streams := make([]*Stream, parts)
			views := make([]*DeviceArray[float32], parts)
			for i := range parts {
				if streams[i], err = NewStream(); err != nil {
					b.Fatal(err)
				}
				if views[i], err = d.Slice(i*n/parts, (i+1)*n/parts); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(2 * 4 * n)
			for b.Loop() {
				for i, s := range streams {
					part := host[i*n/parts : (i+1)*n/parts]
					if err := views[i].CopyFromHostAsync(part, s); err != nil {
						b.Fatal(err)
					}
					if err := k.LaunchWith(LaunchConfig{Grid: Dim1(len(part) / 256), Block: Dim1(256), Stream: s}, views[i], float32(1)); err != nil {
						b.Fatal(err)
					}
					if err := views[i].CopyToHostAsync(part, s); err != nil {
						b.Fatal(err)
					}
				}
				for _, s := range streams {
					if err := s.Synchronize(); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// Making a view: what d[lo:hi] costs.
func BenchmarkViewSlice(b *testing.B) {
	d, err := NewDeviceArray[float32](1 << 10)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Free()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Slice(100, 900); err != nil {
			b.Fatal(err)
		}
	}
}
