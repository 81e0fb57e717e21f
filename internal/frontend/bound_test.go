package frontend

import (
	"go/parser"
	"math"
	"math/bits"
	"reflect"
	"strings"
	"testing"
)

type boundNum interface{ ~float32 | ~int64 }

func boundConv[T, R boundNum](x T) R { return R(x) }

func boundPlain(a, b int64) int64 { return a - b }

func boundSlice(a []int64) int64 { return a[0] }

func boundPointer(a []float32, out *float32) { *out = a[0] }

func boundSliceResult(a []int64) []int64 { return a }

type boundPair struct{ a, b int64 }

func boundStruct(p boundPair) int64 { return p.a + p.b }

func boundSlicePointer(p *[]int64) int64 { return (*p)[0] }

// boundHolder instantiates boundConv inside generic code, where the Go
// compiler wraps the instantiation in a closure.
type boundHolder[T, R boundNum] struct{}

func (boundHolder[T, R]) conv() any { return boundConv[T, R] }

func (boundHolder[T, R]) lit() any { return func(x T) R { return R(x) } }

func TestInferTypeArgsFuncTypes(t *testing.T) {
	tests := []struct {
		decl string
		fn   any // a value of the instantiated type
		want string
	}{
		{"func k[T, U, R any](t int, f func(T, U) R, out []R)", func(int, func(float32, int64) int8, []int8) {}, "float32,int64,int8"},
		{"func k[T any](f func(T) bool, a []T)", func(func(uint16) bool, []uint16) {}, "uint16"},
		{"func k[T, R any](x T) R", func(float32) int64 { return 0 }, "float32,int64"},
		{"func k[T any](f func(x, y T) (r T))", func(func(float64, float64) float64) {}, "float64"},
	}
	for _, tc := range tests {
		f, err := parser.ParseFile(fset, "d.go", "package p\n"+tc.decl+" {}\n", 0)
		if err != nil {
			t.Fatal(err)
		}
		fd := findFunc(f, "k")
		got, err := inferTypeArgs(fd, reflect.TypeOf(tc.fn), "p", typeArgImports{})
		if err != nil {
			t.Errorf("%s: %v", tc.decl, err)
			continue
		}
		if s := strings.Join(got, ","); s != tc.want {
			t.Errorf("%s: type arguments %s, want %s", tc.decl, s, tc.want)
		}
	}
}

func TestLoadDevice(t *testing.T) {
	tests := []struct {
		name string
		fn   any
		want string // the loaded function's name, or an error's text
		ok   bool
	}{
		{"plain", boundPlain, "boundPlain", true},
		{"generic", boundConv[float32, int64], "boundConv[float32, int64]", true},
		{"math", math.Sqrt, "math.Sqrt", true},
		{"math/bits", bits.OnesCount64, "bits.OnesCount64", true},
		{"instantiated in generic code", boundHolder[float32, int64]{}.conv(), "boundConv[float32, int64]", true},
		{"closure", func(a int64) int64 { return a }, "pass a top-level function, not a closure", false},
		{"closure in generic code", boundHolder[float32, int64]{}.lit(), "pass a top-level function, not a closure", false},
		{"slice", boundSlice, "boundSlice", true},
		{"slice and pointer", boundPointer, "boundPointer", true},
		{"slice result", boundSliceResult, "its results numbers or bools", false},
		{"struct", boundStruct, "must be numbers, bools, slices of numbers, pointers to numbers, cuda.Array2 or cuda.Array3", false},
		{"pointer to a slice", boundSlicePointer, "cannot use a pointer to a slice", false},
		{"nil", (func())(nil), "non-nil func", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := LoadDevice(tc.fn)
			if !tc.ok {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Name != tc.want || d.Func == nil {
				t.Fatalf("loaded %q (func %v), want %q", d.Name, d.Func, tc.want)
			}
		})
	}
}

func TestInstanceName(t *testing.T) {
	if name, ok := InstanceName(boundHolder[float32, int64]{}.conv()); !ok || name != "boundConv" {
		t.Errorf("InstanceName of an instantiation in generic code = %q, %v; want boundConv", name, ok)
	}
	if _, ok := InstanceName(boundPlain); ok {
		t.Error("InstanceName of a top-level function reports an instantiation")
	}
	if _, ok := InstanceName(boundHolder[float32, int64]{}.lit()); ok {
		t.Error("InstanceName of a function literal reports an instantiation")
	}
}
