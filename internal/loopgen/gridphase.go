package loopgen

import (
	"fmt"
	"go/ast"
	"go/token"
)

// Grid phases: a kernel that calls SyncGrid in control flow that is the
// same in every thread of its block gets a block loop too. SyncGrid cuts
// the kernel like SyncThreads, and at the cut the block loop calls
// cuda.Block.SyncGrid, which meets the grid's barrier on behalf of the
// whole block. On the cpu backend a cooperative launch runs each block's
// block loop as a coroutine that Block.SyncGrid switches out of, so the
// stretches of the kernel between grid barriers (its grid phases) run
// block by block on the worker pool, phase after phase, each block keeping
// its shared arrays, the per-thread arrays of its values live across the
// barrier and its threads' exit marks on its coroutine from one phase to
// the next (cuda/gridloop.go).
//
// The control flow around a SyncGrid need only be block-uniform: blocks
// that disagree on how many grid barriers they reach (SyncGrid under a
// condition on BlockIdx) meet the same barrier, with the same outcome, as
// on the goroutine path (cuda/gridsync.go's GridExitMsg when a block
// returns before a barrier the others wait at).

// gridNode is a SyncGrid between two regions of a block loop.
type gridNode struct{ call *ast.CallExpr }

// gridSync records the SyncGrid call, a statement of a block-level list,
// and appends its node to out. It returns the region open after it: none,
// the next statement starts a new loop over the block's threads.
func (f *fissioner) gridSync(call *ast.CallExpr, out *[]node) *region {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); !ok || !f.isThread(sel.X) {
		f.fail(call.Pos(), "SyncGrid of a Thread other than the kernel's parameter")
	}
	f.gridSyncs++
	*out = append(*out, &gridNode{call})
	return nil
}

// gridSync writes the block's grid barrier: positioned at the kernel's
// SyncGrid (a failure there, a block that returned early, is reported at
// that line), and leaving the block loop once every thread of the block
// has returned.
func (e *emitter) gridSync(n *gridNode) {
	f := e.f
	p := f.g.pkg.Fset.Position(n.call.Pos())
	exited := "nil"
	if f.exited != "" {
		exited = f.exited
	}
	fmt.Fprintf(e.w, "\n//line %s:%d\nif !%s.SyncGrid(%s) {\nreturn\n}\n", shortFile(p.Filename), p.Line, f.blk, exited)
}

// splitTuples rewrites, in the block-level statement lists (the body and
// the bodies of statements around barriers), each tuple assignment of as
// many values as variables into one assignment per variable, so that
// each variable is classified on its own: in `i, n := t.Grid1(),
// t.GridSize1()` n is the same in every thread (and so can bound a loop
// around grid barriers) while i is not. Only declarations of new
// variables are split, whose values do not name any of them (an outer
// variable of the same name: x, y := y, x in an inner scope) and cannot
// change them through a pointer; assignments (a swap) and redeclarations
// stay whole. A var declaration of several specs becomes one per spec
// (splitVarGroup).
func (f *fissioner) splitTuples(list []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, s := range list {
		if f.hasColl(s) {
			switch s := s.(type) {
			case *ast.ForStmt:
				s.Body.List = f.splitTuples(s.Body.List)
			case *ast.RangeStmt:
				s.Body.List = f.splitTuples(s.Body.List)
			case *ast.IfStmt:
				s.Body.List = f.splitTuples(s.Body.List)
				switch e := s.Else.(type) {
				case *ast.BlockStmt:
					e.List = f.splitTuples(e.List)
				case *ast.IfStmt:
					s.Else = f.splitTuples([]ast.Stmt{e})[0]
				}
			case *ast.BlockStmt:
				s.List = f.splitTuples(s.List)
			}
			out = append(out, s)
			continue
		}
		out = append(out, f.splitTuple(s)...)
	}
	return out
}

// splitTuple returns s split as splitTuples says, or s alone.
func (f *fissioner) splitTuple(s ast.Stmt) []ast.Stmt {
	if ds, ok := s.(*ast.DeclStmt); ok {
		return splitVarGroup(ds)
	}
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) || as.Tok != token.DEFINE {
		return []ast.Stmt{s}
	}
	names := map[string]bool{}
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name != "_" && f.info.Defs[id] == nil {
			return []ast.Stmt{s}
		}
		names[id.Name] = true
	}
	// Split, a later value would see an earlier new variable where it
	// names an outer one of the same name (x, y := y, x in an inner
	// scope).
	for _, r := range as.Rhs {
		shadowed := false
		ast.Inspect(r, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && names[id.Name] {
				shadowed = true
			}
			return !shadowed
		})
		if shadowed {
			return []ast.Stmt{s}
		}
	}
	var out []ast.Stmt
	for i, l := range as.Lhs {
		tok := token.DEFINE
		if l.(*ast.Ident).Name == "_" {
			tok = token.ASSIGN // _ := x is not Go; keep the evaluation
		}
		out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: as.TokPos, Tok: tok, Rhs: []ast.Expr{as.Rhs[i]}})
	}
	return out
}

// splitVarGroup returns a var declaration of several specs (`var ( a =
// tid; b = n )`, as inlining writes a helper's results) as one
// declaration per spec, so that each is classified on its own: kept
// together, a uniform b would be read at block level before the region
// that declares it. The scope of a spec's variables begins after the
// spec, so the split declares the same variables with the same values.
func splitVarGroup(ds *ast.DeclStmt) []ast.Stmt {
	gd, ok := ds.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR || len(gd.Specs) < 2 {
		return []ast.Stmt{ds}
	}
	out := make([]ast.Stmt, len(gd.Specs))
	for i, spec := range gd.Specs {
		out[i] = &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: spec.Pos(), Tok: token.VAR, Specs: []ast.Spec{spec}}}
	}
	return out
}
