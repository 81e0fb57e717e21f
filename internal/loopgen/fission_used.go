package loopgen

import (
	"go/ast"
	"go/types"
)

// usedVars returns the variables that the code region r emits reads or
// writes: its pieces other than its own declarations of position
// variables, the declarations of those of them that are read (and what
// those read), and the operands a shuffle gathers. A position variable
// that only a dropped declaration of the region read needs no
// recomputation at the region's head.
func (e *emitter) usedVars(r *region) map[*types.Var]bool {
	f := e.f
	used := map[*types.Var]bool{}
	var use func(n ast.Node)
	use = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] != nil {
				if v := f.varOf(id); v != nil && !used[v] {
					used[v] = true
					if d, ok := e.defs[v]; ok && d.r == r && f.rematVars[v] {
						use(f.defRHS(d.stmt, v))
					}
				}
			}
			return true
		})
	}
	for _, p := range r.pieces {
		if p.stmt != nil && !e.isRematDef(p.stmt, r) {
			use(p.stmt)
		}
		for _, x := range p.exprs {
			use(x)
		}
		if op := p.shfl; op != nil {
			if op.valArray == "" {
				use(op.val)
			}
			if !op.laneConst {
				use(op.lane)
			}
		}
	}
	return used
}

// valueRoot returns the variable whose value e is part of: for an element
// of an array value or a field of a struct value (acc[i], p.x, a[i].y),
// the expression naming the array or struct, down to its root; e itself
// otherwise. An assignment to such a part assigns the root variable (so
// a variable whose elements the threads set is not block-uniform).
func (f *fissioner) valueRoot(e ast.Expr) ast.Expr {
	for {
		e = ast.Unparen(e)
		switch x := e.(type) {
		case *ast.IndexExpr:
			if _, isArr := f.info.TypeOf(x.X).Underlying().(*types.Array); !isArr {
				return e
			}
			e = x.X
		case *ast.SelectorExpr:
			sel, ok := f.info.Selections[x]
			if !ok || sel.Kind() != types.FieldVal || sel.Indirect() {
				return e
			}
			e = x.X
		default:
			return e
		}
	}
}
