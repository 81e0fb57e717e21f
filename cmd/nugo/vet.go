package main

import (
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas"
)

func init() {
	commands["vet"] = command{summary: "check that every kernel of a package compiles for the GPU (without one)", run: runVet}
}

const cudaImportPath = "github.com/nugo-dev/nugo/cuda"

// runVet implements `nugo vet [-arch sm_75] [-debug] [-ptxas] [-v] [DIR ...]`.
func runVet(args []string) error { return vet(os.Stdout, args) }

// vet runs `nugo vet args`, writing its report to out.
func vet(out io.Writer, args []string) error {
	fs := flag.NewFlagSet("vet", flag.ContinueOnError)
	arch := fs.String("arch", "sm_75", "target GPU architecture (sm_75, sm_80, sm_90, ...)")
	debug := fs.Bool("debug", false, "compile with debug checks (cuda.Debug), as NUGO_DEBUG=1 runs kernels")
	assemble := fs.Bool("ptxas", false, "also assemble each kernel's PTX with ptxas (which must be on PATH)")
	verbose := fs.Bool("v", false, "list every kernel and function checked, and the generic kernels left unchecked")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: nugo vet [-arch sm_75] [-debug] [-ptxas] [-v] [DIR ...]

Compiles every kernel (a top-level function whose first parameter is a
cuda.Thread) of the Go package in each DIR (default: the current one;
DIR/... for every package below DIR) as the GPU backend would, and
reports what the GPU cannot run with file:line:col. The CPU backend runs
any Go code, so a kernel that works there may still use a map, an
interface or append: vet finds these before a GPU does. A generic kernel
is checked for each instantiation the package writes with predeclared
type arguments (scale[float32]); a kernel with func parameters is checked
as far as its own source goes (the functions are compiled at launch).
The package's functions that its code passes by name to vectorize
(New1..New4, GU) or to a launch (Launch, LaunchWith, ForAll, ForAllWith),
which the compiled backends compile into kernels, are compiled too.
Exit status 1 when a kernel or such a function does not compile.

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	sm, err := parseArch(*arch)
	if err != nil {
		return err
	}
	if *assemble && !ptxas.Available() {
		return errors.New("-ptxas: ptxas is not on PATH")
	}
	dirs, err := expandDirs(fs.Args())
	if err != nil {
		return err
	}
	v := vetter{target: compiler.Target{SM: sm, Debug: *debug}, arch: *arch, assemble: *assemble, verbose: *verbose, out: out}
	// A package that cannot be read (a syntax error) is reported and the
	// others are still checked (issue 21, item 16).
	var unread []string
	for _, dir := range dirs {
		if err := v.vetDir(dir); err != nil {
			fmt.Fprintf(v.out, "%s: %v\n", dir, err)
			unread = append(unread, dir)
		}
	}
	what := count(v.checked-v.funcs, "kernel", "kernels")
	if v.funcs > 0 {
		what += " and " + count(v.funcs, "function", "functions")
	}
	fmt.Fprintf(v.out, "nugo vet: %s in %s checked for %s, %d failed", what, count(v.packages, "package", "packages"), *arch, v.failed)
	if len(unread) > 0 {
		fmt.Fprintf(v.out, "; %s could not be read", count(len(unread), "package", "packages"))
	}
	fmt.Fprintln(v.out)
	var errs []string
	if v.failed > 0 {
		errs = append(errs, fmt.Sprintf("%d of %d kernels and functions do not compile for %s", v.failed, v.checked, *arch))
	}
	if len(unread) > 0 {
		errs = append(errs, fmt.Sprintf("%s could not be read: %s", count(len(unread), "package", "packages"), strings.Join(unread, ", ")))
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// parseArch reads sm_XX as XX, refusing what nugo cannot target.
func parseArch(arch string) (int, error) {
	digits, ok := strings.CutPrefix(arch, "sm_")
	sm, err := strconv.Atoi(digits)
	if !ok || err != nil || digits[0] == '+' || digits[0] == '-' {
		return 0, fmt.Errorf("-arch %q: want sm_XX, e.g. sm_75", arch)
	}
	if sm < 50 {
		return 0, fmt.Errorf("-arch %q: the PTX nugo writes targets sm_50 and later (sm_75, sm_80, sm_90, ...)", arch)
	}
	return sm, nil
}

// expandDirs turns the command line into package directories: "." when
// empty, and for DIR/... every directory below DIR that holds Go files
// (testdata, vendor and names starting with . or _ are skipped, as the go
// command does).
func expandDirs(args []string) ([]string, error) {
	if len(args) == 0 {
		return []string{"."}, nil
	}
	var dirs []string
	for _, a := range args {
		root, ok := strings.CutSuffix(a, "/...")
		if !ok {
			dirs = append(dirs, a)
			continue
		}
		if root == "" {
			root = "/"
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			name := d.Name()
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if matches, _ := filepath.Glob(filepath.Join(path, "*.go")); len(matches) > 0 {
				dirs = append(dirs, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, err)
		}
	}
	return dirs, nil
}

// vetter checks packages' kernels and counts what it found.
type vetter struct {
	target   compiler.Target
	arch     string
	assemble bool
	verbose  bool
	out      io.Writer

	packages, checked, failed int
	funcs                     int // of checked: functions passed to vectorize or bound at launches
}

// vetDir checks the kernels of the package in dir.
func (v *vetter) vetDir(dir string) error {
	kernels, bound, err := findKernels(dir)
	if err != nil {
		return err
	}
	if len(kernels)+len(bound) == 0 {
		return nil
	}
	v.packages++
	for _, b := range bound {
		v.checked++
		v.funcs++
		if err := v.vetFunc(dir, b.name); err != nil {
			v.failed++
			fmt.Fprintln(v.out, describeAs("function "+b.name+" (passed to "+b.via+")", err))
			continue
		}
		if v.verbose {
			fmt.Fprintf(v.out, "%s: function %s (passed to %s): ok\n", relative(b.pos), b.name, b.via)
		}
	}
	for _, k := range kernels {
		if k.generic && len(k.instances) == 0 {
			if v.verbose {
				fmt.Fprintf(v.out, "%s: %s: generic, not instantiated with predeclared types in its package: not checked\n", k.pos, k.name)
			}
			continue
		}
		names := []string{k.name}
		if k.generic {
			names = k.instances
		}
		for _, name := range names {
			v.checked++
			if err := v.vetKernel(dir, name, k.funcParams); err != nil {
				v.failed++
				fmt.Fprintln(v.out, describe(name, err))
				continue
			}
			if v.verbose {
				fmt.Fprintf(v.out, "%s: %s: ok\n", k.pos, name)
			}
		}
	}
	return nil
}

// vetKernel compiles one kernel (assembling it with -ptxas); a kernel
// with func parameters has its source checked only.
func (v *vetter) vetKernel(dir, name string, funcParams bool) error {
	k, err := frontend.LoadDir(dir, name)
	if err != nil || funcParams {
		return err
	}
	m, err := compiler.Compile(k, v.target)
	if err != nil || !v.assemble {
		return err
	}
	if _, err := ptxas.Assemble(m.PTX, v.arch, false); err != nil {
		return fmt.Errorf("ptxas rejects nugo's PTX for %s (a nugo bug; please report it): %w", name, err)
	}
	return nil
}

// vetFunc compiles a function passed to vectorize or bound at a launch as
// the compiled backends do: into a kernel that calls it through a func
// parameter. A function whose signature names types of its own package is
// checked as far as its source (the front end's checks) goes.
func (v *vetter) vetFunc(dir, name string) error {
	d, err := frontend.LoadDirDevice(dir, name)
	if err != nil {
		return err
	}
	src, ok := wrapperKernel(d.Func.Signature)
	if !ok {
		return nil
	}
	w, err := frontend.LoadSource("nugo-vet-wrapper.go", []byte(src), wrapperName)
	if err != nil {
		return fmt.Errorf("nugo vet's wrapper kernel (a nugo bug; please report it): %w", err)
	}
	m, err := compiler.CompileBound(w, v.target, map[int]*frontend.Kernel{0: d})
	if err != nil || !v.assemble {
		return err
	}
	if _, err := ptxas.Assemble(m.PTX, v.arch, false); err != nil {
		return fmt.Errorf("ptxas rejects nugo's PTX for %s (a nugo bug; please report it): %w", name, err)
	}
	return nil
}

const wrapperName = "nugoVetWrapper"

// wrapperKernel writes a kernel that takes a function of signature sig as
// its func parameter and calls it once: pointers are passed as the address
// of a slice's first element, results stored into slices. It reports false
// when a type of sig cannot be written outside its package.
func wrapperKernel(sig *types.Signature) (string, bool) {
	spellable := true
	qual := func(p *types.Package) string {
		if p.Path() == cudaImportPath {
			return "cuda"
		}
		spellable = false
		return p.Name()
	}
	var params, args, results []string
	params = append(params, "t cuda.Thread", "f "+types.TypeString(types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic()), qual))
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		if ptr, ok := t.(*types.Pointer); ok {
			params = append(params, fmt.Sprintf("p%d []%s", i, types.TypeString(ptr.Elem(), qual)))
			args = append(args, fmt.Sprintf("&p%d[0]", i))
			continue
		}
		params = append(params, fmt.Sprintf("p%d %s", i, types.TypeString(t, qual)))
		args = append(args, fmt.Sprintf("p%d", i))
	}
	for i := range sig.Results().Len() {
		params = append(params, fmt.Sprintf("r%d []%s", i, types.TypeString(sig.Results().At(i).Type(), qual)))
		results = append(results, fmt.Sprintf("r%d[0]", i))
	}
	call := "f(" + strings.Join(args, ", ") + ")"
	if len(results) > 0 {
		call = strings.Join(results, ", ") + " = " + call
	}
	src := fmt.Sprintf("package nugovet\n\nimport %q\n\nfunc %s(%s) {\n\t%s\n}\n", cudaImportPath, wrapperName, strings.Join(params, ", "), call)
	return src, spellable
}

// describe writes a failed kernel's diagnostics one per line, each as
// file:line:col: kernel NAME: message.
func describe(name string, err error) string {
	return describeAs("kernel "+name, err)
}

// describeAs writes a failure's diagnostics one per line, each as
// file:line:col: WHAT: message.
func describeAs(what string, err error) string {
	var fe *frontend.Error
	if !errors.As(err, &fe) {
		return fmt.Sprintf("%s: %v", what, err)
	}
	lines := make([]string, len(fe.Diags))
	for i, d := range fe.Diags {
		pos := "-"
		if d.Pos.IsValid() {
			pos = relative(d.Pos).String()
		}
		lines[i] = fmt.Sprintf("%s: %s: %s", pos, what, d.Msg)
	}
	return strings.Join(lines, "\n")
}

// kernelDecl is a kernel found in a package's source.
type kernelDecl struct {
	name       string
	pos        token.Position
	generic    bool
	instances  []string // for a generic kernel: "name[float32]" as written in the package
	funcParams bool     // it takes a parameter of func type
}

// boundFunc is a top-level function of the package that its code passes to
// vectorize (New1..New4, GU) or binds to a kernel's func parameter at a
// launch (Launch, LaunchWith, ForAll, ForAllWith): the compiled backends
// compile it into a kernel.
type boundFunc struct {
	name string // with type arguments for an instantiation: "add[float32]"
	via  string // what it is passed to: "vectorize.New2", "Launch"
	pos  token.Position
}

// binders are the calls whose function arguments are compiled into
// kernels on the compiled backends: vectorize's constructors (by the name
// the file imports vectorize with) and the launch methods.
var (
	vectorizeBinders = map[string]bool{"New1": true, "New2": true, "New3": true, "New4": true, "GU": true}
	launchBinders    = map[string]bool{"Launch": true, "LaunchWith": true, "ForAll": true, "ForAllWith": true}
)

const vectorizeImportPath = "github.com/nugo-dev/nugo/vectorize"

// findBound lists the package's top-level functions, other than kernels,
// that files pass to vectorize or to a launch, in source order, once each.
func findBound(fset *token.FileSet, files []*ast.File, kernels map[string]bool) []boundFunc {
	decls := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && !kernels[fd.Name.Name] {
				decls[fd.Name.Name] = true
			}
		}
	}
	var out []boundFunc
	seen := map[string]bool{}
	for _, f := range files {
		vec := importName(f, vectorizeImportPath)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fun := call.Fun
			if ix, ok := fun.(*ast.IndexListExpr); ok {
				fun = ix.X
			} else if ix, ok := fun.(*ast.IndexExpr); ok {
				fun = ix.X
			}
			sel, ok := fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			via := ""
			if x, isIdent := sel.X.(*ast.Ident); isIdent && vec != "" && x.Name == vec && vectorizeBinders[sel.Sel.Name] {
				via = "vectorize." + sel.Sel.Name
			} else if launchBinders[sel.Sel.Name] {
				via = sel.Sel.Name
			}
			if via == "" {
				return true
			}
			for _, a := range call.Args {
				name := ""
				if id, isIdent := a.(*ast.Ident); isIdent {
					name = id.Name
				} else if base, targs := instantiation(a); base != "" {
					name = base + "[" + strings.Join(targs, ", ") + "]"
				}
				base, _, _ := strings.Cut(name, "[")
				if name == "" || !decls[base] || seen[name] {
					continue
				}
				seen[name] = true
				out = append(out, boundFunc{name: name, via: via, pos: fset.Position(a.Pos())})
			}
			return true
		})
	}
	return out
}

