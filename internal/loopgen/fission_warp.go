package loopgen

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// Fused shuffles. A shuffle whose region only folds the shuffled value
// into the variable it shuffles (`v += cuda.ShflDownSync(t, v, off)`, v
// living across the exchange in a per-thread array) needs neither the
// exchange's scratch copy nor a region loop over the block's threads:
// each lane's v is updated in place in the lane array, in ascending lane
// order for a shuffle down (lane i reads lane i+d, not yet updated) and
// descending for a shuffle up. Each lane computes exactly what its thread
// computes on the goroutine path: the same operation on the same operands
// in the same order, reading its own value where the source lane is
// outside the warp or has exited.
//
// Demanded lanes. Working backward from the statements after a shuffle,
// only some lanes' values may ever be read: after a ShflDownSync tree, a
// reduction reads lane 0 only (`if lane == 0 { sums[warp] = v }`) and then
// overwrites v (`v = 0`), or reaches the end of the kernel. A demand is a
// prefix of lanes of each warp and a prefix of the block's threads; a
// shuffle down by d that must produce lanes [0, k) reads lanes [0, k+d),
// and a halving tree `for off := S; off > 0; off /= 2` whose lane 0 alone
// is read after it computes lanes [0, off) in the round with offset off
// (the next round reads [0, 2·off/2)). Lanes nobody reads are not
// computed; the operations allowed (+, -, *, &, |, ^, &^) cannot panic, so
// skipping them changes nothing observable. Anything the analysis does
// not understand demands every lane.

// fusion is a shuffle computed in place (see above).
type fusion struct {
	op       *shuffleOp
	exchange *textNode
	r        *region // the region reading the exchange's result
	// rest are r's pieces after the fused statement.
	rest []piece
	v    *types.Var
	arr  string      // v's per-thread array
	tok  token.Token // the assignment operator of `v op= shuffle`
	// lanes is the prefix of each warp's lanes computed; loop means the
	// round with offset off computes min(off, 32) lanes instead.
	lanes int
	loop  bool
	// threads is the prefix of the block's threads computed, -1 for all.
	threads int
	// flat is whether lanes and threads rely on a one-dimensional block
	// (guards on t.ThreadIdx().X); other blocks compute every lane.
	flat bool
}

// demand is which values of a variable later code reads: lanes [0, lanes)
// of each warp among threads [0, threads) (-1: all threads).
type demand struct {
	lanes, threads int
	flat           bool
}

var demandAll = demand{lanes: warpLanes, threads: -1}

// warpLanes is the number of lanes in a warp.
const warpLanes = 32

func (a demand) join(b demand) demand {
	d := demand{lanes: max(a.lanes, b.lanes), flat: a.flat || b.flat}
	if a.threads < 0 || b.threads < 0 {
		d.threads = -1
	} else {
		d.threads = max(a.threads, b.threads)
	}
	return d
}

// foldOps are the assignment operators a fused shuffle may apply: they
// cannot panic, so lanes nobody reads may be skipped.
var foldOps = map[token.Token]bool{
	token.ADD_ASSIGN: true, token.SUB_ASSIGN: true, token.MUL_ASSIGN: true,
	token.AND_ASSIGN: true, token.OR_ASSIGN: true, token.XOR_ASSIGN: true, token.AND_NOT_ASSIGN: true,
}

// planWarps finds the shuffles of body that can be computed in place and
// the lanes they must compute, and drops the per-thread scratch arrays
// nothing uses any more.
func (f *fissioner) planWarps(body []node, defs map[*types.Var]topDef, regionRefs []map[*types.Var]bool, arrays map[*types.Var]string) {
	f.fused = map[*textNode]*fusion{}
	e := &emitter{f: f, defs: defs, regionRefs: regionRefs, arrays: arrays}
	e.planList(body, true)
	f.restricted = map[*region]int{}
	e.planRestrict(body, true)
	unused := map[string]bool{}
	for _, op := range f.shuffles {
		if op.valArray != "" {
			unused[op.vals] = true
		}
		if op.laneConst {
			unused[op.lanes] = true
		}
	}
	for _, fu := range f.fused {
		unused[fu.op.out] = true
	}
	f.scratch = slices.DeleteFunc(f.scratch, func(s scratchVar) bool { return unused[s.name] })
}

