package frontend

import (
	"errors"
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// loader gathers the packages of one kernel's program: the kernel's own
// package and every package its kept code calls, each pruned to what is
// reached, type-checked (the loader is their importer), vetted and built
// into one ssa.Program, so the compiler sees one program.
type loader struct {
	find      *finder
	main      *loadPkg
	pkgs      map[string]*loadPkg        // imported packages in use, by path
	order     []*loadPkg                 // main first, then imported ones as found
	found     map[string]*pkgSource      // located sources, by path
	failed    map[string]error           // why a path could not be located
	roots     map[string]map[string]bool // names selected from each imported package
	selectors map[string]bool            // every x.Name selected in kept code
	cur       *loadPkg                   // the package being pruned: the importer
	d         *diags
}

// loadPkg is one package of the program.
type loadPkg struct {
	path     string
	dir      string // "" for source given as text or registered
	files    []*ast.File
	kept     []*ast.File
	tpkg     *types.Package
	info     *types.Info
	checking bool

	dirty       bool            // to be pruned (again)
	diags       *diags          // of the last pruning
	methodNames map[string]bool // names of the package's methods
}

func newLoader(pkgPath, dir string, files []*ast.File) *loader {
	main := &loadPkg{path: pkgPath, dir: dir, files: files}
	return &loader{
		find:      newFinder(dir),
		main:      main,
		pkgs:      map[string]*loadPkg{},
		order:     []*loadPkg{main},
		found:     map[string]*pkgSource{},
		failed:    map[string]error{},
		roots:     map[string]map[string]bool{},
		selectors: map[string]bool{},
	}
}

// locate finds the source of package path imported by l.cur.
func (l *loader) locate(path string) (*pkgSource, error) {
	if s := l.found[path]; s != nil {
		return s, nil
	}
	if err := l.failed[path]; err != nil {
		return nil, err
	}
	var s *pkgSource
	var err error
	if path == l.main.path {
		err = fmt.Errorf("package %s imports the kernel's own package (an import cycle)", path)
	} else {
		s, err = l.find.find(path, l.cur.dir)
	}
	if err != nil {
		l.failed[path] = err
		return nil, err
	}
	l.found[path] = s
	return s, nil
}

// resolve implements importResolver: stubs are fine, the standard
// library is refused, other packages must be found.
func (l *loader) resolve(path, sel string) string {
	if Supported(path) {
		return ""
	}
	if _, err := l.locate(path); err != nil {
		if errors.Is(err, errStdlib) {
			return unsupportedPackageMsg(path, sel)
		}
		return unloadableMsg(path, sel, err)
	}
	return ""
}

// name implements importResolver: the name an unnamed import binds is the
// package clause of the imported package.
func (l *loader) name(path string) string {
	if Supported(path) || isStdlib(path) {
		return defaultImportName(path)
	}
	if s, err := l.locate(path); err == nil && len(s.files) > 0 {
		return s.files[0].Name.Name
	}
	return defaultImportName(path)
}

// prune prunes every package of the program from the kernel's roots:
// names selected from another package become its roots, and method names
// selected anywhere keep the methods of kept types everywhere. A package
// is pruned again only when it has new roots or a newly selected name is
// one of its methods' names, until nothing new is reached; each package's
// diagnostics are those of its last pruning.
func (l *loader) prune(roots ...string) {
	l.roots[l.main.path] = map[string]bool{}
	for _, r := range roots {
		l.roots[l.main.path][r] = true
	}
	l.main.dirty = true
	for {
		pruned := false
		for i := 0; i < len(l.order); i++ {
			p := l.order[i]
			if !p.dirty {
				continue
			}
			p.dirty, pruned = false, true
			l.cur = p
			p.diags = &diags{fset: fset}
			r := prune(p.files, sortedKeys(l.roots[p.path]), l.selectors, l, p.diags)
			p.kept = r.files
			for n := range r.selectors {
				if l.selectors[n] {
					continue
				}
				l.selectors[n] = true
				for _, q := range l.order {
					if q != p && q.methods()[n] {
						q.dirty = true
					}
				}
			}
			for path, names := range r.selected {
				if Supported(path) || l.failed[path] != nil || l.found[path] == nil {
					continue
				}
				q := l.pkgs[path]
				if q == nil {
					s := l.found[path]
					q = &loadPkg{path: path, dir: s.dir, files: s.files}
					l.pkgs[path] = q
					l.order = append(l.order, q)
					l.roots[path] = map[string]bool{}
				}
				for n := range names {
					if !l.roots[path][n] {
						l.roots[path][n] = true
						q.dirty = true
					}
				}
			}
		}
		if !pruned {
			break
		}
	}
	l.cur = nil
	l.d = &diags{fset: fset}
	for _, p := range l.order {
		if p.diags != nil {
			l.d.list = append(l.d.list, p.diags.list...)
		}
	}
	for _, p := range l.order[1:] {
		if len(p.kept) == 0 {
			// Only missing names were selected: keep the package clause
			// so that the type check reports them.
			f := p.files[0]
			p.kept = []*ast.File{{Package: f.Package, Name: f.Name, FileStart: f.FileStart, FileEnd: f.FileEnd, GoVersion: f.GoVersion}}
		}
	}
}

// methods returns the names of the package's methods.
func (p *loadPkg) methods() map[string]bool {
	if p.methodNames == nil {
		p.methodNames = map[string]bool{}
		for _, f := range p.files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
					p.methodNames[fd.Name.Name] = true
				}
			}
		}
	}
	return p.methodNames
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Import implements types.Importer: the stubs nugo serves, and the kept
// code of the program's other packages, type-checked on first import.
func (l *loader) Import(path string) (*types.Package, error) {
	if Supported(path) {
		return stubs.Import(path)
	}
	p := l.pkgs[path]
	if p == nil {
		return nil, fmt.Errorf("package %q is not available in kernels", path)
	}
	if p.tpkg != nil {
		return p.tpkg, nil
	}
	if p.checking {
		return nil, fmt.Errorf("import cycle through package %s", path)
	}
	p.checking = true
	defer func() { p.checking = false }()
	p.tpkg, p.info = l.check(p)
	return p.tpkg, nil
}

