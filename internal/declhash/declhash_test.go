package declhash

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func hashOf(t *testing.T, src string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "k.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Of(fset, f.Decls[0].(*ast.FuncDecl))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestOf checks that the fingerprint ignores what is outside the body
// and changes with the body.
func TestOf(t *testing.T) {
	base := hashOf(t, "package p\n\n// K adds.\nfunc K(a []int) {\n\ta[0] += 1\n}\n")
	for _, tc := range []struct {
		src  string
		same bool
	}{
		{"package p\n\n// K adds one.\n// More.\nfunc K(a []int) {\n\ta[0] += 1\n}\n", true},
		{"package p\n\n\n\n// K adds.\nfunc K(a []int) {\n\ta[0] += 1\n}\n", true},
		{"package p\n\n// K adds.\nfunc K(a []int) {\n\ta[0] -= 1\n}\n", false},
		{"package p\n\n// K adds.\nfunc K(b []int) {\n\tb[0] += 1\n}\n", false},
	} {
		if got := hashOf(t, tc.src) == base; got != tc.same {
			t.Errorf("same fingerprint = %v, want %v for\n%s", got, tc.same, tc.src)
		}
	}
}

// TestOfAll checks that the fingerprint of a kernel with the helpers
// inlined into it is the kernel's alone when there are none, and changes
// with any of the declarations and with their order.
func TestOfAll(t *testing.T) {
	const (
		k  = "func K(a []int) {\n\ta[0] = h(a[0])\n}\n"
		h  = "func h(v int) int {\n\treturn v + 1\n}\n"
		h2 = "func h(v int) int {\n\treturn v + 2\n}\n"
		g  = "func g(v int) int {\n\treturn v\n}\n"
	)
	all := func(srcs ...string) string {
		t.Helper()
		fset := token.NewFileSet()
		var decls []*ast.FuncDecl
		for _, s := range srcs {
			f, err := parser.ParseFile(fset, "k.go", "package p\n\n"+s, 0)
			if err != nil {
				t.Fatal(err)
			}
			decls = append(decls, f.Decls[0].(*ast.FuncDecl))
		}
		got, err := OfAll(fset, decls)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	base := all(k, h, g)
	if got, want := all(k), hashOf(t, "package p\n\n"+k); got != want {
		t.Errorf("OfAll of the kernel alone = %s, want Of's %s", got, want)
	}
	for _, tc := range []struct {
		name string
		srcs []string
		same bool
	}{
		{"same", []string{k, h, g}, true},
		{"helper edited", []string{k, h2, g}, false},
		{"helpers reordered", []string{k, g, h}, false},
		{"helper left out", []string{k, h}, false},
		{"kernel alone", []string{k}, false},
	} {
		if got := all(tc.srcs...) == base; got != tc.same {
			t.Errorf("%s: same fingerprint = %v, want %v", tc.name, got, tc.same)
		}
	}
	if _, err := OfAll(token.NewFileSet(), nil); err == nil {
		t.Error("OfAll of no declaration succeeded")
	}
}
