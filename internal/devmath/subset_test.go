package devmath

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// hostOnly are the non-test files that are not part of the kernel subset
// (and are not embedded): they serve the host only.
var hostOnly = map[string]bool{"embed.go": true}

// allowedExt lists the functions outside the package a kernel-subset file
// may call; nugo's compiler lowers each to PTX instructions.
var allowedExt = map[string]map[string]bool{
	"math": set("Float64bits", "Float64frombits", "Float32bits", "Float32frombits", "Abs", "Sqrt",
		"Floor", "Ceil", "Trunc", "FMA", "Copysign", "IsNaN", "IsInf", "Inf", "NaN", "Signbit"),
	"math/bits": set("Mul64", "Add64", "Sub64", "LeadingZeros64", "LeadingZeros32", "TrailingZeros64",
		"TrailingZeros32", "Len64", "Len32"),
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// kernelFiles returns the package's non-test, non-host Go files.
func kernelFiles(t *testing.T) []string {
	t.Helper()
	all, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range all {
		if !strings.HasSuffix(f, "_test.go") && !hostOnly[f] {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// TestKernelSubset enforces that the library stays compilable by nugo's
// compiler: numeric scalars (complex ones too), bool and fixed-size arrays only; package-level
// constants and never-written numeric array variables; calls only to this
// package's functions (without recursion) and to the allowed math and
// math/bits functions.
func TestKernelSubset(t *testing.T) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range kernelFiles(t) {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("devmath", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	bad := func(n ast.Node, format string, args ...any) {
		t.Helper()
		t.Errorf("%s: "+format, append([]any{fset.Position(n.Pos())}, args...)...)
	}
	pkgVars := map[types.Object]bool{}
	calls := map[string]map[string]bool{} // caller -> callees in the package
	for _, f := range files {
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if allowedExt[p] == nil {
				bad(imp, "import of %s", p)
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				switch d.Tok {
				case token.IMPORT, token.CONST:
				case token.VAR:
					for _, s := range d.Specs {
						for _, n := range s.(*ast.ValueSpec).Names {
							obj := info.Defs[n]
							arr, ok := obj.Type().(*types.Array)
							if !ok || !isNumeric(arr.Elem()) {
								bad(n, "package variable %s must be an array of numbers", n.Name)
							}
							pkgVars[obj] = true
						}
					}
				default:
					bad(d, "declaration %s not allowed", d.Tok)
				}
			case *ast.FuncDecl:
				if d.Recv != nil || d.Type.TypeParams != nil {
					bad(d, "methods and generic functions are not allowed")
				}
				calls[d.Name.Name] = map[string]bool{}
				checkBody(t, fset, info, pkg, d, pkgVars, calls[d.Name.Name], bad)
			}
		}
	}
	// No recursion: the call graph must be acyclic.
	state := map[string]int{}
	var visit func(string, []string)
	visit = func(f string, path []string) {
		switch state[f] {
		case 1:
			t.Errorf("recursion: %s", strings.Join(append(path, f), " -> "))
			return
		case 2:
			return
		}
		state[f] = 1
		for g := range calls[f] {
			visit(g, append(path, f))
		}
		state[f] = 2
	}
	for f := range calls {
		visit(f, nil)
	}
}

func isNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat) != 0 && b.Kind() != types.UntypedNil
}

// allowedType reports whether values of type t may exist in a kernel.
func allowedType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsInteger|types.IsFloat|types.IsComplex|types.IsBoolean) != 0
	case *types.Array:
		return allowedType(u.Elem())
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if !allowedType(u.At(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

func checkBody(t *testing.T, fset *token.FileSet, info *types.Info, pkg *types.Package, fd *ast.FuncDecl,
	pkgVars map[types.Object]bool, callees map[string]bool, bad func(ast.Node, string, ...any)) {
	for _, list := range []*ast.FieldList{fd.Type.Params, fd.Type.Results} {
		if list == nil {
			continue
		}
		for _, f := range list.List {
			if tv, ok := info.Types[f.Type]; ok && !allowedType(tv.Type) {
				bad(f, "parameter type %s not allowed", tv.Type)
			}
		}
	}
	written := func(e ast.Expr) {
		for {
			switch x := e.(type) {
			case *ast.IndexExpr:
				e = x.X
				continue
			case *ast.ParenExpr:
				e = x.X
				continue
			case *ast.Ident:
				if pkgVars[info.Uses[x]] {
					bad(x, "package variable %s is written", x.Name)
				}
			}
			return
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			bad(n, "closures are not allowed")
		case *ast.DeferStmt, *ast.GoStmt, *ast.SelectStmt, *ast.SendStmt, *ast.RangeStmt, *ast.TypeSwitchStmt, *ast.LabeledStmt:
			bad(n, "%T not allowed", n)
		case *ast.SliceExpr:
			bad(n, "slicing is not allowed")
		case *ast.StarExpr:
			bad(n, "pointers are not allowed")
		case *ast.UnaryExpr:
			if n.Op == token.AND || n.Op == token.ARROW {
				bad(n, "operator %s not allowed", n.Op)
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING || n.Kind == token.CHAR || n.Kind == token.IMAG {
				bad(n, "%s literals are not allowed", n.Kind)
			}
		case *ast.CompositeLit:
			if tv := info.Types[n]; !allowedType(tv.Type) {
				bad(n, "composite literal of %s not allowed", tv.Type)
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				written(l)
			}
		case *ast.IncDecStmt:
			written(n.X)
		case *ast.CallExpr:
			checkCall(info, pkg, n, callees, bad)
		case ast.Expr:
			if tv, ok := info.Types[n]; ok && !tv.IsType() && !allowedType(tv.Type) {
				if _, isSig := tv.Type.(*types.Signature); !isSig && !tv.IsBuiltin() {
					bad(n, "value of type %s not allowed", tv.Type)
				}
			}
		}
		return true
	})
}

func checkCall(info *types.Info, pkg *types.Package, c *ast.CallExpr, callees map[string]bool, bad func(ast.Node, string, ...any)) {
	if tv := info.Types[c.Fun]; tv.IsType() {
		if !allowedType(tv.Type) {
			bad(c, "conversion to %s not allowed", tv.Type)
		}
		return
	}
	var id *ast.Ident
	switch f := c.Fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		bad(c, "indirect calls are not allowed")
		return
	}
	switch obj := info.Uses[id].(type) {
	case *types.Builtin:
		if obj.Name() != "len" && obj.Name() != "real" && obj.Name() != "imag" && obj.Name() != "complex" {
			bad(c, "builtin %s not allowed", obj.Name())
		}
	case *types.Func:
		if obj.Pkg() == pkg {
			callees[obj.Name()] = true
			return
		}
		if !allowedExt[obj.Pkg().Path()][obj.Name()] {
			bad(c, "call of %s.%s not allowed", obj.Pkg().Path(), obj.Name())
		}
	default:
		bad(c, "call of %s not allowed", id.Name)
	}
}

// TestSource checks that Source embeds exactly the kernel-subset files,
// with their current contents.
func TestSource(t *testing.T) {
	src := Source()
	want := kernelFiles(t)
	if len(src) != len(want) {
		var got []string
		for k := range src {
			got = append(got, k)
		}
		sort.Strings(got)
		t.Fatalf("Source has %v, want %v", got, want)
	}
	for _, f := range want {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if string(src[f]) != string(b) {
			t.Errorf("Source()[%q] differs from the file", f)
		}
	}
}
