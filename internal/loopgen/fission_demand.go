package loopgen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// Demanded threads of a region. The demand analysis of fused shuffles
// (fission_warp.go) also tells which threads' values of a region's
// per-thread variables later code reads: before the second tree of a
// two-level warp reduction,
//
//	v = 0
//	if tid < Block/32 { v = warpSums[tid] }
//	for off := 16; off > 0; off /= 2 { v += cuda.ShflDownSync(t, v, off) }
//	if tid == 0 { sums[b] = v }
//
// only warp 0's lanes of v are read, so the region computing v need visit
// threads [0, 32) only. In flat blocks (where the loop's index is the
// thread's x index) the region's loop then stops at that bound, when
// skipping the other threads changes nothing observable:
//
//   - every variable the region assigns is either local to the region or
//     a per-thread array whose later reads are all within the bound;
//   - in a skipped thread no statement can panic, loop or touch memory:
//     the statements are assignments to local variables of expressions
//     that cannot panic (no index, no call but the Thread's position
//     methods and len, cap, min, max and conversions to basic types, no
//     integer division or shift by a non-constant), and ifs whose
//     condition is false in every skipped thread (tid < k, tid <= k,
//     tid == k, k a constant within the bound) guard anything else.
//
// Anything else keeps the loop over every thread, so a thread that would
// panic still panics and the launch fails as on the goroutine path.

// planRestrict records, for each region of ns (and of the lists nested in
// it) that may skip threads, the number of leading threads it must visit
// in flat blocks. It runs after planList, when every fusion is known.
func (e *emitter) planRestrict(ns []node, top bool) {
	f := e.f
	for i, n := range ns {
		switch n := n.(type) {
		case *region:
			if hi, ok := e.demandedThreads(ns, i, n, top); ok {
				f.restricted[n] = hi
			}
		case *forNode:
			e.planRestrict(n.body, false)
		case *ifElseNode:
			e.planRestrict(n.then, false)
			e.planRestrict(n.els, false)
		case *blockNode:
			e.planRestrict(n.body, false)
		}
	}
}

// demandedThreads returns the bound of region r = ns[i]: the threads
// [0, hi) whose values later code may read, when hi is below a block and
// the threads from hi on may be skipped (see above).
func (e *emitter) demandedThreads(ns []node, i int, r *region, top bool) (int, bool) {
	if r.returns || len(r.pieces) == 0 {
		return 0, false
	}
	if lane, _ := e.laneStep(r); lane {
		return 0, false // already visits lane 0 of each warp only
	}
	if _, _, ok := e.bounds(r); ok {
		return 0, false // already bounded by its guard
	}
	for _, p := range r.pieces {
		if p.stmt == nil || p.shfl != nil || p.text != "" {
			return 0, false
		}
	}
	// The per-thread variables r writes, and what later code reads of them.
	written := map[*types.Var]bool{}
	for v, arr := range e.arrays {
		if arr == "" || e.regionRefs == nil || !e.regionRefs[r.id][v] {
			continue
		}
		if e.defs[v].r == r {
			written[v] = true
			continue
		}
		for _, p := range r.pieces {
			if e.assigns(p.stmt, v) {
				written[v] = true
			}
		}
	}
	if len(written) == 0 {
		return 0, false
	}
	d := demand{threads: 0}
	for v := range written {
		d = d.join(e.demandFrom(ns, i+1, v, top))
	}
	hi := -1
	switch {
	case d.threads < 0:
		return 0, false
	case d.threads == 0 || d.lanes == 0:
		hi = 0
	case d.threads <= warpLanes:
		hi = d.lanes
	default:
		hi = (d.threads + warpLanes - 1) / warpLanes * warpLanes
	}
	if hi >= 1<<20 {
		return 0, false
	}
	s := skipCheck{e: e, r: r, hi: int64(hi)}
	for _, p := range r.pieces {
		if !s.stmt(p.stmt) {
			return 0, false
		}
	}
	return hi, true
}

// restrictedHi returns the bound a region's flat loop stops at, if any.
func (e *emitter) restrictedHi(r *region) (string, bool) {
	hi, ok := e.f.restricted[r]
	if !ok {
		return "", false
	}
	return fmt.Sprintf("min(%d, %s)", hi, e.f.n), true
}

// skipCheck proves that the statements of region r do nothing observable
// in a flat block's threads hi and above.
type skipCheck struct {
	e  *emitter
	r  *region
	hi int64
}