// check type-checks one package's kept files, reporting errors at their
// positions.
func (l *loader) check(p *loadPkg) (*types.Package, *types.Info) {
	info := newInfo()
	conf := types.Config{
		Importer: l,
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				l.d.add(te.Pos, "%s%s", te.Msg, typeErrorAdvice(te.Msg))
			}
		},
		Sizes: types.SizesFor("gc", "amd64"),
	}
	tpkg, _ := conf.Check(p.path, fset, p.kept, info)
	return tpkg, info
}

// typeErrorAdvice is what to write instead, for the type errors a kernel
// author meets where nugo has another way, or "".
func typeErrorAdvice(msg string) string {
	if strings.Contains(msg, "complex") && strings.Contains(msg, "does not satisfy") && strings.Contains(msg, "AtomicElement") {
		return "; add to a complex element with cuda.AtomicAddComplex (each part atomically)"
	}
	return ""
}

func newInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}

// checked returns the program's type-checked packages, main first.
func (l *loader) checked() []*loadPkg {
	var out []*loadPkg
	for _, p := range l.order {
		if p.tpkg != nil {
			out = append(out, p)
		}
	}
	return out
}

// sources maps the program's packages to their checked files, for
// package-level variables read as tables.
func (l *loader) sources() map[*types.Package]source {
	m := map[*types.Package]source{}
	for _, p := range l.checked() {
		m[p.tpkg] = source{p.kept, p.info}
	}
	return m
}

// buildSSA creates every package of the program and builds the loaded ones.
func (l *loader) buildSSA() (*ssa.Program, *ssa.Package) {
	prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	loaded := map[*types.Package]*loadPkg{}
	for _, p := range l.checked() {
		loaded[p.tpkg] = p
	}
	var create func(t *types.Package)
	create = func(t *types.Package) {
		if prog.ImportedPackage(t.Path()) != nil {
			return
		}
		for _, imp := range t.Imports() {
			create(imp)
		}
		if p := loaded[t]; p != nil {
			prog.CreatePackage(t, p.kept, p.info, true)
			return
		}
		prog.CreatePackage(t, nil, nil, true)
	}
	for _, imp := range l.main.tpkg.Imports() {
		create(imp)
	}
	pkg := prog.CreatePackage(l.main.tpkg, l.main.kept, l.main.info, false)
	for _, p := range l.checked()[1:] {
		if sp := prog.Package(p.tpkg); sp != nil {
			sp.Build()
		}
	}
	pkg.Build()
	return prog, pkg
}
