package cuda_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

func TestPTXFuncParam(t *testing.T) {
	k := Jit(testkernels.MapFunc)
	add, err := k.PTX(0, testkernels.Add)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := k.PTX(0, testkernels.Sub)
	if err != nil {
		t.Fatal(err)
	}
	scaled, err := k.PTX(90, testkernels.Scaled[float32])
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		ptx, want string
	}{"Add": {add, "add.rn.f32"}, "Sub": {sub, "sub.rn.f32"}, "Scaled": {scaled, "mul.rn.f32"}} {
		if !strings.Contains(c.ptx, c.want) {
			t.Errorf("PTX for %s lacks %s:\n%s", name, c.want, c.ptx)
		}
		if n := strings.Count(c.ptx[:strings.Index(c.ptx, ")")], ".param"); n != 9 {
			t.Errorf("PTX for %s: entry has %d parameters, want 9 (three slices, none for the func)", name, n)
		}
	}
	if strings.Contains(add, "sub.rn.f32") {
		t.Errorf("PTX for Add computes a difference: the cache mixed up the functions:\n%s", add)
	}
	if again, _ := k.PTX(0, testkernels.Add); again != add {
		t.Error("PTX for Add differs between two calls")
	}
	if n := CompiledForms(k); n != 3 {
		t.Errorf("%d compiled forms, want 3 (Add, Sub and Scaled[float32] for sm_90)", n)
	}
}

func TestPTXFuncParamErrors(t *testing.T) {
	offset := float32(1)
	tests := []struct {
		name      string
		funcs     []any
		want      string
		compileEr bool
	}{
		{"no function", nil, "needs a function for each func parameter", false},
		{"two functions", []any{testkernels.Add, testkernels.Sub}, "has 1 func parameters, got 2", false},
		{"wrong type", []any{testkernels.Halve}, "pass a function of type", false},
		{"closure", []any{func(a, b float32) float32 { return a + b + offset }}, "pass a top-level function, not a closure", true},
		{"method value", []any{adder{}.add}, "pass a top-level function, not a closure", true},
	}
	k := Jit(testkernels.MapFunc)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := k.PTX(0, tc.funcs...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			var ce *CompileError
			if errors.As(err, &ce) != tc.compileEr {
				t.Fatalf("error %T: CompileError %v, want %v", err, !tc.compileEr, tc.compileEr)
			}
			if tc.compileEr && !strings.Contains(ce.Diagnostics[0].Msg, "argument 1") {
				t.Errorf("diagnostic %q does not name the argument", ce.Diagnostics[0].Msg)
			}
		})
	}
}

type adder struct{}

func (adder) add(a, b float32) float32 { return a + b }

