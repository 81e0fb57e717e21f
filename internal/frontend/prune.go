package frontend

import (
	"go/ast"
	"go/token"
	"strconv"
)

// declRef is one top-level declaration and the file holding it.
type declRef struct {
	file *ast.File
	decl ast.Decl
}

// pruned is what prune keeps of one package.
type pruned struct {
	files []*ast.File // the kept declarations and the imports they use
	// selected holds, per imported package (other than those nugo serves
	// as stubs), the names kept code selects from it: that package's roots.
	selected map[string]map[string]bool
	// selectors holds every name kept code selects with x.Name: methods
	// and fields, of this package's types or of other packages' types.
	selectors map[string]bool
}

// importResolver says whether kernel code may use the package at path,
// selecting sel from it: "" when it may, else the sentence to report. name
// gives the package name an import without an explicit name binds.
type importResolver interface {
	resolve(path, sel string) string
	name(path string) string
}

// prune keeps the declarations the kernel reaches, so that host code in the
// same package (which may use any package) is never type-checked. The reach is
// computed by name, an over-approximation that is cheap and safe: a kept
// declaration that is not really used costs only its type-checking.
//
// roots are the names to start from; methods of kept types are kept when
// their name is selected in kept code of this package or is in selectors
// (names selected by other packages, which may call methods of this
// package's types). The result holds new files with the kept declarations
// and the imports they use; uses of packages kernels cannot call are
// reported to d at their position.
func prune(files []*ast.File, roots []string, selectors map[string]bool, res importResolver, d *diags) pruned {
	byName := map[string][]declRef{}
	top := map[any]bool{}             // top-level declaring nodes, as the parser's objects record them
	methods := map[string][]declRef{} // method name → declarations
	imports := map[*ast.File]*fileImports{}
	for _, f := range files {
		imports[f] = newFileImports(f, res)
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv != nil {
					methods[decl.Name.Name] = append(methods[decl.Name.Name], declRef{f, decl})
					continue
				}
				if decl.Name.Name == "init" || decl.Name.Name == "_" {
					continue
				}
				byName[decl.Name.Name] = append(byName[decl.Name.Name], declRef{f, decl})
				top[decl] = true
			case *ast.GenDecl:
				if decl.Tok == token.IMPORT {
					continue
				}
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						byName[spec.Name.Name] = append(byName[spec.Name.Name], declRef{f, decl})
						top[spec] = true
					case *ast.ValueSpec:
						top[spec] = true
						for _, n := range spec.Names {
							byName[n.Name] = append(byName[n.Name], declRef{f, decl})
						}
					}
				}
			}
		}
	}

	out := pruned{selected: map[string]map[string]bool{}, selectors: map[string]bool{}}
	kept := map[ast.Decl]bool{}
	keptTypes := map[string]bool{}
	added := map[string]bool{}
	var work []declRef
	addName := func(name string) {
		if added[name] {
			return
		}
		added[name] = true
		for _, r := range byName[name] {
			if !kept[r.decl] {
				kept[r.decl] = true
				work = append(work, r)
			}
		}
	}
	for _, r := range roots {
		addName(r)
	}
	for {
		for len(work) > 0 {
			r := work[len(work)-1]
			work = work[:len(work)-1]
			if gd, ok := r.decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, s := range gd.Specs {
					keptTypes[s.(*ast.TypeSpec).Name.Name] = true
				}
			}
			fileImports := imports[r.file]
			var visit func(n ast.Node) bool
			visit = func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					// Locals resolved by the parser are not package names;
					// unresolved names may be declared in another file.
					if n.Obj == nil || top[n.Obj.Decl] {
						addName(n.Name)
					}
				case *ast.SelectorExpr:
					// pkg.Name selects a root of an imported package;
					// any other x.Name is a method or a field, never a
					// top-level name of this package.
					if x, ok := n.X.(*ast.Ident); ok && x.Obj == nil && byName[x.Name] == nil {
						if _, path, ok := fileImports.lookup(x.Name); ok {
							if out.selected[path] == nil {
								out.selected[path] = map[string]bool{}
							}
							out.selected[path][n.Sel.Name] = true
							return false
						}
					}
					out.selectors[n.Sel.Name] = true
					ast.Inspect(n.X, visit)
					return false
				}
				return true
			}
			ast.Inspect(r.decl, visit)
		}
		// Methods of kept types whose names are selected somewhere.
		for name, refs := range methods {
			if !out.selectors[name] && !selectors[name] {
				continue
			}
			for _, r := range refs {
				fd := r.decl.(*ast.FuncDecl)
				if !kept[fd] && keptTypes[recvTypeName(fd)] {
					kept[fd] = true
					work = append(work, r)
				}
			}
		}
		if len(work) == 0 {
			break
		}
	}

	for _, f := range files {
		var decls []ast.Decl
		for _, decl := range f.Decls {
			if kept[decl] {
				decls = append(decls, decl)
			}
		}
		if len(decls) == 0 {
			continue
		}
		specs := usedImports(f, imports[f], decls, res, d)
		nf := &ast.File{
			Package:   f.Package,
			Name:      f.Name,
			FileStart: f.FileStart,
			FileEnd:   f.FileEnd,
			GoVersion: f.GoVersion,
		}
		if len(specs) > 0 {
			nf.Decls = append(nf.Decls, &ast.GenDecl{Tok: token.IMPORT, Specs: specs})
			for _, s := range specs {
				nf.Imports = append(nf.Imports, s.(*ast.ImportSpec))
			}
		}
		nf.Decls = append(nf.Decls, decls...)
		out.files = append(out.files, nf)
	}
	return out
}

