package frontend

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"runtime"
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
	Prog     *ssa.Program   // the whole program: the kernel's package, the packages it calls, stubs
	Pkg      *ssa.Package   // the kernel's package
	Func     *ssa.Function  // the kernel; an instantiation when generic
	TypeArgs []string       // type arguments as written in Go, for generic kernels

	srcs []source // kept files and their types: the kernel's package first, then the packages it calls

	devmathErr error
}

// LoadFunc loads the kernel whose func value is fn. For a generic kernel the
// type arguments are inferred from the func value's type; a generic kernel
// instantiated inside generic code (k[T] used as a value there, which the
// Go compiler wraps in a closure) is found at the instantiation's line.
//
// A func value made by reflect.MakeFunc is loaded from the source
// registered for its type with RegisterSource.
func LoadFunc(fn any) (*Kernel, error) {
	if g, ok, err := generatedFor(fn); ok {
		if err != nil {
			return nil, err
		}
		return loadGenerated(g, reflect.TypeOf(fn))
	}
	info, err := locate(fn)
	if err != nil {
		var ok bool
		if info, ok = locateInstance(fn); !ok {
			return nil, err
		}
	}
	return loadFound(info, reflect.TypeOf(fn), false)
}

// loadFound loads the function that locate found, of func type rt.
func loadFound(info funcInfo, rt reflect.Type, device bool) (*Kernel, error) {
	what := "kernel"
	if device {
		what = "function"
	}
	var files []*ast.File
	dir, file := "", info.pkgPath
	reg, err := registeredFiles(info.pkgPath)
	if err != nil {
		return nil, fmt.Errorf("%s %s.%s: %w", what, info.pkgPath, info.name, err)
	}
	if declOf(reg, info.name) != nil {
		// The package registered its source (nugo gen's embedded files, or
		// a library's): that is the text this binary was built from,
		// wherever it runs.
		files = reg
	} else {
		var err error
		if file, err = findSource(info); err != nil {
			if reg != nil {
				return nil, fmt.Errorf("%s %s.%s is not among the files this binary carries for its package (%s), and %w; the package's nugo_source.go is older than its source: run go generate in its directory and rebuild",
					what, info.pkgPath, info.name, strings.Join(registeredFileNames(reg), ", "), err)
			}
			return nil, err
		}
		file, _ = filepath.Abs(file)
		dir = filepath.Dir(file)
		if files, err = packageFiles(dir, recordedDirOf(info.file, file), file, info.name); err != nil {
			return nil, fmt.Errorf("%s %s.%s: %w", what, info.pkgPath, info.name, err)
		}
	}
	var typeArgs []string
	imports := typeArgImports{}
	if info.generic {
		fd := declOf(files, info.name)
		if fd == nil {
			return nil, fmt.Errorf("%s %s.%s: no such function in %s", what, info.pkgPath, info.name, file)
		}
		var err error
		typeArgs, err = inferTypeArgs(fd, rt, info.pkgPath, imports)
		if err != nil {
			return nil, fmt.Errorf("%s %s.%s: %w", what, info.pkgPath, info.name, err)
		}
	}
	return load(info.pkgPath, dir, files, info.name, typeArgs, imports, device)
}

// LoadDevice loads the function whose func value is fn as a device
// function: the function a launch binds to a kernel's func-typed parameter,
// which the compiler calls directly (see compiler.CompileBound). It must be
// a top-level function (not a closure or a method value) whose parameters
// are numbers, bools, slices of or pointers to numbers, cuda.Array2 or
// cuda.Array3, and whose results are numbers or bools; its package may differ from the
// kernel's, and may be one that kernels call as intrinsics (math.Sqrt). A
// generic function's type arguments are inferred from the func value's
// type. The result's Func is the function; it is not a kernel.
func LoadDevice(fn any) (*Kernel, error) {
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func || v.IsNil() {
		return nil, fmt.Errorf("device function must be a non-nil func value, got %T", fn)
	}
	rf := runtime.FuncForPC(v.Pointer())
	if rf == nil {
		return nil, fmt.Errorf("device function %T: the runtime has no information about this func value", fn)
	}
	info, err := splitFuncName(rf.Name())
	if err != nil {
		var ok bool
		if info, ok = locateInstance(fn); !ok {
			return nil, closureError(rf)
		}
	} else {
		info.file, _ = rf.FileLine(rf.Entry())
	}
	if _, stub := stubFiles[info.pkgPath]; stub && !info.generic && info.pkgPath != CudaPath {
		return loadStubFunc(info, v.Type())
	}
	return loadFound(info, v.Type(), true)
}

