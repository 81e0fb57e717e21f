package cuda_test

// An adversarial audit of the public API: nil and zero values, wrong
// arguments, freed and foreign arrays, absurd shapes and launch
// configurations, panicking kernels and concurrent use. Every call must
// return a clear error (or do what its documentation says), never let a
// panic escape, never leak a goroutine and never half-write an output
// without saying so. Each case runs on every backend this machine can
// offer: cpu, ptxsim, and the GPU backend over the fake driver, recording
// (gpu-fake) or executing (gpu-sim) kernels.

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// robustBackends are the backends the audit runs on, each selected for
// the rest of a test by its setup.
var robustBackends = []struct {
	name  string
	setup func(t *testing.T)
}{
	{"cpu", func(t *testing.T) { onBackend(t, CPU) }},
	{"ptxsim", func(t *testing.T) { onBackend(t, PTXSim) }},
	{"gpu-fake", func(t *testing.T) { fakeGPU(t, fakedriver.Config{}) }},
	{"gpu-sim", func(t *testing.T) { simGPU(t) }},
}

// eachBackend runs body as a subtest on every backend.
func eachBackend(t *testing.T, body func(t *testing.T, backend string)) {
	for _, b := range robustBackends {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			body(t, b.name)
		})
	}
}

// call runs f and turns a panic into a test failure, so that a case shows
// the panic instead of killing the test binary.
func call(t *testing.T, what string, f func() error) (err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panicked: %v", what, r)
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// wantErr checks that err is not nil and its message holds every one of
// the substrings.
func wantErr(t *testing.T, what string, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one mentioning %q", what, subs)
		return
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: error %q does not mention %q", what, err, s)
		}
	}
}

// noLeak fails the test if goroutines started during it are still running
// shortly after it ends.
func noLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		for range 200 {
			if runtime.NumGoroutine() <= before {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Errorf("%d goroutines before, %d after: leaked", before, runtime.NumGoroutine())
	})
}

// Kernels that are not kernels, for Jit and Compile.
type receiver struct{}

func (receiver) Kernel(t Thread, d []float32) {}

func returnsValue(t Thread, d []float32) int { return 0 }
func variadicKernel(t Thread, d ...float32)  {}
func noThread(d []float32)                   {}
func threadSecond(d []float32, t Thread)     {}
func threadPointer(t *Thread, d []float32)   {}
func mapParam(t Thread, m map[int]int)       {}
func stringParam(t Thread, s string)         {}
func chanFuncParam(t Thread, f func(chan int)) {
}
func genericKernel[T Number](t Thread, d []T) {}

func TestRobustJitRejectsNonKernels(t *testing.T) {
	var nilFunc func(Thread, []float32)
	captured := 3
	for _, c := range []struct {
		name string
		fn   any
		want []string // nil: a valid kernel
	}{
		{"nil", nil, []string{"kernel must be a func", "<nil>"}},
		{"int", 42, []string{"kernel must be a func", "int"}},
		{"nil func", nilFunc, []string{"nil func"}},
		{"no Thread", noThread, []string{"first parameter must be cuda.Thread"}},
		{"Thread second", threadSecond, []string{"first parameter must be cuda.Thread"}},
		{"*Thread", threadPointer, []string{"first parameter must be cuda.Thread"}},
		{"returns", returnsValue, []string{"returns values"}},
		{"variadic", variadicKernel, []string{"variadic"}},
		{"map parameter", mapParam, []string{"parameter 1", "map[int]int"}},
		{"string parameter", stringParam, []string{"parameter 1", "string"}},
		{"func of chan", chanFuncParam, []string{"parameter 1", "func(chan int)"}},
		{"method expression", receiver.Kernel, []string{"first parameter must be cuda.Thread"}},
		{"method value", receiver{}.Kernel, nil},
		{"closure", func(t Thread, d []float32) { d[0] = float32(captured) }, nil},
		{"generic instance", genericKernel[float32], nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var k *Kernel
			err := call(t, "Jit", func() error {
				k = Jit(c.fn)
				_, err := Compile(c.fn) // the cpu backend: checks only
				return err
			})
			if c.want == nil {
				if err != nil {
					t.Fatalf("Compile: %v", err)
				}
				return
			}
			wantErr(t, "Compile", err, c.want...)
			// Jit defers the same error to Launch and PTX.
			err = call(t, "Launch", func() error { return k.Launch(Dim1(1), Dim1(1), make([]float32, 1)) })
			wantErr(t, "Launch", err, c.want...)
			err = call(t, "PTX", func() error { _, err := k.PTX(75); return err })
			wantErr(t, "PTX", err, c.want...)
			call(t, "Name/Func/Options", func() error { _, _, _ = k.Name(), k.Func(), k.Options(); return nil })
		})
	}
}

func TestRobustNilAndZeroKernel(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		for _, c := range []struct {
			name string
			k    *Kernel
			want string
		}{
			{"nil", nil, "nil *cuda.Kernel"},
			{"zero", &Kernel{}, "not made by Jit or Compile"},
		} {
			t.Run(c.name, func(t *testing.T) {
				k := c.k
				wantErr(t, "Launch", call(t, "Launch", func() error { return k.Launch(Dim1(1), Dim1(1)) }), c.want)
				wantErr(t, "LaunchWith", call(t, "LaunchWith", func() error { return k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(1)}) }), c.want)
				wantErr(t, "PTX", call(t, "PTX", func() error { _, err := k.PTX(75); return err }), c.want)
				call(t, "Name/Func/Options", func() error {
					if k.Name() == "" && c.k == nil {
						return nil
					}
					if k.Func() != nil || k.Options() != (Options{}) {
						t.Errorf("zero kernel has Func %v, Options %v", k.Func(), k.Options())
					}
					return nil
				})
			})
		}
	})
}

