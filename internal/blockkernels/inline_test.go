package blockkernels

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/declhash"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// TestInlinedAndInstances checks what nugo gen recorded for the kernels
// that synchronise through helpers and generics: HelperReduce's block loop
// names the helpers inlined into it, and each instantiation of
// GenericReduce that the package writes has a block loop of its own,
// registered for the func value a user launches (reflect's Pointer of
// GenericReduce[int32]), with the parameter types of that instantiation.
func TestInlinedAndInstances(t *testing.T) {
	rb, ok := cpu.Rows(reflect.ValueOf(HelperReduce))
	if !ok {
		t.Fatal("HelperReduce has no registered loop")
	}
	if want := []string{"blockSum", "scaled", "warpSum"}; !reflect.DeepEqual(rb.Inlined, want) {
		t.Errorf("HelperReduce's block loop inlined %v, want %v", rb.Inlined, want)
	}
	if rb, _ := cpu.Rows(reflect.ValueOf(HelperGather)); !reflect.DeepEqual(rb.Inlined, []string{"gather"}) {
		t.Errorf("HelperGather's block loop inlined %v, want [gather]", rb.Inlined)
	}
	for _, tc := range []struct {
		name string
		fn   any
		want reflect.Type
	}{
		{"int32", GenericReduce[int32], reflect.TypeFor[func(cuda.Thread, []int32, []int32)]()},
		{"float64", GenericReduce[float64], reflect.TypeFor[func(cuda.Thread, []float64, []float64)]()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := reflect.ValueOf(tc.fn)
			rb, ok := cpu.Rows(v)
			if !ok {
				t.Fatalf("no loop registered for GenericReduce[%s] (pointer %#x)", tc.name, v.Pointer())
			}
			if _, isBlock := rb.Bind.(func([]any) func() cuda.BlockLoop); !isBlock {
				t.Fatalf("GenericReduce[%s] has a %T, want a block loop", tc.name, rb.Bind)
			}
			if rb.Type != tc.want {
				t.Errorf("GenericReduce[%s]'s loop is registered for %v, want %v", tc.name, rb.Type, tc.want)
			}
			if h, found := frontend.DeclHash(tc.fn); !found || h != rb.Source {
				t.Errorf("GenericReduce[%s]: block loop fingerprint %s, the generic declaration's %s (found %v)", tc.name, rb.Source, h, found)
			}
		})
	}
	// A third instantiation, which the package does not write, has none.
	if _, ok := cpu.Rows(reflect.ValueOf(GenericReduce[float32])); ok {
		t.Error("GenericReduce[float32], instantiated only here, has a loop registered")
	}
}

// staleCaller synchronises through staleHelper; a test registers block
// loops for it made from other versions of the helper.
func staleCaller(t cuda.Thread, a []int32) {
	i := t.Grid1()
	a[i] = staleHelper(t, a[i])
}

func staleHelper(t cuda.Thread, v int32) int32 {
	t.SyncThreads()
	return v * 2
}

// TestStaleInlinedHelper: a block loop records the fingerprint of its
// kernel together with the helpers inlined into it, so that editing only
// the helper makes the launch fail as out of date (the kernel's own
// declaration is unchanged), while the fingerprint of the current kernel
// and helper runs the loop.
func TestStaleInlinedHelper(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	defer cuda.SetBackend(cuda.Auto)
	current, found := frontend.DeclHash(staleCaller, "staleHelper")
	if !found {
		t.Fatal("the test's own source was not found")
	}
	own, _ := frontend.DeclHash(staleCaller)
	if own == current {
		t.Fatalf("the fingerprint with the inlined helper (%s) is the kernel's alone", current)
	}
	// The fingerprint of a block loop made before staleHelper's edit: the
	// same kernel, the helper returning v * 3.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "inline_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kernel, helper *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			switch fd.Name.Name {
			case "staleCaller":
				kernel = fd
			case "staleHelper":
				helper = fd
			}
		}
	}
	edited := false
	ast.Inspect(helper, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Value == "2" {
			lit.Value, edited = "3", true
		}
		return true
	})
	if kernel == nil || !edited {
		t.Fatal("staleCaller or staleHelper's literal not found in inline_test.go")
	}
	if k, _ := declhash.Of(fset, kernel); k != own {
		t.Fatalf("the kernel's fingerprint %s is not the one DeclHash finds, %s", k, own)
	}
	old, err := declhash.OfAll(fset, []*ast.FuncDecl{kernel, helper})
	if err != nil {
		t.Fatal(err)
	}
	checkStaleLaunches(t, staleCaller, []staleCase{
		{"helper edited", old, 7, []string{"staleCaller", "out of date", "run go generate", old, current}},
		{"current", current, -1, nil},
	}, "staleHelper")
}

// TestInlinedHelperPanicPosition: a panic in a helper inlined into a
// block loop names the helper's file and line, as on the goroutine path,
// and the thread that raised it.
func TestInlinedHelperPanicPosition(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("helpers.go")
	if err != nil {
		t.Fatal(err)
	}
	line := slices.Index(strings.Split(string(src), "\n"), "\treturn a[j]") + 1
	if line == 0 {
		t.Fatal("gather's return not found in helpers.go")
	}
	want := fmt.Sprintf("helpers.go:%d", line)
	for _, p := range []path{generated, goroutines} {
		t.Run(p.name, func(t *testing.T) {
			defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(p.noLoops))
			n := 2 * Block
			a, idx, out := ints(n), make([]int32, n), make([]int32, n)
			for i := range idx {
				idx[i] = int32(n - 1 - i)
			}
			idx[Block+5] = int32(n + 100)
			err := cuda.Jit(HelperGather).Launch(cuda.Dim1(2), cuda.Dim1(Block), a, idx, out)
			var ke *cuda.KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("launch returned %v (%T), want a *cuda.KernelError", err, err)
			}
			if !strings.Contains(ke.Msg, "index out of range") || !strings.Contains(ke.Pos, want) {
				t.Errorf("panic %q at %q, want an index out of range at %s (gather's return)", ke.Msg, ke.Pos, want)
			}
			if ke.Block != (cuda.Dim3{X: 1, Y: 0, Z: 0}) || ke.Thread != (cuda.Dim3{X: 5, Y: 0, Z: 0}) {
				t.Errorf("panic in block %v thread %v, want block (1,0,0) thread (5,0,0)", ke.Block, ke.Thread)
			}
		})
	}
}
