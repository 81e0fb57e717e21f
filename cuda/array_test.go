package cuda_test

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/ptxas"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// TestMustViewOnHost: MustView2 and MustView3 view a slice of the right
// length, sharing its memory, and panic with the shape otherwise.
func TestMustViewOnHost(t *testing.T) {
	data := []float64{0, 1, 2, 3, 4, 5}
	a := MustView2(data, 2, 3)
	if r, c := a.Shape(); r != 2 || c != 3 || a.At(1, 0) != 3 {
		t.Fatalf("MustView2(6 elements, 2, 3): shape (%d, %d), At(1, 0) = %v", r, c, a.At(1, 0))
	}
	a.Set(0, 2, 20)
	if data[2] != 20 {
		t.Errorf("Set through the view did not write the slice: %v", data)
	}
	b := MustView3(data, 3, 1, 2)
	if d0, d1, d2 := b.Shape(); d0 != 3 || d1 != 1 || d2 != 2 || b.At(2, 0, 1) != 5 {
		t.Fatalf("MustView3(6 elements, 3, 1, 2): shape (%d, %d, %d), At(2, 0, 1) = %v", d0, d1, d2, b.At(2, 0, 1))
	}
	if e := MustView2(data[:0], 0, 7); e.Len() != 0 {
		t.Errorf("MustView2 of no elements as 0×7 has %d", e.Len())
	}
	tests := []struct {
		name string
		view func()
		want string
	}{
		{"2-D too few", func() { MustView2(data, 2, 4) }, "MustView2: 6 elements cannot be viewed as 2×4"},
		{"2-D too many", func() { MustView2(data, 1, 5) }, "MustView2: 6 elements cannot be viewed as 1×5"},
		{"2-D negative", func() { MustView2(data, -2, -3) }, "MustView2: 6 elements cannot be viewed as -2×-3"},
		{"3-D", func() { MustView3(data, 1, 2, 2) }, "MustView3: 6 elements cannot be viewed as 1×2×2"},
		{"3-D negative", func() { MustView3(data, 3, -1, -2) }, "MustView3: 6 elements cannot be viewed as 3×-1×-2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if err, ok := r.(error); !ok || err.Error() != tc.want {
					t.Fatalf("panic %v, want the error %q", r, tc.want)
				}
			}()
			tc.view()
		})
	}
}

// TestMustViewKernels runs kernels that view slices with MustView2 and
// MustView3, directly and passed to a func parameter or a device
// function, on the cpu and ptxsim backends, in release and debug mode.
func TestMustViewKernels(t *testing.T) {
	const rows, cols = 5, 7
	src := make([]float64, rows*cols)
	for i := range src {
		src[i] = float64(i*i%17) - 4.5
	}
	planes := make([]int32, 3*4*5)
	for i := range planes {
		planes[i] = int32(i*7%23) - 9
	}
	blocks := make([]float32, 4*3*3)
	for i := range blocks {
		blocks[i] = float32(i%11) * 0.25
	}
	int16s := make([]int16, 4*5)
	for i := range int16s {
		int16s[i] = int16(i%9 - 3)
	}
	for _, b := range []Backend{CPU, PTXSim} {
		for _, debug := range []bool{false, true} {
			var opts []Option
			if debug {
				opts = append(opts, Debug)
			}
			t.Run(fmt.Sprintf("%s debug=%v", b, debug), func(t *testing.T) {
				onBackend(t, b)
				dst := make([]float64, rows*cols)
				if err := Jit(testkernels.Transpose, opts...).Launch(Dim2(1, 1), Dim2(8, 8), src, dst, rows, cols); err != nil {
					t.Fatal(err)
				}
				for i := range rows {
					for j := range cols {
						if got, want := dst[j*rows+i], src[i*cols+j]; got != want {
							t.Fatalf("transpose (%d, %d) = %v, want %v", j, i, got, want)
						}
					}
				}

				sums := make([]int64, 3)
				if err := Jit(testkernels.PlaneSums, opts...).Launch(Dim1(1), Dim1(32), planes, sums, 3, 4, 5); err != nil {
					t.Fatal(err)
				}
				for i, got := range sums {
					var want int64
					for _, v := range planes[i*20 : (i+1)*20] {
						want += int64(v)
					}
					if got != want {
						t.Fatalf("plane %d sums to %d, want %d", i, got, want)
					}
				}

				traces := make([]float32, 4)
				if err := Jit(testkernels.BlocksFunc, opts...).Launch(Dim1(1), Dim1(32), testkernels.Trace, blocks, traces, 3, 3); err != nil {
					t.Fatal(err)
				}
				for i, got := range traces {
					if want := blocks[9*i] + blocks[9*i+4] + blocks[9*i+8]; got != want {
						t.Fatalf("trace of block %d = %v, want %v", i, got, want)
					}
				}

				rowSums := make([]int64, 2)
				if err := Jit(testkernels.RowSums23, opts...).Launch(Dim1(1), Dim1(32), []int64{1, -2, 30, 400, 5000, -60000}, rowSums); err != nil {
					t.Fatal(err)
				}
				if rowSums[0] != 29 || rowSums[1] != -54600 {
					t.Fatalf("row sums of a constant-shape view = %v, want [29 -54600]", rowSums)
				}

				a, out := slices.Clone(int16s), make([]int16, 5)
				if err := Jit(testkernels.ScaleThenRead, opts...).Launch(Dim1(1), Dim1(32), a, out); err != nil {
					t.Fatal(err)
				}
				for i := range out {
					var want int16
					for j := 4 * i; j < 4*i+4; j++ {
						if a[j] != int16s[j]*int16(i+1) {
							t.Fatalf("a[%d] = %d, want %d scaled by %d", j, a[j], int16s[j], i+1)
						}
						want += a[j]
					}
					if out[i] != want {
						t.Fatalf("out[%d] = %d, want %d: the kernel did not read what the view wrote", i, out[i], want)
					}
				}
			})
		}
	}
}

