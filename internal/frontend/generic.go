package frontend

import (
	"fmt"
	"go/ast"
	"reflect"
	"sort"
	"strings"
)

// inferTypeArgs finds a generic function's type arguments from its func
// value's type by matching the declared parameter and result types (func
// types among them) against the instantiated ones. A type argument of
// another package is spelled with that package's name, which imports
// binds (name → import path) for the instantiation.
func inferTypeArgs(fd *ast.FuncDecl, rt reflect.Type, pkgPath string, imports typeArgImports) ([]string, error) {
	var tparams []string
	for _, f := range fd.Type.TypeParams.List {
		for _, n := range f.Names {
			tparams = append(tparams, n.Name)
		}
	}
	bound := map[string]string{}
	isParam := map[string]bool{}
	for _, n := range tparams {
		isParam[n] = true
	}
	var unify func(e ast.Expr, t reflect.Type) error
	var funcType func(ft *ast.FuncType, t reflect.Type) error
	unify = func(e ast.Expr, t reflect.Type) error {
		switch e := e.(type) {
		case *ast.ParenExpr:
			return unify(e.X, t)
		case *ast.Ident:
			if !isParam[e.Name] {
				return nil
			}
			s, err := typeArgString(t, pkgPath, imports)
			if err != nil {
				return err
			}
			if prev, ok := bound[e.Name]; ok && prev != s {
				return fmt.Errorf("type parameter %s bound to both %s and %s", e.Name, prev, s)
			}
			bound[e.Name] = s
		case *ast.ArrayType:
			if e.Len == nil && t.Kind() == reflect.Slice {
				return unify(e.Elt, t.Elem())
			}
			if e.Len != nil && t.Kind() == reflect.Array {
				return unify(e.Elt, t.Elem())
			}
		case *ast.FuncType:
			// A func-typed kernel parameter, such as f func(T, T) T.
			return funcType(e, t)
		case *ast.StarExpr:
			if t.Kind() == reflect.Pointer {
				return unify(e.X, t.Elem())
			}
		case *ast.IndexExpr:
			// cuda.Array2[T], cuda.Array3[T]: the element type is Data's.
			if m, ok := t.MethodByName("Data"); ok && m.Type.NumOut() == 1 && m.Type.Out(0).Kind() == reflect.Slice {
				return unify(e.Index, m.Type.Out(0).Elem())
			}
		}
		return nil
	}
	// unifyList matches a parameter or result list against n types.
	unifyList := func(list *ast.FieldList, n int, at func(int) reflect.Type, what string) error {
		i := 0
		if list != nil {
			for _, f := range list.List {
				names := max(len(f.Names), 1)
				for j := 0; j < names; j++ {
					if i >= n {
						return fmt.Errorf("func value has %d %s, declaration has more", n, what)
					}
					if err := unify(f.Type, at(i)); err != nil {
						return err
					}
					i++
				}
			}
		}
		return nil
	}
	funcType = func(ft *ast.FuncType, t reflect.Type) error {
		if t.Kind() != reflect.Func {
			return nil
		}
		if err := unifyList(ft.Params, t.NumIn(), t.In, "parameters"); err != nil {
			return err
		}
		return unifyList(ft.Results, t.NumOut(), t.Out, "results")
	}
	if err := funcType(fd.Type, rt); err != nil {
		return nil, err
	}
	args := make([]string, len(tparams))
	for k, n := range tparams {
		s, ok := bound[n]
		if !ok {
			return nil, fmt.Errorf("cannot infer type parameter %s from the kernel's parameters; use it in a parameter type, or compile a non-generic wrapper kernel", n)
		}
		args[k] = s
	}
	return args, nil
}

// typeArgImports names the packages that type arguments of other packages
// come from: the name each is spelled with → its import path.
type typeArgImports map[string]string

// typeArgString spells a type argument in the kernel package's source,
// adding the packages of named types of other packages to imports.
func typeArgString(t reflect.Type, pkgPath string, imports typeArgImports) (string, error) {
	if t.Name() == "" {
		switch t.Kind() {
		case reflect.Slice:
			s, err := typeArgString(t.Elem(), pkgPath, imports)
			return "[]" + s, err
		case reflect.Pointer:
			s, err := typeArgString(t.Elem(), pkgPath, imports)
			return "*" + s, err
		}
		return "", fmt.Errorf("type argument %s cannot be spelled in the kernel's package; use a basic type or a named type", t)
	}
	if t.PkgPath() == "" || t.PkgPath() == pkgPath {
		return t.Name(), nil
	}
	// cuda.Float16 is the one type of a stubbed package that is a kernel
	// element (cuda.Element): the instantiation imports cuda's stub.
	isFloat16 := t.PkgPath() == CudaPath && t.Name() == "Float16"
	if Supported(t.PkgPath()) && !isFloat16 {
		return "", fmt.Errorf("type argument %s comes from package %s, whose types are not kernel element types (cuda.Float16 is the one that is)", t, t.PkgPath())
	}
	if strings.ContainsAny(t.Name(), "[]") || isStdlib(t.PkgPath()) {
		return "", fmt.Errorf("type argument %s comes from package %s; kernels can be instantiated with basic types and named types of Go packages outside the standard library that are not generic", t, t.PkgPath())
	}
	return imports.name(t.PkgPath()) + "." + t.Name(), nil
}

// name returns the name type arguments of package path are spelled with:
// the last element of the path, made unique.
func (im typeArgImports) name(path string) string {
	base := "nugo_" + sanitizeIdent(defaultImportName(path))
	name := base
	for i := 2; ; i++ {
		if p, ok := im[name]; !ok || p == path {
			break
		}
		name = fmt.Sprintf("%s%d", base, i)
	}
	im[name] = path
	return name
}

// sanitizeIdent turns an import path element into an identifier.
func sanitizeIdent(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// names returns the names the imports bind, sorted.
func (im typeArgImports) names() []string {
	out := make([]string, 0, len(im))
	for n := range im {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// display spells type arguments for people: with the package's own name
// rather than the name the instantiation imports it under.
func (im typeArgImports) display(s string) string {
	for n := range im {
		s = strings.ReplaceAll(s, n+".", strings.TrimPrefix(n, "nugo_")+".")
	}
	return s
}

func (im typeArgImports) displayAll(args []string) []string {
	if len(im) == 0 {
		return args
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = im.display(a)
	}
	return out
}
