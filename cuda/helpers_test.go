package cuda_test

import (
	"errors"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
)

func TestGridFor(t *testing.T) {
	for _, c := range []struct {
		size, block, want Dim3
	}{
		{Dim1(1000), Dim1(256), Dim1(4)},
		{Dim1(1024), Dim1(256), Dim1(4)},
		{Dim1(1), Dim1(256), Dim1(1)},
		{Dim2(30, 17), Dim2(16, 16), Dim2(2, 2)},
		{Dim3{5, 5, 5}, Dim3{2, 2, 2}, Dim3{3, 3, 3}},
		{Dim1(0), Dim1(256), Dim3{0, 1, 1}},
		{Dim1(10), Dim3{0, 1, 1}, Dim3{0, 1, 1}},
	} {
		if got := GridFor(c.size, c.block); got != c.want {
			t.Errorf("GridFor(%v, %v) = %v, want %v", c.size, c.block, got, c.want)
		}
	}
}

func TestTime(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		x := make([]float32, 1000)
		for i := range x {
			x[i] = 1
		}
		s, err := NewStream()
		if err != nil {
			t.Fatal(err)
		}
		d, err := ToDevice(x)
		if err != nil {
			t.Fatal(err)
		}
		cfg := LaunchConfig{Grid: GridFor(Dim1(len(x)), Dim1(256)), Block: Dim1(256), Stream: s}
		k := Jit(testkernels.Scale)
		dt, err := Time(s, func() error { return k.LaunchWith(cfg, d, float32(3)) })
		if err != nil || dt < 0 {
			t.Fatalf("Time = %v, %v", dt, err)
		}
		// (The recording fake driver runs no kernels.)
		if got, err := d.ToHost(); backend != "gpu-fake" && (err != nil || got[999] != 3) {
			t.Errorf("after Time the last element is %v (%v), want 3", got[999], err)
		}
		if _, err := Time(nil, func() error { return k.Launch(Dim1(4), Dim1(256), d, float32(1)) }); err != nil {
			t.Errorf("Time on the default stream: %v", err)
		}
		boom := errors.New("boom")
		if _, err := Time(s, func() error { return boom }); !errors.Is(err, boom) {
			t.Errorf("Time's error = %v, want the queueing function's", err)
		}
	})
}

func TestMustAndCheck(t *testing.T) {
	if got := Must(3, nil); got != 3 {
		t.Errorf("Must(3, nil) = %v", got)
	}
	boom := errors.New("boom")
	for name, f := range map[string]func(){
		"Must":  func() { Must(0, boom) },
		"Check": func() { Check(boom) },
	} {
		func() {
			defer func() {
				if r := recover(); r != boom {
					t.Errorf("%s(err) panicked with %v, want the error", name, r)
				}
			}()
			f()
		}()
	}
	Check(nil)
}
