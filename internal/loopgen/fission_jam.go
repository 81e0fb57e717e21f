package loopgen

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
)

// Unroll-and-jam of a region's thread loop. A region made of one uniform
// loop (with straight-line statements before and after it), such as a
// tiled matmul's inner product
//
//	for p := 0; p < Tile; p++ {
//		sum += sA[tx*Tile+p] * sB[p*Tile+ty]
//	}
//
// is, per thread, one chain of dependent adds: the thread loop waits for
// each add's latency. Its jammed form runs jamFactor consecutive threads
// together, each with variables of its own, their bodies interleaved
// inside one copy of the uniform loop:
//
//	for p := 0; p < Tile; p++ {
//		sum1 += sA[tx1*Tile+p] * sB[p*Tile+ty1]
//		sum2 += sA[tx2*Tile+p] * sB[p*Tile+ty2]
//		...
//	}
//
// so that the chains overlap. Each thread does the same operations in the
// same order as alone, so the results are the same bits; a remainder loop,
// the plain one, runs the threads left over.
//
// Only a region that changes nothing but its threads' own variables is
// jammed, in a kernel none of whose threads returns early: its statements
// are assignments to variables of the thread (declared in the region, or
// loaded from a per-thread array at its head), of expressions that read
// memory but call nothing other than conversions and pure builtins, and
// declarations of the thread's position; the loop's header reads only the
// loop's variable, constants, parameters and block-uniform variables. The per-thread arrays are
// stored after the whole group has run. So no thread of a group sees
// another's effects, and a group that panics (an index out of range) has
// changed nothing outside itself: the jammed loops run in a function that
// recovers, and the plain loop then runs that group again from its first
// thread, panicking in the thread that panics first in thread order, as
// the loop without jamming does.

// jamFactor is the number of threads a jammed region runs together, and
// jamUnrolledFactor that of a region whose rounds are written out: on the
// tiled matmul eight beat four (the copies share their loads of sB), and
// four beat three, two and six (six divides no block's x size; a group
// must lie in one row).
const (
	jamFactor         = 4
	jamUnrolledFactor = 8
)

// jamUnrollMax is the most rounds of a loop with a constant trip count
// that a jammed region writes out, round by round, each round's copies
// one after the other (the tiled matmul's 16).
const jamUnrollMax = 16

// shiftedMethod reports whether cuda.Shifted has the Thread's method
// name: those that name the thread's position (positionThreadMethods) or
// its block's and grid's shapes (uniformThreadMethods).
func shiftedMethod(name string) bool {
	return positionThreadMethods[name] || uniformThreadMethods[name]
}

// jamRegion is what the region's loop writes for each thread: its
// position variables' declarations, the variables loaded from per-thread
// arrays at its head and stored at its end, and its pieces.
type jamRegion struct {
	r             *region
	stmts         []ast.Stmt
	need          map[*types.Var]bool
	loads, stores []*types.Var
	pieces        []piece
	laneOnly      bool
}

