package main

import (
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
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
	verbose := fs.Bool("v", false, "list every kernel checked, and the generic ones left unchecked")
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
Exit status 1 when a kernel does not compile.

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
	for _, dir := range dirs {
		if err := v.vetDir(dir); err != nil {
			return err
		}
	}
	fmt.Fprintf(v.out, "nugo vet: %s in %s checked for %s, %d failed\n",
		count(v.checked, "kernel", "kernels"), count(v.packages, "package", "packages"), *arch, v.failed)
	if v.failed > 0 {
		return fmt.Errorf("%s of %d do not compile for %s", count(v.failed, "kernel", "kernels"), v.checked, *arch)
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
}

// vetDir checks the kernels of the package in dir.
func (v *vetter) vetDir(dir string) error {
	kernels, err := findKernels(dir)
	if err != nil {
		return err
	}
	if len(kernels) == 0 {
		return nil
	}
	v.packages++
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

// describe writes a failed kernel's diagnostics one per line, each as
// file:line:col: kernel NAME: message.
func describe(name string, err error) string {
	var fe *frontend.Error
	if !errors.As(err, &fe) {
		return fmt.Sprintf("kernel %s: %v", name, err)
	}
	lines := make([]string, len(fe.Diags))
	for i, d := range fe.Diags {
		pos := "-"
		if d.Pos.IsValid() {
			pos = relative(d.Pos).String()
		}
		lines[i] = fmt.Sprintf("%s: kernel %s: %s", pos, name, d.Msg)
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

// findKernels lists the kernels of the package in dir: its non-test Go
// files for this GOOS and GOARCH, parsed without type checking.
func findKernels(dir string) ([]kernelDecl, error) {
	pkg, err := build.ImportDir(dir, 0)
	var noGo *build.NoGoError
	if errors.As(err, &noGo) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
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
	return kernels, nil
}

// importName is the name f refers to path by, "" if f does not import it
// (or imports it blank or with a dot).
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		if p, err := strconv.Unquote(im.Path.Value); err != nil || p != path {
			continue
		}
		if im.Name == nil {
			return "cuda"
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
