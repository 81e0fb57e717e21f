package frontend

import (
	"go/ast"
	"go/parser"
	"go/types"
	"sort"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// devmathSource returns the Go files of the device math library (name →
// source), or nil when this build has none. It is set by devmath_link.go.
var devmathSource func() map[string][]byte

// devmathChecked is the library parsed and type-checked once per process.
var devmathChecked struct {
	once  sync.Once
	files []*ast.File
	pkg   *types.Package
	info  *types.Info
	err   error
}

func loadDevmath() {
	d := &devmathChecked
	if devmathSource == nil {
		return
	}
	src := devmathSource()
	names := make([]string, 0, len(src))
	for n := range src {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f, err := parser.ParseFile(fset, "devmath/"+n, src[n], parser.SkipObjectResolution)
		if err != nil {
			d.err = err
			return
		}
		d.files = append(d.files, f)
	}
	d.info = &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{Importer: stubs, Sizes: types.SizesFor("gc", "amd64")}
	d.pkg, d.err = conf.Check(DevmathPath, fset, d.files, d.info)
}

// devmathSSA is the library as SSA, built once per process in a program
// of its own: its functions are read-only after building, and the compiler
// lowers them into any kernel's module (their types are shared through the
// stub packages), so no kernel pays for building them again.
var devmathSSA struct {
	once sync.Once
	pkg  *ssa.Package
}

// Devmath returns the device math library's SSA package, building it on
// first use, or nil when the build has no library.
func (k *Kernel) Devmath() *ssa.Package {
	devmathChecked.once.Do(loadDevmath)
	d := &devmathChecked
	if d.pkg == nil || d.err != nil {
		k.devmathErr = d.err
		return nil
	}
	devmathSSA.once.Do(func() {
		prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
		for _, imp := range d.pkg.Imports() {
			createStubPackage(prog, imp)
		}
		devmathSSA.pkg = prog.CreatePackage(d.pkg, d.files, d.info, true)
		devmathSSA.pkg.Build()
	})
	return devmathSSA.pkg
}

// DevmathError reports why the device math library could not be loaded.
func (k *Kernel) DevmathError() error { return k.devmathErr }

// SetDevmathSource installs the device math library's source (file name →
// Go text). The build links nugo's own library; tests and tools may install
// another before the first kernel that needs it is compiled.
func SetDevmathSource(src func() map[string][]byte) { devmathSource = src }

// HasDevmath reports whether the device math library is linked, so that
// math functions without a PTX instruction can be compiled.
func HasDevmath() bool { return devmathSource != nil }