// fusableStmt checks that the first of a region's pieces is `v op=
// shuffle result`.
func (e *emitter) fusableStmt(op *shuffleOp, r *region, pieces []piece) *fusion {
	f := e.f
	if len(pieces) == 0 || pieces[0].stmt == nil {
		return nil
	}
	stmt := pieces[0].stmt
	as, ok := stmt.(*ast.AssignStmt)
	if !ok || !foldOps[as.Tok] || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	v := f.varOf(id)
	if v == nil || e.arrays[v] == "" || e.arrays[v] != op.valArray {
		return nil
	}
	if res, ok := as.Rhs[0].(*ast.Ident); !ok || res.Name != op.out+"["+f.ti+"]" {
		return nil
	}
	return &fusion{op: op, r: r, rest: pieces[1:], v: v, arr: e.arrays[v], tok: as.Tok, lanes: warpLanes, threads: -1}
}

// idle reports whether pieces do nothing in a region's loop: they gather
// operands already in arrays.
func idle(pieces []piece) bool {
	for _, p := range pieces {
		if p.shfl == nil || p.shfl.valArray == "" || !p.shfl.laneConst {
			return false
		}
	}
	return true
}

// pairAt returns the fusion of ns[i] and ns[i+1], or nil.
func (e *emitter) pairAt(ns []node, i int) *fusion {
	if i+1 >= len(ns) {
		return nil
	}
	tn, ok := ns[i].(*textNode)
	r, ok2 := ns[i+1].(*region)
	if !ok || !ok2 || tn.shfl == nil {
		return nil
	}
	op := tn.shfl
	if op.valArray == "" || !op.laneConst || (op.kind != "ShuffleDown" && op.kind != "ShuffleUp") {
		return nil
	}
	if len(r.prelude) != 0 || r.returns {
		return nil
	}
	return e.fusableStmt(op, r, r.pieces)
}

// treeLoop returns the fusion of a halving shuffle-down tree loop
// `for off := S; off > 0; off /= 2 { v op= ShflDownSync(t, v, off) }`, or
// nil.
func (e *emitter) treeLoop(n node) *fusion {
	f := e.f
	fn, ok := n.(*forNode)
	if !ok || fn.noCond {
		return nil
	}
	loop, ok := fn.loop.(*ast.ForStmt)
	if !ok || loop.Init == nil || loop.Cond == nil || loop.Post == nil {
		return nil
	}
	// The body: the region gathering the shuffle's operands (nothing to
	// gather: v's array, a uniform lane), the exchange, the region
	// reading its result.
	i := 0
	if len(fn.body) == 3 {
		r, ok := fn.body[0].(*region)
		if !ok || len(r.prelude) != 0 || r.returns || !idle(r.pieces) {
			return nil
		}
		i = 1
	}
	if len(fn.body) != i+2 {
		return nil
	}
	fu := e.pairAt(fn.body, i)
	if fu == nil || fu.op.kind != "ShuffleDown" || !idle(fu.rest) {
		return nil
	}
	fu.exchange = fn.body[i].(*textNode)
	init, ok := loop.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil
	}
	off := f.varOf(init.Lhs[0].(*ast.Ident))
	isOff := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && off != nil && f.varOf(id) == off
	}
	if !isOff(fu.op.lane) || fu.v == off {
		return nil
	}
	cond, ok := ast.Unparen(loop.Cond).(*ast.BinaryExpr)
	if !ok || cond.Op != token.GTR || !isOff(cond.X) || !e.isConst(cond.Y, 0) {
		return nil
	}
	post, ok := loop.Post.(*ast.AssignStmt)
	if !ok || len(post.Lhs) != 1 || !isOff(post.Lhs[0]) ||
		!(post.Tok == token.QUO_ASSIGN && e.isConst(post.Rhs[0], 2) || post.Tok == token.SHR_ASSIGN && e.isConst(post.Rhs[0], 1)) {
		return nil
	}
	return fu
}

