package cuda_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// Arrays and structs by value (issue 21, item 8): every leaf of a nested
// struct reaches the kernel on every backend, in release and debug builds.
func TestByValueParams(t *testing.T) {
	p := [3]int64{-7, 1 << 40, 3}
	s := testkernels.Params{
		Scale: 2.5, Off: [3]int32{2, -9, 11},
		In: testkernels.Inner{A: -3, B: 1e300, C: [3]int16{-1, 2, 32767}, D: complex(1.5, -2.25)},
		H:  F16(0.75), On: true, Z: complex(-1e-300, 4),
	}
	want := []float64{-7, 1 << 40, 3, 2.5, 2, -9, 11, -3, 1e300, -1, 2, 32767, 1.5, -2.25, 0.75, 1, -1e-300, 4, 3, 11}
	for _, opts := range [][]Option{nil, {Debug}} {
		eachBackend(t, func(t *testing.T, backend string) {
			out := make([]float64, len(want))
			if err := Jit(testkernels.ByValue, opts...).Launch(Dim1(1), Dim1(32), p, s, out); err != nil {
				t.Fatal(err)
			}
			if backend == "gpu-fake" {
				return // the recording fake runs no kernels
			}
			for i := range want {
				if out[i] != want[i] {
					t.Errorf("opts %v: out[%d] = %v, want %v", opts, i, out[i], want[i])
				}
			}
		})
	}
}

// layoutCase is a kernel that stores its by-value parameter into every
// element of a slice, and how to read the stored value back.
type layoutCase struct {
	name   string
	kernel any
	typ    reflect.Type // the parameter's type
	out    reflect.Type // the slice's element type
	stored func(elem reflect.Value) reflect.Value
}

var layoutCases = []layoutCase{
	{"padded", testkernels.EchoPadded, reflect.TypeFor[testkernels.Padded](), reflect.TypeFor[testkernels.Padded](), nil},
	{"mixed16", testkernels.EchoMixed16, reflect.TypeFor[testkernels.Mixed16](), reflect.TypeFor[testkernels.Mixed16](), nil},
	{"nested", testkernels.EchoNested, reflect.TypeFor[testkernels.Nested](), reflect.TypeFor[testkernels.Nested](), nil},
	{"[5]int8", testkernels.EchoBytes5, reflect.TypeFor[[5]int8](), reflect.TypeFor[testkernels.Bytes5](), field0},
	{"[2][3]float32", testkernels.EchoGrid23, reflect.TypeFor[[2][3]float32](), reflect.TypeFor[testkernels.Grid23](), field0},
}

func field0(v reflect.Value) reflect.Value { return v.Field(0) }

// randomFill sets every leaf of v (addressable) to a random value: finite
// floats of every magnitude, integers over their whole range, both bools.
func randomFill(v reflect.Value, r *rand.Rand) {
	switch {
	case v.Type() == reflect.TypeFor[Float16]():
		v.Set(reflect.ValueOf(F16(float32(r.NormFloat64() * 100))))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.Uint64()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64())
	case reflect.Float32, reflect.Float64:
		v.SetFloat(randomFloat(r, v.Kind() == reflect.Float32))
	case reflect.Complex64, reflect.Complex128:
		f32 := v.Kind() == reflect.Complex64
		v.SetComplex(complex(randomFloat(r, f32), randomFloat(r, f32)))
	case reflect.Array:
		for i := range v.Len() {
			randomFill(v.Index(i), r)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			randomFill(v.Field(i), r)
		}
	default:
		panic(fmt.Sprintf("randomFill: %s", v.Type()))
	}
}

func randomFloat(r *rand.Rand, f32 bool) float64 {
	for {
		bits := r.Uint64()
		x := math.Float64frombits(bits)
		if f32 {
			x = float64(math.Float32frombits(uint32(bits)))
		}
		if !math.IsNaN(x) {
			return x
		}
	}
}

// rawBytes is the memory of v as Go lays it out.
func rawBytes(v reflect.Value) []byte {
	p := reflect.New(v.Type())
	p.Elem().Set(v)
	return unsafe.Slice((*byte)(p.UnsafePointer()), v.Type().Size())
}

