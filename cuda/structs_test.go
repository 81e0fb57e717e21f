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
		wantErr(t, c.name, err, "parameter 1 has type", "slices of numbers, bools or structs of numbers")
	}
}

// Device arrays hold structs of numbers too: made zeroed or from a host
// slice, passed to kernels without copies, read back whole.
func TestDeviceArrayOfStructs(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		cells, err := NewDeviceArray[testkernels.Cell](3)
		if err != nil {
			t.Fatal(err)
		}
		defer cells.Free()
		if cells.Bytes() != 3*24 {
			t.Errorf("Bytes = %d, want %d", cells.Bytes(), 3*24)
		}
		values := make([]float64, 300)
		for i := range values {
			values[i] = float64(i % 10)
		}
		dv, err := ToDevice(values)
		if err != nil {
			t.Fatal(err)
		}
		defer dv.Free()
		k := Jit(testkernels.CountCells)
		for range 2 {
			if err := k.Launch(Dim1(3), Dim1(128), cells, dv); err != nil {
				t.Fatal(err)
			}
		}
		got, err := cells.ToHost()
		if err != nil {
			t.Fatal(err)
		}
		if backend == "gpu-fake" {
			return // the recording fake runs no kernels
		}
		for i, c := range got {
			if c.Count != 200 || !c.Seen || c.Hist != [4]uint8{1, 1, 1, 1} {
				t.Errorf("cell %d = %+v after two launches", i, c)
			}
		}
		back, err := ToDevice(got)
		if err != nil {
			t.Fatal(err)
		}
		defer back.Free()
		again, err := back.ToHost()
		if err != nil || again[2] != got[2] {
			t.Errorf("round trip: %+v, %v; want %+v", again[2], err, got[2])
		}
	})
}

// Element types other than numbers and structs of numbers are refused by
// everything that makes device memory or pins it.
func TestDeviceArrayElementTypes(t *testing.T) {
	_, err := NewDeviceArray[string](4)
	wantErr(t, "NewDeviceArray[string]", err, "elements of type string; device arrays hold numbers or structs of numbers")
	_, err = ToDevice([]testkernels.WithPointer{{}})
	wantErr(t, "ToDevice of structs with a pointer", err, "testkernels.WithPointer")
	_, err = DeviceArrayLike([]struct{}{{}})
	wantErr(t, "DeviceArrayLike of empty structs", err, "struct {}")
	_, err = Pin([]*int{nil})
	wantErr(t, "Pin of pointers", err, "Pin: elements of type *int")
	if p, err := Pin(make([]testkernels.Cell, 2)); err != nil {
		t.Errorf("Pin of structs of numbers: %v", err)
	} else if err := p.Unpin(); err != nil {
		t.Error(err)
	}
}