// fileImports maps the names a file's imports bind to the imports. An
// import without a name binds its package's name, which is usually the
// last element of its path; the real name, which needs the package's
// source, is looked up only when a selected name matches no import.
type fileImports struct {
	res     importResolver
	specs   map[string]*ast.ImportSpec
	paths   map[string]string
	pending []*ast.ImportSpec // unnamed imports of other packages
}

func newFileImports(f *ast.File, res importResolver) *fileImports {
	fi := &fileImports{res: res, specs: map[string]*ast.ImportSpec{}, paths: map[string]string{}}
	for _, s := range f.Imports {
		path, err := strconv.Unquote(s.Path.Value)
		if err != nil {
			continue
		}
		switch {
		case s.Name != nil:
			fi.bind(s.Name.Name, s, path)
		case Supported(path) || isStdlib(path):
			fi.bind(defaultImportName(path), s, path)
		default:
			fi.pending = append(fi.pending, s)
		}
	}
	return fi
}

func (fi *fileImports) bind(name string, s *ast.ImportSpec, path string) {
	if name != "_" && name != "." {
		fi.specs[name], fi.paths[name] = s, path
	}
}

// lookup returns the import that binds name, if any.
func (fi *fileImports) lookup(name string) (*ast.ImportSpec, string, bool) {
	if s, ok := fi.specs[name]; ok {
		return s, fi.paths[name], true
	}
	if len(fi.pending) == 0 {
		return nil, "", false
	}
	for i, s := range fi.pending {
		if path, _ := strconv.Unquote(s.Path.Value); defaultImportName(path) == name {
			fi.pending = append(fi.pending[:i:i], fi.pending[i+1:]...)
			fi.bind(name, s, path)
			return s, path, true
		}
	}
	for _, s := range fi.pending {
		path, _ := strconv.Unquote(s.Path.Value)
		fi.bind(fi.res.name(path), s, path)
	}
	fi.pending = nil
	s, ok := fi.specs[name]
	return s, fi.paths[name], ok
}

func recvTypeName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// usedImports returns the import specs of f that decls use, and reports uses
// of packages a kernel cannot call.
func usedImports(f *ast.File, fi *fileImports, decls []ast.Decl, res importResolver, d *diags) []ast.Spec {
	used := map[string]bool{}
	var specs []ast.Spec
	for _, decl := range decls {
		ast.Inspect(decl, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok || x.Obj != nil {
				return true
			}
			spec, path, ok := fi.lookup(x.Name)
			if !ok || used[x.Name] {
				return true
			}
			used[x.Name] = true
			if msg := res.resolve(path, sel.Sel.Name); msg != "" {
				d.add(sel.Pos(), "%s", msg)
				return true
			}
			specs = append(specs, spec)
			return true
		})
	}
	// Dot imports and type-only uses through them are not supported.
	for _, s := range f.Imports {
		if s.Name != nil && s.Name.Name == "." {
			d.add(s.Pos(), "dot imports cannot be used in files that hold kernels; import %s with a name", s.Path.Value)
		}
	}
	return specs
}

func unsupportedPackageMsg(path, sel string) string {
	switch path {
	case "fmt":
		return "cannot call package fmt in a kernel; use cuda.Printf to print from the GPU"
	case "math/rand", "math/rand/v2":
		return "cannot call package " + path + " in a kernel; pass random numbers in a slice or write a counter-based generator (e.g. a hash of the thread index) as a device function"
	case "sync/atomic":
		return "cannot call package sync/atomic in a kernel; use cuda.AtomicAdd and the other cuda.Atomic functions on &slice[i]"
	case "unsafe":
		return "package unsafe cannot be used in a kernel; index slices instead of computing addresses"
	}
	return "cannot use " + path + "." + sel + " in a kernel: " + path + " is a standard-library package, and of those kernels may use only math, math/bits and math/cmplx (besides nugo's cuda and math32) because the GPU has no runtime for the others; compute what you need on the host and pass it as a parameter"
}

// unloadableMsg refuses a use of a package whose source could not be loaded.
func unloadableMsg(path, sel string, err error) string {
	return "cannot use " + path + "." + sel + " in a kernel: " + err.Error()
}

func defaultImportName(path string) string {
	name := path
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			name = path[i+1:]
			break
		}
	}
	return name
}
