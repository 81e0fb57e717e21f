package vectorize

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// targets are the targets every test runs on: the CUDA target where
// package cuda's current backend runs it (the cpu backend); elsewhere
// TestCUDATargetUnavailable checks the error it gives.
var targets = testTargets()

func testTargets() []Target {
	if cudaBackendRuns() {
		return []Target{CPU, Parallel, CUDA}
	}
	return []Target{CPU, Parallel}
}

func cudaBackendRuns() bool {
	b, err := cuda.CurrentBackend()
	return err == nil && cudaTargetRuns(b) == nil
}

func TestCUDATargetUnavailable(t *testing.T) {
	_, err := New1(func(x float64) float64 { return x }, CUDA).Apply([]float64{1})
	if cudaBackendRuns() {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if !errors.Is(err, ErrTargetUnavailable) {
		t.Fatalf("target cuda on this backend: %v; want ErrTargetUnavailable", err)
	}
}

// sizes include an empty call, a single element and one large enough for
// the Parallel target to split it in chunks.
var sizes = []int{0, 1, 7, 3*parallelChunk + 5}

func ramp[T cuda.Number](n int, scale float64, shift int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(float64((i*7+shift)%97) * scale)
	}
	return s
}

func axpy[T cuda.Number](a, x, y T) T { return a*x + y }

func TestArities(t *testing.T) {
	neg := func(x float64) float64 { return -x * 0.5 }
	mixed := func(x float32, y int32) float64 { return float64(x) * float64(y) }
	lerp := func(a, b, w float64, n int16) float64 { return (a + (b-a)*w) * float64(n) }
	for _, tg := range targets {
		for _, n := range sizes {
			t.Run(fmt.Sprintf("%s/%d", tg, n), func(t *testing.T) {
				a, b, c := ramp[float64](n, 1.5, 0), ramp[float64](n, 0.25, 3), ramp[float64](n, 0.01, 5)
				f32, i32, i16 := ramp[float32](n, 0.5, 1), ramp[int32](n, 1, 2), ramp[int16](n, 1, 4)

				got1, err := New1(neg, tg).Apply(a)
				check(t, "New1", got1, err, func(i int) float64 { return neg(a[i]) })
				got2, err := New2(mixed, tg).Apply(f32, i32)
				check(t, "New2", got2, err, func(i int) float64 { return mixed(f32[i], i32[i]) })
				got3, err := New3(axpy[float64], tg).Apply(a, b, c)
				check(t, "New3", got3, err, func(i int) float64 { return axpy(a[i], b[i], c[i]) })
				got4, err := New4(lerp, tg).Apply(a, b, c, i16)
				check(t, "New4", got4, err, func(i int) float64 { return lerp(a[i], b[i], c[i], i16[i]) })

				out := make([]float64, n)
				err = New3(axpy[float64], tg).Into(out, a, b, c)
				check(t, "New3.Into", out, err, func(i int) float64 { return axpy(a[i], b[i], c[i]) })
			})
		}
	}
}

func check[R comparable](t *testing.T, what string, got []R, err error, want func(i int) R) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for i := range got {
		if w := want(i); got[i] != w {
			t.Fatalf("%s: element %d = %v, want %v", what, i, got[i], w)
		}
	}
}

// TestElementTypes runs one generic scalar function instantiated for
// several types, as Numba's list of signatures.
func TestElementTypes(t *testing.T) {
	for _, tg := range targets {
		t.Run(string(tg), func(t *testing.T) {
			testAxpy[float32](t, tg)
			testAxpy[float64](t, tg)
			testAxpy[int32](t, tg)
			testAxpy[uint8](t, tg) // wraps, as Go does
			testAxpy[int64](t, tg)
		})
	}
}

func testAxpy[T cuda.Number](t *testing.T, tg Target) {
	n := 1000
	a, x, y := ramp[T](n, 1, 0), ramp[T](n, 1, 1), ramp[T](n, 1, 2)
	got, err := New3(axpy[T], tg).Apply(a, x, y)
	check(t, fmt.Sprintf("axpy[%T]", a[0]), got, err, func(i int) T { return axpy(a[i], x[i], y[i]) })
}

// refBroadcast computes a binary function over two row-major arrays
// element by element from the multi-index, as NumPy defines broadcasting.
func refBroadcast(f func(x, y float64) float64, a, b Array[float64], shape []int) []float64 {
	out := make([]float64, size(shape))
	idx := make([]int, len(shape))
	at := func(x Array[float64]) float64 {
		off := 0
		for d, n := range x.Shape {
			i := idx[len(shape)-len(x.Shape)+d]
			if n == 1 {
				i = 0
			}
			off = off*n + i
		}
		return x.Data[off]
	}
	for p := range out {
		r := p
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d] = r % shape[d]
			r /= shape[d]
		}
		out[p] = f(at(a), at(b))
	}
	return out
}