// loadStubFunc loads a function of a package that kernels call as
// intrinsics (math.Sqrt, math32.Exp, bits.OnesCount64): its Go source is
// not kernel code, so the device function is a wrapper that calls it,
// which the compiler lowers as in any kernel.
func loadStubFunc(info funcInfo, t reflect.Type) (*Kernel, error) {
	var params, args, results []string
	for i := range t.NumIn() {
		params = append(params, fmt.Sprintf("p%d %s", i, t.In(i)))
		args = append(args, fmt.Sprintf("p%d", i))
	}
	for i := range t.NumOut() {
		results = append(results, t.Out(i).String())
	}
	body := "return "
	if len(results) == 0 {
		body = ""
	}
	pkgName := info.pkgPath[strings.LastIndex(info.pkgPath, "/")+1:]
	src := fmt.Sprintf("package nugo_bound\n\nimport %q\n\nfunc %s(%s) (%s) {\n\t%s%s.%s(%s)\n}\n",
		info.pkgPath, info.name, strings.Join(params, ", "), strings.Join(results, ", "), body, pkgName, info.name, strings.Join(args, ", "))
	f, err := parser.ParseFile(fset, "nugo-bound-"+pkgName+"."+info.name+".go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("function %s.%s: %w", info.pkgPath, info.name, err)
	}
	k, err := load("nugo_bound", "", []*ast.File{f}, info.name, nil, nil, true)
	if err != nil {
		return nil, err
	}
	k.Name = pkgName + "." + info.name
	return k, nil
}

// closureError refuses a closure or method value bound to a func parameter,
// at the closure's position when the runtime knows it.
func closureError(rf *runtime.Func) error {
	name := rf.Name()
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	file, line := rf.FileLine(rf.Entry())
	d := Diagnostic{Msg: fmt.Sprintf("%s is a closure or a method value; pass a top-level function, not a closure: the GPU compiler calls the function bound to a func parameter directly, so it must be declared with func at package level (it may be generic)", name)}
	if file != "" && !strings.HasPrefix(file, "<") {
		d.Pos = token.Position{Filename: file, Line: line, Column: 1}
	}
	return &Error{Kernel: name, Diags: []Diagnostic{d}}
}

// LoadDir loads kernel name from the Go package in dir. For a generic kernel,
// name carries its type arguments: "add[float32]".
func LoadDir(dir, name string) (*Kernel, error) {
	base, typeArgs, err := splitTypeArgs(name)
	if err != nil {
		return nil, err
	}
	dir, _ = filepath.Abs(dir)
	files, err := packageFiles(dir, dir, "", base)
	if err != nil {
		return nil, err
	}
	return buildKernel(importPathGuess(dir, files), dir, files, base, typeArgs)
}

// LoadDirDevice loads function name of the Go package in dir as a device
// function bound to a kernel's func parameter (see LoadDevice): what nugo
// vet checks of the functions a package passes to vectorize or to a
// launch. A generic function's name carries its type arguments.
func LoadDirDevice(dir, name string) (*Kernel, error) {
	base, typeArgs, err := splitTypeArgs(name)
	if err != nil {
		return nil, err
	}
	dir, _ = filepath.Abs(dir)
	files, err := packageFiles(dir, dir, "", base)
	if err != nil {
		return nil, err
	}
	return load(importPathGuess(dir, files), dir, files, base, typeArgs, nil, true)
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
	return load(pkgPath, dir, files, name, typeArgs, nil, false)
}