// jamLoop returns the region's uniform loop when the region can be
// jammed, with the statements before and after it and the thread's own
// variables (renamed in each thread's copy).
func (e *emitter) jamLoop(j *jamRegion) (loop *ast.ForStmt, pre, post []ast.Stmt, own map[*types.Var]bool, ok bool) {
	f := e.f
	if f.exited != "" || j.r.returns || j.r.label != "" || j.laneOnly {
		return nil, nil, nil, nil, false
	}
	own = map[*types.Var]bool{}
	if f.thread != nil {
		own[f.thread] = true
	}
	for v := range j.need {
		own[v] = true
	}
	for _, v := range j.loads {
		own[v] = true
	}
	for _, p := range j.pieces {
		if p.stmt == nil {
			return nil, nil, nil, nil, false
		}
		if _, shared := f.shared[p.stmt]; shared {
			return nil, nil, nil, nil, false
		}
		if l, isFor := p.stmt.(*ast.ForStmt); isFor {
			if loop != nil {
				return nil, nil, nil, nil, false
			}
			loop = l
			continue
		}
		if loop == nil {
			pre = append(pre, p.stmt)
		} else {
			post = append(post, p.stmt)
		}
	}
	if loop == nil || loop.Init == nil || loop.Cond == nil || loop.Post == nil {
		return nil, nil, nil, nil, false
	}
	init, isAssign := loop.Init.(*ast.AssignStmt)
	if !isAssign || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil, nil, nil, nil, false
	}
	id, isID := init.Lhs[0].(*ast.Ident)
	if !isID {
		return nil, nil, nil, nil, false
	}
	iv, _ := f.info.Defs[id].(*types.Var)
	if iv == nil {
		return nil, nil, nil, nil, false
	}
	body := append(append(slices.Clip(pre), loop.Body.List...), post...)
	for _, s := range body {
		for _, id := range defNames(s) {
			if v, isVar := f.info.Defs[id].(*types.Var); isVar {
				own[v] = true
			}
		}
	}
	for _, v := range j.stores {
		if !own[v] {
			return nil, nil, nil, nil, false
		}
	}
	// The header: the loop's variable, constants, uniform variables.
	// Parameters: the kernel assigns none (see emit).
	shared := func(v *types.Var) bool { return v == iv || f.uniform[v] || (f.params[v] && v != f.thread) }
	if !e.jamExpr(init.Rhs[0], shared) || !e.jamExpr(loop.Cond, shared) {
		return nil, nil, nil, nil, false
	}
	switch st := loop.Post.(type) {
	case *ast.IncDecStmt:
		if x, isX := st.X.(*ast.Ident); !isX || f.varOf(x) != iv {
			return nil, nil, nil, nil, false
		}
	case *ast.AssignStmt:
		if len(st.Lhs) != 1 || st.Tok == token.DEFINE || st.Tok == token.ASSIGN {
			return nil, nil, nil, nil, false
		}
		if x, isX := st.Lhs[0].(*ast.Ident); !isX || f.varOf(x) != iv || !e.jamExpr(st.Rhs[0], shared) {
			return nil, nil, nil, nil, false
		}
	default:
		return nil, nil, nil, nil, false
	}
	// The statements: assignments to the thread's variables (which the
	// loop's variable is not), or declarations of its position.
	readable := func(v *types.Var) bool { return shared(v) || own[v] }
	for _, s := range body {
		if !e.isRematDef(s, j.r) && !e.jamStmt(s, own, readable) {
			return nil, nil, nil, nil, false
		}
	}
	return loop, pre, post, own, true
}