func TestBroadcast(t *testing.T) {
	sub := func(x, y float64) float64 { return x - 2*y }
	cases := []struct {
		a, b  []int
		shape []int
	}{
		{[]int{2, 3}, []int{3}, []int{2, 3}},
		{[]int{3}, []int{2, 3}, []int{2, 3}},
		{[]int{2, 1}, []int{1, 3}, []int{2, 3}},
		{[]int{4, 1, 3}, []int{2, 1}, []int{4, 2, 3}},
		{[]int{}, []int{2, 3}, []int{2, 3}},
		{[]int{2, 3}, []int{}, []int{2, 3}},
		{[]int{}, []int{}, []int{}},
		{[]int{1}, []int{5}, []int{5}},
		{[]int{0, 3}, []int{3}, []int{0, 3}},
		{[]int{2, 3, 4, 5}, []int{3, 1, 5}, []int{2, 3, 4, 5}},
		{[]int{300, 700}, []int{700}, []int{300, 700}}, // chunked by the Parallel target
		{[]int{700, 300}, []int{700, 1}, []int{700, 300}},
	}
	for _, tg := range targets {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%v+%v", tg, c.a, c.b), func(t *testing.T) {
				a := Of(ramp[float64](size(c.a), 1, 0), c.a...)
				b := Of(ramp[float64](size(c.b), 0.5, 9), c.b...)
				got, err := New2(sub, tg).Call(a, b)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.Shape, c.shape) {
					t.Fatalf("shape %v, want %v", got.Shape, c.shape)
				}
				if want := refBroadcast(sub, a, b, c.shape); !slices.Equal(got.Data, want) {
					t.Fatalf("data %v, want %v", got.Data, want)
				}
				into := Zeros[float64](c.shape...)
				if err := New2(sub, tg).CallInto(into, a, b); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(into.Data, got.Data) {
					t.Fatalf("CallInto %v, Call %v", into.Data, got.Data)
				}
			})
		}
	}
}

func TestOperandKinds(t *testing.T) {
	m := cuda.NewArray2[float64](2, 3)
	copy(m.Data(), []float64{1, 2, 3, 4, 5, 6})
	cube := cuda.NewArray3[float64](2, 2, 3)
	for i := range cube.Data() {
		cube.Data()[i] = float64(i)
	}
	add := func(x, y float64) float64 { return x + y }
	for _, tg := range targets {
		u := New2(add, tg)
		t.Run(string(tg), func(t *testing.T) {
			got, err := u.Call(Array2(m), Scalar(10.0))
			if err != nil || !slices.Equal(got.Data, []float64{11, 12, 13, 14, 15, 16}) {
				t.Fatalf("Array2+Scalar = %v, %v", got, err)
			}
			got, err = u.Call(Array3(cube), Array2(m))
			if err != nil || !slices.Equal(got.Shape, []int{2, 2, 3}) {
				t.Fatalf("Array3+Array2 = %v, %v", got, err)
			}
			if want := refBroadcast(add, Array3(cube), Array2(m), []int{2, 2, 3}); !slices.Equal(got.Data, want) {
				t.Fatalf("Array3+Array2 = %v, want %v", got.Data, want)
			}
			a3, err := got.Array3()
			if err != nil || a3.At(1, 1, 2) != got.Data[11] {
				t.Fatalf("Array3 view: %v", err)
			}
			out := cuda.NewArray2[float64](2, 3)
			if err := u.CallInto(Array2(out), Array2(m), Slice([]float64{100, 200, 300})); err != nil {
				t.Fatal(err)
			}
			if out.At(1, 2) != 306 || out.At(0, 0) != 101 {
				t.Fatalf("CallInto Array2 = %v", out.Data())
			}
			// In place: out is also an operand.
			if err := u.CallInto(Array2(out), Array2(out), Scalar(1.0)); err != nil || out.At(1, 2) != 307 {
				t.Fatalf("in place: %v, %v", out.Data(), err)
			}
		})
	}
}