// findKernels lists the kernels of the package in dir, and the functions
// it passes to vectorize or binds at launches: its non-test Go files for
// this GOOS and GOARCH, parsed without type checking.
func findKernels(dir string) ([]kernelDecl, []boundFunc, error) {
	pkg, err := build.ImportDir(dir, 0)
	var noGo *build.NoGoError
	if errors.As(err, &noGo) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	var kernels []kernelDecl
	index := map[string]int{}
	for _, f := range files {
		cudaName := importName(f, cudaImportPath)
		if cudaName == "" {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Name.Name == "_" || !takesThread(fd, cudaName) {
				continue
			}
			index[fd.Name.Name] = len(kernels)
			kernels = append(kernels, kernelDecl{
				name:       fd.Name.Name,
				pos:        fset.Position(fd.Name.Pos()),
				generic:    fd.Type.TypeParams != nil && fd.Type.TypeParams.NumFields() > 0,
				funcParams: hasFuncParam(fd),
			})
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			name, args := instantiation(n)
			i, ok := index[name]
			if !ok || !kernels[i].generic || len(args) == 0 {
				return true
			}
			inst := name + "[" + strings.Join(args, ", ") + "]"
			for _, have := range kernels[i].instances {
				if have == inst {
					return true
				}
			}
			kernels[i].instances = append(kernels[i].instances, inst)
			return true
		})
	}
	names := map[string]bool{}
	for _, k := range kernels {
		names[k.name] = true
	}
	return kernels, findBound(fset, files, names), nil
}

