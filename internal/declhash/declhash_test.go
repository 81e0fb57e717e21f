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
