package loopgen

import (
	"go/ast"
	"go/types"
)

// pointerMethods maps the element methods of cuda's Array2 and Array3 to
// their forms with a pointer receiver. The block loop calls those on
// variables: an array value has too many fields for the Go compiler to
// keep in registers, so each call of At with its value receiver copies the
// array, which in a loop of loads (a tiled matmul's tile loads) costs more
// than the load itself.
var pointerMethods = map[string]string{"At": "AtP", "Set": "SetP"}

// pointerCalls renames in n, until undo is called, the calls of Array2's
// and Array3's At and Set on variables to AtP and SetP. The kernel's own
// source keeps At and Set: the compiled backends know only those.
func (f *fissioner) pointerCalls(n ast.Node) (undo func()) {
	var renamed []*ast.Ident
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || pointerMethods[sel.Sel.Name] == "" || !f.isArrayValue(sel) {
			return true
		}
		if x, isID := sel.X.(*ast.Ident); !isID || !isVarIdent(f.info, x) {
			return true
		}
		renamed = append(renamed, sel.Sel)
		sel.Sel.Name = pointerMethods[sel.Sel.Name]
		return true
	})
	return func() {
		for _, id := range renamed {
			for from, to := range pointerMethods {
				if id.Name == to {
					id.Name = from
				}
			}
		}
	}
}

// isArrayValue reports whether sel selects a method of cuda's Array2 or
// Array3 on a value of that type.
func (f *fissioner) isArrayValue(sel *ast.SelectorExpr) bool {
	s, ok := f.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return false
	}
	named, ok := types.Unalias(s.Recv()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != cudaPath {
		return false
	}
	switch named.Obj().Name() {
	case "Array2", "Array3":
		return true
	}
	return false
}

// isVarIdent reports whether id names a variable (which is addressable).
func isVarIdent(info *types.Info, id *ast.Ident) bool {
	_, ok := info.Uses[id].(*types.Var)
	return ok
}
