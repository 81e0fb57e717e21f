package loopgen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// ufuncUse is a top-level function of the package, or an instantiation
// of a generic one, passed to vectorize.New<arity>.
type ufuncUse struct {
	decl     *ast.FuncDecl
	arity    int
	typeArgs []ast.Expr // the instantiation's explicit type arguments; none for a plain function
	file     *ast.File  // the file of the call
}

// ufuncUses finds the package's top-level functions that its files, test
// files included, pass by name to vectorize.New1..New4, in the order of
// first use. Test files are read for their syntax only: the calls are
// recognised by the vectorize import's name in each file, which is enough
// because the generated loop calls the function with its declared types,
// whatever a test calls.
func ufuncUses(pkg *packages.Package, dir string) ([]ufuncUse, error) {
	decls := map[string]*ast.FuncDecl{}
	for _, f := range pkg.Syntax {
		if filepath.Base(pkg.Fset.File(f.Pos()).Name()) == FileName || hasBuildConstraint(f) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				decls[fd.Name.Name] = fd
			}
		}
	}
	files := append([]*ast.File(nil), pkg.Syntax...)
	tests, err := testFiles(dir)
	if err != nil {
		return nil, err
	}
	files = append(files, tests...)

	var uses []ufuncUse
	seen := map[string]bool{}
	for _, f := range files {
		vec, self := importNames(f, pkg.PkgPath, f.Name.Name == pkg.Name)
		if vec == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			arity := newArity(call.Fun, vec)
			fn, typeArgs := instantiation(call.Args[0])
			name := funcName(fn, self)
			fd := decls[name]
			key := types.ExprString(call.Args[0])
			if arity == 0 || fd == nil || seen[key] {
				return true
			}
			seen[key] = true
			uses = append(uses, ufuncUse{decl: fd, arity: arity, typeArgs: typeArgs, file: f})
			return true
		})
	}
	return uses, nil
}

// testFiles parses the package directory's _test.go files.
func testFiles(dir string) ([]*ast.File, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, n, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("reading the test files for vectorize uses: %w", err)
		}
		files = append(files, f)
	}
	return files, nil
}

// importNames returns the names by which file f refers to package
// vectorize and, in an external test package, to the package being
// generated ("" where it does not). In the package itself (internal is
// true) its functions are plain identifiers, which self "" stands for.
func importNames(f *ast.File, pkgPath string, internal bool) (vec, self string) {
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := defaultName(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		switch path {
		case vectorizePath:
			vec = name
		case pkgPath:
			if !internal {
				self = name
			}
		}
	}
	return vec, self
}

// newArity returns N if fun is vec.NewN (N in 1..4), else 0.
func newArity(fun ast.Expr, vec string) int {
	if ix, ok := fun.(*ast.IndexListExpr); ok { // vectorize.New2[T, U, R](f)
		fun = ix.X
	}
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return 0
	}
	if x, ok := sel.X.(*ast.Ident); !ok || x.Name != vec {
		return 0
	}
	n, ok := strings.CutPrefix(sel.Sel.Name, "New")
	if !ok || len(n) != 1 || n[0] < '1' || n[0] > '4' {
		return 0
	}
	return int(n[0] - '0')
}

// instantiation splits f[A, B] into f and its type arguments; any other
// expression is returned as it is, with none.
func instantiation(arg ast.Expr) (ast.Expr, []ast.Expr) {
	switch a := arg.(type) {
	case *ast.IndexExpr:
		return a.X, []ast.Expr{a.Index}
	case *ast.IndexListExpr:
		return a.X, a.Indices
	}
	return arg, nil
}

// funcName returns the name of the package's function that arg names:
// an identifier in the package, self.Name in an external test package.
func funcName(arg ast.Expr, self string) string {
	switch a := arg.(type) {
	case *ast.Ident:
		if self == "" {
			return a.Name
		}
	case *ast.SelectorExpr:
		if x, ok := a.X.(*ast.Ident); ok && self != "" && x.Name == self {
			return a.Sel.Name
		}
	}
	return ""
}
