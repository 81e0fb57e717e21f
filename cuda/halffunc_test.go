package cuda_test

import (
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// halfOperands is a spread of Float16 values: zeros, subnormals, the
// largest finite, infinities, a NaN and ordinary numbers.
func halfOperands() []Float16 {
	bits := []uint16{0x0000, 0x8000, 0x0001, 0x83ff, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
		0x3c00, 0xbc00, 0x3555, 0x4248, 0xc500, 0x1400, 0x5bff}
	out := make([]Float16, len(bits))
	for i, b := range bits {
		out[i] = Float16FromBits(b)
	}
	return out
}

// A kernel's func parameter may take and return Float16 values; the
// results equal calling the function on the host, bit for bit, on every
// backend.
func TestHalfFuncParam(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		a := halfOperands()
		b := make([]Float16, len(a))
		for i := range b {
			b[i] = a[(i*7+3)%len(a)]
		}
		want := make([]Float16, len(a))
		for i := range a {
			want[i] = testkernels.HalfMulAdd(a[i], b[i])
		}
		if err := Jit(testkernels.ApplyHalf).Launch(Dim1(1), Dim1(32), testkernels.HalfMulAdd, a, b); err != nil {
			t.Fatal(err)
		}
		if backend == "gpu-fake" {
			return
		}
		for i := range a {
			if a[i].Bits() != want[i].Bits() {
				t.Errorf("f(%#04x, %#04x) = %#04x, want %#04x", halfOperands()[i].Bits(), b[i].Bits(), a[i].Bits(), want[i].Bits())
			}
		}
	})
	ptx, err := Jit(testkernels.ApplyHalf).PTX(75, testkernels.HalfMulAdd)
	if err != nil {
		t.Fatalf("PTX of ApplyHalf with HalfMulAdd: %v", err)
	}
	if !strings.Contains(ptx, ".b16") {
		t.Errorf("PTX of ApplyHalf with HalfMulAdd has no .b16 operand:\n%s", ptx)
	}
	ptxastest.Assemble(t, "ApplyHalf", ptx, 75)
}

// A bound function may take a []Float16 that points into the kernel's
// device memory.
func TestHalfFuncParamMemory(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		a := halfOperands()
		const n = 4
		want := make([]Float16, len(a)/n)
		for r := range want {
			want[r] = testkernels.RowHalfSum(a[r*n : (r+1)*n])
		}
		out := make([]Float16, len(want))
		if err := Jit(testkernels.RowsHalfFunc).Launch(Dim1(1), Dim1(32), testkernels.RowHalfSum, a, out, n); err != nil {
			t.Fatal(err)
		}
		if backend == "gpu-fake" {
			return
		}
		for r := range want {
			if out[r].Bits() != want[r].Bits() {
				t.Errorf("row %d sum %#04x, want %#04x", r, out[r].Bits(), want[r].Bits())
			}
		}
	})
	ptx, err := Jit(testkernels.RowsHalfFunc).PTX(75, testkernels.RowHalfSum)
	if err != nil {
		t.Fatalf("PTX of RowsHalfFunc with RowHalfSum: %v", err)
	}
	ptxastest.Assemble(t, "RowsHalfFunc", ptx, 75)
}
