package cuda

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
)

func mapFunc(t Thread, f func(float32, float32) float32, out, a, b []float32) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[i], b[i])
	}
}

func fmaFunc(a, b float32) float32 { return a*b + 1 }

func scaled[T Float](a, b T) T { return 2*a + b }

func TestLaunchFuncParamCPU(t *testing.T) {
	a := []float32{1, 2, 3, 4, 5}
	b := []float32{5, 4, 3, 2, 1}
	offset := float32(10)
	tests := []struct {
		name string
		f    func(float32, float32) float32
	}{
		{"top-level", fmaFunc},
		{"generic", scaled[float32]},
		{"closure", func(x, y float32) float32 { return x - y + offset }}, // the cpu backend calls closures too
	}
	k := Jit(mapFunc)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]float32, len(a))
			if err := k.Launch(Dim1(1), Dim1(8), tc.f, out, a, b); err != nil {
				t.Fatal(err)
			}
			for i := range out {
				if want := tc.f(a[i], b[i]); out[i] != want {
					t.Errorf("out[%d] = %v, want %v", i, out[i], want)
				}
			}
		})
	}
}

func TestLaunchFuncParamErrors(t *testing.T) {
	dev := mustDevice(t, []float32{1})
	out := []float32{0}
	tests := []struct {
		name   string
		kernel any
		args   []any
		want   string
	}{
		{"wrong func type", mapFunc, []any{func(a, b float64) float64 { return a }, out, out, out}, "got func(float64, float64) float64; pass a function of type func(float32, float32) float32"},
		{"nil func", mapFunc, []any{(func(a, b float32) float32)(nil), out, out, out}, "got a nil func"},
		{"number for func", mapFunc, []any{1.5, out, out, out}, "got float64; pass a function"},
		{"device array for func", mapFunc, []any{dev, out, out, out}, "device array for a func parameter"},
		{"untyped nil", mapFunc, []any{nil, out, out, out}, "got nil"},
		{"func returning a slice", func(t Thread, f func(int) []int) {}, []any{func(int) []int { return nil }}, "parameter 1 has type func(int) []int"},
		{"func of strings", func(t Thread, f func(string) int) {}, []any{func(string) int { return 0 }}, "parameter 1 has type func(string) int"},
		{"variadic func", func(t Thread, f func(...int) int) {}, []any{func(...int) int { return 0 }}, "parameter 1 has type func(...int) int"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Jit(tc.kernel).Launch(Dim1(1), Dim1(1), tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestPTXArgsDropsFuncs(t *testing.T) {
	m := &compiler.Module{
		Params:     []compiler.Param{{Arg: 0, Name: "x"}, {Arg: 2, Name: "n"}},
		FuncParams: []compiler.FuncParam{{Arg: 1, Name: "f"}},
	}
	x, n := []float32{1}, int8(3)
	got := ptxArgs(m, []reflect.Value{reflect.ValueOf(x), reflect.ValueOf(fmaFunc), reflect.ValueOf(n)})
	if len(got) != 2 || got[0].Interface().([]float32)[0] != 1 || got[1].Interface() != n {
		t.Fatalf("ptxArgs = %v, want the slice and the int8", got)
	}
	plain := []reflect.Value{reflect.ValueOf(x)}
	if got := ptxArgs(&compiler.Module{Params: []compiler.Param{{}}}, plain); len(got) != 1 {
		t.Fatalf("ptxArgs without func parameters = %v", got)
	}
}