func TestPackParamsFuncParam(t *testing.T) {
	buf, m, err := PackForTest(Jit(testkernels.MixedFunc), []any{make([]float32, 7), testkernels.Halve, int8(-3)}, []uint64{0x1000, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Params) != 2 || m.Params[0].Arg != 0 || m.Params[1].Arg != 2 {
		t.Fatalf("Params %+v; want the slice (argument 0) and the int8 (argument 2)", m.Params)
	}
	if len(m.FuncParams) != 1 || m.FuncParams[0].Arg != 1 || m.FuncParams[0].Func != "Halve" {
		t.Fatalf("FuncParams %+v; want Halve bound to argument 1", m.FuncParams)
	}
	got := map[string]uint64{}
	for _, p := range m.Params {
		for _, pp := range p.PTX {
			var word [8]byte
			copy(word[:], buf[pp.Offset:pp.Offset+pp.Size])
			got[pp.Role+string(rune('0'+p.Arg))] = binary.LittleEndian.Uint64(word[:])
		}
	}
	want := map[string]uint64{"ptr0": 0x1000, "len0": 7, "cap0": 7, "value2": 0xfd}
	for key, w := range want {
		if got[key] != w {
			t.Errorf("%s = %#x, want %#x (all: %v)", key, got[key], w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("packed %v, want exactly %v", got, want)
	}
	if m.ParamBytes != 25 {
		t.Errorf("ParamBytes = %d, want 25 (ptr, len, cap, then the int8)", m.ParamBytes)
	}
}

// A kernel with a func parameter on the GPU backend (over the fake driver):
// compiled and loaded once per function, the func argument packed as
// nothing, a closure refused as a compile error.
func TestGPUFuncParams(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	k, err := Compile(testkernels.MapFunc)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Count("cuModuleLoadDataEx"); n != 0 {
		t.Fatalf("Compile of a kernel with a func parameter loaded %d modules; it compiles at launch", n)
	}
	if _, err := Compile(testkernels.BadFunc); !errors.As(err, new(*CompileError)) || !strings.Contains(err.Error(), "map") {
		t.Errorf("Compile of a kernel with a func parameter and a map: %v; want a *CompileError about the map", err)
	}
	out, a, b := make([]float32, 5), []float32{1, 2, 3, 4, 5}, []float32{5, 4, 3, 2, 1}
	for i, fn := range []func(float32, float32) float32{testkernels.Add, testkernels.Sub, testkernels.Add, testkernels.Scaled[float32]} {
		args := []any{fn, out, a, b}
		if err := k.Launch(Dim1(1), Dim1(32), args...); err != nil {
			t.Fatal(err)
		}
		l := f.Launches()[i]
		if l.Function != "MapFunc" || len(l.Args) != 9 {
			t.Fatalf("launch %d: %s with %d driver arguments, want MapFunc with 9", i, l.Function, len(l.Args))
		}
		want, _, err := PackForTest(k, args, []uint64{0, u64(l.Args[0]), u64(l.Args[3]), u64(l.Args[6])})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(l.Params, want) {
			t.Fatalf("launch %d: packed parameters\n%x\nwant\n%x", i, l.Params, want)
		}
	}
	if n := f.Count("cuModuleLoadDataEx"); n != 3 {
		t.Fatalf("%d module loads for Add, Sub, Add and Scaled[float32], want 3", n)
	}
	offset := float32(1)
	err = k.Launch(Dim1(1), Dim1(32), func(x, y float32) float32 { return x + offset }, out, a, b)
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "not a closure") {
		t.Fatalf("launch with a closure: %v, want a *CompileError saying to pass a top-level function", err)
	}
	wantLive(t, f, 0, 0)
}

// A kernel with a func parameter on the ptxsim backend: compiled once per
// function and run by the interpreter, with the results Go computes.
func TestPTXSimFuncParams(t *testing.T) {
	onBackend(t, PTXSim)
	k, err := Compile(testkernels.MapFunc)
	if err != nil {
		t.Fatalf("Compile of a kernel with a func parameter: %v", err)
	}
	a, b := []float32{1, 2, 3, 4, 5}, []float32{0.5, 4, -3, 2, 1e-3}
	for _, fn := range []func(float32, float32) float32{testkernels.Add, testkernels.Sub, testkernels.Scaled[float32], testkernels.Add} {
		out := make([]float32, len(a))
		if err := k.Launch(Dim1(1), Dim1(32), fn, out, a, b); err != nil {
			t.Fatal(err)
		}
		for i := range out {
			if want := fn(a[i], b[i]); out[i] != want {
				t.Fatalf("out[%d] = %v, want %v", i, out[i], want)
			}
		}
	}
	if n := CompiledForms(k); n != 6 {
		t.Errorf("%d compiled forms, want 6 (module and interpreter form for Add, Sub and Scaled[float32])", n)
	}
	if _, err := Compile(testkernels.BadFunc); !errors.As(err, new(*CompileError)) || !strings.Contains(err.Error(), "map") {
		t.Errorf("Compile of a kernel with a func parameter and a map: %v; want a *CompileError about the map", err)
	}
	offset := float32(1)
	err = k.Launch(Dim1(1), Dim1(32), func(x, y float32) float32 { return x + offset }, make([]float32, 5), a, b)
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "not a closure") {
		t.Fatalf("launch with a closure: %v, want a *CompileError saying to pass a top-level function", err)
	}
}

// TestFuncParamMemory: a function bound to a func parameter may take
// slices of and pointers to numbers, which point into the kernel's device
// memory, on the cpu and ptxsim backends.
func TestFuncParamMemory(t *testing.T) {
	a := []float32{3, 1, 2, -4, -1, -9, 0.5, 7, 7.5}
	want := []float32{3, -1, 7.5}
	for _, b := range []Backend{CPU, PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			out := make([]float32, 3)
			if err := Jit(testkernels.RowsFunc).Launch(Dim1(1), Dim1(32), testkernels.RowMax, a, out, 3); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out, want) {
				t.Errorf("row maxima %v, want %v", out, want)
			}
		})
	}
	ptx, err := Jit(testkernels.RowsFunc).PTX(75, testkernels.RowMax)
	if err != nil || !strings.Contains(ptx, "max.f32") {
		t.Errorf("PTX of RowsFunc with RowMax lacks max.f32: %v\n%s", err, ptx)
	}
}

// TestFuncParamBoolMemory: the bound function may take slices of and
// pointers to bools too (vectorize.GU's bool cores), on every backend.
func TestFuncParamBoolMemory(t *testing.T) {
	a := []bool{false, false, true, false, false, false, true, true, false}
	want := []bool{true, false, true}
	for _, b := range []Backend{CPU, PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			out := []bool{false, true, false}
			if err := Jit(testkernels.RowsBoolFunc).Launch(Dim1(1), Dim1(32), testkernels.RowAny, a, out, 3); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out, want) {
				t.Errorf("row any %v, want %v", out, want)
			}
		})
	}
	ptx, err := Jit(testkernels.RowsBoolFunc).PTX(75, testkernels.RowAny)
	if err != nil {
		t.Fatalf("PTX of RowsBoolFunc with RowAny: %v", err)
	}
	ptxastest.Assemble(t, "RowsBoolFunc", ptx, 75)
}