// Generated arguments of every layout (alignment padding, nested arrays of
// structs, Float16, bools, complex) arrive intact on every backend: the
// kernel stores what it received, the host compares it with what it
// passed; on the recording fake driver, the launch's argument bytes are
// the value's own.
func TestByValueLayouts(t *testing.T) {
	backends := []struct {
		name  string
		setup func(t *testing.T) *fakedriver.Fake
	}{
		{"cpu", func(t *testing.T) *fakedriver.Fake { onBackend(t, CPU); return nil }},
		{"ptxsim", func(t *testing.T) *fakedriver.Fake { onBackend(t, PTXSim); return nil }},
		{"gpu-fake", func(t *testing.T) *fakedriver.Fake { return fakeGPU(t, fakedriver.Config{}) }},
		{"gpu-sim", func(t *testing.T) *fakedriver.Fake { return simGPU(t) }},
	}
	r := rand.New(rand.NewPCG(21, 8))
	for _, c := range layoutCases {
		for round := range 3 {
			v := reflect.New(c.typ).Elem()
			randomFill(v, r)
			for _, b := range backends {
				t.Run(fmt.Sprintf("%s/%d/%s", c.name, round, b.name), func(t *testing.T) {
					fake := b.setup(t)
					out := reflect.MakeSlice(reflect.SliceOf(c.out), 40, 40)
					opts := []Option{}
					if round == 2 {
						opts = append(opts, Debug)
					}
					if err := Jit(c.kernel, opts...).Launch(Dim1(2), Dim1(32), v.Interface(), out.Interface()); err != nil {
						t.Fatal(err)
					}
					if b.name == "gpu-fake" {
						ls := fake.Launches()
						if len(ls) == 0 || !bytes.Equal(ls[len(ls)-1].Args[0], rawBytes(v)) {
							t.Fatalf("launch arguments %x; want the value's bytes %x", ls[len(ls)-1].Args, rawBytes(v))
						}
						return
					}
					for i := range out.Len() {
						got := out.Index(i)
						if c.stored != nil {
							got = c.stored(got)
						}
						if !reflect.DeepEqual(got.Interface(), v.Interface()) {
							t.Fatalf("out[%d] = %+v, want %+v", i, got, v)
						}
					}
				})
			}
		}
	}
}

// Parameters of no bytes (an empty struct, a zero-length array) take no
// room and leave the others in place.
func TestByValueZeroSize(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		out := make([]int32, 5)
		if err := Jit(testkernels.ZeroSize).Launch(Dim1(1), Dim1(8), testkernels.Empty{}, [0]int64{}, int32(-4), out); err != nil {
			t.Fatal(err)
		}
		if backend == "gpu-fake" {
			return
		}
		for i, o := range out {
			if o != -4 {
				t.Errorf("out[%d] = %d, want -4", i, o)
			}
		}
	})
}

// A launch converts an argument of the same layout (an unnamed struct for
// a named one) and refuses any other type, and a struct holding a pointer
// with a message naming the field.
func TestByValueRefused(t *testing.T) {
	for _, c := range []struct {
		name   string
		kernel any
		args   []any
		want   []string
	}{
		{"array of another type", testkernels.EchoBytes5, []any{[5]int16{}, make([]testkernels.Bytes5, 1)}, []string{"argument 1", "got [5]int16; pass a [5]int8"}},
		{"array of another length", testkernels.EchoBytes5, []any{[4]int8{}, make([]testkernels.Bytes5, 1)}, []string{"got [4]int8"}},
		{"struct for array", testkernels.EchoBytes5, []any{testkernels.Bytes5{}, make([]testkernels.Bytes5, 1)}, []string{"got testkernels.Bytes5"}},
		{"slice for array", testkernels.EchoBytes5, []any{[]int8{1, 2, 3, 4, 5}, make([]testkernels.Bytes5, 1)}, []string{"got []int8"}},
		{"nil", testkernels.EchoPadded, []any{nil, make([]testkernels.Padded, 1)}, []string{"got nil"}},
		{"over the parameter space", testkernels.TakesBigArray, []any{[600]float64{}, make([]float64, 1)}, []string{"parameters take 4824 bytes; at most 4096", "in a slice"}},
		{"pointer field", testkernels.TakesPointerStruct, []any{testkernels.WithPointerField{}, make([]int64, 1)}, []string{"field Next has type *int64, a pointer", "pass memory as a slice parameter"}},
	} {
		eachBackend(t, func(t *testing.T, backend string) {
			err := call(t, c.name, func() error { return Jit(c.kernel).Launch(Dim1(1), Dim1(1), c.args...) })
			wantErr(t, c.name, err, c.want...)
		})
	}
	// An unnamed struct of the same fields converts.
	eachBackend(t, func(t *testing.T, backend string) {
		v := struct {
			A int8
			B float64
			C [3]int16
			D complex64
		}{1, 2, [3]int16{3, 4, 5}, 6i}
		out := make([]testkernels.Padded, 2)
		if err := Jit(testkernels.EchoPadded).Launch(Dim1(1), Dim1(2), v, out); err != nil {
			t.Fatal(err)
		}
		if backend != "gpu-fake" && out[1] != testkernels.Padded(v) {
			t.Errorf("out[1] = %+v, want %+v", out[1], v)
		}
	})
}

