package loopgen

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/ast/astutil"
)

// The flat loops of a block loop. In a one-dimensional block a thread's
// linear index is its x index, so each region is written twice: a loop for
// flat blocks, in which the thread's t.ThreadIdx().X is the loop's index
// and its t.Grid1() the block's first grid x plus that index (no unpacking
// of the thread's position, nothing loaded per thread), and the general
// loop for blocks of two or three dimensions, which carries the thread's
// x, y and z in the block beside its linear index (cuda.Block.Step), in
// which t.ThreadIdx() and t.Grid1/2/3() are computed from those.

// flatten rewrites, in place, the thread's position in n to the loop's
// variables (positionText), and returns the tree to print (n, or what
// replaced it) with a function that restores n.
func (f *fissioner) flatten(n ast.Node) (ast.Node, func()) {
	if !f.flatMode && !f.gridMode || f.thread == nil {
		return n, func() {}
	}
	orig := map[*ast.Ident]ast.Expr{}
	root := astutil.Apply(n, func(c *astutil.Cursor) bool {
		x, ok := c.Node().(ast.Expr)
		if !ok {
			return true
		}
		switch c.Parent().(type) {
		case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
			// A call as a statement must stay a call.
			return true
		}
		text := f.positionText(x)
		if text == "" {
			return true
		}
		id := &ast.Ident{NamePos: x.Pos(), Name: text}
		orig[id] = x
		c.Replace(id)
		return false
	}, nil)
	if len(orig) == 0 {
		return n, func() {}
	}
	return root, func() {
		astutil.Apply(root, func(c *astutil.Cursor) bool {
			if id, ok := c.Node().(*ast.Ident); ok {
				if x, ok := orig[id]; ok {
					c.Replace(x)
				}
			}
			return true
		}, nil)
	}
}

// threadCall reports whether x is a call, without arguments, of the
// Thread parameter's method name.
func (f *fissioner) threadCall(x ast.Expr, name string) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	m, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && m.Sel.Name == name && f.isThread(m.X)
}

// isThreadX reports whether x is t.ThreadIdx().X.
func (f *fissioner) isThreadX(x ast.Expr) bool {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "X" && f.threadCall(sel.X, "ThreadIdx")
}

// isGrid1 reports whether x is t.Grid1().
func (f *fissioner) isGrid1(x ast.Expr) bool { return f.threadCall(x, "Grid1") }

// positionText returns the text that the loop being written computes x,
// a call of one of the thread's position methods, with, or "" when x is
// not one or the loop does not carry the position.
func (f *fissioner) positionText(x ast.Expr) string {
	if f.flatMode {
		switch {
		case f.isThreadX(x):
			return f.ti
		case f.isGrid1(x):
			return "(" + f.x0 + " + " + f.ti + ")"
		}
		return ""
	}
	if !f.gridMode {
		return ""
	}
	if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok && f.threadCall(sel.X, "ThreadIdx") {
		switch sel.Sel.Name {
		case "X":
			return f.tx
		case "Y":
			return f.ty
		case "Z":
			return f.tz
		}
	}
	switch {
	case f.threadCall(x, "ThreadIdx"):
		return fmt.Sprintf("%s.Dim3{X: %s, Y: %s, Z: %s}", f.cuda, f.tx, f.ty, f.tz)
	case f.isGrid1(x):
		return "(" + f.x0 + " + " + f.tx + ")"
	case f.threadCall(x, "Grid2"):
		return fmt.Sprintf("%s.Grid2At(%s, %s)", f.blk, f.tx, f.ty)
	case f.threadCall(x, "Grid3"):
		return fmt.Sprintf("%s.Grid3At(%s, %s, %s)", f.blk, f.tx, f.ty, f.tz)
	}
	return ""
}