// TestDeviceOperands checks that device arrays stay on the device: the
// output is written to device memory, read back with ToHost.
func TestDeviceOperands(t *testing.T) {
	if !cudaBackendRuns() {
		return // TestCUDATargetUnavailable checks the error
	}
	a := ramp[float32](1000, 1, 0)
	da, err := cuda.ToDevice(a)
	if err != nil {
		t.Fatal(err)
	}
	defer da.Free()
	dout, err := cuda.NewDeviceArray[float32](1000)
	if err != nil {
		t.Fatal(err)
	}
	defer dout.Free()
	for _, tg := range []Target{Auto, CUDA} {
		scale := New2(func(x, y float32) float32 { return x * y }, tg)
		if err := scale.CallInto(Device(dout), Device(da), Scalar[float32](3)); err != nil {
			t.Fatalf("%s: %v", tg, err)
		}
		got, err := dout.ToHost()
		check(t, string(tg), got, err, func(i int) float32 { return a[i] * 3 })
		// A device input with a host result.
		r, err := scale.Call(Device(da), Slice(a))
		check(t, string(tg)+" host result", r.Data, err, func(i int) float32 { return a[i] * a[i] })
	}
	m, err := cuda.NewDeviceArray[float32](2, 500)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Free()
	sum := New2(func(x, y float32) float32 { return x + y })
	if err := sum.CallInto(Device(m), Of(a, 2, 500), Slice(a[:500])); err != nil {
		t.Fatal(err)
	}
	got, err := m.ToHost()
	check(t, "2-D device output", got, err, func(i int) float32 { return a[i] + a[i%500] })
}

func TestErrors(t *testing.T) {
	add := func(x, y float64) float64 { return x + y }
	dev, err := cuda.NewDeviceArray[float64](3)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Free()
	cases := []struct {
		name  string
		call  func() error
		shape bool     // wraps ErrShape
		want  []string // in the message
	}{
		{"broadcast", func() error {
			_, err := New2(add, Name("add")).Apply([]float64{1, 2, 3}, []float64{1, 2})
			return err
		}, true, []string{"vectorize add:", "(3,)", "(2,)"}},
		{"broadcast 2-D", func() error {
			_, err := New2(add).Call(Zeros[float64](2, 3), Zeros[float64](3, 2))
			return err
		}, true, []string{"(2, 3)", "(3, 2)"}},
		{"broadcast third operand", func() error {
			_, err := New3(axpy[float64]).Call(Zeros[float64](4), Scalar(1.0), Zeros[float64](5))
			return err
		}, true, []string{"(4,)", "(5,)"}},
		{"output shape", func() error {
			return New2(add).Into(make([]float64, 2), []float64{1, 2, 3}, []float64{1})
		}, true, []string{"output of shape (2,)", "(3,)"}},
		{"data length", func() error {
			_, err := New2(add).Call(Of(make([]float64, 5), 2, 3), Scalar(1.0))
			return err
		}, true, []string{"operand 1", "5 elements", "(2, 3)"}},
		{"negative dimension", func() error {
			_, err := New2(add).Call(Of([]float64{}, -1), Scalar(1.0))
			return err
		}, true, []string{"negative"}},
		{"nil operand", func() error {
			_, err := New2(add).Call(nil, Scalar(1.0))
			return err
		}, false, []string{"operand 1", "nil"}},
		{"nil device array", func() error {
			_, err := New2(add).Call(Scalar(1.0), Device[float64](nil))
			return err
		}, false, []string{"operand 2", "nil"}},
		{"unknown target", func() error {
			_, err := New2(add, Target("gpu")).Apply([]float64{1}, []float64{1})
			return err
		}, false, []string{`unknown target "gpu"`}},
		{"nil function", func() error {
			_, err := New2[float64, float64, float64](nil).Apply([]float64{1}, []float64{1})
			return err
		}, false, []string{"nil"}},
		{"block size", func() error {
			_, err := New1(math.Sqrt, CUDA, BlockSize(2000)).Apply([]float64{1})
			return err
		}, false, []string{"block size 2000"}},
		{"device operand on the parallel target", func() error {
			_, err := New2(add, Parallel).Call(Device(dev), Scalar(1.0))
			return err
		}, false, []string{"device array", "parallel"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrShape) != c.shape {
				t.Errorf("errors.Is(err, ErrShape) = %v, want %v: %v", !c.shape, c.shape, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestPanicsAreErrors(t *testing.T) {
	div := func(x, y int64) int64 { return x / y }
	for _, tg := range targets {
		for _, n := range []int{5, 3 * parallelChunk} {
			a, b := ramp[int64](n, 1, 1), make([]int64, n)
			_, err := New2(div, tg, Name("div")).Apply(a, b)
			if err == nil || !strings.Contains(err.Error(), "vectorize div:") || !strings.Contains(err.Error(), "divide by zero") {
				t.Errorf("%s/%d: division by zero gave %v", tg, n, err)
			}
			var ke *cuda.KernelError
			if errors.As(err, &ke) != (tg == CUDA) {
				t.Errorf("%s/%d: errors.As(err, *cuda.KernelError) = %v: %v", tg, n, !(tg == CUDA), err)
			}
		}
	}
}