// launchCases are bad launches of testkernels.Scale(data []float32, f
// float32) with the words their errors must hold.
func launchCases(t *testing.T) []struct {
	name string
	cfg  LaunchConfig
	args []any
	want []string
} {
	good := LaunchConfig{Grid: Dim1(1), Block: Dim1(32)}
	data := make([]float32, 32)
	freed, err := NewDeviceArray[float32](32)
	if err != nil {
		t.Fatal(err)
	}
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	ints, err := NewDeviceArray[int32](32)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ints.Free() })
	twoD, err := NewDeviceArray[float32](4, 8)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { twoD.Free() })
	var nilDev *DeviceArray[float32]
	with := func(f func(*LaunchConfig)) LaunchConfig { c := good; f(&c); return c }
	return []struct {
		name string
		cfg  LaunchConfig
		args []any
		want []string
	}{
		{"too few args", good, []any{data}, []string{"takes 2 arguments", "got 1"}},
		{"too many args", good, []any{data, float32(1), 3}, []string{"takes 2 arguments", "got 3"}},
		{"no args", good, nil, []string{"takes 2 arguments", "got 0"}},
		{"nil arg", good, []any{nil, float32(1)}, []string{"argument 1", "got nil"}},
		{"nil slice", good, []any{[]float32(nil), float32(1)}, []string{"argument 1", "nil slice"}},
		{"wrong slice type", good, []any{make([]float64, 32), float32(1)}, []string{"argument 1", "[]float64"}},
		{"array for slice", good, []any{[32]float32{}, float32(1)}, []string{"argument 1", "[32]float32"}},
		{"pointer to slice", good, []any{&data, float32(1)}, []string{"argument 1", "*[]float32"}},
		{"nil device array", good, []any{nilDev, float32(1)}, []string{"argument 1", "nil device array"}},
		{"freed device array", good, []any{freed, float32(1)}, []string{"argument 1", "after Free"}},
		{"device array of int32", good, []any{ints, float32(1)}, []string{"argument 1", "int32", "float32"}},
		{"device array for scalar", good, []any{data, ints}, []string{"argument 2", "device array", "scalar"}},
		{"string scalar", good, []any{data, "1"}, []string{"argument 2", "string"}},
		{"bool scalar", good, []any{data, true}, []string{"argument 2", "bool"}},
		{"slice for scalar", good, []any{data, data}, []string{"argument 2", "[]float32"}},
		{"float overflow", good, []any{data, math.MaxFloat64}, []string{"argument 2", "overflows float32"}},
		{"int too big for float32", good, []any{data, 1<<24 + 1}, []string{"argument 2", "without loss"}},
		{"zero grid", with(func(c *LaunchConfig) { c.Grid = Dim3{} }), []any{data, float32(1)}, []string{"grid (0,0,0)", "below 1"}},
		{"negative grid", with(func(c *LaunchConfig) { c.Grid = Dim1(-1) }), []any{data, float32(1)}, []string{"grid", "below 1"}},
		{"zero block", with(func(c *LaunchConfig) { c.Block = Dim3{32, 0, 1} }), []any{data, float32(1)}, []string{"block (32,0,1)", "below 1"}},
		{"block 1025", with(func(c *LaunchConfig) { c.Block = Dim1(1025) }), []any{data, float32(1)}, []string{"block (1025,1,1)", "exceeds"}},
		{"block 33x33", with(func(c *LaunchConfig) { c.Block = Dim2(33, 33) }), []any{data, float32(1)}, []string{"1089 threads", "at most 1024"}},
		{"block z 65", with(func(c *LaunchConfig) { c.Block = Dim3{1, 1, 65} }), []any{data, float32(1)}, []string{"block (1,1,65)", "exceeds"}},
		{"grid y 65536", with(func(c *LaunchConfig) { c.Grid = Dim2(1, 65536) }), []any{data, float32(1)}, []string{"grid (1,65536,1)", "exceeds"}},
		{"grid x 2^31", with(func(c *LaunchConfig) { c.Grid = Dim1(1 << 31) }), []any{data, float32(1)}, []string{"grid", "exceeds"}},
		{"negative shared", with(func(c *LaunchConfig) { c.SharedMem = -1 }), []any{data, float32(1)}, []string{"shared memory of -1 bytes"}},
		{"huge shared", with(func(c *LaunchConfig) { c.SharedMem = 1 << 40 }), []any{data, float32(1)}, []string{"shared memory of 1099511627776 bytes"}},
		{"zero stream", with(func(c *LaunchConfig) { c.Stream = &Stream{} }), []any{data, float32(1)}, []string{"not made by NewStream"}},
		{"2-D array for slice", good, []any{twoD, float32(1)}, nil}, // a slice takes an n-D array flat
	}
}

func TestRobustBadLaunches(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		k := Jit(testkernels.Scale)
		for _, c := range launchCases(t) {
			t.Run(c.name, func(t *testing.T) {
				err := call(t, "LaunchWith", func() error { return k.LaunchWith(c.cfg, c.args...) })
				if c.want == nil {
					if err != nil {
						t.Fatalf("LaunchWith: %v", err)
					}
					return
				}
				wantErr(t, "LaunchWith", err, append([]string{"launch Scale"}, c.want...)...)
			})
		}
		// No bad launch reached a device or left work behind.
		if err := Synchronize(); err != nil {
			t.Fatalf("Synchronize after bad launches: %v", err)
		}
	})
}

func TestRobustBadLaunchWritesNothing(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		// A launch refused for its last argument leaves its first alone.
		data := []float32{1, 2, 3}
		err := Jit(testkernels.Scale).Launch(Dim1(1), Dim1(32), data, "2")
		wantErr(t, "Launch", err, "argument 2")
		if data[0] != 1 || data[1] != 2 || data[2] != 3 {
			t.Fatalf("a refused launch changed its input: %v", data)
		}
	})
}