// plannedTree returns the planned fusion of a shuffle tree loop, or nil.
// (Once planned, the loop's region no longer starts with the fused
// statement, so treeLoop would not know it again.)
func (e *emitter) plannedTree(n *forNode) *fusion {
	for _, c := range n.body {
		if tn, ok := c.(*textNode); ok {
			if fu := e.f.fused[tn]; fu != nil && fu.exchange == tn {
				return fu
			}
		}
	}
	return nil
}

// isConst reports whether x is the integer constant c.
func (e *emitter) isConst(x ast.Expr, c int64) bool {
	k, ok := e.constInt(x)
	return ok && k == c
}

// constInt returns the value of an integer constant expression.
func (e *emitter) constInt(x ast.Expr) (int64, bool) {
	tv, ok := e.f.info.Types[x]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

// planList plans the fusions of one block-level list, from its end
// backward so that each knows what the code after it reads. top is
// whether ns is the kernel's body (after which nothing is read).
func (e *emitter) planList(ns []node, top bool) {
	f := e.f
	for i := len(ns) - 1; i >= 0; i-- {
		switch n := ns[i].(type) {
		case *forNode:
			if fu := e.treeLoop(n); fu != nil {
				after := e.demandFrom(ns, i+1, fu.v, top)
				fu.threads, fu.flat = after.threads, after.flat
				fu.loop = after.lanes <= 1
				f.fused[fu.exchange] = fu
				fu.r.pieces = fu.rest
				continue
			}
			e.planList(n.body, false)
		case *ifElseNode:
			e.planList(n.then, false)
			e.planList(n.els, false)
		case *blockNode:
			e.planList(n.body, false)
		case *textNode:
			if fu := e.pairAt(ns, i); fu != nil {
				// The region goes on with the statements after the fused one.
				fu.r.pieces = fu.rest
				after := e.demandFrom(ns, i+1, fu.v, top)
				fu.lanes, fu.threads, fu.flat = after.lanes, after.threads, after.flat
				f.fused[n] = fu
			}
		}
	}
}

// before returns what a planned fusion reads, given that it computes
// lanes [0, fu.lanes): the lanes it computes and those they read.
func (e *emitter) before(fu *fusion) demand {
	d := demand{lanes: fu.lanes, threads: fu.threads, flat: fu.flat}
	if fu.loop {
		d.lanes = warpLanes
		return d
	}
	if d.lanes == 0 {
		return d
	}
	c, ok := e.constInt(fu.op.lane)
	if !ok {
		d.lanes = warpLanes
		return d
	}
	if fu.op.kind == "ShuffleDown" {
		d.lanes = min(warpLanes, d.lanes+int(c&(warpLanes-1)))
	}
	return d
}

// demandFrom returns which of v's values the nodes ns[i:] read before
// they overwrite v in every thread.
func (e *emitter) demandFrom(ns []node, i int, v *types.Var, top bool) demand {
	f := e.f
	acc := demand{threads: 0}
	for ; i < len(ns); i++ {
		switch n := ns[i].(type) {
		case *textNode:
			if fu := f.fused[n]; fu != nil && fu.v == v {
				return acc.join(e.before(fu))
			}
			if n.shfl != nil && n.shfl.valArray == e.arrays[v] {
				return demandAll
			}
		case *forNode:
			if fu := e.plannedTree(n); fu != nil && fu.v == v {
				return acc.join(e.before(fu))
			}
			if e.mentionsNodes(n.body, v) || e.mentions(n.loop, v) {
				return demandAll
			}
		case *ifElseNode:
			if e.mentionsNodes(n.then, v) || e.mentionsNodes(n.els, v) || e.mentions(n.s, v) {
				return demandAll
			}
		case *blockNode:
			if e.mentionsNodes(n.body, v) {
				return demandAll
			}
		case *stmtNode:
			if e.mentions(n.stmt, v) {
				return demandAll
			}
		case *breakNode:
			if e.mentions(n.cond, v) {
				return demandAll
			}
		case *region:
			d, killed, ok := e.regionDemand(n, v)
			if !ok {
				return demandAll
			}
			acc = acc.join(d)
			if killed {
				return acc
			}
		}
	}
	if top {
		return acc
	}
	return demandAll
}

// regionDemand returns which of v's values region r reads, whether r then
// overwrites v in every thread, and false when it cannot tell.
func (e *emitter) regionDemand(r *region, v *types.Var) (d demand, killed, ok bool) {
	f := e.f
	for _, p := range r.prelude {
		if p.stmt != nil && e.mentions(p.stmt, v) {
			return d, false, false
		}
	}
	for _, p := range r.pieces {
		if p.stmt == nil {
			for _, x := range p.exprs {
				if e.mentions(x, v) {
					return d, false, false
				}
			}
			if op := p.shfl; op != nil && (op.valArray == "" && e.mentions(op.val, v) || !op.laneConst && e.mentions(op.lane, v)) {
				return d, false, false
			}
			continue
		}
		if !e.mentions(p.stmt, v) {
			continue
		}
		// v = x, x not reading v: every thread overwrites v.
		if as, isAs := p.stmt.(*ast.AssignStmt); isAs && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
			if id, isId := as.Lhs[0].(*ast.Ident); isId && f.varOf(id) == v && !e.mentions(as.Rhs[0], v) {
				return d, true, true
			}
		}
		g, isGuard := e.guard(p.stmt, v)
		if !isGuard {
			return d, false, false
		}
		d = d.join(g)
	}
	return d, false, true
}

