package frontend

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"io/fs"
	"sort"
	"strings"
	"sync"
)

// registered holds the packages whose source was registered in the process
// (RegisterPackage), parsed once.
var registered = struct {
	sync.Mutex
	pkgs map[string]*registeredPkg
}{pkgs: map[string]*registeredPkg{}}

type registeredPkg struct {
	text  map[string][]byte
	files []*ast.File
}

// RegisterPackage makes the Go source of the package with import path path
// available to kernels that call it (file name → Go text), ahead of any
// source on disk: a library package whose functions kernels call embeds
// its own source and registers it in an init func, so that a deployed
// binary compiles such kernels without a source tree. Kernels and bound
// functions declared in the package itself are loaded from the registered
// source too (those of its test files from disk). Files ending in
// _test.go are ignored. Registering the same path again with the same
// text is harmless; with different text it is an error, as is text that
// does not parse or whose files declare different packages.
func RegisterPackage(path string, files map[string][]byte) error {
	if path == "" || strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") || strings.Contains(path, "..") {
		return fmt.Errorf("register package %q: not an import path", path)
	}
	if Supported(path) {
		return fmt.Errorf("register package %s: nugo serves this package itself", path)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		if strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("register package %s: no Go files (names ending in .go)", path)
	}
	sort.Strings(names)
	text := make(map[string][]byte, len(names))
	for _, n := range names {
		text[n] = bytes.Clone(files[n])
	}

	registered.Lock()
	defer registered.Unlock()
	if prev, ok := registered.pkgs[path]; ok {
		if sameText(prev.text, text) {
			return nil
		}
		return fmt.Errorf("register package %s: registered before with different source", path)
	}
	var parsed []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, path+"/"+n, text[n], parser.ParseComments)
		if err != nil {
			return fmt.Errorf("register package %s: %w", path, err)
		}
		if len(parsed) > 0 && f.Name.Name != parsed[0].Name.Name {
			return fmt.Errorf("register package %s: file %s declares package %s, %s declares %s", path, n, f.Name.Name, names[0], parsed[0].Name.Name)
		}
		parsed = append(parsed, f)
	}
	registered.pkgs[path] = &registeredPkg{text: text, files: parsed}
	return nil
}

func sameText(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for n, t := range a {
		if u, ok := b[n]; !ok || !bytes.Equal(t, u) {
			return false
		}
	}
	return true
}

// registeredFiles returns the parsed files registered for path, or nil.
func registeredFiles(path string) []*ast.File {
	registered.Lock()
	defer registered.Unlock()
	if p := registered.pkgs[path]; p != nil {
		return p.files
	}
	return nil
}

// RegisterPackageFS registers the Go files at the root of fsys as the
// source of package path (see RegisterPackage); a library calls it from an
// init func with the embed.FS of its own files:
//
//	//go:embed *.go
//	var source embed.FS
//
//	func init() {
//		if err := frontend.RegisterPackageFS("github.com/nugo-dev/nugo/cuda/random", source); err != nil {
//			panic(err) // the embedded source is the package's own: a build error
//		}
//	}
func RegisterPackageFS(path string, fsys fs.FS) error {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return fmt.Errorf("register package %s: %w", path, err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return fmt.Errorf("register package %s: %w", path, err)
		}
		files[e.Name()] = b
	}
	return RegisterPackage(path, files)
}