func TestRobustDeviceArrayShapes(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		for _, c := range []struct {
			name  string
			alloc func() error
			want  []string
		}{
			{"negative", func() error { _, err := NewDeviceArray[float32](-1); return err }, []string{"negative dimension"}},
			{"negative 2-D", func() error { _, err := NewDeviceArray[float32](-2, -3); return err }, []string{"negative dimension"}},
			{"4-D", func() error { _, err := NewDeviceArray[float32](1, 1, 1, 1); return err }, []string{"4 dimensions"}},
			{"elements overflow", func() error { _, err := NewDeviceArray[float32](1<<32, 1<<32); return err }, []string{"too large"}},
			{"3-D overflow", func() error { _, err := NewDeviceArray[int8](1<<22, 1<<22, 1<<22); return err }, []string{"too large"}},
			{"bytes overflow", func() error { _, err := NewDeviceArray[float64](1 << 61); return err }, []string{"too large"}},
			{"huge", func() error { _, err := NewDeviceArray[float64](1 << 55); return err }, []string{"NewDeviceArray"}},
			// More than any machine has, less than the Go runtime's limit
			// on one allocation: an error, not a fatal out of memory.
			{"128 TiB", func() error { _, err := NewDeviceArray[float64](1 << 44); return err }, []string{"NewDeviceArray", "out of memory"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				wantErr(t, "NewDeviceArray", call(t, "NewDeviceArray", c.alloc), c.want...)
			})
		}
		// The empty array is an array.
		for _, shape := range [][]int{nil, {0}, {0, 5}, {3, 0, 2}} {
			d, err := NewDeviceArray[float32](shape...)
			if err != nil {
				t.Fatalf("NewDeviceArray(%v): %v", shape, err)
			}
			if d.Len() != 0 || d.Bytes() != 0 {
				t.Errorf("NewDeviceArray(%v): Len %d, Bytes %d", shape, d.Len(), d.Bytes())
			}
			if h, err := d.ToHost(); err != nil || len(h) != 0 {
				t.Errorf("NewDeviceArray(%v).ToHost() = %v, %v", shape, h, err)
			}
			if err := d.Free(); err != nil {
				t.Errorf("Free: %v", err)
			}
		}
	})
}

func TestRobustDeviceArrayMisuse(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		d, err := ToDevice([]float32{1, 2, 3, 4})
		if err != nil {
			t.Fatal(err)
		}
		other, err := NewDeviceArray[float32](3)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Free()
		short := []float32{9, 9, 9}
		wantErr(t, "CopyToHost short", call(t, "CopyToHost", func() error { return d.CopyToHost(short) }), "destination has 3 elements")
		if short[0] != 9 || short[2] != 9 {
			t.Errorf("a refused CopyToHost wrote %v", short)
		}
		wantErr(t, "CopyToHost long", call(t, "CopyToHost", func() error { return d.CopyToHost(make([]float32, 5)) }), "destination has 5 elements")
		wantErr(t, "CopyToHost nil", call(t, "CopyToHost", func() error { return d.CopyToHost(nil) }), "destination has 0 elements")
		wantErr(t, "CopyFromHost short", call(t, "CopyFromHost", func() error { return d.CopyFromHost(short) }), "source has 3 elements")
		wantErr(t, "CopyFrom length", call(t, "CopyFrom", func() error { return d.CopyFrom(other) }), "source has 3 elements")
		wantErr(t, "CopyFrom nil", call(t, "CopyFrom", func() error { return d.CopyFrom(nil) }), "nil")
		wantErr(t, "zero stream", call(t, "CopyToHostAsync", func() error { return d.CopyToHostAsync(make([]float32, 4), &Stream{}) }), "not made by NewStream")
		wantErr(t, "zero stream", call(t, "CopyFromHostAsync", func() error { return d.CopyFromHostAsync(make([]float32, 4), &Stream{}) }), "not made by NewStream")
		if h, err := d.ToHost(); err != nil || h[0] != 1 || h[3] != 4 {
			t.Fatalf("after refused copies the array holds %v, %v", h, err)
		}

		// Use after Free is ErrFreed everywhere; Free is idempotent.
		if err := d.Free(); err != nil {
			t.Fatal(err)
		}
		if err := call(t, "Free twice", d.Free); err != nil {
			t.Errorf("second Free: %v", err)
		}
		dst := []float32{7, 7, 7, 7}
		for name, f := range map[string]func() error{
			"CopyToHost":        func() error { return d.CopyToHost(dst) },
			"CopyFromHost":      func() error { return d.CopyFromHost(dst) },
			"ToHost":            func() error { _, err := d.ToHost(); return err },
			"CopyFrom(freed)":   func() error { return d.CopyFrom(d) },
			"CopyToHostAsync":   func() error { return d.CopyToHostAsync(dst, nil) },
			"CopyFromHostAsync": func() error { return d.CopyFromHostAsync(dst, nil) },
			"Launch":            func() error { return Jit(testkernels.Scale).Launch(Dim1(1), Dim1(4), d, float32(2)) },
		} {
			if err := call(t, name, f); !errors.Is(err, ErrFreed) {
				t.Errorf("%s after Free = %v, want ErrFreed", name, err)
			}
		}
		if dst[0] != 7 {
			t.Errorf("a copy from a freed array wrote %v", dst)
		}
		if d.Len() != 4 || len(d.Shape()) != 1 {
			t.Errorf("a freed array forgot its shape: Len %d, Shape %v", d.Len(), d.Shape())
		}
	})
}

