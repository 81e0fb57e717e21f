package frontend

import (
	"fmt"
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
