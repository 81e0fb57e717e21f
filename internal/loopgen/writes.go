package loopgen

import (
	"go/ast"
	"go/token"
	"go/types"
)

// writeKind is how code changes a variable, or lets it be changed.
type writeKind int

const (
	writeAssign writeKind = iota // the left of =, := or op=
	writeIncDec                  // x++, x--
	writeDecl                    // a name of a var declaration
	writeRange                   // the key or value of a range clause (at: the RangeStmt)
	writeAddr                    // &x
	writeSlice                   // x[i:j] of an array x, which takes its address
	writeMethod                  // x.M(...) with M's receiver a pointer, which takes x's address
)

// eachWrite calls fn, in source order, for each place in n that writes an
// expression or takes its address, with the expression (x, not its root
// variable), how, and the node that does it. The analyses of what a
// kernel, a region or a helper writes all read writes through it, each
// keeping the kinds it needs.
func eachWrite(n ast.Node, info *types.Info, fn func(x ast.Expr, kind writeKind, at ast.Node)) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				fn(l, writeAssign, n)
			}
		case *ast.IncDecStmt:
			fn(n.X, writeIncDec, n)
		case *ast.ValueSpec:
			for _, id := range n.Names {
				fn(id, writeDecl, n)
			}
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if x != nil {
					fn(x, writeRange, n)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				fn(n.X, writeAddr, n)
			}
		case *ast.SliceExpr:
			if t := info.TypeOf(n.X); t != nil && isArray(t) {
				fn(n.X, writeSlice, n)
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[n]; ok && sel.Kind() == types.MethodVal {
				if _, isPtr := sel.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); isPtr {
					fn(n.X, writeMethod, n)
				}
			}
		}
		return true
	})
}

// rangeAssigns reports whether at, the node of a writeRange, assigns
// existing variables (=) rather than declaring them (:=).
func rangeAssigns(at ast.Node) bool { return at.(*ast.RangeStmt).Tok == token.ASSIGN }

// isArray reports whether t is an array type (not a pointer to one).
func isArray(t types.Type) bool {
	_, ok := t.Underlying().(*types.Array)
	return ok
}
