package frontend

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// funcInfo is what the runtime knows about a kernel's func value.
type funcInfo struct {
	pkgPath string // import path of the kernel's package
	name    string // function name without type arguments
	generic bool   // the runtime name carries "[...]"
	file    string // source file of the declaration
}

// locate finds a func value's package, name and source file.
func locate(fn any) (funcInfo, error) {
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func {
		return funcInfo{}, fmt.Errorf("kernel must be a func value, got %T", fn)
	}
	if v.IsNil() {
		return funcInfo{}, fmt.Errorf("kernel is a nil func")
	}
	rf := runtime.FuncForPC(v.Pointer())
	if rf == nil {
		return funcInfo{}, fmt.Errorf("kernel %T: the runtime has no information about this func value", fn)
	}
	full := rf.Name()
	file, _ := rf.FileLine(rf.Entry())
	info, err := splitFuncName(full)
	if err != nil {
		return funcInfo{}, err
	}
	info.file = file
	return info, nil
}

// splitFuncName splits a runtime function name such as
// "github.com/x/p.kernel" or "github.com/x/p.add[...]".
func splitFuncName(full string) (funcInfo, error) {
	var info funcInfo
	name := full
	if i := strings.Index(name, "[...]"); i >= 0 {
		info.generic = true
		name = name[:i] + name[i+len("[...]"):]
	}
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return info, fmt.Errorf("kernel %s: cannot split the runtime name into package and function", full)
	}
	info.pkgPath = name[:slash+1+dot]
	info.name = name[slash+1+dot+1:]
	if strings.Contains(info.name, ".") || info.name == "" {
		return info, fmt.Errorf("kernel %s: a kernel must be a top-level function of its package, not a closure or a method value; declare it with func at package level", full)
	}
	return info, nil
}

// findSource resolves the kernel's file on this machine when the binary
// does not carry its package's source (see RegisterEmbedded), trying in
// order: the recorded name itself (a build without -trimpath, run where it
// was built); the main module's tree, found upward from the working
// directory; the module cache at the version the binary was built with;
// and NUGO_SOURCE_ROOT, under which the file may sit at its recorded
// name (-trimpath's "module/dir/file.go" or "module@version/dir/file.go"),
// at its import path ("DIR/example.com/m/p/file.go", also for an absolute
// recorded name) or in the module cache's layout.
func findSource(info funcInfo) (string, error) {
	file := info.file
	if _, err := os.Stat(file); err == nil {
		return file, nil
	}
	looked := []string{file}
	try := func(path string) bool {
		if path == "" || slices.Contains(looked, path) {
			return false
		}
		if _, err := os.Stat(path); err == nil {
			return true
		}
		looked = append(looked, path)
		return false
	}
	base := filepath.Base(file)
	// An external test package (p_test) lives in its package's directory.
	pkgPath := strings.TrimSuffix(info.pkgPath, "_test")
	mod, version, rel := moduleOf(pkgPath)
	if mod != "" {
		if root := mainModuleRoot(mod); root != "" && version == "" {
			if p := filepath.Join(root, filepath.FromSlash(rel), base); try(p) {
				return p, nil
			}
		}
		if cache := moduleCache(); cache != "" && version != "" {
			if p := filepath.Join(modCacheDir(cache, mod, version, rel), base); try(p) {
				return p, nil
			}
		}
	}
	root := os.Getenv("NUGO_SOURCE_ROOT")
	if root != "" {
		var candidates []string
		if !filepath.IsAbs(file) {
			candidates = append(candidates, filepath.Join(root, filepath.FromSlash(file)))
			if at := strings.Index(file, "@"); at >= 0 {
				// module@version/dir/file.go kept as module/dir/file.go
				if slash := strings.Index(file[at:], "/"); slash >= 0 {
					candidates = append(candidates, filepath.Join(root, filepath.FromSlash(file[:at]+file[at+slash:])))
				}
			}
		}
		if pkgPath != "" && pkgPath != "main" {
			candidates = append(candidates, filepath.Join(root, filepath.FromSlash(pkgPath), base))
			if mod != "" && version != "" {
				candidates = append(candidates, filepath.Join(modCacheDir(root, mod, version, rel), base))
			}
		}
		for _, p := range candidates {
			if try(p) {
				return p, nil
			}
		}
	} else {
		looked = append(looked, "NUGO_SOURCE_ROOT (not set)")
	}
	name := info.pkgPath + "." + info.name
	if info.name == "" {
		name = info.pkgPath
	}
	fix := "run go generate in its package's directory (nugo gen's " + sourceFileName + " makes the binary carry its source) and rebuild"
	if pkgPath != "" && pkgPath != "main" {
		fix += fmt.Sprintf(", or set NUGO_SOURCE_ROOT to a directory DIR holding DIR/%s/%s", pkgPath, base)
	} else {
		fix += ", or set NUGO_SOURCE_ROOT to a directory DIR holding DIR/" + filepath.ToSlash(file)
	}
	return "", fmt.Errorf("kernel %s: its Go source was not found (looked for %s), and the binary does not carry it; nugo compiles kernels from their Go source at run time: %s",
		name, strings.Join(looked, ", "), fix)
}

// sourceFileName is the file nugo gen writes to make a binary carry its
// package's source.
const sourceFileName = "nugo_source.go"