// jamStmt reports whether s assigns only to the thread's own variables
// expressions that jamExpr accepts.
func (e *emitter) jamStmt(s ast.Stmt, own map[*types.Var]bool, readable func(*types.Var) bool) bool {
	f := e.f
	lhs := func(x ast.Expr) bool {
		id, ok := x.(*ast.Ident)
		if !ok {
			return false
		}
		if id.Name == "_" {
			return true
		}
		v := f.varOf(id)
		return v != nil && own[v]
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		for _, x := range s.Lhs {
			if !lhs(x) {
				return false
			}
		}
		for _, x := range s.Rhs {
			if !e.jamExpr(x, readable) {
				return false
			}
		}
		return true
	case *ast.IncDecStmt:
		return lhs(s.X)
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return false
		}
		for _, sp := range gd.Specs {
			for _, x := range sp.(*ast.ValueSpec).Values {
				if !e.jamExpr(x, readable) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// jamBuiltins are the builtins a jammed loop may call: they read nothing
// and change nothing.
var jamBuiltins = map[string]bool{"len": true, "cap": true, "min": true, "max": true, "real": true, "imag": true, "complex": true}

// jamExpr reports whether x only computes: it reads variables that ok
// accepts, constants and memory (indexing, fields, dereferences), and
// calls nothing but conversions and jamBuiltins.
func (e *emitter) jamExpr(x ast.Expr, ok func(*types.Var) bool) bool {
	f := e.f
	good := true
	ast.Inspect(x, func(n ast.Node) bool {
		if !good {
			return false
		}
		switch n := n.(type) {
		case nil, *ast.BasicLit, *ast.ParenExpr, *ast.BinaryExpr, *ast.IndexExpr, *ast.StarExpr:
		case *ast.UnaryExpr:
			good = n.Op != token.AND && n.Op != token.ARROW
		case *ast.SelectorExpr:
			// A field of what the expression before it computes, or a
			// package's constant.
			if sel, found := f.info.Selections[n]; found {
				good = sel.Kind() == types.FieldVal && e.jamExpr(n.X, ok)
			} else if _, isConst := f.info.Uses[n.Sel].(*types.Const); !isConst {
				good = false
			}
			return false
		case *ast.Ident:
			switch o := f.info.Uses[n].(type) {
			case *types.Const, *types.TypeName, *types.Nil:
			case *types.Builtin:
				good = jamBuiltins[o.Name()]
			case *types.Var:
				v := f.varOf(n)
				good = v != nil && ok(v)
			default:
				good = false
			}
		case *ast.CallExpr:
			tv, found := f.info.Types[n.Fun]
			if found && tv.IsType() {
				return true
			}
			if b, isB := f.info.Uses[calleeIdent(n.Fun)].(*types.Builtin); !isB || !jamBuiltins[b.Name()] {
				good = false
			}
		case *ast.ArrayType, *ast.StructType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.Ellipsis:
			// Part of a conversion's type.
		default:
			good = false
		}
		return good
	})
	return good
}

// calleeIdent returns the identifier a call's function is, or nil.
func calleeIdent(fun ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(fun).(*ast.Ident)
	return id
}

// jam writes the jammed loop of region j when it can be jammed, for the
// threads lo (inclusive) to hi (exclusive), each got with the Block's
// method thread, and returns the name of the variable holding the first
// thread it did not run, where the plain loop starts; it returns lo
// unchanged when the region is not jammed.
func (e *emitter) jam(j *jamRegion, lo, hi, thread string) string {
	// A region whose loop has enough rounds is interchanged instead
	// (fission_interchange.go).
	if next, ok := e.interchange(j, lo, hi, thread); ok {
		return next
	}
	loop, pre, post, own, ok := e.jamLoop(j)
	if !ok {
		return lo
	}
	f, w := e.f, e.w
	trip, step, unroll := e.constTrip(loop)
	unroll = unroll && trip <= jamUnrollMax
	factor := jamFactor
	if unroll {
		factor = jamUnrolledFactor
	}
	next, base := f.name("nugoJam"), f.name("nugoJ")
	// Each copy's names, chosen once.
	names := make([]map[*types.Var]string, factor)
	tis := make([]string, factor)
	// In source order, so that the names do not depend on map order.
	ownList := slices.SortedFunc(maps.Keys(own), varOrder)
	for k := range names {
		names[k] = map[*types.Var]string{}
		for _, v := range ownList {
			names[k][v] = f.name(fmt.Sprintf("%s%d", v.Name(), k+1))
		}
		tis[k] = f.name(fmt.Sprintf("%s%d", f.ti, k+1))
	}
	tname := func(k int) string {
		if f.thread != nil {
			return names[k][f.thread]
		}
		return f.name(fmt.Sprintf("%s%d", f.tname, k+1))
	}
	// as prints n with the thread's variables of copy k renamed and the
	// thread loop's index that copy's.
	as := func(k int, n ast.Node, lines bool) string {
		var undo []func()
		ast.Inspect(n, func(n ast.Node) bool {
			if id, isID := n.(*ast.Ident); isID {
				if v := f.varOf(id); v != nil && own[v] {
					old := id.Name
					id.Name = names[k][v]
					undo = append(undo, func() { id.Name = old })
				}
			}
			return true
		})
		ti := f.ti
		f.ti = tis[k]
		defer func() {
			f.ti = ti
			for _, u := range undo {
				u()
			}
		}()
		if lines {
			return f.printLines(n.(ast.Stmt))
		}
		return f.print(n)
	}
	// The copies after the first see the thread through the first's
	// (cuda.Thread.Shift) when the group lies in one row of the block and
	// they use the thread only for its position: the compiler then knows
	// that they share their y (and what it indexes).
	flat := thread == "FlatThread"
	shift := f.thread != nil && (flat || lo == "0") && e.shiftable([][]ast.Stmt{j.stmts, pre, loop.Body.List, post})
	fmt.Fprintf(w, "%s := %s\n", next, lo)
	// The group that panics is run again by the plain loop below.
	w.WriteString("func() {\ndefer func() { _ = recover() }()\n")
	if shift && !flat {
		fmt.Fprintf(w, "if !%s.Runs(%d) {\nreturn\n}\n", f.blk, factor)
	}
	fmt.Fprintf(w, "for %s := %s; %s+%d <= %s; %s += %d {\n", base, next, base, factor, hi, base, factor)
	for k := range factor {
		fmt.Fprintf(w, "%s := %s + %d\n_ = %s\n", tis[k], base, k, tis[k])
		t := tname(k)
		if shift && k > 0 {
			fmt.Fprintf(w, "%s := %s.Shift(%d)\n_ = %s\n", t, tname(0), k, t)
		} else {
			fmt.Fprintf(w, "%s := %s.%s(%s)\n_ = %s\n", t, f.blk, thread, tis[k], t)
		}
	}
	for k := range factor {
		for _, s := range j.stmts {
			fmt.Fprintf(w, "%s\n", as(k, e.remat(s, j.need), true))
		}
		for _, v := range j.loads {
			fmt.Fprintf(w, "%s := %s[%s]\n", names[k][v], e.arrays[v], tis[k])
		}
	}
	each := func(list []ast.Stmt) {
		for _, s := range list {
			for k := range factor {
				fmt.Fprintf(w, "%s\n", as(k, s, true))
			}
		}
	}
	each(pre)
	if unroll {
		// The rounds written out, each with its own loop variable: the
		// copies' indexes fold the round's constant. The elements each
		// copy reads at an index that moves with the loop's variable are
		// read through a view of the span its rounds read, taken once
		// (jamViews).
		from := f.print(loop.Init.(*ast.AssignStmt).Rhs[0])
		views := e.jamViews(loop, trip, step)
		for _, v := range views {
			first := ""
			for k := range factor {
				undo := e.atFirstRound(v, from)
				base, arr := as(k, v.ix.Index, false), as(k, v.ix.X, false)
				undo()
				view := fmt.Sprintf("(*[%d]%s)(%s[%s : %s+%d])", v.span, v.elem, arr, base, base, v.span)
				if view == first {
					// The same for every copy (no copy's own variable).
					v.names = append(v.names, v.names[0])
					continue
				}
				first = cmp.Or(first, view)
				v.names = append(v.names, f.name("nugoView"))
				fmt.Fprintf(w, "%s := %s\n", v.names[k], view)
			}
		}
		e.rounds(loop, trip, step, func(u int64) {
			for _, s := range loop.Body.List {
				for k := range factor {
					var undo []func()
					for _, v := range views {
						undo = append(undo, v.read(k, u))
					}
					fmt.Fprintf(w, "%s\n", as(k, s, true))
					for _, u := range undo {
						u()
					}
				}
			}
		})
	} else {
		fmt.Fprintf(w, "for %s; %s; %s {\n", f.print(loop.Init), f.print(loop.Cond), f.print(loop.Post))
		each(loop.Body.List)
		w.WriteString("}\n")
	}
	each(post)
	// The stores index from the group's first thread, which keeps fewer
	// values live across the loop than each copy's index would.
	for k := range factor {
		for _, v := range j.stores {
			fmt.Fprintf(w, "%s[%s+%d] = %s\n", e.arrays[v], base, k, names[k][v])
		}
	}
	fmt.Fprintf(w, "%s = %s + %d\n", next, base, factor)
	w.WriteString("}\n}()\n")
	if unroll {
		// The threads left, and all of them in a block whose rows the
		// groups do not fit, run alone with their rounds written out.
		return e.unrolled(j, loop, pre, post, trip, step, next, hi, thread)
	}
	return next
}

// unrolled writes the plain loop over the threads lo to hi of a region
// whose loop runs a constant number of rounds, trip, no more than
// jamUnrollMax, each thread's rounds written one after the other. Each
// thread runs alone, as in the plain loop, so a panic needs no recovery.
// It returns hi.
func (e *emitter) unrolled(j *jamRegion, loop *ast.ForStmt, pre, post []ast.Stmt, trip, step int64, lo, hi, thread string) string {
	f, w := e.f, e.w
	fmt.Fprintf(w, "for %s := %s; %s < %s; %s++ {\n", f.ti, lo, f.ti, hi, f.ti)
	fmt.Fprintf(w, "%s := %s.%s(%s)\n_ = %s\n", f.tname, f.blk, thread, f.ti, f.tname)
	for _, s := range j.stmts {
		fmt.Fprintf(w, "%s\n", f.printLines(e.remat(s, j.need)))
	}
	for _, v := range j.loads {
		fmt.Fprintf(w, "%s := %s[%s]\n", v.Name(), e.arrays[v], f.ti)
	}
	for _, s := range pre {
		fmt.Fprintf(w, "%s\n", f.printLines(s))
	}
	e.rounds(loop, trip, step, func(int64) {
		for _, s := range loop.Body.List {
			fmt.Fprintf(w, "%s\n", f.printLines(s))
		}
	})
	for _, s := range post {
		fmt.Fprintf(w, "%s\n", f.printLines(s))
	}
	for _, v := range j.stores {
		fmt.Fprintf(w, "%s[%s] = %s\n", e.arrays[v], f.ti, v.Name())
	}
	w.WriteString("}\n")
	return hi
}

// rounds writes trip rounds of step of a loop for v := a; ..., one after
// the other, each a block declaring v as its round's value, a plus
// u·step, around what round writes for round u.
func (e *emitter) rounds(loop *ast.ForStmt, trip, step int64, round func(u int64)) {
	init := loop.Init.(*ast.AssignStmt)
	iv, from := init.Lhs[0].(*ast.Ident).Name, e.f.print(init.Rhs[0])
	for u := range trip {
		fmt.Fprintf(e.w, "{\n%s := %s + %d\n_ = %s\n", iv, from, u*step, iv)
		round(u)
		e.w.WriteString("}\n")
	}
}

// shiftable reports whether the statements use the kernel's Thread only
// to call the methods cuda.Shifted has.
func (e *emitter) shiftable(lists [][]ast.Stmt) bool {
	f := e.f
	for _, list := range lists {
		for _, s := range list {
			called := map[*ast.Ident]bool{}
			ok := true
			ast.Inspect(s, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if sel, isSel := n.Fun.(*ast.SelectorExpr); isSel && shiftedMethod(sel.Sel.Name) {
						if id, isID := sel.X.(*ast.Ident); isID {
							called[id] = true
						}
					}
				case *ast.Ident:
					if f.varOf(n) == f.thread && !called[n] {
						ok = false
					}
				}
				return ok
			})
			if !ok {
				return false
			}
		}
	}
	return true
}

// A jamView is an element read of a jammed loop with its rounds written
// out, X[I], whose index moves by a constant with the loop's variable (I
// = c·v + b, b the same in every round): each copy reads it through a
// view of X from its first round's index, (*[span]T)(X[b0 : b0+span]),
// taken once, at a constant index per round, with no bounds check in the
// rounds (the tiled matmul's sA[tx*Tile+p] and sB[p*Tile+ty]). A view
// reaches past X exactly when one of the rounds' reads does: the view
// then panics, and the plain loop runs the group again.
type jamView struct {
	ix    *ast.IndexExpr
	iv    *types.Var
	c     int64 // the index's step per round
	span  int64
	elem  string
	names []string // each copy's view
}

// jamViews returns the views of a jammed loop's body, of trip rounds of
// step: reads X[I] of a slice or array pointer X that the body does not
// assign, at an index of type int that is c·v plus what the body does not
// assign, c·step > 0.
func (e *emitter) jamViews(loop *ast.ForStmt, trip, step int64) []*jamView {
	f := e.f
	iv := f.varOf(loop.Init.(*ast.AssignStmt).Lhs[0].(*ast.Ident))
	if iv == nil || trip < 2 {
		return nil
	}
	assigned := map[*types.Var]bool{}
	eachWrite(loop.Body, f.info, func(x ast.Expr, kind writeKind, _ ast.Node) {
		switch kind {
		case writeAssign, writeIncDec, writeDecl:
			if id, ok := x.(*ast.Ident); ok {
				if v := f.varOf(id); v != nil {
					assigned[v] = true
				}
			}
		}
	})
	var views []*jamView
	for _, s := range loop.Body.List {
		ast.Inspect(s, func(n ast.Node) bool {
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return true
			}
			x, isID := ix.X.(*ast.Ident)
			if !isID || f.varOf(x) == nil || assigned[f.varOf(x)] {
				return true
			}
			var elem types.Type
			switch t := f.info.TypeOf(x).Underlying().(type) {
			case *types.Slice:
				elem = t.Elem()
			case *types.Pointer:
				if a, isArr := t.Elem().Underlying().(*types.Array); isArr {
					elem = a.Elem()
				}
			}
			if elem == nil || !types.Identical(f.info.TypeOf(ix.Index), types.Typ[types.Int]) {
				return true
			}
			c, ok := e.coefficient(ix.Index, iv, assigned)
			if !ok || c <= 0 || c*step <= 0 || c*step*(trip-1) >= 1<<20 {
				return true
			}
			views = append(views, &jamView{ix: ix, iv: iv, c: c * step, span: c*step*(trip-1) + 1, elem: f.typ(elem)})
			return true
		})
	}
	return views
}

