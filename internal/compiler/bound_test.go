package compiler

import (
	"errors"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// Functions bound to kernels' func parameters in the tests below. They live
// in this package, the kernels in source text of another: the bound
// function comes from a second loaded program, as a user's function does
// when vectorize's kernels call it.

func boundAdd(a, b float32) float32 { return a + b }

// boundFib is recursive, so it is not inlined: the module calls it.
func boundFib(n int32) int32 {
	if n < 2 {
		return n
	}
	return boundFib(n-1) + boundFib(n-2)
}

type boundNumber interface{ ~float32 | ~float64 | ~int32 }

func boundScale[T boundNumber](a, b T) T { return 3*a - b }

var boundTable = [4]float64{1, 2, 4, 8}

// boundHyp uses the device math library and a read-only table of its own
// package.
func boundHyp(a, b float64) float64 {
	return math.Sqrt(a*a+b*b) * boundTable[int(a)&3]
}

func boundBool(a int32) bool { return a > 2 }

const boundKernels = `package k

import "github.com/nugo-dev/nugo/cuda"

type Number interface{ ~float32 | ~float64 | ~int32 }

func map2[T Number](t cuda.Thread, f func(T, T) T, out, a, b []T) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[i], b[i])
	}
}

func map1(t cuda.Thread, out []int32, f func(int32) int32, a []int32) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[i]) + f(a[i]+1)
	}
}

func pred(t cuda.Thread, f func(int32) bool, out []int32) {
	if i := t.Grid1(); i < len(out) && f(int32(i)) {
		out[i] = 1
	}
}

func twice(t cuda.Thread, f func(int32) int32, g func(int32) int32, out []int32) {
	if i := t.Grid1(); i < len(out) {
		out[i] = g(f(int32(i)))
	}
}

func pass(f func(int32) int32, x int32) int32 { return f(x) }

func passOn(t cuda.Thread, f func(int32) int32, out []int32) {
	out[0] = pass(f, 1)
}

func compare(t cuda.Thread, f func(int32) int32, out []int32) {
	g := f
	out[0] = g(1)
}
`

func loadBound(t *testing.T, name string, funcs map[int]any) (*frontend.Kernel, map[int]*frontend.Kernel) {
	t.Helper()
	k, err := frontend.LoadSource("bound.go", []byte(boundKernels), name)
	if err != nil {
		t.Fatal(err)
	}
	bound := map[int]*frontend.Kernel{}
	for i, fn := range funcs {
		d, err := frontend.LoadDevice(fn)
		if err != nil {
			t.Fatalf("LoadDevice: %v", err)
		}
		bound[i] = d
	}
	return k, bound
}

func TestCompileBound(t *testing.T) {
	tests := []struct {
		name    string
		kernel  string
		funcs   map[int]any
		want    []string // regexps the PTX must match
		params  []int    // Arg of each Module.Params entry
		funcArg []int    // Arg of each Module.FuncParams entry
		ptxArgs int      // .param lines of the entry
	}{
		{"inlined", "map2[float32]", map[int]any{0: boundAdd}, []string{`add\.rn\.f32`}, []int{1, 2, 3}, []int{0}, 9},
		{"called", "map1", map[int]any{1: boundFib}, []string{`\.func .*fn_boundFib`, `call\.uni \(retval0\), fn_boundFib`}, []int{0, 2}, []int{1}, 6},
		{"generic", "map2[float64]", map[int]any{0: boundScale[float64]}, []string{`mul\.rn\.f64`, `sub\.rn\.f64`}, []int{1, 2, 3}, []int{0}, 9},
		{"math and table", "map2[float64]", map[int]any{0: boundHyp}, []string{`sqrt\.rn\.f64`, `__nugo_tbl_boundTable`}, []int{1, 2, 3}, []int{0}, 9},
		{"bool result", "pred", map[int]any{0: boundBool}, []string{`setp\.gt\.s32`}, []int{1}, []int{0}, 3},
		{"two funcs", "twice", map[int]any{0: boundFib, 1: boundFib}, []string{`call\.uni \(retval0\), fn_boundFib`}, []int{2}, []int{0, 1}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, bound := loadBound(t, tc.kernel, tc.funcs)
			for _, sm := range []int{75, 90} {
				m, err := CompileBound(k, Target{SM: sm}, bound)
				if err != nil {
					t.Fatal(err)
				}
				for _, re := range tc.want {
					if !regexp.MustCompile(re).MatchString(m.PTX) {
						t.Errorf("sm_%d: PTX does not match %s:\n%s", sm, re, ptxastest.Numbered(m.PTX))
					}
				}
				var args []int
				for _, p := range m.Params {
					args = append(args, p.Arg)
				}
				if !equalInts(args, tc.params) {
					t.Errorf("Params args %v, want %v", args, tc.params)
				}
				var fargs []int
				for _, p := range m.FuncParams {
					fargs = append(fargs, p.Arg)
					if p.Func == "" || p.Name == "" {
						t.Errorf("FuncParam %+v lacks a name", p)
					}
				}
				if !equalInts(fargs, tc.funcArg) {
					t.Errorf("FuncParams args %v, want %v", fargs, tc.funcArg)
				}
				if n := entryParams(m.PTX, m.Entry); n != tc.ptxArgs {
					t.Errorf("entry has %d .param, want %d:\n%s", n, tc.ptxArgs, m.PTX)
				}
				assembleAll(t, tc.name, m)
			}
		})
	}
}