func TestRobustNilDeviceArray(t *testing.T) {
	var d *DeviceArray[float32]
	call(t, "Len/Shape/Bytes", func() error {
		if d.Len() != 0 || d.Shape() != nil || d.Bytes() != 0 {
			t.Errorf("nil array: Len %d, Shape %v, Bytes %d", d.Len(), d.Shape(), d.Bytes())
		}
		return nil
	})
	if err := call(t, "Free", d.Free); err != nil {
		t.Errorf("Free of a nil array: %v", err)
	}
	for name, f := range map[string]func() error{
		"CopyToHost":   func() error { return d.CopyToHost(nil) },
		"CopyFromHost": func() error { return d.CopyFromHost(nil) },
		"ToHost":       func() error { _, err := d.ToHost(); return err },
		"CopyFrom":     func() error { return d.CopyFrom(nil) },
	} {
		wantErr(t, name, call(t, name, f), "nil *cuda.DeviceArray")
	}
}

func TestRobustForeignObjects(t *testing.T) {
	// Arrays, streams and events of the cpu backend used on ptxsim.
	onBackend(t, CPU)
	cpuArr, err := ToDevice([]float32{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	defer cpuArr.Free()
	cpuStream, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	cpuEvent, err := NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	onBackend(t, PTXSim)
	simArr, err := NewDeviceArray[float32](3)
	if err != nil {
		t.Fatal(err)
	}
	defer simArr.Free()
	simEvent, err := NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	k := Jit(testkernels.Scale)
	wantErr(t, "Launch", call(t, "Launch", func() error { return k.Launch(Dim1(1), Dim1(4), cpuArr, float32(2)) }), "belongs to the cpu backend")
	wantErr(t, "LaunchWith", call(t, "LaunchWith", func() error {
		return k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(4), Stream: cpuStream}, make([]float32, 3), float32(2))
	}), "stream belongs to the cpu backend")
	wantErr(t, "CopyFrom", call(t, "CopyFrom", func() error { return simArr.CopyFrom(cpuArr) }), "different backends")
	wantErr(t, "CopyToHostAsync", call(t, "CopyToHostAsync", func() error { return simArr.CopyToHostAsync(make([]float32, 3), cpuStream) }), "different backends")
	wantErr(t, "Record", call(t, "Record", func() error { return simEvent.Record(cpuStream) }), "different backends")
	wantErr(t, "ElapsedTime", call(t, "ElapsedTime", func() error { _, err := ElapsedTime(cpuEvent, simEvent); return err }), "different backends")
	if h, err := cpuArr.ToHost(); err != nil || h[0] != 1 {
		t.Fatalf("the cpu array after foreign use: %v, %v", h, err)
	}
}

func TestRobustStreamsAndEvents(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		var nilStream *Stream
		if err := call(t, "nil Stream.Synchronize", nilStream.Synchronize); err != nil {
			t.Errorf("nil stream Synchronize: %v", err)
		}
		if err := call(t, "zero Stream.Synchronize", (&Stream{}).Synchronize); err != nil {
			t.Errorf("zero stream Synchronize: %v", err)
		}
		var nilEvent *Event
		wantErr(t, "nil Record", call(t, "Record", func() error { return nilEvent.Record(nil) }), "not made by NewEvent")
		wantErr(t, "zero Record", call(t, "Record", func() error { return (&Event{}).Record(nil) }), "not made by NewEvent")
		wantErr(t, "nil Synchronize", call(t, "Synchronize", nilEvent.Synchronize), "not made by NewEvent")
		wantErr(t, "zero Synchronize", call(t, "Synchronize", (&Event{}).Synchronize), "not made by NewEvent")
		wantErr(t, "ElapsedTime nil", call(t, "ElapsedTime", func() error { _, err := ElapsedTime(nil, nil); return err }), "NewEvent")
		e, err := NewEvent()
		if err != nil {
			t.Fatal(err)
		}
		wantErr(t, "ElapsedTime zero", call(t, "ElapsedTime", func() error { _, err := ElapsedTime(e, &Event{}); return err }), "NewEvent")
		s, err := NewStream()
		if err != nil {
			t.Fatal(err)
		}
		wantErr(t, "zero Record on stream", call(t, "Record", func() error { return (&Event{}).Record(s) }), "not made by NewEvent")
		// An event never recorded: an error, not a hang, where the backend
		// can tell (the host backends); the driver's answer otherwise.
		call(t, "unrecorded", func() error { _, err := ElapsedTime(e, e); return err })
	})
}

func TestRobustBackendChoice(t *testing.T) {
	onBackend(t, CPU)
	for _, b := range []Backend{"bogus", "CPU ", "gpu2"} {
		err := call(t, "SetBackend", func() error { return SetBackend(b) })
		if !errors.Is(err, ErrUnknownBackend) {
			t.Errorf("SetBackend(%q) = %v, want ErrUnknownBackend", b, err)
		}
		if cur, err := CurrentBackend(); err != nil || cur != CPU {
			t.Errorf("after SetBackend(%q) failed the backend is %v, %v; want cpu", b, cur, err)
		}
	}
	// Without a GPU, choosing it fails with ErrNoDevice and changes nothing.
	if _, err := Gpus(); err != nil {
		if err := call(t, "SetBackend", func() error { return SetBackend(GPU) }); !errors.Is(err, ErrNoDevice) {
			t.Errorf("SetBackend(gpu) without a GPU = %v, want ErrNoDevice", err)
		}
		if cur, err := CurrentBackend(); err != nil || cur != CPU {
			t.Errorf("after SetBackend(gpu) failed the backend is %v, %v; want cpu", cur, err)
		}
	}
	// Gpus and SelectDevice on the fake GPU: bad device numbers.
	fakeGPU(t, fakedriver.Config{})
	if ds, err := Gpus(); err != nil || len(ds) != 1 {
		t.Fatalf("Gpus = %v, %v", ds, err)
	}
	for _, i := range []int{-1, 1, 1 << 40} {
		wantErr(t, "SelectDevice", call(t, "SelectDevice", func() error { return SelectDevice(i) }), fmt.Sprint(i))
	}
}