// guard returns what `if c { ... }` reads of v when c holds for lane 0
// of each warp only (lane == 0, tid%32 == 0, t.LaneID() == 0), for thread
// 0 only (tid == 0) or for threads [0, k) (tid < k, k constant), and the
// body only reads v.
func (e *emitter) guard(s ast.Stmt, v *types.Var) (demand, bool) {
	is, ok := s.(*ast.IfStmt)
	if !ok || is.Init != nil || is.Else != nil || e.mentions(is.Cond, v) || e.assigns(is.Body, v) {
		return demand{}, false
	}
	be, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	if !ok {
		return demand{}, false
	}
	x, y := be.X, be.Y
	switch be.Op {
	case token.EQL:
		if e.isConst(x, 0) {
			x, y = y, x
		}
		if !e.isConst(y, 0) {
			return demand{}, false
		}
		if e.isTid(x) {
			return demand{lanes: 1, threads: 1, flat: true}, true
		}
		if flat, ok := e.isLane(x); ok {
			return demand{lanes: 1, threads: -1, flat: flat}, true
		}
	case token.LSS:
		if k, isK := e.constInt(y); isK && e.isTid(x) && k >= 0 && k <= 1<<20 {
			return demand{lanes: warpLanes, threads: int(k), flat: true}, true
		}
	}
	return demand{}, false
}

// isLane reports whether x is the thread's lane: t.LaneID(), or (flat:
// in one-dimensional blocks) tid%32 or tid&31 with tid the thread's x
// index, or a variable recomputed as one of those.
func (e *emitter) isLane(x ast.Expr) (flat, ok bool) {
	f := e.f
	if _, isID := ast.Unparen(x).(*ast.Ident); isID {
		def, ok := e.positionDef(x)
		if !ok {
			return false, false
		}
		return e.isLane(def)
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		m, isSel := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		return false, isSel && len(x.Args) == 0 && m.Sel.Name == "LaneID" && f.isThread(m.X)
	case *ast.BinaryExpr:
		if x.Op == token.REM && e.isConst(x.Y, warpLanes) || x.Op == token.AND && e.isConst(x.Y, warpLanes-1) {
			return true, e.isTid(x.X)
		}
	}
	return false, false
}

// mentions reports whether n refers to v.
func (e *emitter) mentions(n ast.Node, v *types.Var) bool {
	found := false
	if n == nil {
		return false
	}
	ast.Inspect(n, func(c ast.Node) bool {
		if id, ok := c.(*ast.Ident); ok && e.f.varOf(id) == v {
			found = true
		}
		return !found
	})
	return found
}

// assigns reports whether n assigns to v.
func (e *emitter) assigns(n ast.Node, v *types.Var) bool {
	found := false
	eachWrite(n, e.f.info, func(x ast.Expr, kind writeKind, _ ast.Node) {
		switch kind {
		case writeAssign, writeIncDec, writeAddr:
			if id, ok := ast.Unparen(x).(*ast.Ident); ok && e.f.varOf(id) == v {
				found = true
			}
		}
	})
	return found
}