// load loads a kernel, or with device set a device function bound to a
// kernel's func parameter.
//
// A generic kernel is instantiated by a function of an extra file, which
// imports the packages of type arguments from other packages (imports).
func load(pkgPath, dir string, files []*ast.File, name string, typeArgs []string, imports typeArgImports, device bool) (*Kernel, error) {
	what := "kernel"
	if device {
		what = "function"
	}
	display := name
	if len(typeArgs) > 0 {
		display = imports.display(name + "[" + strings.Join(typeArgs, ", ") + "]")
	}
	d := &diags{fset: fset}
	fd := declOf(files, name)
	if fd == nil {
		return nil, fmt.Errorf("%s %s: no top-level function %s in package %s", what, display, name, pkgPath)
	}
	isGeneric := fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0
	if isGeneric && len(typeArgs) == 0 {
		return nil, fmt.Errorf("%s %s is generic; give its type arguments, e.g. %s[float32]", what, name, name)
	}
	if !isGeneric && len(typeArgs) > 0 {
		return nil, fmt.Errorf("%s %s is not generic but type arguments %v were given", what, name, typeArgs)
	}
	if len(typeArgs) > 0 {
		var imps strings.Builder
		for _, n := range imports.names() {
			fmt.Fprintf(&imps, "import %s %q\n", n, imports[n])
		}
		src := fmt.Sprintf("package %s\n\n%s\nfunc %s() any { return %s[%s] }\n", files[0].Name.Name, imps.String(), instantiateFunc, name, strings.Join(typeArgs, ", "))
		f, err := parser.ParseFile(fset, "nugo-instantiate.go", src, 0)
		if err != nil {
			return nil, fmt.Errorf("%s %s: bad type arguments: %w", what, display, err)
		}
		files = append(files[:len(files):len(files)], f)
	}
	l := newLoader(pkgPath, dir, files)
	roots := []string{name}
	if len(typeArgs) > 0 {
		roots = append(roots, instantiateFunc)
	}
	l.prune(roots...)
	d = l.d
	if err := d.err(display); err != nil {
		return nil, err
	}
	l.main.tpkg, l.main.info = l.check(l.main)
	if err := d.err(display); err != nil {
		return nil, err
	}
	srcs := l.sources()
	for _, p := range l.checked() {
		kernel := ""
		if p == l.main && !device {
			kernel = name
		}
		vet(p.kept, p.info, kernel, srcs, d)
	}
	if err := d.err(display); err != nil {
		return nil, err
	}

	prog, pkg := l.buildSSA()
	var all []source
	for _, p := range l.checked() {
		all = append(all, srcs[p.tpkg])
	}

	k := &Kernel{Name: display, PkgPath: pkgPath, Dir: dir, Fset: fset, Prog: prog, Pkg: pkg, TypeArgs: imports.displayAll(typeArgs), srcs: all}
	if len(typeArgs) == 0 {
		k.Func = pkg.Func(name)
	} else {
		k.Func = findInstance(pkg.Func(instantiateFunc))
	}
	if k.Func == nil {
		return nil, fmt.Errorf("%s %s: no SSA function built", what, display)
	}
	if device {
		if err := checkDeviceSignature(k.Func, fd, display); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// checkDeviceSignature requires of a function bound to a kernel's func
// parameter numbers, bools, slices of numbers, pointers to numbers,
// cuda.Array2 and cuda.Array3 in,
// and numbers and bools out.
func checkDeviceSignature(fn *ssa.Function, fd *ast.FuncDecl, display string) error {
	sig := fn.Signature
	if !sig.Variadic() && funcOperandsOK(sig) {
		return nil
	}
	return &Error{Kernel: display, Diags: []Diagnostic{{Pos: fset.Position(fd.Type.Pos()),
		Msg: fmt.Sprintf("function %s is bound to a kernel's func parameter, so its parameters must be numbers, bools, slices of numbers, pointers to numbers, cuda.Array2 or cuda.Array3, and its results numbers or bools; it has type %s", display, sig)}}}
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
