package frontend

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// source is a type-checked set of files whose package-level variables may
// serve as read-only tables.
type source struct {
	files []*ast.File
	info  *types.Info
}

// TableInit returns the initial value of a package-level variable that
// kernels may read as a read-only table: a constant, or an array or struct
// literal of constants, nested to any depth (n-d arrays, arrays of
// structs). The result has one constant per basic leaf in memory order (a
// complex number is one; nil where the literal leaves a leaf out); ok is
// false for any other initializer.
func (k *Kernel) TableInit(v *types.Var) (vals []constant.Value, ok bool) {
	srcs := append([]source(nil), k.srcs...)
	if devmathChecked.pkg != nil {
		srcs = append(srcs, source{devmathChecked.files, devmathChecked.info})
	}
	for _, s := range srcs {
		if vals, found, ok := tableInit(s, v); found {
			return vals, ok
		}
	}
	return nil, false
}

func tableInit(s source, v *types.Var) ([]constant.Value, bool, bool) {
	for _, f := range s.files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if s.info.Defs[n] != v {
						continue
					}
					if len(vs.Values) != len(vs.Names) {
						return nil, true, false
					}
					vals, ok := constInit(s.info, vs.Values[i], v.Type())
					return vals, true, ok
				}
			}
		}
	}
	return nil, false, false
}

// constInit flattens the initializer e of a table of type t into one
// constant per basic leaf of t (a complex number is one leaf), in memory
// order: array elements in turn, struct fields in turn, nested to any
// depth (n-d arrays, arrays of structs). Leaves the literal leaves out are
// nil (zero). ok is false for an initializer that is not made of
// constants, or a type with leaves other than numbers and bools.
func constInit(info *types.Info, e ast.Expr, t types.Type) ([]constant.Value, bool) {
	if tv := info.Types[e]; tv.Value != nil {
		return []constant.Value{tv.Value}, true // a constant of any basic type
	}
	n, ok := tableLeaves(t)
	if !ok {
		return nil, false
	}
	vals := make([]constant.Value, n)
	if !fillConst(info, e, t, vals) {
		return nil, false
	}
	return vals, true
}

// tableLeaves counts the basic leaves of t, reporting false if one is not
// a number or a bool.
func tableLeaves(t types.Type) (int, bool) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return 1, u.Info()&(types.IsNumeric|types.IsBoolean) != 0
	case *types.Array:
		n, ok := tableLeaves(u.Elem())
		return n * int(u.Len()), ok
	case *types.Struct:
		sum := 0
		for i := range u.NumFields() {
			n, ok := tableLeaves(u.Field(i).Type())
			if !ok {
				return 0, false
			}
			sum += n
		}
		return sum, true
	}
	return 0, false
}

// fillConst stores the leaves of e, a value of type t, into vals (as many
// as t has).
func fillConst(info *types.Info, e ast.Expr, t types.Type, vals []constant.Value) bool {
	if tv := info.Types[e]; tv.Value != nil {
		if _, basic := t.Underlying().(*types.Basic); !basic {
			return false
		}
		vals[0] = tv.Value
		return true
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Array:
		per, _ := tableLeaves(u.Elem())
		idx := int64(0)
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				kt := info.Types[kv.Key]
				if kt.Value == nil {
					return false
				}
				idx, _ = constant.Int64Val(constant.ToInt(kt.Value))
				elt = kv.Value
			}
			if idx < 0 || idx >= u.Len() || !fillConst(info, elt, u.Elem(), vals[int(idx)*per:int(idx+1)*per]) {
				return false
			}
			idx++
		}
		return true
	case *types.Struct:
		starts := make([]int, u.NumFields()+1)
		for i := range u.NumFields() {
			n, _ := tableLeaves(u.Field(i).Type())
			starts[i+1] = starts[i] + n
		}
		for i, elt := range lit.Elts {
			field := i
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				id, isID := kv.Key.(*ast.Ident)
				if !isID {
					return false
				}
				field = -1
				for j := range u.NumFields() {
					if u.Field(j).Name() == id.Name {
						field = j
					}
				}
				elt = kv.Value
			}
			if field < 0 || field >= u.NumFields() || !fillConst(info, elt, u.Field(field).Type(), vals[starts[field]:starts[field+1]]) {
				return false
			}
		}
		return true
	}
	return false
}