func TestRobustPanickingKernels(t *testing.T) {
	onBackend(t, CPU)
	noLeak(t)
	type custom struct{ a, b int }
	for _, c := range []struct {
		name string
		fn   any
		want string
	}{
		{"string", func(t Thread, d []float32) { panic("boom") }, "boom"},
		{"struct", func(t Thread, d []float32) { panic(custom{1, 2}) }, "{1 2}"},
		{"nil", func(t Thread, d []float32) { panic(nil) }, "nil"},
		{"error", func(t Thread, d []float32) { panic(errors.New("bad")) }, "bad"},
		{"after sync", func(t Thread, d []float32) {
			t.SyncThreads()
			if t.ThreadIdx().X == 5 {
				panic(custom{3, 4})
			}
			t.SyncThreads()
		}, "{3 4}"},
		{"one thread, others wait", func(t Thread, d []float32) {
			if t.ThreadIdx().X == 0 {
				panic("first")
			}
			t.SyncThreads()
		}, "first"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := make([]float32, 64)
			err := call(t, "Launch", func() error { return Jit(c.fn).Launch(Dim1(2), Dim1(32), data) })
			var ke *KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("Launch = %v, want a *KernelError", err)
			}
			wantErr(t, "Launch", err, c.want, "partially written")
		})
	}
}

func TestRobustConcurrentUse(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		noLeak(t)
		k := Jit(testkernels.Scale)
		const workers = 8
		var wg sync.WaitGroup
		errs := make(chan error, 4*workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := NewStream()
				if err != nil {
					errs <- err
					return
				}
				d, err := ToDevice([]float32{1, 2, 3, 4})
				if err != nil {
					errs <- err
					return
				}
				// Launch on a stream, free the array while (maybe) queued, and
				// free it again from another goroutine: the launch ran on the
				// array or the free came first, never a crash.
				err = k.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(4), Stream: s}, d, float32(w))
				done := make(chan struct{})
				go func() { d.Free(); close(done) }()
				d.Free()
				<-done
				if err != nil && !errors.Is(err, ErrFreed) {
					errs <- err
				}
				if err := s.Synchronize(); err != nil {
					errs <- fmt.Errorf("stream: %w", err)
				}
				host := []float32{1, 2, 3}
				if err := k.Launch(Dim1(1), Dim1(32), host, float32(2)); err != nil {
					errs <- err
				} else if backend != "gpu-fake" && (host[0] != 2 || host[2] != 6) {
					errs <- fmt.Errorf("concurrent launch computed %v", host)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if err := Synchronize(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRobustFreeWhileQueued(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		noLeak(t)
		s, err := NewStream()
		if err != nil {
			t.Fatal(err)
		}
		d, err := NewDeviceArray[float32](1 << 10)
		if err != nil {
			t.Fatal(err)
		}
		src, dst := make([]float32, 1<<10), make([]float32, 1<<10)
		// Queue copies both ways, then free before the stream gets to them.
		errIn := call(t, "CopyFromHostAsync", func() error { return d.CopyFromHostAsync(src, s) })
		errOut := call(t, "CopyToHostAsync", func() error { return d.CopyToHostAsync(dst, s) })
		if err := call(t, "Free", d.Free); err != nil {
			t.Fatalf("Free with queued copies: %v", err)
		}
		if err := call(t, "Synchronize", s.Synchronize); err != nil && errIn == nil && errOut == nil {
			t.Logf("Synchronize after the free: %v", err)
		}
	})
}

func TestRobustHostArrays(t *testing.T) {
	// NewArray2/3 panic, as make does, for shapes they cannot hold.
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"NewArray2 negative", func() { NewArray2[float32](-1, -1) }, "negative"},
		{"NewArray2 one negative", func() { NewArray2[float32](-1, 0) }, "negative"},
		{"NewArray2 overflow", func() { NewArray2[float32](1<<40, 1<<40) }, "too large"},
		{"NewArray3 negative", func() { NewArray3[float32](-1, -1, 1) }, "negative"},
		{"NewArray3 overflow", func() { NewArray3[int8](1<<22, 1<<22, 1<<22) }, "too large"},
		{"MustView2", func() { MustView2(make([]float32, 5), 2, 3) }, "5 elements cannot be viewed as 2×3"},
		{"MustView2 overflow", func() { MustView2([]float32(nil), 1<<32, 1<<32) }, "cannot be viewed"},
		{"MustView3 overflow", func() { MustView3([]float32(nil), 1<<22, 1<<22, 1<<20) }, "cannot be viewed"},
		{"At out of range", func() { NewArray2[float32](2, 2).At(2, 0) }, "out of range"},
		{"zero Array2 At", func() { var a Array2[float32]; a.At(0, 0) }, "out of range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatalf("no panic, want one mentioning %q", c.want)
				}
				if !strings.Contains(fmt.Sprint(r), c.want) {
					t.Fatalf("panic %v does not mention %q", r, c.want)
				}
			}()
			c.f()
		})
	}
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"View2 overflow", func() error { _, err := View2([]float32(nil), 1<<32, 1<<32); return err }},
		{"View2 negative", func() error { _, err := View2([]float32{1}, -1, -1); return err }},
		{"View3 overflow", func() error { _, err := View3([]float32(nil), 1<<22, 1<<22, 1<<20); return err }},
		{"View3 negative", func() error { _, err := View3([]float32{1}, -1, 1, -1); return err }},
	} {
		wantErr(t, c.name, call(t, c.name, c.f), "cannot be viewed")
	}
	// The zero Array2 is an empty array, and Launch refuses it.
	var z Array2[float32]
	if r, c := z.Shape(); r != 0 || c != 0 || z.Len() != 0 || z.Data() != nil {
		t.Errorf("zero Array2: shape %d×%d, Len %d", r, c, z.Len())
	}
	onBackend(t, CPU)
	err := Jit(testkernels.Add2D).Launch(Dim1(1), Dim1(1), z, z, z)
	wantErr(t, "Launch with a zero Array2", err, "argument 1", "without data")
}

