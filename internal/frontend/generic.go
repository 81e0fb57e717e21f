package frontend

import (
	"fmt"
	"go/ast"
	"reflect"
)

// inferTypeArgs finds a generic function's type arguments from its func
// value's type by matching the declared parameter and result types (func
// types among them) against the instantiated ones.
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
	var funcType func(ft *ast.FuncType, t reflect.Type) error
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