// TestMustViewShapeErrors: a view whose shape does not match its slice
// stops the launch with a *KernelError on the cpu backend, and on ptxsim
// in debug mode, with the same message.
func TestMustViewShapeErrors(t *testing.T) {
	src, dst := make([]float64, 12), make([]float64, 12)
	tests := []struct {
		name       string
		rows, cols int
		cpu        string // the cpu backend's message
	}{
		{"length", 3, 5, "MustView2: 12 elements cannot be viewed as 3×5"},
		{"negative", -3, -4, "MustView2: 12 elements cannot be viewed as -3×-4"},
	}
	for _, tc := range tests {
		for _, b := range []Backend{CPU, PTXSim} {
			t.Run(fmt.Sprintf("%s %s", tc.name, b), func(t *testing.T) {
				onBackend(t, b)
				err := Jit(testkernels.Transpose, Debug).Launch(Dim2(1, 1), Dim2(4, 4), src, dst, tc.rows, tc.cols)
				var ke *KernelError
				if !errors.As(err, &ke) {
					t.Fatalf("launch: %v, want a *KernelError", err)
				}
				if ke.Msg != tc.cpu || !strings.Contains(ke.Pos, "kernels.go:") {
					t.Fatalf("kernel error %q at %q, want %q in kernels.go", ke.Msg, ke.Pos, tc.cpu)
				}
			})
		}
	}
	// Constant dimensions, five elements.
	for _, b := range []Backend{CPU, PTXSim} {
		onBackend(t, b)
		err := Jit(testkernels.RowSums23, Debug).Launch(Dim1(1), Dim1(2), make([]int64, 5), make([]int64, 2))
		const want = "MustView2: 5 elements cannot be viewed as 2×3"
		if ke := (*KernelError)(nil); !errors.As(err, &ke) || ke.Msg != want || !strings.Contains(ke.Pos, "kernels.go:") {
			t.Errorf("%s: a 2×3 view of 5 elements: %v, want a *KernelError %q in kernels.go", b, err, want)
		}
	}
}

// TestMustViewPTX: the views cost no PTX parameters of their own; debug
// mode adds the shape checks; a slice only read through a view is loaded
// through the read-only cache, and one written through a view passed to
// a device function is not; ptxas (where installed) accepts the PTX.
func TestMustViewPTX(t *testing.T) {
	release, err := Jit(testkernels.Transpose).PTX(75)
	if err != nil {
		t.Fatal(err)
	}
	debug, err := Jit(testkernels.Transpose, Debug).PTX(75)
	if err != nil {
		t.Fatal(err)
	}
	shape := regexp.MustCompile(`setp\.ne\.s64`)
	if shape.MatchString(release) || !shape.MatchString(debug) {
		t.Errorf("the length check (setp.ne.s64) is in the release PTX: %v, in the debug PTX: %v", shape.MatchString(release), shape.MatchString(debug))
	}
	if !strings.Contains(release, "ld.global.nc.f64") {
		t.Errorf("Transpose's source, only read through a view, is not loaded with ld.global.nc:\n%s", release)
	}
	rw, err := Jit(testkernels.ScaleThenRead).PTX(75)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rw, ".nc") {
		t.Errorf("ScaleThenRead writes a through a view but loads it with ld.global.nc:\n%s", rw)
	}
	bf, err := Jit(testkernels.BlocksFunc).PTX(75, testkernels.Trace)
	if err != nil {
		t.Fatal(err)
	}
	entry := bf[strings.Index(bf, ".entry"):]
	if n := strings.Count(entry[:strings.Index(entry, ")")], ".param"); n != 3+3+2 {
		t.Errorf("BlocksFunc's entry has %d parameters, want 8 (two slices, two ints, none for the function)", n)
	}
	debugBF, err := Jit(testkernels.BlocksFunc, Debug).PTX(75, testkernels.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if !ptxastest.Available(t) {
		return
	}
	constant, err := Jit(testkernels.RowSums23, Debug).PTX(75)
	if err != nil {
		t.Fatal(err)
	}
	for name, ptx := range map[string]string{"Transpose": release, "Transpose debug": debug, "ScaleThenRead": rw, "BlocksFunc": bf, "BlocksFunc debug": debugBF, "RowSums23 debug": constant} {
		if _, err := ptxas.Assemble(ptx, "sm_75", false); err != nil {
			t.Errorf("ptxas, %s: %v", name, err)
		}
	}
}
