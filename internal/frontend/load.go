package frontend

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Kernel is the front end's result: a kernel as checked SSA, generics
// instantiated, ready for the compiler.
type Kernel struct {
	Name     string         // Go name, with type arguments: "increment", "add[float32]"
	PkgPath  string         // import path of the kernel's package
	Dir      string         // directory of the package ("" for in-memory source)
	Fset     *token.FileSet // positions of every function in Prog
	Prog     *ssa.Program   // the whole program: user package and supported packages
	Pkg      *ssa.Package   // the kernel's package
	Func     *ssa.Function  // the kernel; an instantiation when generic
	TypeArgs []string       // type arguments as written in Go, for generic kernels

	src source // the kernel package's kept files and their types

	devmathErr error
}

// LoadFunc loads the kernel whose func value is fn. For a generic kernel the
// type arguments are inferred from the func value's type.
func LoadFunc(fn any) (*Kernel, error) {
	info, err := locate(fn)
	if err != nil {
		return nil, err
	}
	file, err := findSource(info)
	if err != nil {
		return nil, err
	}
	file, _ = filepath.Abs(file)
	files, err := packageFiles(filepath.Dir(file), file, info.name)
	if err != nil {
		return nil, fmt.Errorf("kernel %s.%s: %w", info.pkgPath, info.name, err)
	}
	var typeArgs []string
	if info.generic {
		fd := declOf(files, info.name)
		if fd == nil {
			return nil, fmt.Errorf("kernel %s.%s: no such function in %s", info.pkgPath, info.name, file)
		}
		typeArgs, err = inferTypeArgs(fd, reflect.TypeOf(fn), info.pkgPath)
		if err != nil {
			return nil, fmt.Errorf("kernel %s.%s: %w", info.pkgPath, info.name, err)
		}
	}
	return buildKernel(info.pkgPath, filepath.Dir(file), files, info.name, typeArgs)
}

// LoadDir loads kernel name from the Go package in dir. For a generic kernel,
// name carries its type arguments: "add[float32]".
func LoadDir(dir, name string) (*Kernel, error) {
	base, typeArgs, err := splitTypeArgs(name)
	if err != nil {
		return nil, err
	}
	dir, _ = filepath.Abs(dir)
	files, err := packageFiles(dir, "", base)
	if err != nil {
		return nil, err
	}
	return buildKernel(importPathGuess(dir, files), dir, files, base, typeArgs)
}

// LoadSource loads kernel name from one Go file given as text (a generated
// kernel, a test). filename is used in positions only. For a generic kernel,
// name carries its type arguments: "add[float32]".
func LoadSource(filename string, src []byte, name string) (*Kernel, error) {
	base, typeArgs, err := splitTypeArgs(name)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", name, err)
	}
	return buildKernel(f.Name.Name, "", []*ast.File{f}, base, typeArgs)
}

func declOf(files []*ast.File, name string) *ast.FuncDecl {
	for _, f := range files {
		if fd := findFunc(f, name); fd != nil {
			return fd
		}
	}
	return nil
}

// splitTypeArgs splits "add[float32, int]" into "add" and its arguments.
func splitTypeArgs(name string) (string, []string, error) {
	i := strings.IndexByte(name, '[')
	if i < 0 {
		return name, nil, nil
	}
	if !strings.HasSuffix(name, "]") {
		return "", nil, fmt.Errorf("kernel name %q: type arguments must close with ]", name)
	}
	var args []string
	for _, a := range strings.Split(name[i+1:len(name)-1], ",") {
		if a = strings.TrimSpace(a); a != "" {
			args = append(args, a)
		}
	}
	return name[:i], args, nil
}

// importPathGuess names a package loaded by directory; only positions and
// symbol names depend on it.
func importPathGuess(dir string, files []*ast.File) string {
	if len(files) > 0 && files[0].Name.Name == "main" {
		return "main"
	}
	return filepath.Base(dir)
}

const instantiateFunc = "nugo_instantiate__"

// buildKernel prunes, type-checks, vets and converts to SSA.
func buildKernel(pkgPath, dir string, files []*ast.File, name string, typeArgs []string) (*Kernel, error) {
	display := name
	if len(typeArgs) > 0 {
		display = name + "[" + strings.Join(typeArgs, ", ") + "]"
	}
	d := &diags{fset: fset}
	fd := declOf(files, name)
	if fd == nil {
		return nil, fmt.Errorf("kernel %s: no top-level function %s in package %s", display, name, pkgPath)
	}
	isGeneric := fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0
	if isGeneric && len(typeArgs) == 0 {
		return nil, fmt.Errorf("kernel %s is generic; give its type arguments, e.g. %s[float32]", name, name)
	}
	if !isGeneric && len(typeArgs) > 0 {
		return nil, fmt.Errorf("kernel %s is not generic but type arguments %v were given", name, typeArgs)
	}
	kept := prune(files, []string{name}, d)
	if len(typeArgs) > 0 {
		src := fmt.Sprintf("package %s\n\nfunc %s() any { return %s[%s] }\n", files[0].Name.Name, instantiateFunc, name, strings.Join(typeArgs, ", "))
		f, err := parser.ParseFile(fset, "nugo-instantiate.go", src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("kernel %s: bad type arguments: %w", display, err)
		}
		kept = append(kept, f)
	}
	if err := d.err(display); err != nil {
		return nil, err
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{
		Importer: stubs,
		Error: func(err error) {
			if te, ok := err.(types.Error); ok && !te.Soft {
				d.add(te.Pos, "%s", te.Msg)
			} else if ok {
				d.add(te.Pos, "%s", te.Msg)
			}
		},
		Sizes: types.SizesFor("gc", "amd64"),
	}
	tpkg, _ := conf.Check(pkgPath, fset, kept, info)
	if err := d.err(display); err != nil {
		return nil, err
	}
	vet(kept, info, tpkg, name, d)
	if err := d.err(display); err != nil {
		return nil, err
	}

	prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	for _, imp := range tpkg.Imports() {
		createStubPackage(prog, imp)
	}
	pkg := prog.CreatePackage(tpkg, kept, info, false)
	pkg.Build()

	k := &Kernel{Name: display, PkgPath: pkgPath, Dir: dir, Fset: fset, Prog: prog, Pkg: pkg, TypeArgs: typeArgs, src: source{kept, info}}
	if len(typeArgs) == 0 {
		k.Func = pkg.Func(name)
	} else {
		k.Func = findInstance(pkg.Func(instantiateFunc))
	}
	if k.Func == nil {
		return nil, fmt.Errorf("kernel %s: no SSA function built", display)
	}
	return k, nil
}

func createStubPackage(prog *ssa.Program, p *types.Package) {
	if prog.ImportedPackage(p.Path()) != nil {
		return
	}
	for _, imp := range p.Imports() {
		createStubPackage(prog, imp)
	}
	prog.CreatePackage(p, nil, nil, true)
}

// findInstance returns the generic instantiation the synthetic function returns.
func findInstance(fn *ssa.Function) *ssa.Function {
	if fn == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			for _, op := range instr.Operands(nil) {
				if f, ok := (*op).(*ssa.Function); ok && f.Origin() != nil {
					return f
				}
			}
		}
	}
	return nil
}
