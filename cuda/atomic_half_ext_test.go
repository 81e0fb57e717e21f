package cuda_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/corpus"
)

// TestHalfAtomicsNeedSM70: through the public API, a kernel with Float16
// atomics compiled for a GPU older than sm_70 is a *CompileError at the
// call that names sm_70; from sm_70 on its PTX has the 16-bit atomics.
func TestHalfAtomicsNeedSM70(t *testing.T) {
	for _, name := range []string{"atomics/half_add", "atomics/half_compare", "atomics/half_shared"} {
		c, ok := corpus.Lookup(name)
		if !ok {
			t.Fatalf("corpus case %s is missing", name)
		}
		for _, sm := range []int{53, 60, 61} {
			_, err := cuda.Jit(c.Kernel).PTX(sm)
			var ce *cuda.CompileError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), "on a Float16 needs compute capability 7.0 (sm_70)") || !strings.Contains(err.Error(), "atomics.go:") {
				t.Errorf("%s for sm_%d: got %v, want a *CompileError at the call that names sm_70", name, sm, err)
			}
		}
		for _, sm := range []int{70, 90} {
			if ptx, err := cuda.Jit(c.Kernel).PTX(sm); err != nil || !strings.Contains(ptx, ".b16") || !strings.Contains(ptx, "atom.") {
				t.Errorf("%s for sm_%d: %v; want PTX with 16-bit atomics", name, sm, err)
			}
		}
	}
}

// TestHalfAtomicAddAllPatterns: AtomicAdd of a Float16 stores HAdd's bits
// for every one of the 65536 patterns (each added to a partner with
// another exponent and sign), on the CPU, on ptxsim and on the simulated
// GPU, through a generic kernel instantiated with Float16; 32768 atomic
// adds of 1 to one element, half of a word whose other half takes adds of
// 0, stop at 2048 on each.
func TestHalfAtomicAddAllPatterns(t *testing.T) {
	const n = 1 << 16
	for _, b := range []struct {
		name  string
		setup func(t *testing.T)
	}{
		{"cpu", func(t *testing.T) { onBackend(t, cuda.CPU) }},
		{"ptxsim", func(t *testing.T) { onBackend(t, cuda.PTXSim) }},
		{"gpu-sim", func(t *testing.T) { simGPU(t) }},
	} {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			x, y, old, acc := make([]cuda.Float16, n), make([]cuda.Float16, n), make([]cuda.Float16, n), make([]cuda.Float16, 2)
			for i := range x {
				x[i] = cuda.Float16FromBits(uint16(i))
				y[i] = cuda.Float16FromBits(uint16(i*40503) ^ 0x8000)
			}
			for i := range 4 {
				y[i] = cuda.F16(float32(i % 2)) // acc[0] adds zeros, acc[1] ones
			}
			want := make([]cuda.Float16, n)
			for i := range want {
				want[i] = cuda.HAdd(x[i], y[i])
			}
			if err := cuda.Jit(testkernels.AtomicAddEach[cuda.Float16]).Launch(cuda.Dim1(n/256), cuda.Dim1(256), x, y, old, acc); err != nil {
				t.Fatal(err)
			}
			bad := 0
			for i := range x {
				if x[i] != want[i] || old[i] != cuda.Float16FromBits(uint16(i)) {
					if bad++; bad <= 5 {
						t.Errorf("%#04x + %#04x: stored %#04x, returned %#04x; want %#04x, %#04x", i, y[i].Bits(), x[i].Bits(), old[i].Bits(), want[i].Bits(), i)
					}
				}
			}
			if bad > 5 {
				t.Errorf("%d sums differ", bad)
			}
			// 32768 ones: exact up to 2048, where 2048+1 ties to even 2048,
			// whatever the order
			if acc[0] != cuda.F16(0) || acc[1] != cuda.F16(2048) {
				t.Errorf("accumulators %v, %v; want 0, 2048", acc[0], acc[1])
			}
		})
	}
}
