package frontend

import (
	"errors"
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// pkgSource is the source of a package that kernel code calls, found by
// the finder: every file the build would compile, before pruning.
type pkgSource struct {
	path  string
	dir   string // "" for registered source
	files []*ast.File
}

// finder looks up the source of imported packages, in the order the
// package documentation gives: registered source, the importing package's
// module (vendor/, the module's own tree, its replace directives), the
// binary's dependencies in the module cache, and NUGO_SOURCE_ROOT.
type finder struct {
	deps     []*debug.Module // the binary's dependencies (runtime/debug)
	mainPath string          // the binary's main module path (runtime/debug)
	modCache string          // module cache directory, "" if unknown
	srcRoot  string          // NUGO_SOURCE_ROOT
	// mainRoot is the root of the kernel's module, taken for the main
	// module's (a binary does not record that): local replacements resolve
	// against it, and its vendor/ and replace directives count.
	mainRoot string
}

// newFinder is a finder for the running binary, for a kernel whose package
// lives in dir ("" for source given as text).
func newFinder(dir string) *finder {
	deps, mainPath := buildDeps()
	f := &finder{deps: deps, mainPath: mainPath, modCache: moduleCache(), srcRoot: os.Getenv("NUGO_SOURCE_ROOT")}
	if dir != "" {
		if m, err := findGoMod(dir); err == nil && m != nil {
			f.mainRoot = m.root
		}
	}
	return f
}

// errStdlib marks an import of a standard-library package (other than those
// nugo serves), which kernels cannot call.
var errStdlib = errors.New("standard library package")

// notFoundError says where a package was looked for.
type notFoundError struct {
	path   string
	looked []string
}

func (e *notFoundError) Error() string {
	return fmt.Sprintf("package %s could not be loaded: its Go source was not found (looked in %s); nugo compiles kernels and the packages they call from source at run time, so keep the module where go.mod or the module cache says (build without -trimpath), vendor it, or set NUGO_SOURCE_ROOT to a directory DIR holding DIR/%s",
		e.path, strings.Join(e.looked, ", "), e.path)
}

// find returns the source of package path, imported by a package in
// fromDir ("" when the importer has no directory).
func (fd *finder) find(path, fromDir string) (*pkgSource, error) {
	files, err := registeredFiles(path)
	if err != nil {
		return nil, err
	}
	if files != nil {
		return &pkgSource{path: path, files: files}, nil
	}
	var looked []string
	try := func(dir string) (*pkgSource, error) {
		files, err := dirPackage(dir, recordedDir(path, dir))
		if err != nil {
			return nil, fmt.Errorf("package %s: %w", path, err)
		}
		if len(files) == 0 {
			looked = append(looked, dir)
			return nil, nil
		}
		return &pkgSource{path: path, dir: dir, files: files}, nil
	}
	inModule := false
	if fromDir != "" {
		mod, err := findGoMod(fromDir)
		if err != nil {
			return nil, fmt.Errorf("package %s: %w", path, err)
		}
		if mod != nil {
			_, inModule = within(path, mod.path)
			honorMain := mod.root == fd.mainRoot || (fd.mainPath != "" && mod.path == fd.mainPath)
			for _, dir := range mod.dirs(path, fd.modCache, honorMain) {
				if s, err := try(dir); s != nil || err != nil {
					return s, err
				}
			}
		}
	}
	if !inModule && isStdlib(path) {
		return nil, errStdlib
	}
	for _, dir := range depDirs(path, fd.deps, fd.modCache, fd.mainRoot) {
		if s, err := try(dir); s != nil || err != nil {
			return s, err
		}
	}
	if fd.srcRoot != "" {
		if s, err := try(filepath.Join(fd.srcRoot, filepath.FromSlash(path))); s != nil || err != nil {
			return s, err
		}
	} else {
		looked = append(looked, "NUGO_SOURCE_ROOT (not set)")
	}
	looked = append([]string{"registered packages"}, looked...)
	return nil, &notFoundError{path: path, looked: looked}
}

// isStdlib reports whether path names a standard-library package: its
// first element has no dot (module paths outside the standard library
// have one, or are found in the importer's module first).
func isStdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
