package cuda_test

import (
	"slices"
	"strings"
	"testing"
	"unsafe"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

const relayN = 32

// relayCase is one way of passing memory to testkernels.Relay: args
// returns the host buffer x behind in and out, and the arguments.
type relayCase struct {
	name    string
	overlap bool
	args    func() (x []float32, in, out, res []float32)
}

func relayCases() []relayCase {
	fill := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(100 + i)
		}
		return x
	}
	return []relayCase{
		{"separate", false, func() ([]float32, []float32, []float32, []float32) {
			x := fill(relayN)
			return x, x, fill(relayN), make([]float32, relayN)
		}},
		{"same slice", true, func() ([]float32, []float32, []float32, []float32) {
			x := fill(relayN)
			return x, x, x, make([]float32, relayN)
		}},
		{"shifted by one", true, func() ([]float32, []float32, []float32, []float32) {
			x := fill(relayN + 1)
			return x, x[1:], x[:relayN], make([]float32, relayN)
		}},
		{"in inside out", true, func() ([]float32, []float32, []float32, []float32) {
			x := fill(3 * relayN)
			return x, x[relayN : 2*relayN], x[relayN-5 : 2*relayN-5], make([]float32, relayN)
		}},
	}
}

// Arguments that share host memory alias on every backend as they do in
// Go: the ptxsim backend gives the CPU backend's results.
func TestOverlappingHostArgumentsAlias(t *testing.T) {
	k := Jit(testkernels.Relay)
	for _, c := range relayCases() {
		var results [][]float32
		for _, be := range []Backend{CPU, PTXSim} {
			withBackend(t, be, func() {
				x, in, out, res := c.args()
				if err := k.Launch(Dim1(1), Dim1(relayN), in, out, res); err != nil {
					t.Fatalf("%s on %s: %v", c.name, be, err)
				}
				results = append(results, append(x, res...))
			})
		}
		if !slices.Equal(results[0], results[1]) {
			t.Errorf("%s: ptxsim\n%v\nCPU\n%v", c.name, results[1], results[0])
		}
	}
}

func uintptrOf(s []float32) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(s))) }

// withBackend runs fn with be as the current backend, then restores the
// previous one (onBackend switches for the rest of a test).
func withBackend(t *testing.T, be Backend, fn func()) {
	t.Helper()
	prev, err := CurrentBackend()
	if err != nil {
		t.Fatal(err)
	}
	if err := SetBackend(be); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := SetBackend(prev); err != nil {
			t.Error(err)
		}
	}()
	fn()
}

// On the GPU, host arguments that overlap are copied as one span, each
// placed at its offset in it, and the launch runs the variant compiled
// without the read-only cache.
func TestGPUOverlappingHostArgumentsShareOneCopy(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	k := Jit(testkernels.Relay)
	for _, c := range relayCases() {
		_, in, out, res := c.args()
		var live fakedriver.Live
		f.OnLaunch = func(f *fakedriver.Fake, l fakedriver.Launch) error {
			live = f.Live()
			return nil
		}
		if err := k.Launch(Dim1(1), Dim1(relayN), in, out, res); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		l := f.Launches()[len(f.Launches())-1]
		inAddr, outAddr := u64(l.Args[0]), u64(l.Args[3])
		for j, a := range map[int][]float32{0: in, 3: out, 6: res} {
			if dev, host := u64(l.Args[j]), uint64(uintptrOf(a)); dev%256 != host%256 {
				t.Errorf("%s: argument at %#x on the device, %#x on the host: not equally aligned", c.name, dev, host)
			}
		}
		wantAllocs := 3
		if c.overlap {
			wantAllocs = 2
			hostDelta := int64(uintptrOf(out)) - int64(uintptrOf(in))
			if devDelta := int64(outAddr) - int64(inAddr); devDelta != hostDelta {
				t.Errorf("%s: out - in is %d bytes on the device, %d on the host", c.name, devDelta, hostDelta)
			}
		}
		if live.Allocs != wantAllocs {
			t.Errorf("%s: %d device allocations at launch, want %d", c.name, live.Allocs, wantAllocs)
		}
		ptx, err := LaunchPTX(k, 90, in, out, res)
		if err != nil {
			t.Fatal(err)
		}
		if nc := strings.Contains(ptx, "ld.global.nc"); nc == c.overlap {
			t.Errorf("%s: ld.global.nc in the PTX is %v, want %v", c.name, nc, !c.overlap)
		}
	}
	wantLive(t, f, 0, 0)
}

// The same device array passed twice also runs without the read-only
// cache, and both parameters get its address.
func TestGPUSameDeviceArrayTwice(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	k := Jit(testkernels.Relay)
	d, err := NewDeviceArray[float32](relayN)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	res := make([]float32, relayN)
	if err := k.Launch(Dim1(1), Dim1(relayN), d, d, res); err != nil {
		t.Fatal(err)
	}
	l := f.Launches()[len(f.Launches())-1]
	if a, b := driver.DevicePtr(u64(l.Args[0])), driver.DevicePtr(u64(l.Args[3])); a != b {
		t.Errorf("in at %#x, out at %#x; want the array's one address", a, b)
	}
	for _, c := range []struct {
		args []any
		nc   bool
	}{{[]any{d, d, res}, false}, {[]any{d, make([]float32, relayN), res}, true}} {
		ptx, err := LaunchPTX(k, 90, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		if nc := strings.Contains(ptx, "ld.global.nc"); nc != c.nc {
			t.Errorf("ld.global.nc in the PTX is %v, want %v", nc, c.nc)
		}
	}
}