func TestRobustPTX(t *testing.T) {
	k := Jit(testkernels.Scale)
	for _, sm := range []int{-1, 1, 49} {
		err := call(t, "PTX", func() error { _, err := k.PTX(sm); return err })
		wantErr(t, fmt.Sprintf("PTX(%d)", sm), err, "compute capability", "sm_50")
	}
	for sm, target := range map[int]string{0: "sm_75", 70: "sm_70", 75: "sm_75", 90: "sm_90", 120: "sm_90"} {
		ptx, err := k.PTX(sm)
		if err != nil || !strings.Contains(ptx, ".target "+target) {
			t.Errorf("PTX(%d): %v; want .target %s", sm, err, target)
		}
	}
	// Func parameters: the functions must match them.
	mf := Jit(testkernels.MapFunc)
	for _, c := range []struct {
		name  string
		funcs []any
		want  string
	}{
		{"none", nil, "needs a function"},
		{"two", []any{testkernels.Add, testkernels.Sub}, "1 func parameters, got 2"},
		{"wrong type", []any{testkernels.Halve}, "func(float32) float32"},
		{"nil", []any{nil}, "got nil"},
		{"nil func", []any{(func(float32, float32) float32)(nil)}, "nil func"},
		{"closure", []any{func(a, b float32) float32 { return a * b }}, ""},
	} {
		err := call(t, "PTX", func() error { _, err := mf.PTX(75, c.funcs...); return err })
		if c.want == "" {
			if err == nil {
				t.Errorf("PTX with a closure for a func parameter compiled")
			}
			continue
		}
		wantErr(t, "PTX "+c.name, err, c.want)
	}
}

func TestRobustZeroDeviceArray(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		z := &DeviceArray[float32]{}
		const want = "not made by NewDeviceArray"
		wantErr(t, "Launch", call(t, "Launch", func() error { return Jit(testkernels.Scale).Launch(Dim1(1), Dim1(1), z, float32(1)) }), "argument 1", want)
		wantErr(t, "CopyToHost", call(t, "CopyToHost", func() error { return z.CopyToHost(nil) }), want)
		wantErr(t, "CopyFromHost", call(t, "CopyFromHost", func() error { return z.CopyFromHost(nil) }), want)
		wantErr(t, "CopyFrom", call(t, "CopyFrom", func() error { return z.CopyFrom(z) }), want)
		if err := call(t, "Free", z.Free); err != nil {
			t.Errorf("Free of a zero array: %v", err)
		}
		// Rank mismatches between device arrays and Array2/Array3 parameters.
		d3, err := NewDeviceArray[float32](2, 2, 2)
		if err != nil {
			t.Fatal(err)
		}
		defer d3.Free()
		a := NewArray2[float32](2, 2)
		wantErr(t, "3-D for Array2", call(t, "Launch", func() error { return Jit(testkernels.Add2D).Launch(Dim1(1), Dim1(4), d3, a, a) }), "argument 1", "3-D device array for a 2-D parameter")
		wantErr(t, "Array3 for Array2", call(t, "Launch", func() error {
			return Jit(testkernels.Add2D).Launch(Dim1(1), Dim1(4), NewArray3[float32](1, 2, 2), a, a)
		}), "argument 1", "cuda.Array3[float32]")
	})
}

func TestRobustCompileOnCompiledBackends(t *testing.T) {
	captured := float32(3)
	for _, b := range []Backend{PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			for _, c := range []struct {
				name string
				fn   any
				ok   bool
			}{
				{"method value", receiver{}.Kernel, false},
				{"closure", func(t Thread, d []float32) { d[0] = captured }, false},
				{"map kernel", testkernels.WithMap, false},
				{"kernel in a dot-importing file", genericKernel[float32], false},
				{"good", testkernels.Scale, true},
			} {
				t.Run(c.name, func(t *testing.T) {
					err := call(t, "Compile", func() error { _, err := Compile(c.fn); return err })
					if c.ok {
						if err != nil {
							t.Fatalf("Compile: %v", err)
						}
						return
					}
					var ce *CompileError
					if err == nil || !errors.As(err, &ce) && !strings.Contains(err.Error(), "compile") {
						t.Fatalf("Compile = %v, want a compile error", err)
					}
					// Launch reports the same, and writes nothing.
					d := []float32{5}
					err = call(t, "Launch", func() error { return Jit(c.fn).Launch(Dim1(1), Dim1(1), d) })
					if err == nil || d[0] != 5 {
						t.Fatalf("Launch = %v, data %v; want an error and the data untouched", err, d)
					}
				})
			}
			// Many goroutines compiling and launching one kernel at once.
			k := Jit(testkernels.Scale)
			var wg sync.WaitGroup
			errs := make([]error, 8)
			for i := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					d := []float32{1, 2}
					if errs[i] = k.Launch(Dim1(1), Dim1(2), d, float32(i)); errs[i] == nil && d[1] != float32(2*i) {
						errs[i] = fmt.Errorf("goroutine %d computed %v", i, d)
					}
				}()
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRobustNoGPU(t *testing.T) {
	// Without a usable GPU (here, an empty device list), Gpus and
	// SelectDevice say so with ErrNoDevice; with one, bad numbers are
	// errors.
	err := NewGPUBackendError(fakedriver.New(fakedriver.Config{Devices: []fakedriver.DeviceSpec{}}))
	if !errors.Is(err, ErrNoDevice) {
		t.Errorf("GPU backend with no device: %v, want ErrNoDevice", err)
	}
	onBackend(t, CPU)
	if _, err := call2(t, func() (any, error) { return Gpus() }); err != nil && !errors.Is(err, ErrNoDevice) {
		t.Errorf("Gpus = %v, want devices or ErrNoDevice", err)
	}
	if err := call(t, "SelectDevice", func() error { return SelectDevice(-1) }); err == nil {
		t.Errorf("SelectDevice(-1) succeeded")
	}
}

func call2(t *testing.T, f func() (any, error)) (any, error) {
	t.Helper()
	var r any
	err := call(t, "call", func() error {
		var err error
		r, err = f()
		return err
	})
	return r, err
}

func TestRobustFailedLaunchSaysPartial(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		if backend == "gpu-fake" {
			return // the recording fake runs no kernel, so none fails
		}
		// Threads past the end index out of range; the others have
		// written their element: the error must say so.
		d := make([]int32, 1000)
		err := Jit(testkernels.OutOfRange, Debug).Launch(Dim1(4), Dim1(256), d)
		var ke *KernelError
		if !errors.As(err, &ke) {
			t.Fatalf("Launch = %v, want a *KernelError", err)
		}
		wantErr(t, "Launch", err, "index out of range [1000]", "partially written")
		// On a stream, Synchronize reports it, once.
		s, err := NewStream()
		if err != nil {
			t.Fatal(err)
		}
		if err := Jit(testkernels.OutOfRange, Debug).LaunchWith(LaunchConfig{Grid: Dim1(4), Block: Dim1(256), Stream: s}, d); err != nil {
			t.Fatalf("queuing: %v", err)
		}
		err = s.Synchronize()
		wantErr(t, "Synchronize", err, "launch OutOfRange", "index out of range [1000]", "partially written")
		if !errors.As(err, &ke) {
			t.Fatalf("Synchronize = %v, want a *KernelError", err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatalf("second Synchronize = %v, want nil", err)
		}
	})
}