// importName is the name f refers to path by, "" if f does not import it
// (or imports it blank or with a dot).
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		if p, err := strconv.Unquote(im.Path.Value); err != nil || p != path {
			continue
		}
		if im.Name == nil {
			return path[strings.LastIndex(path, "/")+1:]
		}
		if im.Name.Name == "_" || im.Name.Name == "." {
			return ""
		}
		return im.Name.Name
	}
	return ""
}

// takesThread reports whether fd's first parameter is a cuda.Thread.
func takesThread(fd *ast.FuncDecl, cudaName string) bool {
	ps := fd.Type.Params.List
	if len(ps) == 0 {
		return false
	}
	sel, ok := ps[0].Type.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Thread" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == cudaName
}

// hasFuncParam reports whether fd takes a parameter of func type.
func hasFuncParam(fd *ast.FuncDecl) bool {
	for _, p := range fd.Type.Params.List {
		if _, ok := p.Type.(*ast.FuncType); ok {
			return true
		}
	}
	return false
}

// instantiation returns the function name and type arguments of n when n
// is name[T] or name[T1, T2] with every T a predeclared type name; "" when
// it is not.
func instantiation(n ast.Node) (string, []string) {
	var x ast.Expr
	var indices []ast.Expr
	switch e := n.(type) {
	case *ast.IndexExpr:
		x, indices = e.X, []ast.Expr{e.Index}
	case *ast.IndexListExpr:
		x, indices = e.X, e.Indices
	default:
		return "", nil
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return "", nil
	}
	args := make([]string, len(indices))
	for i, ix := range indices {
		a, ok := ix.(*ast.Ident)
		if !ok || !predeclaredType[a.Name] {
			return "", nil
		}
		args[i] = a.Name
	}
	return id.Name, args
}

// predeclaredType holds the predeclared type names a kernel may be
// instantiated with.
var predeclaredType = map[string]bool{
	"bool": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "byte": true, "rune": true,
}

// relative writes pos's file relative to the working directory when it
// lies below it, as the go command does.
func relative(pos token.Position) token.Position {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, pos.Filename); err == nil && !strings.HasPrefix(rel, "..") {
			pos.Filename = rel
		}
	}
	return pos
}
