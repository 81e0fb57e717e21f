package cuda_test

// Every exported function of cuda's half precision and of math32 that a
// kernel may call may also be passed for a kernel's func parameter (issue
// 21, item 6): on the compiled backends the function is compiled into the
// kernel, and its results equal a direct call on the host (bit for bit for
// the half functions; within the device library's bound for math32). The
// tables are checked against the packages' source, so a new export of
// those shapes must be added here.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/math32"
)

func applyH1(t cuda.Thread, f func(cuda.Float16) cuda.Float16, x, out []cuda.Float16) {
	if i := t.Grid1(); i < len(x) {
		out[i] = f(x[i])
	}
}

func applyH2(t cuda.Thread, f func(cuda.Float16, cuda.Float16) cuda.Float16, x, out []cuda.Float16) {
	if i := t.Grid1(); i < len(x) {
		out[i] = f(x[i], x[len(x)-1-i])
	}
}

func applyH3(t cuda.Thread, f func(cuda.Float16, cuda.Float16, cuda.Float16) cuda.Float16, x, out []cuda.Float16) {
	if i := t.Grid1(); i < len(x) {
		out[i] = f(x[i], x[len(x)-1-i], x[(i+1)%len(x)])
	}
}

func applyH2Bool(t cuda.Thread, f func(cuda.Float16, cuda.Float16) bool, x []cuda.Float16, out []bool) {
	if i := t.Grid1(); i < len(x) {
		out[i] = f(x[i], x[len(x)-1-i])
	}
}

func applyF32(t cuda.Thread, f func(float32) float32, x, out []float32) {
	if i := t.Grid1(); i < len(x) {
		out[i] = f(x[i])
	}
}

var (
	halfUnary = map[string]func(cuda.Float16) cuda.Float16{
		"HNeg": cuda.HNeg, "HAbs": cuda.HAbs, "HSqrt": cuda.HSqrt, "HRsqrt": cuda.HRsqrt, "HRcp": cuda.HRcp,
		"HExp": cuda.HExp, "HExp2": cuda.HExp2, "HExp10": cuda.HExp10, "HLog": cuda.HLog, "HLog2": cuda.HLog2,
		"HLog10": cuda.HLog10, "HSin": cuda.HSin, "HCos": cuda.HCos, "HFloor": cuda.HFloor, "HCeil": cuda.HCeil,
		"HTrunc": cuda.HTrunc, "HRint": cuda.HRint,
	}
	halfBinary = map[string]func(cuda.Float16, cuda.Float16) cuda.Float16{
		"HAdd": cuda.HAdd, "HSub": cuda.HSub, "HMul": cuda.HMul, "HDiv": cuda.HDiv, "HMax": cuda.HMax, "HMin": cuda.HMin,
	}
	halfTernary = map[string]func(cuda.Float16, cuda.Float16, cuda.Float16) cuda.Float16{"HFma": cuda.HFma}
	halfCompare = map[string]func(cuda.Float16, cuda.Float16) bool{
		"HEq": cuda.HEq, "HNe": cuda.HNe, "HLt": cuda.HLt, "HLe": cuda.HLe, "HGt": cuda.HGt, "HGe": cuda.HGe,
	}
	math32Unary = map[string]func(float32) float32{
		"Abs": math32.Abs, "Sqrt": math32.Sqrt, "Floor": math32.Floor, "Ceil": math32.Ceil,
		"Trunc": math32.Trunc, "RoundToEven": math32.RoundToEven, "Round": math32.Round,
		"FastExp": math32.FastExp, "FastExp2": math32.FastExp2, "FastLog": math32.FastLog,
		"FastLog2": math32.FastLog2, "FastSin": math32.FastSin, "FastCos": math32.FastCos,
		"FastSqrt": math32.FastSqrt, "FastRsqrt": math32.FastRsqrt,
		"Exp": math32.Exp, "Exp2": math32.Exp2, "Expm1": math32.Expm1, "Log": math32.Log,
		"Log2": math32.Log2, "Log10": math32.Log10, "Log1p": math32.Log1p, "Sin": math32.Sin,
		"Cos": math32.Cos, "Tan": math32.Tan, "Asin": math32.Asin, "Acos": math32.Acos,
		"Atan": math32.Atan, "Sinh": math32.Sinh, "Cosh": math32.Cosh, "Tanh": math32.Tanh,
		"Asinh": math32.Asinh, "Acosh": math32.Acosh, "Atanh": math32.Atanh, "Cbrt": math32.Cbrt,
		"Erf": math32.Erf, "Erfc": math32.Erfc, "Gamma": math32.Gamma,
	}
)