// coefficient returns c when x is c·v plus terms that read no variable
// in assigned and not v, with c constant.
func (e *emitter) coefficient(x ast.Expr, v *types.Var, assigned map[*types.Var]bool) (int64, bool) {
	f := e.f
	if !e.reads(x, v) {
		for u := range e.readVars(x) {
			if assigned[u] {
				return 0, false
			}
		}
		return 0, true
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return e.coefficient(x.X, v, assigned)
	case *ast.Ident:
		return 1, f.varOf(x) == v
	case *ast.BinaryExpr:
		a, okA := e.coefficient(x.X, v, assigned)
		b, okB := e.coefficient(x.Y, v, assigned)
		if !okA || !okB {
			return 0, false
		}
		switch x.Op {
		case token.ADD:
			return a + b, true
		case token.SUB:
			return a - b, true
		case token.MUL:
			if k, isConst := e.constInt(x.X); isConst && a == 0 {
				return k * b, true
			}
			if k, isConst := e.constInt(x.Y); isConst && b == 0 {
				return a * k, true
			}
		}
	}
	return 0, false
}

// atFirstRound writes the loop's variable in view v's index as from, its
// first value, until undo is called.
func (e *emitter) atFirstRound(v *jamView, from string) (undo func()) {
	var ids []*ast.Ident
	var old []string
	ast.Inspect(v.ix.Index, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && e.f.varOf(id) == v.iv {
			ids = append(ids, id)
			old = append(old, id.Name)
			id.Name = "(" + from + ")"
		}
		return true
	})
	return func() {
		for i, id := range ids {
			id.Name = old[i]
		}
	}
}

// read makes the view's element read that of copy k in round u, until
// undo is called.
func (v *jamView) read(k int, u int64) (undo func()) {
	x, index := v.ix.X, v.ix.Index
	v.ix.X = &ast.Ident{NamePos: x.Pos(), Name: v.names[k]}
	v.ix.Index = &ast.BasicLit{ValuePos: index.Pos(), Kind: token.INT, Value: fmt.Sprint(v.c * u)}
	return func() { v.ix.X, v.ix.Index = x, index }
}
