package cuda

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestDeviceArrayRoundTrip(t *testing.T) {
	host := []float64{1, 2, 3, 4}
	d, err := ToDevice(host)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	host[0] = 100 // the device copy is independent
	if err := Jit(increment).Launch(Dim1(1), Dim1(4), d); err != nil {
		t.Fatal(err)
	}
	if host[1] != 2 {
		t.Fatal("launch with a device array changed the host slice")
	}
	got, err := d.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []float64{2, 3, 4, 5}) {
		t.Fatalf("ToHost = %v", got)
	}
	if d.Len() != 4 || d.Bytes() != 32 || !slices.Equal(d.Shape(), []int{4}) {
		t.Fatalf("Len %d Bytes %d Shape %v", d.Len(), d.Bytes(), d.Shape())
	}
	if err := d.CopyFromHost([]float64{9, 9, 9, 9}); err != nil {
		t.Fatal(err)
	}
	like, err := DeviceArrayLike(host)
	if err != nil {
		t.Fatal(err)
	}
	if err := like.CopyFrom(d); err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 4)
	if err := like.CopyToHost(out); err != nil || out[3] != 9 {
		t.Fatalf("CopyFrom: %v %v", out, err)
	}
}

func TestDeviceArrayErrors(t *testing.T) {
	d, err := NewDeviceArray[int32](3)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.CopyToHost(make([]int32, 2)); err == nil || !strings.Contains(err.Error(), "destination has 2 elements") {
		t.Errorf("short destination: %v", err)
	}
	if err := d.CopyFromHost(make([]int32, 4)); err == nil || !strings.Contains(err.Error(), "source has 4 elements") {
		t.Errorf("long source: %v", err)
	}
	other, _ := NewDeviceArray[int32](4)
	if err := d.CopyFrom(other); err == nil {
		t.Error("CopyFrom of a different length succeeded")
	}
	if err := d.Free(); err != nil {
		t.Fatal(err)
	}
	if err := d.Free(); err != nil {
		t.Fatalf("second Free: %v", err)
	}
	if err := d.CopyToHost(make([]int32, 3)); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyToHost after Free: %v", err)
	}
	if _, err := d.ToHost(); !errors.Is(err, ErrFreed) {
		t.Errorf("ToHost after Free: %v", err)
	}
	if err := other.CopyFrom(d); err == nil {
		t.Error("CopyFrom a freed array succeeded")
	}
	for _, shape := range [][]int{{-1}, {1, 2, 3, 4}} {
		if _, err := NewDeviceArray[int8](shape...); err == nil {
			t.Errorf("NewDeviceArray(%v) succeeded", shape)
		}
	}
	if e, err := NewDeviceArray[int8](); err != nil || e.Len() != 0 {
		t.Errorf("empty array: %v", err)
	}
}

func TestArraysOnDevice(t *testing.T) {
	a := NewArray2[int32](30, 30)
	if err := Jit(fill2).Launch(Dim2(2, 2), Dim2(16, 16), a, int32(7)); err != nil {
		t.Fatal(err)
	}
	for i, v := range a.Data() {
		if v != 7 {
			t.Fatalf("host Array2 element %d = %d", i, v)
		}
	}
	d, err := ToDevice2(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := Jit(fill2).Launch(Dim2(2, 2), Dim2(16, 16), d, int32(-1)); err != nil {
		t.Fatal(err)
	}
	if a.At(29, 29) != 7 {
		t.Fatal("device launch wrote the host array")
	}
	if err := d.CopyToHost(a.Data()); err != nil || a.At(29, 29) != -1 || a.At(0, 0) != -1 {
		t.Fatalf("copy back: %v", err)
	}
	// A 2-D device array can also be passed flat, to a slice parameter.
	f, _ := ToDevice2(NewArray2[float64](3, 4))
	if err := Jit(increment).Launch(Dim1(1), Dim1(12), f); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.ToHost(); got[11] != 1 {
		t.Fatalf("flat launch: %v", got)
	}
	a3 := NewArray3[float32](2, 3, 4)
	d3, err := ToDevice3(a3)
	if err != nil || !slices.Equal(d3.Shape(), []int{2, 3, 4}) {
		t.Fatalf("ToDevice3: %v %v", d3.Shape(), err)
	}
}

func TestArrayViews(t *testing.T) {
	a, err := View2([]int{0, 1, 2, 3, 4, 5}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if a.At(1, 2) != 5 || a.Len() != 6 {
		t.Fatalf("At(1,2) = %d", a.At(1, 2))
	}
	a.Set(0, 1, 10)
	if r, c := a.Shape(); r != 2 || c != 3 || a.Data()[1] != 10 {
		t.Fatal("Set or Shape")
	}
	if _, err := View2([]int{1, 2, 3}, 2, 2); err == nil {
		t.Error("View2 accepted a wrong length")
	}
	b, err := View3(make([]int8, 24), 2, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	b.Set(1, 2, 3, 9)
	if b.Data()[23] != 9 || b.At(1, 2, 3) != 9 || b.Len() != 24 {
		t.Fatal("View3 indexing")
	}
	if d0, d1, d2 := b.Shape(); d0 != 2 || d1 != 3 || d2 != 4 {
		t.Fatal("View3 shape")
	}
	if _, err := View3(make([]int8, 5), 1, 2, 3); err == nil {
		t.Error("View3 accepted a wrong length")
	}
	// Out-of-range column indexes are caught even when the flat index fits.
	err = Jit(func(t Thread, a Array2[int]) { a.At(0, 3) }).Launch(Dim1(1), Dim1(1), a)
	if err == nil || !strings.Contains(err.Error(), "index (0,3) out of range for shape (2,3)") {
		t.Fatalf("out-of-range At: %v", err)
	}
	err = Jit(func(t Thread, a Array3[int8]) { a.Set(0, 0, 4, 1) }).Launch(Dim1(1), Dim1(1), b)
	if err == nil || !strings.Contains(err.Error(), "index (0,0,4) out of range") {
		t.Fatalf("out-of-range Set: %v", err)
	}
}