// entryParams counts the parameters of the entry's declaration.
func entryParams(ptx, entry string) int {
	i := strings.Index(ptx, ".entry "+entry+"(")
	if i < 0 {
		return -1
	}
	j := strings.Index(ptx[i:], ")")
	return strings.Count(ptx[i:i+j], ".param")
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCompileBoundErrors(t *testing.T) {
	closure := func(a int32) int32 { return a }
	tests := []struct {
		name   string
		kernel string
		funcs  map[int]any
		want   string
	}{
		{"unbound", "map1", nil, "must be compiled for the function passed to it"},
		{"wrong type", "map1", map[int]any{1: boundAdd}, "bound to it has type"},
		{"not a func param", "map1", map[int]any{0: boundFib}, "which is not a func"},
		{"out of range", "map1", map[int]any{7: boundFib}, "does not have"},
		{"passed on", "passOn", map[int]any{0: boundFib}, "cannot use a function value"},
		{"copied", "compare", map[int]any{0: boundFib}, "cannot use a function value"},
		{"closure", "map1", map[int]any{1: closure}, "pass a top-level function, not a closure"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, err := frontend.LoadSource("bound.go", []byte(boundKernels), tc.kernel)
			if err != nil {
				// The front end refuses other uses of a func parameter.
				if !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("load error %q, want %q", err, tc.want)
				}
				return
			}
			bound := map[int]*frontend.Kernel{}
			for i, fn := range tc.funcs {
				d, err := frontend.LoadDevice(fn)
				if err != nil {
					var fe *frontend.Error
					if !errors.As(err, &fe) {
						t.Fatalf("LoadDevice error %v is not a *frontend.Error", err)
					}
					if !strings.Contains(err.Error(), tc.want) {
						t.Fatalf("LoadDevice error %q, want %q", err, tc.want)
					}
					return
				}
				bound[i] = d
			}
			_, err = CompileBound(k, Target{}, bound)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// BenchmarkCompileBound measures the first-launch compile of a kernel with
// a func parameter: the kernel and the bound function loaded (warm parse
// cache), checked and lowered together.
func BenchmarkCompileBound(b *testing.B) {
	for i := 0; i < b.N; i++ {
		k, err := frontend.LoadSource("bound.go", []byte(boundKernels), "map2[float64]")
		if err != nil {
			b.Fatal(err)
		}
		d, err := frontend.LoadDevice(boundHyp)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := CompileBound(k, Target{}, map[int]*frontend.Kernel{0: d}); err != nil {
			b.Fatal(err)
		}
	}
}