// moduleOf finds the module of package pkgPath among the binary's: its
// path, its version ("" for the main module or a local replacement) and
// the package's directory inside it.
func moduleOf(pkgPath string) (mod, version, rel string) {
	deps, mainPath := buildDeps()
	best := ""
	var bestDep *debug.Module
	for _, d := range deps {
		if d == nil {
			continue
		}
		if _, ok := within(pkgPath, d.Path); ok && len(d.Path) > len(best) {
			best, bestDep = d.Path, d
		}
	}
	if mainPath != "" {
		if _, ok := within(pkgPath, mainPath); ok && len(mainPath) > len(best) {
			best, bestDep = mainPath, nil
		}
	}
	if best == "" {
		return "", "", ""
	}
	rel, _ = within(pkgPath, best)
	if bestDep != nil {
		version = bestDep.Version
		if r := bestDep.Replace; r != nil {
			version = r.Version
		}
		if version == "(devel)" {
			version = ""
		}
	}
	return best, version, rel
}

// mainModuleRoot finds the directory of module mod's go.mod upward from
// the working directory ("" when the process does not run inside it).
func mainModuleRoot(mod string) string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	m, err := findGoMod(wd)
	if err != nil || m == nil || m.path != mod {
		return ""
	}
	return m.root
}

// locateInstance finds the generic function behind a func value that the Go
// compiler made for an instantiation inside generic code: k[T, U] used as a
// value in a generic function or method becomes a closure that binds the
// type arguments' dictionary, named after the enclosing function
// ("p.(*Ufunc2[...]).launch.func1") and placed at the instantiation's
// line. It succeeds when that line holds no function literal and exactly
// one instantiation, not called, of a generic top-level function of the
// same package.
func locateInstance(fn any) (funcInfo, bool) {
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func || v.IsNil() {
		return funcInfo{}, false
	}
	rf := runtime.FuncForPC(v.Pointer())
	if rf == nil {
		return funcInfo{}, false
	}
	full := strings.ReplaceAll(rf.Name(), "[...]", "")
	slash := strings.LastIndex(full, "/")
	dot := strings.Index(full[slash+1:], ".")
	if dot < 0 {
		return funcInfo{}, false
	}
	info := funcInfo{pkgPath: full[:slash+1+dot], generic: true}
	file, line := rf.FileLine(rf.Entry())
	info.file = file
	// The file holding the instantiation: from the package's registered
	// source, else from disk.
	var f *ast.File
	var declIn func(name string) *ast.FuncDecl
	if reg, err := registeredFiles(info.pkgPath); err == nil && reg != nil {
		for _, rf := range reg {
			if filepath.Base(fset.Position(rf.Package).Filename) == filepath.Base(file) {
				f = rf
			}
		}
		declIn = func(name string) *ast.FuncDecl { return declOf(reg, name) }
	}
	if f == nil {
		opened, _ := findSource(funcInfo{file: file, pkgPath: info.pkgPath})
		if opened == "" {
			return funcInfo{}, false
		}
		opened, _ = filepath.Abs(opened)
		recDir := recordedDirOf(file, opened)
		var err error
		if f, err = parseCached(opened, recordedName(recDir, filepath.Base(opened))); err != nil {
			return funcInfo{}, false
		}
		declIn = func(name string) *ast.FuncDecl { return declInPackage(opened, recDir, f, name) }
	}
	called := map[ast.Node]bool{}
	names := map[string]bool{}
	literal := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			literal = literal || fset.Position(n.Pos()).Line == line
		case *ast.CallExpr:
			called[ast.Unparen(n.Fun)] = true
		case *ast.IndexExpr, *ast.IndexListExpr:
			x, _ := typeparamsX(n)
			if id, ok := x.(*ast.Ident); ok && !called[n] && fset.Position(n.Pos()).Line == line {
				if fd := declIn(id.Name); fd != nil && fd.Type.TypeParams != nil {
					names[id.Name] = true
				}
			}
		}
		return true
	})
	if literal || len(names) != 1 {
		return funcInfo{}, false
	}
	for n := range names {
		info.name = n
	}
	return info, true
}

// typeparamsX is the instantiated expression of an index expression.
func typeparamsX(n ast.Node) (ast.Expr, bool) {
	switch n := n.(type) {
	case *ast.IndexExpr:
		return n.X, true
	case *ast.IndexListExpr:
		return n.X, true
	}
	return nil, false
}

// declInPackage finds a top-level function of file f's package.
func declInPackage(path, recDir string, f *ast.File, name string) *ast.FuncDecl {
	if fd := findFunc(f, name); fd != nil {
		return fd
	}
	files, err := packageFiles(filepath.Dir(path), recDir, path, name)
	if err != nil {
		return nil
	}
	return declOf(files, name)
}

// InstanceName returns the name of the generic function behind a func
// value that the Go compiler made for an instantiation inside generic code
// (see LoadFunc), without package path or type arguments, and whether fn
// is such a value. The runtime names these values as closures of the
// enclosing function, which would be a misleading name for a kernel.
//
// For a func value made by reflect.MakeFunc whose type has a registered
// source (RegisterSource), it returns the registered kernel's name.
func InstanceName(fn any) (string, bool) {
	if g, ok, err := generatedFor(fn); ok && err == nil {
		return g.name, true
	}
	if _, err := locate(fn); err == nil {
		return "", false
	}
	info, ok := locateInstance(fn)
	return info.name, ok
}
