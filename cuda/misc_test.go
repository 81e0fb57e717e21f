package cuda

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestGridSizes(t *testing.T) {
	out := make([]int64, 4)
	k := Jit(func(t Thread, out []int64) {
		if t.Grid1() == 0 {
			x, y := t.GridSize2()
			out[0], out[1], out[2] = int64(t.GridSize1()), int64(x), int64(y)
		}
	})
	if err := k.Launch(Dim2(3, 2), Dim2(8, 4), out); err != nil {
		t.Fatal(err)
	}
	if out[0] != 24 || out[1] != 24 || out[2] != 8 {
		t.Fatalf("grid sizes %v, want [24 24 8]", out[:3])
	}
}

func TestArray3OnDevice(t *testing.T) {
	d, err := NewDeviceArray[float64](2, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	k := Jit(func(t Thread, a Array3[float64]) {
		i, j, l := t.ThreadIdx().Z, t.ThreadIdx().Y, t.ThreadIdx().X
		a.Set(i, j, l, float64(100*i+10*j+l))
	})
	if err := k.Launch(Dim1(1), Dim3{4, 3, 2}, d); err != nil {
		t.Fatal(err)
	}
	host, err := d.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := View3(host, 2, 3, 4)
	if a.At(1, 2, 3) != 123 || a.At(0, 1, 0) != 10 {
		t.Fatalf("a[1,2,3] = %v, a[0,1,0] = %v", a.At(1, 2, 3), a.At(0, 1, 0))
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&CompileError{Kernel: "k", Diagnostics: []Diagnostic{{"a.go:1:2", "no maps"}, {"a.go:3:4", "no chans"}}},
			"compile k: a.go:1:2: no maps; a.go:3:4: no chans"},
		{&DriverError{Call: "cuMemAlloc", Code: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY", Message: "out of memory"},
			"cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"},
		{&KernelError{Kernel: "k", Block: Dim1(2), Thread: Dim2(3, 1), Msg: "boom", Pos: "k.go:9"},
			"block (2,1,1) thread (3,1,1): boom at k.go:9"},
		{errBlockAborted, "block aborted"},
	}
	for _, tc := range tests {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// TestNugoBackendVariable runs this test binary again with NUGO_BACKEND set,
// since the variable is read once per process.
func TestNugoBackendVariable(t *testing.T) {
	if want := os.Getenv("NUGO_TEST_WANT_BACKEND"); want != "" {
		b, err := CurrentBackend()
		if want == "error" {
			if err == nil {
				t.Fatalf("NUGO_BACKEND=%s: no error, backend %s", os.Getenv("NUGO_BACKEND"), b)
			}
			if lerr := Jit(increment).Launch(Dim1(1), Dim1(1), []float64{1}); lerr == nil {
				t.Fatal("launch without a usable backend succeeded")
			}
			return
		}
		if err != nil || string(b) != want {
			t.Fatalf("NUGO_BACKEND=%s: backend %q, error %v; want %q", os.Getenv("NUGO_BACKEND"), b, err, want)
		}
		return
	}
	_, gpuErr := Gpus()
	tests := []struct{ env, want string }{
		{"cpu", "cpu"},
		{"CPU", "cpu"},
		{"", "auto"},
		{"auto", "auto"},
		{"bogus", "error"},
	}
	if errors.Is(gpuErr, ErrNoDevice) {
		tests = append(tests, struct{ env, want string }{"gpu", "error"})
	}
	for _, tc := range tests {
		want := tc.want
		if want == "auto" {
			want = "cpu"
			if gpuErr == nil {
				want = "gpu"
			}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestNugoBackendVariable$", "-test.count=1")
		cmd.Env = append(os.Environ(), "NUGO_BACKEND="+tc.env, "NUGO_TEST_WANT_BACKEND="+want)
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "PASS") {
			t.Errorf("NUGO_BACKEND=%q: %v\n%s", tc.env, err, out)
		}
	}
}