// TestRobustDivideByZero: an integer division or remainder by zero is a
// *KernelError on every backend without debug mode, as it is a panic in Go
// (issue 21, item 3), at each integer width, naming the failing thread and
// the Go line.
func TestRobustDivideByZero(t *testing.T) {
	const n, bad = 100, 70 // thread 70: block 1, thread 6 of 64
	eachBackend(t, func(t *testing.T, backend string) {
		if backend == "gpu-fake" {
			return // the recording fake runs no kernel, so none fails
		}
		for w, line := range []int{198, 199, 200, 201} {
			a, b, c, d := make([]int64, n), make([]int32, n), make([]uint16, n), make([]uint64, n)
			by64, by32, by16, byU := make([]int64, n), make([]int32, n), make([]uint16, n), make([]uint64, n)
			for i := range n {
				a[i], b[i], c[i], d[i] = int64(i)*7, int32(i)*5, uint16(i)*3, uint64(i)*11
				by64[i], by32[i], by16[i], byU[i] = -3, 4, 5, 6
			}
			switch w {
			case 0:
				by64[bad] = 0
			case 1:
				by32[bad] = 0
			case 2:
				by16[bad] = 0
			case 3:
				byU[bad] = 0
			}
			err := call(t, "Launch", func() error {
				return Jit(testkernels.DivRemWidths).Launch(Dim1(2), Dim1(64), a, b, c, d, by64, by32, by16, byU)
			})
			var ke *KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("width %d: Launch = %v, want a *KernelError", w, err)
			}
			wantErr(t, "Launch", err, "integer divide by zero")
			if ke.Block != (Dim3{1, 0, 0}) || ke.Thread != (Dim3{6, 0, 0}) {
				t.Errorf("width %d: block %v thread %v, want (1,0,0) (6,0,0)", w, ke.Block, ke.Thread)
			}
			if want := fmt.Sprintf("corpus.go:%d", line); !strings.HasSuffix(ke.Pos, want) {
				t.Errorf("width %d: position %q, want …%s", w, ke.Pos, want)
			}
		}
	})
}

// TestRobustKernelPanicValues: panic(v) of a constant or errors.New of a
// constant in a kernel (Numba's raise) is a *KernelError on every backend,
// with fmt.Sprint(v) as the CPU backend reports it, the thread and the
// position of the panic (issue 21, item 4).
func TestRobustKernelPanicValues(t *testing.T) {
	want := []struct {
		msg  string
		line int
	}{
		{"boom", 19}, {"42", 21}, {"-1.5e-07", 23}, {"bad input", 25}, {"18446744073709551615", 27},
		{"true", 29}, {"0.1", 31}, {"-3", 33}, {"x must be positive", 44},
	}
	eachBackend(t, func(t *testing.T, backend string) {
		if backend == "gpu-fake" {
			return // the recording fake runs no kernel, so none fails
		}
		for mode, w := range want {
			d := make([]int32, 100)
			err := call(t, "Launch", func() error { return Jit(testkernels.Panics).Launch(Dim1(2), Dim1(64), d, mode) })
			var ke *KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("mode %d: Launch = %v, want a *KernelError", mode, err)
			}
			if ke.Msg != w.msg || ke.Block != (Dim3{1, 0, 0}) || ke.Thread != (Dim3{6, 0, 0}) {
				t.Errorf("mode %d: %q in block %v thread %v, want %q in (1,0,0) (6,0,0)", mode, ke.Msg, ke.Block, ke.Thread, w.msg)
			}
			if want := fmt.Sprintf("panics.go:%d", w.line); !strings.HasSuffix(ke.Pos, want) {
				t.Errorf("mode %d: position %q, want …%s", mode, ke.Pos, want)
			}
			if d[5] != 5 {
				t.Errorf("mode %d: thread 5 did not write its element", mode)
			}
		}
	})
}

