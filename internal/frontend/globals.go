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
// kernels may read as a read-only table: a constant, or an array literal of
// constants. The result has one constant per array element (zero where the
// literal leaves an element out); ok is false for any other initializer.
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

func constInit(info *types.Info, e ast.Expr, t types.Type) ([]constant.Value, bool) {
	if tv := info.Types[e]; tv.Value != nil {
		return []constant.Value{tv.Value}, true
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	arr, ok := t.Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	if _, basic := arr.Elem().Underlying().(*types.Basic); !basic {
		return nil, false
	}
	vals := make([]constant.Value, arr.Len())
	idx := int64(0)
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			kt := info.Types[kv.Key]
			if kt.Value == nil {
				return nil, false
			}
			idx, _ = constant.Int64Val(constant.ToInt(kt.Value))
			elt = kv.Value
		}
		tv := info.Types[elt]
		if tv.Value == nil || idx < 0 || idx >= arr.Len() {
			return nil, false
		}
		vals[idx] = tv.Value
		idx++
	}
	return vals, true
}
