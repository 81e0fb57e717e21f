package cuda_test

import (
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
)

// testAtomicComplex runs all, an instantiation of
// testkernels.AtomicComplexAll, with 64 blocks of 256 threads adding to
// the same elements values whose parts are multiples of 1/4 up to 8, so
// that every sum is exact (in complex64 too) whatever the order.
func testAtomicComplex[T cuda.Complex](t *testing.T, typ string, all func(cuda.Thread, []T, []T, []T, []T)) {
	t.Run(typ, func(t *testing.T) {
		const blocks, threads = 64, 256
		const n = blocks * threads
		y, own, olds := make([]T, n), make([]T, n), make([]T, n)
		var sum complex128
		for i := range y {
			v := complex(float64((i*7919)%65-32)/4, float64((i*104729)%61-30)/4)
			y[i] = T(v)
			own[i] = T(complex(float64(i), -float64(i%100)))
			sum += v
		}
		acc := []T{T(1 + 2i), T(-3i)}
		wantOwn := make([]T, n)
		wantOld := append([]T(nil), own...)
		for i := range own {
			wantOwn[i] = own[i] + y[i]
		}
		if err := cuda.Jit(all).Launch(cuda.Dim1(blocks), cuda.Dim1(threads), y, own, olds, acc); err != nil {
			t.Fatal(err)
		}
		if want := T(1+2i) + T(sum); acc[0] != want {
			t.Errorf("global sum: acc[0] = %v, want %v", acc[0], want)
		}
		if want := T(-3i) + T(sum); acc[1] != want {
			t.Errorf("sum through shared memory: acc[1] = %v, want %v", acc[1], want)
		}
		for i := range own {
			if own[i] != wantOwn[i] || olds[i] != wantOld[i] {
				t.Fatalf("element %d: %v, old %v; want %v, old %v", i, own[i], olds[i], wantOwn[i], wantOld[i])
			}
		}
	})
}

// TestAtomicAddComplex: AtomicAddComplex adds both parts, each atomically,
// for complex64 and complex128 on global and shared memory, with 16384
// threads on the same element and one thread per element (the old value),
// on the CPU, on ptxsim and on the simulated GPU.
func TestAtomicAddComplex(t *testing.T) {
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
			testAtomicComplex(t, "complex64", testkernels.AtomicComplexAll[complex64])
			testAtomicComplex(t, "complex128", testkernels.AtomicComplexAll[complex128])
		})
	}
}

// TestAtomicAddComplexPTX: each part is one atom.add of the part's type,
// the imaginary part one part's size past the real part.
func TestAtomicAddComplexPTX(t *testing.T) {
	tests := []struct {
		kernel any
		want   []string
	}{
		{testkernels.AtomicComplexAll[complex64], []string{"atom.global.add.f32", "atom.shared.add.f32", "+4]"}},
		{testkernels.AtomicComplexAll[complex128], []string{"atom.global.add.f64", "atom.shared.add.f64", "+8]"}},
	}
	for _, tc := range tests {
		ptx, err := cuda.Jit(tc.kernel).PTX(75)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(ptx, w) {
				t.Errorf("%T: the PTX lacks %q", tc.kernel, w)
			}
		}
		if strings.Contains(ptx, "atom.global.cas") || strings.Contains(ptx, "atom.shared.cas") {
			t.Errorf("%T: AtomicAddComplex compiled to a CAS loop, not atom.add", tc.kernel)
		}
	}
}

// TestAtomicAddComplexHost: called on the host, AtomicAddComplex returns
// the old value and leaves the sum, part by part.
func TestAtomicAddComplexHost(t *testing.T) {
	x := complex64(1.5 - 2i)
	if old := cuda.AtomicAddComplex(&x, 0.25+4i); old != 1.5-2i || x != 1.75+2i {
		t.Errorf("complex64: old %v, now %v", old, x)
	}
	y := complex(1e300, -1)
	if old := cuda.AtomicAddComplex(&y, complex(1e300, 1)); old != complex(1e300, -1) || y != complex(2e300, 0) {
		t.Errorf("complex128: old %v, now %v", old, y)
	}
}