// mentionsNodes reports whether the block-level nodes ns read or write v.
func (e *emitter) mentionsNodes(ns []node, v *types.Var) bool {
	for _, n := range ns {
		switch n := n.(type) {
		case *region:
			if e.regionRefs != nil && e.regionRefs[n.id][v] {
				return true
			}
			if _, _, ok := e.regionDemand(n, v); !ok {
				return true
			}
			for _, p := range n.pieces {
				if p.stmt != nil && e.mentions(p.stmt, v) {
					return true
				}
			}
		case *textNode:
			if n.shfl != nil && n.shfl.valArray == e.arrays[v] {
				return true
			}
		case *forNode:
			if e.mentionsNodes(n.body, v) || e.mentions(n.loop, v) {
				return true
			}
		case *ifElseNode:
			if e.mentionsNodes(n.then, v) || e.mentionsNodes(n.els, v) || e.mentions(n.s, v) {
				return true
			}
		case *blockNode:
			if e.mentionsNodes(n.body, v) {
				return true
			}
		case *stmtNode:
			if e.mentions(n.stmt, v) {
				return true
			}
		case *breakNode:
			if e.mentions(n.cond, v) {
				return true
			}
		}
	}
	return false
}

// fusedExchange writes a planned fusion: the shuffle and the statement
// reading it, in place over v's lane array.
func (e *emitter) fusedExchange(fu *fusion) {
	f, w := e.f, e.w
	a, k, t := f.name("nugoD"), f.name("nugoK"), f.name("nugoT")
	base, end, lim, i, j := f.name("nugoW"), f.name("nugoE"), f.name("nugoL"), f.name("nugoI"), f.name("nugoJ")
	lane := f.print(fu.op.lane)
	fmt.Fprintf(w, "{\n%s := int(%s) & %d\n", a, lane, warpLanes-1)
	lanes := fmt.Sprint(fu.lanes)
	if fu.loop {
		lanes = fmt.Sprintf("min(int(%s), %d)", lane, warpLanes)
	}
	threads := f.n
	if fu.threads >= 0 {
		threads = fmt.Sprintf("min(%d, %s)", fu.threads, f.n)
	}
	fmt.Fprintf(w, "%s, %s := %s, %s\n_, _ = %s, %s\n", k, t, lanes, threads, k, t)
	if fu.flat && (fu.lanes < warpLanes || fu.loop || fu.threads >= 0) {
		fmt.Fprintf(w, "if !%s.Flat() {\n%s, %s = %d, %s\n}\n", f.blk, k, t, warpLanes, f.n)
	}
	fmt.Fprintf(w, "for %s := 0; %s < %s; %s += %d {\n", base, base, t, base, warpLanes)
	fmt.Fprintf(w, "%s := min(%s+%d, %s)\n%s := min(%s+%s, %s)\n", end, base, warpLanes, f.n, lim, base, k, end)
	arr, op := fu.arr, fu.tok.String()
	if f.exited != "" {
		if fu.op.kind == "ShuffleDown" {
			fmt.Fprintf(w, "for %s := %s; %s < %s; %s++ {\n", i, base, i, lim, i)
			fmt.Fprintf(w, "if %s[%s] {\ncontinue\n}\n%s := %s + %s\nif %s >= %s || %s[%s] {\n%s = %s\n}\n", f.exited, i, j, i, a, j, end, f.exited, j, j, i)
		} else {
			fmt.Fprintf(w, "for %s := %s - 1; %s >= %s; %s-- {\n", i, lim, i, base, i)
			fmt.Fprintf(w, "if %s[%s] {\ncontinue\n}\n%s := %s - %s\nif %s < %s || %s[%s] {\n%s = %s\n}\n", f.exited, i, j, i, a, j, base, f.exited, j, j, i)
		}
		fmt.Fprintf(w, "%s[%s] %s %s[%s]\n}\n}\n}\n", arr, i, op, arr, j)
		return
	}
	m := f.name("nugoM")
	if fu.op.kind == "ShuffleDown" {
		// Lanes [base, m) read lane i+d inside the warp; [m, lim) their own.
		fmt.Fprintf(w, "%s := max(min(%s, %s-%s), %s)\n", m, lim, end, a, base)
		fmt.Fprintf(w, "for %s := %s; %s < %s; %s++ {\n%s[%s] %s %s[%s+%s]\n}\n", i, base, i, m, i, arr, i, op, arr, i, a)
		fmt.Fprintf(w, "for %s := %s; %s < %s; %s++ {\n%s[%s] %s %s[%s]\n}\n", i, m, i, lim, i, arr, i, op, arr, i)
	} else {
		// Lanes [m, lim) read lane i-d, downward; [base, m) their own.
		fmt.Fprintf(w, "%s := min(%s+%s, %s)\n", m, base, a, lim)
		fmt.Fprintf(w, "for %s := %s - 1; %s >= %s; %s-- {\n%s[%s] %s %s[%s-%s]\n}\n", i, lim, i, m, i, arr, i, op, arr, i, a)
		fmt.Fprintf(w, "for %s := %s; %s < %s; %s++ {\n%s[%s] %s %s[%s]\n}\n", i, base, i, m, i, arr, i, op, arr, i)
	}
	w.WriteString("}\n}\n")
}

