package frontend

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// parsedFile is one parsed source file and the file state it was parsed from.
type parsedFile struct {
	path  string
	ident fileIdent
	ast   *ast.File
}

// fileIdent is the state of a file that caches revalidate against: a file
// whose size or modification time changed is read again.
type fileIdent struct {
	modTime int64 // nanoseconds since the epoch
	size    int64
}

func identOf(st os.FileInfo) fileIdent {
	return fileIdent{modTime: st.ModTime().UnixNano(), size: st.Size()}
}

// parseCache keeps parsed files so that a second kernel of the same package
// (or a second instantiation) does not parse again. Entries are revalidated
// against the file's size and modification time.
var parseCache = struct {
	sync.Mutex
	files map[parseKey]*parsedFile
}{files: map[parseKey]*parsedFile{}}

// parseKey names a file read from path and positioned under name.
type parseKey struct{ path, name string }

// parseCached parses the file at path with positions under name, the file
// name the binary records for it (see recordedDir), so that a kernel's
// failure reads the same on every backend.
func parseCached(path, name string) (*ast.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	key := parseKey{path, name}
	parseCache.Lock()
	pf := parseCache.files[key]
	parseCache.Unlock()
	if pf != nil && pf.ident == identOf(st) {
		return pf.ast, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	parseCache.Lock()
	parseCache.files[key] = &parsedFile{path: path, ident: identOf(st), ast: f}
	parseCache.Unlock()
	return f, nil
}

// packageFiles parses the files of dir that belong to the same package as
// the file named want (or, when want is "", the package declaring funcName,
// preferring non-test files), positioned under recDir, the directory the
// binary records for them.
func packageFiles(dir, recDir, want, funcName string) ([]*ast.File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read kernel package directory: %w", err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	type group struct {
		files []*ast.File
		test  bool
	}
	groups := map[string]*group{} // key: package name + test flag
	var order []string
	var wantKey string
	for _, n := range names {
		path := filepath.Join(dir, n)
		isTest := strings.HasSuffix(n, "_test.go")
		if path != want {
			if ok, err := build.Default.MatchFile(dir, n); err != nil || !ok {
				continue
			}
		}
		f, err := parseCached(path, recordedName(recDir, n))
		if err != nil {
			if path == want {
				return nil, err
			}
			continue // a broken unrelated file must not stop the kernel
		}
		key := f.Name.Name
		if isTest {
			key += " test"
		}
		g := groups[key]
		if g == nil {
			g = &group{test: isTest}
			groups[key] = g
			order = append(order, key)
		}
		g.files = append(g.files, f)
		if path == want {
			wantKey = key
		}
	}
	if want != "" {
		if wantKey == "" {
			return nil, fmt.Errorf("kernel source %s is not a Go file of package directory %s", want, dir)
		}
		g := groups[wantKey]
		files := g.files
		if g.test {
			// In-package test files see the package's other files too.
			if base := groups[strings.TrimSuffix(wantKey, " test")]; base != nil {
				files = append(append([]*ast.File(nil), base.files...), files...)
			}
		}
		return files, nil
	}
	// By name: the first non-test group declaring it, then test groups.
	for _, pass := range []bool{false, true} {
		for _, key := range order {
			g := groups[key]
			if g.test != pass {
				continue
			}
			for _, f := range g.files {
				if findFunc(f, funcName) != nil {
					files := g.files
					if g.test {
						if base := groups[strings.TrimSuffix(key, " test")]; base != nil {
							files = append(append([]*ast.File(nil), base.files...), files...)
						}
					}
					return files, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("no function %s in the Go files of %s", funcName, dir)
}

// findFunc returns the top-level function (not method) named name.
func findFunc(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
			return fd
		}
	}
	return nil
}

// dirPackage parses the non-test Go files of dir that the build would
// compile for this platform: the source of an imported package, positioned
// under recDir. It returns nil files, no error, when dir holds none.
func dirPackage(dir, recDir string) ([]*ast.File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, n); err != nil || !ok {
			continue
		}
		f, err := parseCached(filepath.Join(dir, n), recordedName(recDir, n))
		if err != nil {
			return nil, err
		}
		if len(files) > 0 && f.Name.Name != files[0].Name.Name {
			return nil, fmt.Errorf("%s: files of packages %s and %s", dir, files[0].Name.Name, f.Name.Name)
		}
		files = append(files, f)
	}
	return files, nil
}