// TestRobustPTXSimFaultNamesGoLine: a fault on ptxsim without debug mode
// or LineInfo (an index past a slice's memory) names the Go line of the
// access, not only the PTX instruction (issue 21, item 16).
func TestRobustPTXSimFaultNamesGoLine(t *testing.T) {
	onBackend(t, PTXSim)
	d := make([]int32, 4)
	err := Jit(testkernels.OutOfRange).Launch(Dim1(64), Dim1(1024), d)
	var ke *KernelError
	if !errors.As(err, &ke) {
		t.Fatalf("Launch = %v, want a *KernelError", err)
	}
	if !strings.HasSuffix(ke.Pos, "testkernels/corpus.go:134") {
		t.Errorf("fault at %q, want the Go line testkernels/corpus.go:134 (%v)", ke.Pos, err)
	}
}

// TestRobustLaunchBounds: a kernel with LaunchBounds refuses a larger block
// before anything runs, on every backend, runs within them, and ForAll
// picks blocks within them; bounds out of range fail the kernel (issue
// 21, item 13).
func TestRobustLaunchBounds(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		k := Jit(testkernels.Increment, LaunchBounds(128, 2))
		d := make([]float64, 1000)
		err := call(t, "Launch", func() error { return k.Launch(Dim1(4), Dim1(256), d) })
		wantErr(t, "Launch", err, "launch Increment", "block (256,1,1) has 256 threads; the kernel's LaunchBounds allow at most 128")
		if d[0] != 0 {
			t.Fatalf("the refused launch ran: d[0] = %v", d[0])
		}
		if err := call(t, "Launch", func() error { return k.Launch(Dim1(8), Dim1(128), d) }); err != nil {
			t.Fatalf("block of 128 threads: %v", err)
		}
		if err := call(t, "ForAll", func() error { return k.ForAll(len(d), d) }); err != nil {
			t.Fatalf("ForAll: %v", err)
		}
		if backend != "gpu-fake" && (d[0] != 2 || d[999] != 2) {
			t.Errorf("d[0], d[999] = %v, %v after two launches, want 2", d[0], d[999])
		}
		for _, b := range [][2]int{{0, 1}, {1025, 0}, {64, -1}} {
			err := call(t, "Launch", func() error { return Jit(testkernels.Increment, LaunchBounds(b[0], b[1])).Launch(Dim1(1), Dim1(1), d) })
			wantErr(t, fmt.Sprintf("LaunchBounds(%d, %d)", b[0], b[1]), err, "LaunchBounds", "between 1 and 1024")
		}
	})
}

// TestRobustRunawayRecursion: a recursion without end is a *KernelError
// naming the call-depth limit (MaxCallDepth, "call depth exceeds 4096") on
// every backend, not a hang or a crash: ptxsim and the simulated GPU
// count the compiled calls, the cpu backend runs the depth-counting copies
// of testkernels' nugo_loops.go (issue 21 item 5). The failing thread is
// named, and the other threads' writes are kept where the backend runs
// them first.
func TestRobustRunawayRecursion(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		if backend == "gpu-fake" {
			return // the recording fake runs no kernel, so none fails
		}
		cases := []struct {
			name   string
			kernel any
			arg    []int64
			thread Dim3
			pos    string
		}{
			{"self", testkernels.Runaway, []int64{-1, 0}, Dim3{1, 0, 0}, "panics.go:"},
			{"mutual", testkernels.RunawayMutual, make([]int64, 8), Dim3{3, 0, 0}, "recursion.go:"},
		}
		for _, c := range cases {
			err := call(t, "Launch", func() error { return Jit(c.kernel).Launch(Dim1(1), Dim1(len(c.arg)), c.arg) })
			var ke *KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("%s: Launch = %v, want a *KernelError", c.name, err)
			}
			wantErr(t, c.name, err, "call depth exceeds 4096")
			if ke.Thread != c.thread {
				t.Errorf("%s: thread %v, want %v", c.name, ke.Thread, c.thread)
			}
			if backend == "cpu" && !strings.Contains(ke.Pos, c.pos) {
				t.Errorf("%s: position %q, want one in %s", c.name, ke.Pos, c.pos)
			}
		}
	})
}

// TestRobustDeepRecursion: a recursion 1000 calls deep works on every
// backend, and one 4000 deep on the cpu backend and ptxsim (the simulated
// GPU interprets as ptxsim does, but slowly); 4097 calls fail with the
// limit's KernelError (issue 21 item 5).
func TestRobustDeepRecursion(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		if backend == "gpu-fake" {
			return // the recording fake runs no kernel
		}
		depths := []int64{1000, 0, 1, 999}
		if backend == "cpu" || backend == "ptxsim" {
			depths = append(depths, MaxCallDepth-96, 4000)
		}
		out := make([]int64, len(depths))
		if err := call(t, "Launch", func() error { return Jit(testkernels.Recurse).Launch(Dim1(1), Dim1(len(depths)), depths, out) }); err != nil {
			t.Fatalf("depths %v: %v", depths, err)
		}
		for i, d := range depths {
			if want := d * (d + 1) / 2; out[i] != want {
				t.Errorf("depth %d: sum %d, want %d", d, out[i], want)
			}
		}
		if backend == "gpu-sim" {
			return
		}
		err := call(t, "Launch", func() error {
			return Jit(testkernels.Recurse).Launch(Dim1(1), Dim1(2), []int64{5, MaxCallDepth + 1}, make([]int64, 2))
		})
		var ke *KernelError
		if !errors.As(err, &ke) || ke.Thread != (Dim3{1, 0, 0}) {
			t.Fatalf("depth %d: %v, want a *KernelError of thread 1", MaxCallDepth+1, err)
		}
		wantErr(t, "too deep", err, "call depth exceeds 4096")
	})
}