// laneStep reports whether region r is made of one if whose condition
// holds for lane 0 of each warp only (if lane == 0, if tid%32 == 0, if
// t.LaneID() == 0): only lane 0 of each warp does anything there, so the
// loop may visit lanes 0 only, stepping over warps; flatOnly when the
// condition computes the lane from ThreadIdx().X, the lane in
// one-dimensional blocks only.
func (e *emitter) laneStep(r *region) (ok, flatOnly bool) {
	if len(r.pieces) != 1 || r.pieces[0].stmt == nil {
		return false, false
	}
	is, isIf := r.pieces[0].stmt.(*ast.IfStmt)
	if !isIf || is.Init != nil || is.Else != nil {
		return false, false
	}
	be, isBin := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	if !isBin || be.Op != token.EQL {
		return false, false
	}
	x, y := be.X, be.Y
	if e.isConst(x, 0) {
		x, y = y, x
	}
	if !e.isConst(y, 0) {
		return false, false
	}
	flat, lane := e.isLane(x)
	return lane, flat
}

// collOnlyInHead reports whether the warp operations of if statement s sit
// in its init statement and condition only, which every thread evaluates,
// and are not reducing barriers (whose uniform result keeps ifs around
// barriers Go ifs).
func (f *fissioner) collOnlyInHead(s *ast.IfStmt) bool {
	if f.hasColl(s.Body) || s.Else != nil && f.hasColl(s.Else) {
		return false
	}
	reduce := false
	ast.Inspect(s, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if k, _ := f.g.collective(call); k == collReduce || k == collBarrier {
				reduce = true
			}
		}
		return !reduce
	})
	return !reduce
}

