package frontend

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"io"
	"io/fs"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Registered source. A binary carries the Go source of the packages whose
// kernels and device functions it may compile: nugo gen writes, into each
// package with kernels, a file that embeds the package's Go files and
// registers them from an init function (RegisterEmbedded), together with
// copies of the files of other packages the kernels call
// (RegisterCopied); libraries may register theirs by hand
// (RegisterPackage, RegisterPackageFS). Registration stores references
// only: the text is read, filtered by build constraints, parsed and checked
// against the binary when a kernel first needs the package, so that a
// program pays nothing at start.

// registry holds every registration of the process.
var registry = struct {
	sync.Mutex
	pending []*registration            // anchored registrations whose package is not resolved yet
	byPath  map[string][]*registration // by import path
}{byPath: map[string][]*registration{}}

// registration is one package's registered source.
type registration struct {
	path   string
	anchor any                               // a func declared in the package: its runtime record names the package and its files' recorded directory
	read   func() (map[string][]byte, error) // the Go files, by name
	copied *copiedSource                     // not nil: some files of the package, copied into another package's generated file

	once  sync.Once
	text  map[string][]byte
	files []*ast.File
	err   error
}

// copiedSource is what a copy of another package's files carries to check
// it against the binary.
type copiedSource struct {
	into            any    // the anchor of the package whose generated file holds the copy
	module, version string // the package's module and version when the copy was made ("" for the main module)
	funcs           []FuncCheck
}

// FuncCheck is a function of copied source, to be found in the binary where
// the copy says: a function value (q.F, (*q.T).M), the base name of its
// file, the line of its declaration and that of its body's first statement
// (the runtime places a function's entry on one of these lines, depending
// on its prologue). A function the binary has elsewhere means the copy is
// older than the binary's source.
type FuncCheck struct {
	Func     any
	File     string
	Line     int
	BodyLine int
}

// RegisterPackage makes the Go source of the package with import path path
// available to kernels that call it (file name → Go text), ahead of any
// source on disk: a library package whose functions kernels call embeds
// its own source and registers it in an init func, so that a deployed
// binary compiles such kernels without a source tree. Kernels and bound
// functions declared in the package itself are loaded from the registered
// source too (those of its test files from disk). Files ending in
// _test.go are ignored. The text is parsed when a kernel first needs it;
// text that does not parse, or files of different packages, make that
// kernel's compile fail. Registering the same path again with the same
// text is harmless; with different text it is an error.
func RegisterPackage(path string, files map[string][]byte) error {
	if err := checkRegisterPath(path); err != nil {
		return err
	}
	text := goFiles(files)
	if len(text) == 0 {
		return fmt.Errorf("register package %s: no Go files (names ending in .go)", path)
	}
	r := &registration{path: path, read: func() (map[string][]byte, error) { return text, nil }}
	registry.Lock()
	defer registry.Unlock()
	for _, prev := range registry.byPath[path] {
		if prev.copied != nil || prev.anchor != nil {
			continue
		}
		if pt, err := prev.read(); err == nil && sameText(pt, text) {
			return nil
		}
		return fmt.Errorf("register package %s: registered before with different source", path)
	}
	registry.byPath[path] = append(registry.byPath[path], r)
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
//
// The files are read when a kernel first needs them.
func RegisterPackageFS(path string, fsys fs.FS) error {
	if err := checkRegisterPath(path); err != nil {
		return err
	}
	r := &registration{path: path, read: func() (map[string][]byte, error) { return readFS(path, fsys) }}
	registry.Lock()
	registry.byPath[path] = append(registry.byPath[path], r)
	registry.Unlock()
	return nil
}

// RegisterEmbedded registers the Go files at the root of fsys as the source
// of the package that declares anchor, a func value: the file nugo gen
// writes embeds the package's files and passes a function it declares.
// The runtime's record of that function names the package and the
// directory the binary records for its files, so that positions in errors
// read as in a Go traceback, with -trimpath or without. Nothing is read or
// resolved until a kernel needs the package; a bad registration then
// fails that kernel's compile with the reason.
func RegisterEmbedded(anchor any, fsys fs.FS) {
	r := &registration{anchor: anchor}
	r.read = func() (map[string][]byte, error) { return readFS(r.path, fsys) }
	registry.Lock()
	registry.pending = append(registry.pending, r)
	registry.Unlock()
}

// RegisterCopied registers files of package path that the generated file
// of another package copied because that package's kernels call them (file
// name → Go text); into is the anchor of that package's RegisterEmbedded. The copy was made from module at version ("" for the main module
// or a local replacement); funcs locate some of its functions, which must
// be where the binary has them, else the copy is stale and the kernels
// that need it fail to compile with a message that says to run go
// generate in into's directory. Copies of the same package from several
// generated files are merged.
func RegisterCopied(into any, path, module, version string, files map[string]string, funcs []FuncCheck) {
	text := map[string][]byte{}
	for n, t := range files {
		text[n] = []byte(t)
	}
	text = goFiles(text)
	r := &registration{path: path, read: func() (map[string][]byte, error) { return text, nil },
		copied: &copiedSource{into: into, module: module, version: version, funcs: funcs}}
	registry.Lock()
	registry.byPath[path] = append(registry.byPath[path], r)
	registry.Unlock()
}

func checkRegisterPath(path string) error {
	if path == "" || strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") || strings.Contains(path, "..") {
		return fmt.Errorf("register package %q: not an import path", path)
	}
	if Supported(path) {
		return fmt.Errorf("register package %s: nugo serves this package itself", path)
	}
	return nil
}