// exportsOfShape lists the exported functions of the non-test files in dir
// whose parameters (n of them) and result are all of the type named elem
// (result: elem, or bool when boolResult).
func exportsOfShape(t *testing.T, dir, elem string, n int, boolResult bool) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.TypeParams != nil {
				continue
			}
			isType := func(e ast.Expr, name string) bool { id, ok := e.(*ast.Ident); return ok && id.Name == name }
			params := 0
			ok = true
			for _, p := range fn.Type.Params.List {
				params += max(1, len(p.Names))
				ok = ok && isType(p.Type, elem)
			}
			res := fn.Type.Results
			want := elem
			if boolResult {
				want = "bool"
			}
			if ok && params == n && res != nil && len(res.List) == 1 && len(res.List[0].Names) <= 1 && isType(res.List[0].Type, want) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	sort.Strings(names)
	return names
}

func TestExportedFunctionsAsFuncArguments(t *testing.T) {
	for _, c := range []struct {
		dir, elem string
		n         int
		boolRes   bool
		have      func(string) bool
	}{
		{".", "Float16", 1, false, func(s string) bool { return halfUnary[s] != nil }},
		{".", "Float16", 2, false, func(s string) bool { return halfBinary[s] != nil }},
		{".", "Float16", 3, false, func(s string) bool { return halfTernary[s] != nil }},
		{".", "Float16", 2, true, func(s string) bool { return halfCompare[s] != nil }},
		{"../math32", "float32", 1, false, func(s string) bool { return math32Unary[s] != nil }},
	} {
		for _, name := range exportsOfShape(t, c.dir, c.elem, c.n, c.boolRes) {
			if !c.have(name) {
				t.Errorf("%s.%s (%d %s parameters) is not in this test's tables", c.dir, name, c.n, c.elem)
			}
		}
	}

	xs := []float32{0.5, -2, 3.25, 0, -0.75, 1e-3, 100, 7}
	hx := make([]cuda.Float16, len(xs))
	for i, v := range xs {
		hx[i] = cuda.F16(v)
	}
	for _, b := range []cuda.Backend{cuda.CPU, cuda.PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			checkHalf := func(name string, got, want []cuda.Float16) {
				for i := range want {
					if got[i].Bits() != want[i].Bits() && !(isNaNHalf(got[i]) && isNaNHalf(want[i])) {
						t.Errorf("%s element %d: %#04x through the func parameter, %#04x called directly", name, i, got[i].Bits(), want[i].Bits())
					}
				}
			}
			for name, f := range halfUnary {
				out := make([]cuda.Float16, len(hx))
				if err := cuda.Jit(applyH1).Launch(cuda.Dim1(1), cuda.Dim1(32), f, hx, out); err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				want := make([]cuda.Float16, len(hx))
				for i := range hx {
					want[i] = f(hx[i])
				}
				checkHalf(name, out, want)
			}
			for name, f := range halfBinary {
				out := make([]cuda.Float16, len(hx))
				if err := cuda.Jit(applyH2).Launch(cuda.Dim1(1), cuda.Dim1(32), f, hx, out); err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				want := make([]cuda.Float16, len(hx))
				for i := range hx {
					want[i] = f(hx[i], hx[len(hx)-1-i])
				}
				checkHalf(name, out, want)
			}
			for name, f := range halfTernary {
				out := make([]cuda.Float16, len(hx))
				if err := cuda.Jit(applyH3).Launch(cuda.Dim1(1), cuda.Dim1(32), f, hx, out); err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				want := make([]cuda.Float16, len(hx))
				for i := range hx {
					want[i] = f(hx[i], hx[len(hx)-1-i], hx[(i+1)%len(hx)])
				}
				checkHalf(name, out, want)
			}
			for name, f := range halfCompare {
				out := make([]bool, len(hx))
				if err := cuda.Jit(applyH2Bool).Launch(cuda.Dim1(1), cuda.Dim1(32), f, hx, out); err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				for i := range hx {
					if want := f(hx[i], hx[len(hx)-1-i]); out[i] != want {
						t.Errorf("%s element %d: %v through the func parameter, %v called directly", name, i, out[i], want)
					}
				}
			}
			for name, f := range math32Unary {
				out := make([]float32, len(xs))
				if err := cuda.Jit(applyF32).Launch(cuda.Dim1(1), cuda.Dim1(32), f, xs, out); err != nil {
					t.Errorf("math32.%s: %v", name, err)
					continue
				}
				// The device library is within a few ulp of Go's (the Fast
				// ones are the GPU's approximations): a loose check that the
				// right function ran.
				for i, x := range xs {
					want := f(x)
					if w, g := float64(want), float64(out[i]); !(math.IsNaN(w) && math.IsNaN(g)) && w != g && math.Abs(g-w) > 1e-3*math.Max(1, math.Abs(w)) {
						t.Errorf("math32.%s(%v) = %v through the func parameter, %v called directly", name, x, g, w)
					}
				}
			}
		})
	}
}

func isNaNHalf(h cuda.Float16) bool { return h.Bits()&0x7FFF > 0x7C00 }