// gatherMasked gathers the operands of c, a warp operation with member
// masks (or UniSync, MatchAnySync, MatchAllSync, t.SyncWarpMask), into
// per-thread arrays in region r, records in repl what replaces the call,
// and returns the exchange to run after r (cuda.BlockShuffleMask and
// friends, written with %[1]s for cuda's import name and %[2]s for the
// exited flags). n is the statement the call sits in.
func (f *fissioner) gatherMasked(n ast.Node, c *ast.CallExpr, name string, r *region, repl map[*ast.CallExpr]string) string {
	args := c.Args
	if name == "SyncWarpMask" {
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok || !f.isThread(sel.X) {
			f.fail(c.Pos(), "SyncWarpMask of a Thread other than the kernel's parameter")
		}
		ms := f.scratchOf("nugoMask", types.Typ[types.Uint32])
		r.pieces = append(r.pieces, piece{text: ms + "[" + f.ti + "] = %s", exprs: []ast.Expr{args[0]}})
		repl[c] = "_"
		return fmt.Sprintf("%%[1]s.BlockSyncWarpMask(%s, %s, %%[2]s)", f.blk, ms)
	}
	if !f.isThread(args[0]) {
		f.fail(c.Pos(), "%s of a Thread other than the kernel's parameter", name)
	}
	masked := strings.HasSuffix(name, "Mask")
	base := strings.TrimSuffix(name, "Mask")
	masks := "nil"
	ops := args[1:]
	var text []string
	var exprs []ast.Expr
	gatherInto := func(arr, conv string, x ast.Expr) {
		text = append(text, arr+"["+f.ti+"] = "+conv+"(%s)")
		exprs = append(exprs, x)
	}
	if masked {
		masks = f.scratchOf("nugoMask", types.Typ[types.Uint32])
		gatherInto(masks, "uint32", ops[0])
		ops = ops[1:]
	}
	var post string
	switch base {
	case "ShflSync", "ShflDownSync", "ShflUpSync", "ShflXorSync":
		typ := f.info.TypeOf(c)
		vs, ls, rs := f.scratchOf("nugoVal", typ), f.scratchOf("nugoLane", types.Typ[types.Int]), f.scratchOf("nugoShfl", typ)
		gatherInto(vs, "", ops[0])
		gatherInto(ls, "int", ops[1])
		kind := map[string]string{"ShflSync": "ShuffleIdx", "ShflDownSync": "ShuffleDown", "ShflUpSync": "ShuffleUp", "ShflXorSync": "ShuffleXor"}[base]
		post = fmt.Sprintf("%%[1]s.BlockShuffleMask(%s, %%[1]s.%s, %s, %s, %s, %s, 0, %%[2]s)", f.blk, kind, rs, vs, masks, ls)
		repl[c] = rs + "[" + f.ti + "]"
	case "BallotSync", "AllSync", "AnySync", "UniSync":
		ps := f.scratchOf("nugoPred", types.Typ[types.Bool])
		gatherInto(ps, "", ops[0])
		if base == "BallotSync" {
			rs := f.scratchOf("nugoVote", types.Typ[types.Uint32])
			post = fmt.Sprintf("%%[1]s.BlockBallotMask(%s, %s, %s, %s, %%[2]s)", f.blk, rs, ps, masks)
			repl[c] = rs + "[" + f.ti + "]"
			break
		}
		rs := f.scratchOf("nugoVote", types.Typ[types.Bool])
		kind := map[string]string{"AllSync": "VoteAll", "AnySync": "VoteAny", "UniSync": "VoteUni"}[base]
		post = fmt.Sprintf("%%[1]s.BlockVoteMask(%s, %%[1]s.%s, %s, %s, %s, %%[2]s)", f.blk, kind, rs, ps, masks)
		repl[c] = rs + "[" + f.ti + "]"
	case "MatchAnySync", "MatchAllSync":
		vs, rs := f.scratchOf("nugoVal", types.Default(f.info.TypeOf(ops[0]))), f.scratchOf("nugoMatch", types.Typ[types.Uint32])
		gatherInto(vs, "", ops[0])
		all := base == "MatchAllSync"
		post = fmt.Sprintf("%%[1]s.BlockMatch(%s, %v, %s, %s, %s, %%[2]s)", f.blk, all, rs, vs, masks)
		repl[c] = rs + "[" + f.ti + "]"
		if all {
			// Two results: the call must be the one value of a
			// two-variable assignment (or a statement of its own).
			if !f.pairContext(n, c) {
				f.fail(c.Pos(), "%s other than as the value of a two-variable assignment", name)
			}
			res := rs + "[" + f.ti + "]"
			repl[c] = res + ", " + res + " != 0"
		}
	default:
		f.fail(c.Pos(), "%s is not transformed", name)
	}
	r.pieces = append(r.pieces, piece{text: strings.Join(text, "\n"), exprs: exprs})
	return post
}

// pairContext reports whether call c in statement n is the only value of
// a two-variable assignment or declaration, or a statement of its own.
func (f *fissioner) pairContext(n ast.Node, c *ast.CallExpr) bool {
	ok := false
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.AssignStmt:
			ok = ok || len(x.Lhs) == 2 && len(x.Rhs) == 1 && ast.Unparen(x.Rhs[0]) == c
		case *ast.ValueSpec:
			ok = ok || len(x.Names) == 2 && len(x.Values) == 1 && ast.Unparen(x.Values[0]) == c
		case *ast.ExprStmt:
			ok = ok || ast.Unparen(x.X) == c
		}
		return !ok
	})
	return ok
}
