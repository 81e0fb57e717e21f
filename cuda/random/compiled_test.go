package random_test

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/random"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// drawAll draws per values of every kind from generator i, interleaved,
// with a Jump halfway; threads past len(raw)/per reseed their generator
// instead. The advanced states stay behind. It is a kernel of another
// package than random, as a user's is: the compiled backends compile
// random's functions into it.
func drawAll(t cuda.Thread, states []uint64, per int, raw []uint64, u64 []float64, u32 []float32, n64 []float64, n32 []float32) {
	i := t.Grid1()
	if i*per >= len(raw) {
		if 2*i+1 < len(states) {
			random.InitState(states, i, uint64(i))
		}
		return
	}
	for k := 0; k < per; k++ {
		j := i*per + k
		if k == per/2 {
			random.Jump(states, i)
		}
		raw[j] = random.Next(states, i)
		u64[j] = random.Uniform64(states, i)
		u32[j] = random.Uniform32(states, i)
		n64[j] = random.Normal64(states, i)
		n32[j] = random.Normal32(states, i)
	}
}

type drawn struct {
	states []uint64
	raw    []uint64
	u64    []float64
	u32    []float32
	n64    []float64
	n32    []float32
}

// runDrawAll runs drawAll on the current backend over 96 threads, 80 of
// which draw, the states on the device (a DeviceArray).
func runDrawAll(t *testing.T) drawn {
	t.Helper()
	const threads, drawing, per = 96, 80, 10
	states, err := random.NewStatesAsync(threads, 42, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer states.Free()
	d := drawn{raw: make([]uint64, drawing*per), u64: make([]float64, drawing*per),
		u32: make([]float32, drawing*per), n64: make([]float64, drawing*per), n32: make([]float32, drawing*per)}
	if err := cuda.Jit(drawAll).Launch(cuda.Dim1(3), cuda.Dim1(32), states, per, d.raw, d.u64, d.u32, d.n64, d.n32); err != nil {
		t.Fatal(err)
	}
	if d.states, err = states.ToHost(); err != nil {
		t.Fatal(err)
	}
	return d
}

// onBackend makes b package cuda's backend for the test and restores the
// previous one after it. A missing GPU skips the test visibly, and fails
// it under NUGO_REQUIRE_GPU=1.
func onBackend(t *testing.T, b cuda.Backend) {
	t.Helper()
	prev, err := cuda.CurrentBackend()
	if err != nil {
		t.Fatal(err)
	}
	if err := cuda.SetBackend(b); err != nil {
		if b == cuda.GPU && os.Getenv("NUGO_REQUIRE_GPU") != "1" {
			t.Skipf("SKIP: backend %s is not available here: %v", b, err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cuda.SetBackend(prev); err != nil {
			t.Errorf("restoring backend %s: %v", prev, err)
		}
	})
}

// TestCompiledOnPTXSim runs the kernel-side functions compiled to PTX on
// ptxsim and compares with the CPU backend.
func TestCompiledOnPTXSim(t *testing.T) { testCompiled(t, cuda.PTXSim) }

// TestCompiledOnGPU is the same on a GPU, where there is one.
func TestCompiledOnGPU(t *testing.T) { testCompiled(t, cuda.GPU) }

// testCompiled compares backend b with the CPU: raw outputs, uniforms,
// jumps, reseeds and the final states bit for bit; Normal32 bit for bit
// too (its logarithm and cosine come from nugo's device math library on
// both); Normal64 within 4 ulp (its cosine is Go's math.Cos on the CPU and
// the device library's, within 2 ulp, when compiled).
func testCompiled(t *testing.T, b cuda.Backend) {
	onBackend(t, cuda.CPU)
	want := runDrawAll(t)
	onBackend(t, b)
	got := runDrawAll(t)
	for i := range want.states {
		if got.states[i] != want.states[i] {
			t.Fatalf("states[%d] = %#x on %s, %#x on the CPU", i, got.states[i], b, want.states[i])
		}
	}
	n64Inexact := 0
	for j := range want.raw {
		if got.raw[j] != want.raw[j] {
			t.Fatalf("Next #%d = %#x on %s, %#x on the CPU", j, got.raw[j], b, want.raw[j])
		}
		if math.Float64bits(got.u64[j]) != math.Float64bits(want.u64[j]) {
			t.Fatalf("Uniform64 #%d = %v on %s, %v on the CPU", j, got.u64[j], b, want.u64[j])
		}
		if math.Float32bits(got.u32[j]) != math.Float32bits(want.u32[j]) {
			t.Fatalf("Uniform32 #%d = %v on %s, %v on the CPU", j, got.u32[j], b, want.u32[j])
		}
		if math.Float32bits(got.n32[j]) != math.Float32bits(want.n32[j]) {
			t.Fatalf("Normal32 #%d = %v on %s, %v on the CPU", j, got.n32[j], b, want.n32[j])
		}
		if got.n64[j] != want.n64[j] {
			n64Inexact++
		}
		if d := random.ULPs64(got.n64[j], want.n64[j]); d > 4 {
			t.Fatalf("Normal64 #%d = %v on %s, %v on the CPU: %d ulp apart, at most 4", j, got.n64[j], b, want.n64[j], d)
		}
	}
	if slices.Equal(want.raw, make([]uint64, len(want.raw))) {
		t.Fatal("the kernel drew nothing")
	}
	t.Logf("%d draws of each kind; %d Normal64 values not bit-identical", len(want.raw), n64Inexact)
}

// TestKernelPTXAssembles: ptxas accepts the module for sm_75 and sm_90;
// without ptxas the check is skipped visibly, except under CI=true.
func TestKernelPTXAssembles(t *testing.T) {
	ptx, err := cuda.Jit(drawAll).PTX(75)
	if err != nil {
		t.Fatal(err)
	}
	ptxastest.Assemble(t, "drawAll", ptx, 75, 90)
}

// TestSourceRegistered: the package registered its kernel-side source, so
// binaries built away from the source tree compile kernels that call it.
func TestSourceRegistered(t *testing.T) {
	if err := random.RegisterErr(); err != nil {
		t.Fatal(err)
	}
	// Registering other text under the same path is refused only when
	// the package's own registration happened.
	err := frontend.RegisterPackage("github.com/nugo-dev/nugo/cuda/random", map[string][]byte{"x.go": []byte("package random\n")})
	if err == nil || !strings.Contains(err.Error(), "different source") {
		t.Fatalf("registering other source for cuda/random: %v; want an error saying it was registered with different source", err)
	}
}
