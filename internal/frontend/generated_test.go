package frontend_test

import (
	"go/types"
	"reflect"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/frontend"
)

const generatedSrc = `package gen

import "github.com/nugo-dev/nugo/cuda"

func scaled(t cuda.Thread, f func([]float32, *float32), a []float32, out []float32, n int) {
	if i := t.Grid1(); i < len(out) {
		f(a[i*n:i*n+n], &out[i])
	}
}
`

// makeFunc makes a func value of type t with reflect, as generated
// kernels are made.
func makeFunc(t reflect.Type) any {
	return reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value { return nil }).Interface()
}

// TestGeneratedKernels: a func value made by reflect.MakeFunc loads from
// the source registered for its type, and only from that.
func TestGeneratedKernels(t *testing.T) {
	kt := reflect.TypeFor[func(cuda.Thread, func([]float32, *float32), []float32, []float32, int)]()
	if err := frontend.RegisterSource(kt, "scaled", []byte(generatedSrc)); err != nil {
		t.Fatal(err)
	}
	if err := frontend.RegisterSource(kt, "scaled", []byte(generatedSrc)); err != nil {
		t.Errorf("registering the same source again: %v", err)
	}
	if err := frontend.RegisterSource(kt, "other", []byte(generatedSrc)); err == nil || !strings.Contains(err.Error(), "already has the source of kernel scaled") {
		t.Errorf("registering another source for the type: %v", err)
	}
	if err := frontend.RegisterSource(reflect.TypeFor[int](), "x", nil); err == nil {
		t.Error("registering a source for a non-func type: no error")
	}

	fn := makeFunc(kt)
	k, err := frontend.LoadFunc(fn)
	if err != nil {
		t.Fatal(err)
	}
	if k.Name != "scaled" || k.Func == nil || k.Func.Signature.Params().Len() != 5 {
		t.Errorf("loaded %q with signature %v", k.Name, k.Func)
	}
	if name, ok := frontend.InstanceName(fn); !ok || name != "scaled" {
		t.Errorf("InstanceName = %q, %v; want scaled", name, ok)
	}

	// A reflect-made value of a type without a source.
	bare := makeFunc(reflect.TypeFor[func(cuda.Thread, []int8)]())
	if _, err := frontend.LoadFunc(bare); err == nil || !strings.Contains(err.Error(), "made by reflect.MakeFunc and has no Go source") {
		t.Errorf("LoadFunc of an unregistered reflect-made kernel: %v", err)
	}
	if _, ok := frontend.InstanceName(bare); ok {
		t.Error("InstanceName of an unregistered reflect-made kernel reports a name")
	}

	// A source whose kernel does not have the registered type.
	wrong := reflect.TypeFor[func(cuda.Thread, func([]float32, *float32), []float32, []float32, int32)]()
	if err := frontend.RegisterSource(wrong, "scaled", []byte(generatedSrc)); err != nil {
		t.Fatal(err)
	}
	if _, err := frontend.LoadFunc(makeFunc(wrong)); err == nil || !strings.Contains(err.Error(), "but its func value has type") {
		t.Errorf("LoadFunc of a source of another type: %v", err)
	}
}

const generatedViewSrc = `package gen

import "github.com/nugo-dev/nugo/cuda"

func blocks(t cuda.Thread, f func(cuda.Array2[float64], cuda.Array3[int32], *float64), a []float64, b []int32, out []float64, n int) {
	if i := t.Grid1(); i < len(out) {
		f(cuda.MustView2(a[i*n*n:(i+1)*n*n], n, n), cuda.MustView3(b[i*8:i*8+8], 2, 2, 2), &out[i])
	}
}
`

// viewTrace is a function with 2-D and 3-D core parameters, as a
// generated kernel's func parameter takes.
func viewTrace[T float32 | float64](m cuda.Array2[T], c cuda.Array3[int32], out *T) {
	n, _ := m.Shape()
	for i := range n {
		*out += m.At(i, i) * T(c.At(0, 0, 0))
	}
}

// TestGeneratedViewKernel: a generated kernel may take a func of
// cuda.Array2 and cuda.Array3 parameters and build them with MustView2 and
// MustView3, and a function of such parameters loads to be bound to it.
func TestGeneratedViewKernel(t *testing.T) {
	kt := reflect.TypeFor[func(cuda.Thread, func(cuda.Array2[float64], cuda.Array3[int32], *float64), []float64, []int32, []float64, int)]()
	if err := frontend.RegisterSource(kt, "blocks", []byte(generatedViewSrc)); err != nil {
		t.Fatal(err)
	}
	k, err := frontend.LoadFunc(makeFunc(kt))
	if err != nil {
		t.Fatal(err)
	}
	if k.Name != "blocks" || k.Func.Signature.Params().Len() != 6 {
		t.Errorf("loaded %q with signature %v", k.Name, k.Func.Signature)
	}
	d, err := frontend.LoadDevice(viewTrace[float64])
	if err != nil {
		t.Fatal(err)
	}
	f := k.Func.Signature.Params().At(1).Type()
	if d.Name != "viewTrace[float64]" || !types.Identical(f.Underlying(), d.Func.Signature.Underlying()) {
		t.Errorf("loaded %q of type %v; want viewTrace[float64] of the kernel's parameter type %v", d.Name, d.Func.Signature, f)
	}
}