// stmt reports whether s, run by a thread at or above the bound, can
// neither panic, loop, nor change anything but local variables.
func (s skipCheck) stmt(st ast.Stmt) bool {
	switch st := st.(type) {
	case nil:
		return true
	case *ast.EmptyStmt:
		return true
	case *ast.BlockStmt:
		for _, x := range st.List {
			if !s.stmt(x) {
				return false
			}
		}
		return true
	case *ast.AssignStmt:
		if len(st.Lhs) != len(st.Rhs) && !(len(st.Rhs) == 1 && s.positionCall(st.Rhs[0])) {
			return false
		}
		switch st.Tok {
		case token.ASSIGN, token.DEFINE, token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN,
			token.AND_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN, token.AND_NOT_ASSIGN:
		case token.QUO_ASSIGN, token.REM_ASSIGN:
			if !s.safeDivisor(st.Lhs[0], st.Rhs[0]) {
				return false
			}
		default:
			return false
		}
		for _, l := range st.Lhs {
			if !s.localLHS(l) {
				return false
			}
		}
		for _, x := range st.Rhs {
			if !s.expr(x) {
				return false
			}
		}
		return true
	case *ast.IncDecStmt:
		return s.localLHS(st.X)
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return gd != nil && (gd.Tok == token.CONST || gd.Tok == token.TYPE)
		}
		for _, spec := range gd.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok {
				return false
			}
			for _, x := range vs.Values {
				if !s.expr(x) {
					return false
				}
			}
		}
		return true
	case *ast.IfStmt:
		if st.Init != nil {
			return false
		}
		if s.falseAbove(st.Cond) {
			// The body never runs at or above the bound.
			return st.Else == nil || s.stmt(st.Else)
		}
		return s.expr(st.Cond) && s.stmt(st.Body) && s.stmt(st.Else)
	}
	return false
}

// localLHS reports whether x is a variable that is either a per-thread
// array's (whose reads the demand covers) or declared inside the region.
func (s skipCheck) localLHS(x ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "_" {
		return true
	}
	v := s.e.f.varOf(id)
	if v == nil {
		return false
	}
	if s.e.arrays[v] != "" {
		return true
	}
	for _, p := range s.r.pieces {
		if p.stmt != nil && p.stmt.Pos() <= v.Pos() && v.Pos() < p.stmt.End() {
			return true
		}
	}
	return false
}

// falseAbove reports whether cond is false for every flat thread at or
// above the bound: tid < k with k <= hi, tid <= k or tid == k with k < hi.
func (s skipCheck) falseAbove(cond ast.Expr) bool {
	e := s.e
	op, y, ok := e.tidCompare(cond)
	if !ok {
		return false
	}
	k, ok := e.constInt(y)
	if !ok {
		return false
	}
	switch op {
	case token.LSS:
		return k <= s.hi
	case token.LEQ, token.EQL:
		return k < s.hi
	}
	return false
}

// positionMethods are the Thread's methods without arguments that only
// tell the thread's position or the launch's shape.
var positionMethods = map[string]bool{
	"ThreadIdx": true, "BlockIdx": true, "BlockDim": true, "GridDim": true,
	"Grid1": true, "Grid2": true, "Grid3": true, "GridSize1": true, "GridSize2": true, "GridSize3": true,
	"LaneID": true, "WarpSize": true,
}

// positionCall reports whether x calls one of the Thread's position
// methods.
func (s skipCheck) positionCall(x ast.Expr) bool {
	c, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	return ok && positionMethods[sel.Sel.Name] && s.e.f.isThread(sel.X)
}

// safeDivisor reports whether dividing x by y cannot panic: a float or
// complex division, or an integer divisor that is a nonzero constant.
func (s skipCheck) safeDivisor(x, y ast.Expr) bool {
	info := s.e.f.info
	if b, ok := info.TypeOf(x).Underlying().(*types.Basic); ok && b.Info()&(types.IsFloat|types.IsComplex) != 0 {
		return true
	}
	k, ok := s.e.constInt(y)
	return ok && k != 0
}

// expr reports whether evaluating x cannot panic, loop or touch memory.
func (s skipCheck) expr(x ast.Expr) bool {
	e := s.e
	info := e.f.info
	if tv, ok := info.Types[x]; ok && tv.Value != nil {
		return true
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return s.expr(x.X)
	case *ast.Ident:
		_, isVar := info.Uses[x].(*types.Var)
		return isVar || info.Uses[x] == types.Universe.Lookup("nil") || info.Defs[x] != nil
	case *ast.BasicLit:
		return true
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD || x.Op == token.XOR || x.Op == token.NOT) && s.expr(x.X)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.QUO, token.REM:
			if !s.safeDivisor(x.X, x.Y) {
				return false
			}
		case token.SHL, token.SHR:
			if k, ok := e.constInt(x.Y); !ok || k < 0 {
				if b, isB := info.TypeOf(x.Y).Underlying().(*types.Basic); !isB || b.Info()&types.IsUnsigned == 0 {
					return false
				}
			}
		}
		return s.expr(x.X) && s.expr(x.Y)
	case *ast.SelectorExpr:
		// A field of a struct value (t.ThreadIdx().X), not through a pointer.
		sel, ok := info.Selections[x]
		if !ok || sel.Kind() != types.FieldVal || sel.Indirect() {
			return false
		}
		if _, isPtr := info.TypeOf(x.X).Underlying().(*types.Pointer); isPtr {
			return false
		}
		return s.expr(x.X)
	case *ast.CallExpr:
		if s.positionCall(x) {
			return true
		}
		if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
			_, basic := tv.Type.Underlying().(*types.Basic)
			return basic && len(x.Args) == 1 && s.expr(x.Args[0])
		}
		id, ok := ast.Unparen(x.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		b, ok := info.Uses[id].(*types.Builtin)
		if !ok {
			return false
		}
		switch b.Name() {
		case "len", "cap", "min", "max":
			for _, a := range x.Args {
				if !s.expr(a) {
					return false
				}
			}
			return true
		}
	}
	return false
}