// A complex parameter takes integers that convert exactly (Numba coerces
// 123 to 123+0j) and floats; an integer that would round is refused.
func TestComplexParamCoercion(t *testing.T) {
	for _, c := range []struct {
		arg  any
		want complex64
		err  string
	}{
		{123, 123, ""},
		{int8(-5), -5, ""},
		{uint64(1 << 24), 1 << 24, ""},
		{int64(-(1 << 40)), -(1 << 40), ""},
		{2.5, 2.5, ""},
		{float32(-0.5), -0.5, ""},
		{complex(1, 2), complex(1, 2), ""},
		{1<<24 + 1, 0, "not exactly a complex64"},
		{uint64(math.MaxUint64), 0, "not exactly a complex64"},
		{true, 0, "got bool"},
	} {
		eachBackend(t, func(t *testing.T, backend string) {
			out := []complex64{1, 2i}
			err := Jit(testkernels.ComplexScale).Launch(Dim1(1), Dim1(2), c.arg, out)
			if c.err != "" {
				wantErr(t, fmt.Sprintf("%T %v", c.arg, c.arg), err, c.err)
				return
			}
			if err != nil {
				t.Fatalf("%T %v: %v", c.arg, c.arg, err)
			}
			if backend != "gpu-fake" && (out[0] != c.want || out[1] != 2i*c.want) {
				t.Errorf("%T %v: out = %v, want [%v %v]", c.arg, c.arg, out, c.want, 2i*c.want)
			}
		})
	}
}

// A 2-D read-only table is indexed with bounds checks as a 1-D one is: in
// range it reads the element on every backend; out of range, in debug
// mode, it fails with Go's message for the dimension that is out.
func TestTable2DBounds(t *testing.T) {
	for _, c := range []struct {
		idx  []int
		want int32
		err  string
	}{
		{[]int{2, 1}, 10, ""},
		{[]int{0, 3}, 4, ""},
		{[]int{3, 0}, 0, "index out of range [3] with length 3"},
		{[]int{1, 4}, 0, "index out of range [4] with length 4"},
		{[]int{-1, 0}, 0, "index out of range [-1]"},
	} {
		eachBackend(t, func(t *testing.T, backend string) {
			out := make([]int32, 1)
			err := call(t, "TableAt", func() error {
				return Jit(testkernels.TableAt, Debug).Launch(Dim1(1), Dim1(1), c.idx, out)
			})
			if backend == "gpu-fake" {
				return // the recording fake runs no kernels
			}
			if c.err != "" {
				wantErr(t, fmt.Sprint(c.idx), err, c.err, "byvalue.go")
				return
			}
			if err != nil || out[0] != c.want {
				t.Errorf("table2%v = %d, %v; want %d", c.idx, out[0], err, c.want)
			}
		})
	}
}

// By-value parameters reach a kernel with a barrier, which the CPU backend
// runs through its generated block loop, as they reach the compiled one.
func TestByValueBlockLoop(t *testing.T) {
	v := testkernels.Padded{A: 3, B: 0.5, C: [3]int16{1, -2, 4}, D: 1i}
	w := [4]float32{1, 2, 3, 4}
	want := make([]float64, 64)
	for i := range want {
		tid := i % 32
		want[i] = float64(w[(tid+1)%4]*3) + 0.5 + float64(v.C[tid%3])
	}
	eachBackend(t, func(t *testing.T, backend string) {
		out := make([]float64, 64)
		if err := Jit(testkernels.BlockScaled).Launch(Dim1(2), Dim1(32), v, w, out); err != nil {
			t.Fatal(err)
		}
		if backend == "gpu-fake" {
			return
		}
		for i := range want {
			if out[i] != want[i] {
				t.Fatalf("out[%d] = %v, want %v", i, out[i], want[i])
			}
		}
	})
}

// A by-value parameter holding anything but numbers, bools, Float16s and
// arrays and structs of them is refused when the kernel is made, on every
// backend, with the field named.
func TestByValueFieldKindsRefused(t *testing.T) {
	type inner struct{ S string }
	for _, c := range []struct {
		name   string
		kernel any
		want   string
	}{
		{"pointer", func(t Thread, s struct{ P *int }) {}, "field P has type *int, a pointer"},
		{"slice", func(t Thread, s struct{ A [2]struct{ S []int } }) {}, "field A[i].S has type []int, a slice"},
		{"string", func(t Thread, s struct{ In inner }) {}, "field In.S has type string, a string"},
		{"map", func(t Thread, s struct{ M map[int]int }) {}, "field M has type map[int]int, a map"},
		{"func", func(t Thread, s struct{ F func() }) {}, "field F has type func(), a func"},
		{"interface", func(t Thread, s struct{ X any }) {}, "field X has type interface {}, an interface"},
		{"channel", func(t Thread, s struct{ C chan int }) {}, "field C has type chan int, a chan"},
		{"array of pointers", func(t Thread, a [3]*int) {}, "the element has type *int, a pointer"},
	} {
		eachBackend(t, func(t *testing.T, backend string) {
			err := call(t, c.name, func() error { return Jit(c.kernel).Launch(Dim1(1), Dim1(1), nil) })
			wantErr(t, c.name, err, "parameter 1", "passed by value", c.want, "pass memory as a slice parameter")
		})
	}
}
