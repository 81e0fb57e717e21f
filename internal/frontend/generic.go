package frontend

import (
	"fmt"
	"go/ast"
	"reflect"
)

// inferTypeArgs finds a generic kernel's type arguments from its func value's
// type by matching the declared parameter types against the instantiated ones.
func inferTypeArgs(fd *ast.FuncDecl, rt reflect.Type, pkgPath string) ([]string, error) {
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
	unify = func(e ast.Expr, t reflect.Type) error {
		switch e := e.(type) {
		case *ast.ParenExpr:
			return unify(e.X, t)
		case *ast.Ident:
			if !isParam[e.Name] {
				return nil
			}
			s, err := typeArgString(t, pkgPath)
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
	i := 0
	for _, f := range fd.Type.Params.List {
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for j := 0; j < n; j++ {
			if i >= rt.NumIn() {
				return nil, fmt.Errorf("func value has %d parameters, declaration has more", rt.NumIn())
			}
			if err := unify(f.Type, rt.In(i)); err != nil {
				return nil, err
			}
			i++
		}
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

// typeArgString spells a type argument in the kernel package's source.
func typeArgString(t reflect.Type, pkgPath string) (string, error) {
	if t.Name() == "" {
		switch t.Kind() {
		case reflect.Slice:
			s, err := typeArgString(t.Elem(), pkgPath)
			return "[]" + s, err
		case reflect.Pointer:
			s, err := typeArgString(t.Elem(), pkgPath)
			return "*" + s, err
		}
		return "", fmt.Errorf("type argument %s cannot be spelled in the kernel's package; use a basic type or a named type of that package", t)
	}
	if t.PkgPath() == "" || t.PkgPath() == pkgPath {
		return t.Name(), nil
	}
	return "", fmt.Errorf("type argument %s comes from package %s; kernels can be instantiated with basic types or types of their own package", t, t.PkgPath())
}
