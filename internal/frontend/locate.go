package frontend

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
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

// findSource resolves the kernel's file on this machine. A binary built with
// -trimpath records module-relative names; NUGO_SOURCE_ROOT names the directory
// that holds them.
func findSource(info funcInfo) (string, error) {
	file := info.file
	if _, err := os.Stat(file); err == nil {
		return file, nil
	}
	looked := []string{file}
	if root := os.Getenv("NUGO_SOURCE_ROOT"); root != "" && !filepath.IsAbs(file) {
		alt := filepath.Join(root, file)
		if _, err := os.Stat(alt); err == nil {
			return alt, nil
		}
		looked = append(looked, alt)
	}
	return "", fmt.Errorf("kernel %s.%s: source file not found (looked for %s); nugo compiles kernels from their Go source at run time, so the source must be present where the binary runs: build without -trimpath and keep the module at that path, or set NUGO_SOURCE_ROOT to the directory holding it",
		info.pkgPath, info.name, strings.Join(looked, ", "))
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
	opened, _ := findSource(funcInfo{file: file})
	if opened == "" {
		return funcInfo{}, false
	}
	opened, _ = filepath.Abs(opened)
	recDir := recordedDirOf(file, opened)
	info.file = file
	f, err := parseCached(opened, recordedName(recDir, filepath.Base(opened)))
	if err != nil {
		return funcInfo{}, false
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
				if fd := declInPackage(opened, recDir, f, id.Name); fd != nil && fd.Type.TypeParams != nil {
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
