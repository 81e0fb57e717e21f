package random

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/ptxas"
)

// drawAll draws per values of every kind from generator i, interleaved,
// with a Jump halfway and a reseed of generators past len(raw)/per, and
// leaves the advanced states behind.
func drawAll(t cuda.Thread, states []uint64, per int, raw []uint64, u64 []float64, u32 []float32, n64 []float64, n32 []float32) {
	i := t.Grid1()
	if i*per >= len(raw) {
		if 2*i+1 < len(states) {
			InitState(states, i, uint64(i))
		}
		return
	}
	for k := 0; k < per; k++ {
		j := i*per + k
		if k == per/2 {
			Jump(states, i)
		}
		raw[j] = Next(states, i)
		u64[j] = Uniform64(states, i)
		u32[j] = Uniform32(states, i)
		n64[j] = Normal64(states, i)
		n32[j] = Normal32(states, i)
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

// runDrawAll runs drawAll on backend b over 96 threads, 80 of which draw.
func runDrawAll(t *testing.T, b cuda.Backend) drawn {
	t.Helper()
	if err := cuda.SetBackend(b); err != nil {
		t.Fatal(err)
	}
	const threads, drawing, per = 96, 80, 10
	states, err := HostStates(threads, 42, 5)
	if err != nil {
		t.Fatal(err)
	}
	d := drawn{states: states, raw: make([]uint64, drawing*per), u64: make([]float64, drawing*per),
		u32: make([]float32, drawing*per), n64: make([]float64, drawing*per), n32: make([]float32, drawing*per)}
	if err := cuda.Jit(drawAll).Launch(cuda.Dim1(3), cuda.Dim1(32), d.states, per, d.raw, d.u64, d.u32, d.n64, d.n32); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return d
}

// TestCompiledMatchesCPU runs the kernel-side functions compiled to PTX on
// ptxsim and compares with the CPU backend: raw outputs, uniforms, jumps,
// reseeds and the final states bit for bit; Normal32 bit for bit too (its
// logarithm and cosine come from nugo's device math library on both
// backends); Normal64 within 4 ulp (its cosine is Go's math.Cos on the CPU
// and the device library's, within 2 ulp, when compiled).
func TestCompiledMatchesCPU(t *testing.T) {
	defer cuda.SetBackend(cuda.CPU)
	want := runDrawAll(t, cuda.CPU)
	got := runDrawAll(t, cuda.PTXSim)
	if !slices.Equal(got.states, want.states) {
		for i := range want.states {
			if got.states[i] != want.states[i] {
				t.Fatalf("states[%d] = %#x on ptxsim, %#x on the CPU", i, got.states[i], want.states[i])
			}
		}
	}
	n64Inexact := 0
	for j := range want.raw {
		if got.raw[j] != want.raw[j] {
			t.Fatalf("Next #%d = %#x on ptxsim, %#x on the CPU", j, got.raw[j], want.raw[j])
		}
		if math.Float64bits(got.u64[j]) != math.Float64bits(want.u64[j]) {
			t.Fatalf("Uniform64 #%d = %v on ptxsim, %v on the CPU", j, got.u64[j], want.u64[j])
		}
		if math.Float32bits(got.u32[j]) != math.Float32bits(want.u32[j]) {
			t.Fatalf("Uniform32 #%d = %v on ptxsim, %v on the CPU", j, got.u32[j], want.u32[j])
		}
		if math.Float32bits(got.n32[j]) != math.Float32bits(want.n32[j]) {
			t.Fatalf("Normal32 #%d = %v on ptxsim, %v on the CPU", j, got.n32[j], want.n32[j])
		}
		if got.n64[j] != want.n64[j] {
			n64Inexact++
		}
		if d := ulps64(got.n64[j], want.n64[j]); d > 4 {
			t.Fatalf("Normal64 #%d = %v on ptxsim, %v on the CPU: %d ulp apart, at most 4", j, got.n64[j], want.n64[j], d)
		}
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
	if !ptxas.Available() {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %v", ptxas.ErrNotFound)
		}
		t.Logf("SKIP ptxas check: %v", ptxas.ErrNotFound)
		return
	}
	for _, sm := range []int{75, 90} {
		if _, err := ptxas.Assemble(ptx, fmt.Sprintf("sm_%d", sm), false); err != nil {
			t.Errorf("ptxas sm_%d: %v", sm, err)
		}
	}
}
