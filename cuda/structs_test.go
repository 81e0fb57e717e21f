package cuda_test

import (
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
)

// A slice of structs of numbers is host memory like any slice: copied to
// the device and back whole, fields updated in place, atomics on fields.
func TestSliceOfStructs(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		cells := make([]testkernels.Cell, 3)
		values := make([]float64, 300)
		for i := range values {
			values[i] = float64(i % 10)
		}
		if err := Jit(testkernels.CountCells).Launch(Dim1(3), Dim1(128), cells, values); err != nil {
			t.Fatal(err)
		}
		if backend == "gpu-fake" {
			return // the recording fake runs no kernels
		}
		for k, c := range cells {
			var sum float64
			for i := k; i < len(values); i += 3 {
				sum += values[i]
			}
			if c.Count != 100 || c.Sum != sum || !c.Seen || c.Hist != [4]uint8{1, 1, 1, 1} {
				t.Errorf("cell %d = %+v; want count 100, sum %v, seen, all hist bins", k, c, sum)
			}
		}
	})
}

// Slices of structs holding anything but numbers, bools and arrays and
// structs of them are refused at launch, saying what is allowed.
func TestSliceOfStructsRefused(t *testing.T) {
	for _, c := range []struct {
		name   string
		kernel any
		arg    any
	}{
		{"pointer field", testkernels.TakesPointers, []testkernels.WithPointer{{}}},
		{"no fields", testkernels.TakesEmpty, []struct{}{{}}},
	} {
		err := Jit(c.kernel).Launch(Dim1(1), Dim1(1), c.arg)
		wantErr(t, c.name, err, "parameter 1 has type", "slices of numbers or of structs of numbers")
	}
}