// goFiles keeps the Go files that are not tests, copied.
func goFiles(files map[string][]byte) map[string][]byte {
	text := map[string][]byte{}
	for n, t := range files {
		if strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && !strings.ContainsAny(n, `/\`) {
			text[n] = bytes.Clone(t)
		}
	}
	return text
}

// readFS reads the Go files at the root of fsys.
func readFS(path string, fsys fs.FS) (map[string][]byte, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("registered source of %s: %w", path, err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("registered source of %s: %w", path, err)
		}
		files[e.Name()] = b
	}
	return goFiles(files), nil
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

// resolvePending names the package of each anchored registration.
// Called with registry held.
func resolvePending() {
	for _, r := range registry.pending {
		r.path = anchorPackage(r.anchor)
		registry.byPath[r.path] = append(registry.byPath[r.path], r)
	}
	registry.pending = nil
}

// anchorPackage is the import path of the package declaring func value
// anchor ("" when the runtime does not know it).
func anchorPackage(anchor any) string {
	rf := funcOf(anchor)
	if rf == nil {
		return ""
	}
	info, err := splitFuncName(rf.Name())
	if err != nil {
		return ""
	}
	return info.pkgPath
}

// funcOf is the runtime's record of func value f, or nil.
func funcOf(f any) *runtime.Func {
	v := reflect.ValueOf(f)
	if !v.IsValid() || v.Kind() != reflect.Func || v.IsNil() {
		return nil
	}
	return runtime.FuncForPC(v.Pointer())
}

// registeredFiles returns the parsed files registered for path: those of
// the package's own registration when there is one, else the union of the
// copies other packages registered. It returns nil files and no error when
// nothing is registered, and an error when the registered source cannot
// be used (it does not parse, or a copy is older than the binary).
func registeredFiles(path string) ([]*ast.File, error) {
	registry.Lock()
	resolvePending()
	regs := append([]*registration(nil), registry.byPath[path]...)
	registry.Unlock()
	if len(regs) == 0 {
		return nil, nil
	}
	var own, copies []*registration
	for _, r := range regs {
		if r.copied == nil {
			own = append(own, r)
		} else {
			copies = append(copies, r)
		}
	}
	if len(own) > 0 {
		// The package's own files: the registrations are of one text (a
		// package registering itself by hand as well as through nugo gen).
		r := own[0]
		files, err := r.load()
		if err != nil {
			return nil, err
		}
		for _, o := range own[1:] {
			if _, err := o.load(); err != nil {
				return nil, err
			}
			if !sameText(o.text, r.text) {
				return nil, fmt.Errorf("package %s: its source is registered twice with different text; run go generate in its directory", path)
			}
		}
		return files, nil
	}
	var files []*ast.File
	seen := map[string]*registration{}
	for _, r := range copies {
		fs, err := r.load()
		if err != nil {
			return nil, err
		}
		for i, f := range fs {
			name := filepath.Base(fset.Position(f.Package).Filename)
			if prev, ok := seen[name]; ok {
				if !bytes.Equal(prev.text[name], r.text[name]) {
					return nil, fmt.Errorf("package %s: file %s is copied into the generated files of %s and %s with different text; run go generate in both", path, name, prev.copied.intoName(), r.copied.intoName())
				}
				continue
			}
			seen[name] = r
			files = append(files, fs[i])
		}
	}
	return files, nil
}

// load reads, filters, parses and checks the registration once.
func (r *registration) load() ([]*ast.File, error) {
	r.once.Do(func() { r.files, r.err = r.doLoad() })
	return r.files, r.err
}

func (r *registration) doLoad() ([]*ast.File, error) {
	if r.path == "" {
		return nil, fmt.Errorf("registered source: the runtime does not know the package of anchor %T", r.anchor)
	}
	text, err := r.read()
	if err != nil {
		return nil, err
	}
	if len(text) == 0 {
		return nil, fmt.Errorf("registered source of %s holds no Go files", r.path)
	}
	r.text = text
	if r.copied != nil {
		if err := r.copied.check(r.path); err != nil {
			return nil, err
		}
	}
	recDir := r.recordedDir()
	names := make([]string, 0, len(text))
	for n := range text {
		names = append(names, n)
	}
	sort.Strings(names)
	var parsed []*ast.File
	for _, n := range names {
		if !matchesBuild(n, text[n]) {
			continue
		}
		f, err := parser.ParseFile(fset, recordedName(recDir, n), text[n], parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("registered source of %s: %w", r.path, err)
		}
		if len(parsed) > 0 && f.Name.Name != parsed[0].Name.Name {
			return nil, fmt.Errorf("registered source of %s: file %s declares package %s, %s declares %s", r.path, n, f.Name.Name,
				filepath.Base(fset.Position(parsed[0].Package).Filename), parsed[0].Name.Name)
		}
		parsed = append(parsed, f)
	}
	if len(parsed) == 0 {
		return nil, fmt.Errorf("registered source of %s: no file is built for %s/%s", r.path, build.Default.GOOS, build.Default.GOARCH)
	}
	return parsed, nil
}

// recordedDir is the directory the binary records for the registration's
// files: the anchor's, or that of a copied function's file, or the one
// -trimpath would give.
func (r *registration) recordedDir() string {
	anchors := []any{r.anchor}
	if r.copied != nil {
		for _, c := range r.copied.funcs {
			anchors = append(anchors, c.Func)
		}
	}
	for _, a := range anchors {
		if rf := funcOf(a); rf != nil {
			if file, _ := rf.FileLine(rf.Entry()); file != "" && !strings.HasPrefix(file, "<") {
				return recordedDirOf(file, "")
			}
		}
	}
	return recordedDir(r.path, r.path)
}

// check compares a copy with the binary: its module's version and where
// the binary has its functions.
func (c *copiedSource) check(path string) error {
	stale := func(why string) error {
		into := c.intoName()
		return &Error{Kernel: path, Diags: []Diagnostic{{Msg: fmt.Sprintf("the source of package %s that nugo gen copied into package %s is older than this binary (%s); run go generate in the directory of %s and rebuild", path, into, why, into)}}}
	}
	if c.version != "" {
		deps, _ := buildDeps()
		for _, d := range deps {
			if d == nil || d.Path != c.module {
				continue
			}
			v := d.Version
			if d.Replace != nil && d.Replace.Version != "" {
				v = d.Replace.Version
			}
			if v != c.version {
				return stale(fmt.Sprintf("it was copied from %s %s, the binary is built with %s", c.module, c.version, v))
			}
		}
	}
	for _, f := range c.funcs {
		rf := funcOf(f.Func)
		if rf == nil {
			continue
		}
		file, line := rf.FileLine(rf.Entry())
		if file == "" || strings.HasPrefix(file, "<") {
			continue // no position to compare
		}
		if filepath.Base(file) != f.File || line < f.Line || line > max(f.Line, f.BodyLine) {
			return stale(fmt.Sprintf("%s is at %s:%d in the binary, at %s:%d in the copy", shortFuncName(rf.Name()), filepath.Base(file), line, f.File, f.Line))
		}
	}
	return nil
}

// intoName is the import path of the package holding the copy.
func (c *copiedSource) intoName() string {
	if p := anchorPackage(c.into); p != "" {
		return p
	}
	return "(unknown package)"
}

// shortFuncName drops the directories of a runtime function name.
func shortFuncName(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		return name[i+1:]
	}
	return name
}

// matchesBuild reports whether the file named name with text src is built
// for this binary's platform (its name's _GOOS_GOARCH suffix and its
// //go:build line).
func matchesBuild(name string, src []byte) bool {
	ctx := build.Default
	ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
	ctx.JoinPath = func(elem ...string) string { return strings.Join(elem, "/") }
	ok, err := ctx.MatchFile(".", name)
	return err == nil && ok
}

// registeredFileNames lists the base names of registered files.
func registeredFileNames(files []*ast.File) []string {
	var out []string
	for _, f := range files {
		out = append(out, filepath.Base(fset.Position(f.Package).Filename))
	}
	return out
}
