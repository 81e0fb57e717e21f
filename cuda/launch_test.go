package cuda

import (
	"errors"
	"strings"
	"testing"
)

func increment(t Thread, data []float64) {
	if i := t.Grid1(); i < len(data) {
		data[i]++
	}
}

func scale(t Thread, data []float32, f float32) {
	if i := t.Grid1(); i < len(data) {
		data[i] *= f
	}
}

func fill2(t Thread, a Array2[int32], v int32) {
	x, y := t.Grid2()
	if r, c := a.Shape(); x < r && y < c {
		a.Set(x, y, v)
	}
}

func flags(t Thread, out []uint8, on bool, n int8) {
	if on {
		out[t.Grid1()] = uint8(n)
	}
}

func TestLaunchIncrement(t *testing.T) {
	data := make([]float64, 1000)
	k := Jit(increment)
	for range 3 {
		if err := k.Launch(Dim1(4), Dim1(256), data); err != nil {
			t.Fatal(err)
		}
	}
	for i, v := range data {
		if v != 3 {
			t.Fatalf("data[%d] = %v, want 3", i, v)
		}
	}
	if k.Name() != "increment" {
		t.Errorf("Name() = %q", k.Name())
	}
}

func TestLaunchConvertsScalars(t *testing.T) {
	data := []float32{1, 2, 3}
	// 2 is an untyped constant: an int, converted to float32 without loss.
	if err := Jit(scale).Launch(Dim1(1), Dim1(3), data, 2); err != nil {
		t.Fatal(err)
	}
	if err := Jit(scale).Launch(Dim1(1), Dim1(3), data, 0.5); err != nil {
		t.Fatal(err)
	}
	if data[0] != 1 || data[2] != 3 {
		t.Fatalf("data = %v, want [1 2 3]", data)
	}
	out := make([]uint8, 4)
	if err := Jit(flags).Launch(Dim1(1), Dim1(4), out, true, int64(-1)); err != nil {
		t.Fatal(err)
	}
	if out[3] != 255 {
		t.Fatalf("out = %v", out)
	}
}

func TestLaunchErrors(t *testing.T) {
	data := make([]float64, 10)
	dev, err := ToDevice([]float32{1})
	if err != nil {
		t.Fatal(err)
	}
	freed, _ := ToDevice([]float64{1})
	freed.Free()
	tests := []struct {
		name        string
		kernel      any
		grid, block Dim3
		args        []any
		want        string
	}{
		{"not a func", 42, Dim1(1), Dim1(1), nil, "kernel must be a func"},
		{"nil func", (func(Thread))(nil), Dim1(1), Dim1(1), nil, "nil func"},
		{"no thread", func(x []float64) {}, Dim1(1), Dim1(1), []any{data}, "first parameter must be cuda.Thread"},
		{"returns", func(t Thread) int { return 0 }, Dim1(1), Dim1(1), nil, "returns values"},
		{"variadic", func(t Thread, x ...int) {}, Dim1(1), Dim1(1), nil, "variadic"},
		{"map parameter", func(t Thread, m map[int]int) {}, Dim1(1), Dim1(1), []any{map[int]int{}}, "parameter 1 has type map[int]int"},
		{"pointer to slice", func(t Thread, p *[]int) {}, Dim1(1), Dim1(1), []any{&[]int{}}, "parameter 1 has type *[]int"},
		{"grid zero", increment, Dim1(0), Dim1(1), []any{data}, "grid (0,1,1) has a dimension below 1"},
		{"block zero z", increment, Dim1(1), Dim3{1, 1, 0}, []any{data}, "block (1,1,0) has a dimension below 1"},
		{"block too many threads", increment, Dim1(1), Dim1(2048), []any{data}, "block (2048,1,1) exceeds the limit (1024,1024,64)"},
		{"block over 1024 total", increment, Dim1(1), Dim2(64, 32), []any{data}, "block (64,32,1) has 2048 threads; at most 1024 per block"},
		{"block z over 64", increment, Dim1(1), Dim3{1, 1, 65}, []any{data}, "exceeds the limit"},
		{"grid y over 65535", increment, Dim2(1, 65536), Dim1(1), []any{data}, "grid (1,65536,1) exceeds the limit"},
		{"too few arguments", increment, Dim1(1), Dim1(1), nil, "takes 1 arguments after the Thread, got 0"},
		{"too many arguments", increment, Dim1(1), Dim1(1), []any{data, 1}, "takes 1 arguments after the Thread, got 2"},
		{"wrong slice type", increment, Dim1(1), Dim1(1), []any{[]float32{1}}, "argument 1 ([]float64): got []float32"},
		{"nil slice", increment, Dim1(1), Dim1(1), []any{[]float64(nil)}, "got a nil slice"},
		{"untyped nil", increment, Dim1(1), Dim1(1), []any{nil}, "got nil"},
		{"device array of other type", increment, Dim1(1), Dim1(1), []any{dev}, "device array of float32"},
		{"freed device array", increment, Dim1(1), Dim1(1), []any{freed}, "used after Free"},
		{"device array for scalar", scale, Dim1(1), Dim1(1), []any{[]float32{1}, dev}, "device array for a scalar"},
		{"lossy scalar", scale, Dim1(1), Dim1(1), []any{[]float32{1}, 1<<30 + 1}, "does not fit float32 without loss"},
		{"float overflow", scale, Dim1(1), Dim1(1), []any{[]float32{1}, 1e300}, "overflows float32"},
		{"negative to unsigned", flags, Dim1(1), Dim1(1), []any{[]uint8{0}, true, int64(-1000)}, "does not fit int8"},
		{"number for bool", flags, Dim1(1), Dim1(1), []any{[]uint8{0}, 1, int8(1)}, "got int for a bool parameter"},
		{"string for number", scale, Dim1(1), Dim1(1), []any{[]float32{1}, "2"}, "got string"},
		{"fractional for int", flags, Dim1(1), Dim1(1), []any{[]uint8{0}, true, 2.5}, "does not fit int8"},
		{"array rank", fill2, Dim1(1), Dim1(1), []any{[]int32{1}, int32(1)}, "got []int32; pass a cuda.Array2[int32]"},
		{"zero array", fill2, Dim1(1), Dim1(1), []any{Array2[int32]{}, int32(1)}, "array without data"},
		{"1-D device array for 2-D", fill2, Dim1(1), Dim1(1), []any{mustDevice(t, []int32{1}), int32(1)}, "1-D device array for a 2-D parameter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Jit(tc.kernel).Launch(tc.grid, tc.block, tc.args...)
			if err == nil {
				t.Fatalf("Launch succeeded; want an error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q\ndoes not contain %q", err, tc.want)
			}
		})
	}
}

