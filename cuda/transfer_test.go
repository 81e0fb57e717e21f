package cuda_test

import (
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// TestTransferHints: cuda.In, Out and InOut (Numba's cuda.In/Out/InOut)
// give a host slice only the copies it needs: the kernel's writes to an
// In argument do not reach the host, an Out argument receives the
// kernel's results, on every backend (issue 21, item 15).
func TestTransferHints(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		const n = 300
		a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range n {
			a[i], b[i] = float32(i), float32(2*i)
		}
		if err := Jit(testkernels.VecAdd).Launch(Dim1(3), Dim1(128), In(a), In(b), Out(c)); err != nil {
			t.Fatal(err)
		}
		d := []float64{1, 2, 3}
		if err := Jit(testkernels.Increment).Launch(Dim1(1), Dim1(32), In(d)); err != nil {
			t.Fatal(err)
		}
		e := []float64{1, 2, 3}
		if err := Jit(testkernels.Increment).Launch(Dim1(1), Dim1(32), InOut(e)); err != nil {
			t.Fatal(err)
		}
		if backend == "gpu-fake" {
			return // the recording fake runs no kernel
		}
		if c[0] != 0 || c[299] != 897 || c[10] != 30 {
			t.Errorf("Out(c): c[0], c[10], c[299] = %v, %v, %v; want 0, 30, 897", c[0], c[10], c[299])
		}
		if d[0] != 1 || d[2] != 3 {
			t.Errorf("In(d): the kernel's writes reached the host: %v", d)
		}
		if e[0] != 2 || e[2] != 4 {
			t.Errorf("InOut(e): %v, want [2 3 4]", e)
		}
	})
}

// TestTransferHintsCopies: on a GPU, In arguments are copied to the device
// only and Out arguments back only; wrapping anything but a host slice for
// a slice parameter is an error before anything runs.
func TestTransferHintsCopies(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	a, b, c := make([]float32, 100), make([]float32, 100), make([]float32, 100)
	if err := Jit(testkernels.VecAdd).Launch(Dim1(1), Dim1(128), In(a), In(b), Out(c)); err != nil {
		t.Fatal(err)
	}
	if h, d := f.Count("cuMemcpyHtoD"), f.Count("cuMemcpyDtoH"); h != 2 || d != 1 {
		t.Errorf("In, In, Out: %d copies to the device and %d back, want 2 and 1", h, d)
	}
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	if err := Jit(testkernels.VecAdd).LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(128), Stream: s}, Out(a), In(b), InOut(c)); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if h, d := f.Count("cuMemcpyHtoDAsync"), f.Count("cuMemcpyDtoHAsync"); h != 2 || d != 2 {
		t.Errorf("Out, In, InOut on a stream: %d copies to the device and %d back, want 2 and 2", h, d)
	}
	dev, err := ToDevice(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []any
		want string
	}{
		{[]any{In(dev), b, c}, "a device array needs no transfer"},
		{[]any{a, b, Out(float32(1))}, "got float32; pass a []float32"},
		{[]any{In(nil), b, c}, "got nil"},
	} {
		err := Jit(testkernels.VecAdd).Launch(Dim1(1), Dim1(128), c.args...)
		wantErr(t, "Launch", err, "launch VecAdd", c.want)
	}
}