func mustDevice[T Number](t *testing.T, host []T) *DeviceArray[T] {
	t.Helper()
	d, err := ToDevice(host)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestCompileReportsBadKernelAtOnce(t *testing.T) {
	if _, err := Compile(func(x int) {}); err == nil || !strings.Contains(err.Error(), "cuda.Thread") {
		t.Fatalf("Compile error = %v", err)
	}
	k, err := Compile(increment)
	if err != nil {
		t.Fatal(err)
	}
	if k.Func() == nil || k.Options() != (Options{}) {
		t.Fatal("Compile lost the function or options")
	}
}

func TestKernelPanicBecomesError(t *testing.T) {
	data := make([]float64, 100)
	err := Jit(func(t Thread, d []float64) { d[t.Grid1()] = 1 }).Launch(Dim1(2), Dim1(64), data)
	var ke *KernelError
	if !errors.As(err, &ke) {
		t.Fatalf("error %v is not a *KernelError", err)
	}
	if ke.Block != (Dim3{1, 0, 0}) || ke.Thread != (Dim3{36, 0, 0}) {
		t.Errorf("failing thread block %v thread %v, want (1,0,0) (36,0,0)", ke.Block, ke.Thread)
	}
	if !strings.Contains(ke.Msg, "index out of range [100] with length 100") || !strings.Contains(ke.Pos, "launch_test.go:") {
		t.Errorf("message %q at %q", ke.Msg, ke.Pos)
	}
	if !strings.Contains(err.Error(), "partially written") {
		t.Errorf("error does not warn about the host slice: %v", err)
	}
	div := func(t Thread, d []int64, z int64) { d[0] = d[0] / z }
	if err := Jit(div).Launch(Dim1(1), Dim1(1), []int64{1}, 0); err == nil || !strings.Contains(err.Error(), "integer divide by zero") {
		t.Fatalf("division by zero: %v", err)
	}
}

func TestPanicInSynchronizingBlockDoesNotHang(t *testing.T) {
	k := Jit(func(t Thread, d []int32) {
		sh := SharedArray[int32](t, 64)
		i := t.ThreadIdx().X
		sh[i] = int32(i)
		t.SyncThreads()
		if i == 17 {
			panic("thread 17 gives up")
		}
		t.SyncThreads()
		d[t.Grid1()] = sh[63-i]
	})
	before := goroutines()
	err := k.Launch(Dim1(8), Dim1(64), make([]int32, 512))
	if err == nil || !strings.Contains(err.Error(), "thread 17 gives up") {
		t.Fatalf("error %v", err)
	}
	checkNoLeak(t, before)
}

func TestLaunchRejectsTooMuchSharedMemory(t *testing.T) {
	for _, n := range []int{-1, 1 << 20} {
		err := Jit(increment).LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(1), SharedMem: n}, []float64{0})
		if err == nil || !strings.Contains(err.Error(), "dynamic shared memory") {
			t.Fatalf("SharedMem %d: error %v", n, err)
		}
	}
}
