package loopgen

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
)

// Loop interchange of a region's thread loop and its uniform loop. A
// region that can be jammed (fission_jam.go), made of its uniform loop
// alone, such as the tiled matmul's inner product, runs in its
// interchanged form, the thread loop inside the uniform one:
//
//	for p := 0; p < Tile; p++ {
//		for nugoTi := lo; nugoTi < hi; nugoTi++ {
//			tx, ty := nugoPTx[nugoTi], nugoPTy[nugoTi]
//			sum := nugoXSum[nugoTi]
//			sum += sA[tx*Tile+p] * sB[p*Tile+ty]
//			nugoXSum[nugoTi] = sum
//		}
//	}
//
// so the inner loop's adds are independent (one per thread), as in a
// hand-written i-p-j matmul. Each thread still does its own operations in
// its own order (p ascending), so the results are the same bits.
//
// The thread's position variables that the loop reads are computed once
// per thread into per-thread scratch slices before the loop; the
// variables it carries from one round to the next (those loaded from
// per-thread arrays and assigned in the loop) live in scratch copies of
// their arrays, copied back after the loop. So a region that panics has
// changed nothing outside its scratch: the interchanged loop runs in a
// function that recovers, and the plain loop then runs the region again
// from its first thread, panicking in the thread that panics first in
// thread order. Variables declared in the loop's body stay locals of one
// thread's round.
//
// Each thread's round runs interchangeUnroll of its rounds, written one
// after the other (the loop strip-mined), which amortises the loads and
// stores of its scratch. A region is interchanged, rather than jammed,
// when its loop runs a constant number of rounds, more than jamUnrollMax,
// and no statement follows the loop in the region. A loop of no more
// rounds (the tiled matmul's 16) is jammed with its rounds written out
// (fission_jam.go).

// interchangeUnroll is how many rounds of the uniform loop an
// interchanged region runs for each thread in one pass over the threads
// (halved until it divides the trip count).
const interchangeUnroll = 16

// interchange writes the interchanged loop of region j for the threads lo
// (inclusive) to hi (exclusive), each got with the Block's method thread,
// when it can be interchanged, and returns the name of the variable
// holding the first thread it did not run (hi, or lo after a panic) and
// true; otherwise it writes nothing and returns false.
func (e *emitter) interchange(j *jamRegion, lo, hi, thread string) (string, bool) {
	f, w := e.f, e.w
	loop, pre, post, own, ok := e.jamLoop(j)
	if !ok || len(post) > 0 || f.thread != nil && own[f.thread] && e.reads(loop, f.thread) {
		return "", false
	}
	trip, step, ok := e.constTrip(loop)
	if !ok || trip <= jamUnrollMax {
		return "", false
	}
	// The thread's variables the statements before the loop declare or
	// assign, and those the body declares or assigns.
	preSet := map[*types.Var]bool{}
	declared := map[*types.Var]bool{}
	assigned := map[*types.Var]bool{}
	scan := func(list []ast.Stmt, decl, set map[*types.Var]bool) bool {
		for _, s := range list {
			if e.isRematDef(s, j.r) {
				return false
			}
			for _, id := range defNames(s) {
				if v, isVar := f.info.Defs[id].(*types.Var); isVar {
					decl[v] = true
				}
			}
			var lhs []ast.Expr
			switch s := s.(type) {
			case *ast.AssignStmt:
				lhs = s.Lhs
			case *ast.IncDecStmt:
				lhs = []ast.Expr{s.X}
			}
			for _, x := range lhs {
				if id, isID := x.(*ast.Ident); isID {
					if v := f.varOf(id); v != nil {
						set[v] = true
					}
				}
			}
		}
		return true
	}
	if !scan(pre, preSet, preSet) || !scan(loop.Body.List, declared, assigned) {
		return "", false
	}
	// The variables carried from round to round in scratch: those the
	// body assigns, and those stored after the region that the statements
	// before the loop set. The thread's other variables the body reads
	// (position variables, loaded or set before the loop) are computed
	// once into scratch.
	perThread := func(v *types.Var) bool { return slices.Contains(j.loads, v) || preSet[v] }
	var pos, carried []*types.Var
	isCarried := map[*types.Var]bool{}
	for v := range assigned {
		if declared[v] {
			continue
		}
		if !perThread(v) {
			return "", false
		}
		isCarried[v] = true
	}
	for _, v := range j.stores {
		switch {
		case isCarried[v]:
		case preSet[v]:
			isCarried[v] = true
		case !slices.Contains(j.loads, v):
			return "", false
		}
	}
	for v := range isCarried {
		carried = append(carried, v)
	}
	for v := range e.readVars(loop.Body) {
		switch {
		case !own[v] || declared[v] || isCarried[v]:
		case perThread(v) || j.need[v] && v != f.thread:
			pos = append(pos, v)
		default:
			return "", false
		}
	}
	slices.SortFunc(pos, varOrder)
	slices.SortFunc(carried, varOrder)
	posArr := map[*types.Var]string{}
	for _, v := range pos {
		posArr[v] = f.scratchOf("nugoP"+v.Name(), v.Type())
	}
	carryArr := map[*types.Var]string{}
	for _, v := range carried {
		carryArr[v] = f.scratchOf("nugoX"+v.Name(), v.Type())
	}
	next := f.name("nugoSwap")
	fmt.Fprintf(w, "%s := %s\n", next, lo)
	// A panic leaves the arrays as they were: the plain loop runs the region.
	w.WriteString("func() {\ndefer func() { _ = recover() }()\n")
	if len(pos)+len(carried) > 0 {
		fmt.Fprintf(w, "for %s := %s; %s < %s; %s++ {\n", f.ti, lo, f.ti, hi, f.ti)
		fmt.Fprintf(w, "%s := %s.%s(%s)\n_ = %s\n", f.tname, f.blk, thread, f.ti, f.tname)
		for _, s := range j.stmts {
			fmt.Fprintf(w, "%s\n", f.printLines(e.remat(s, j.need)))
		}
		var need []*types.Var
		for v := range j.need {
			need = append(need, v)
		}
		slices.SortFunc(need, varOrder)
		for _, v := range need {
			fmt.Fprintf(w, "_ = %s\n", v.Name())
		}
		for _, v := range j.loads {
			fmt.Fprintf(w, "%s := %s[%s]\n_ = %s\n", v.Name(), e.arrays[v], f.ti, v.Name())
		}
		for _, s := range pre {
			fmt.Fprintf(w, "%s\n", f.printLines(s))
		}
		for _, v := range pos {
			fmt.Fprintf(w, "%s[%s] = %s\n", posArr[v], f.ti, v.Name())
		}
		for _, v := range carried {
			fmt.Fprintf(w, "%s[%s] = %s\n", carryArr[v], f.ti, v.Name())
		}
		w.WriteString("}\n")
	}
	// The slices the inner loop indexes, as locals of the threads' range
	// (closure variables would be reloaded at each access), all of one
	// length, so that the compiler drops their bounds checks.
	local := map[string]string{}
	var first string
	for _, a := range append(slices.Clip(pos), carried...) {
		arr := posArr[a]
		if arr == "" {
			arr = carryArr[a]
		}
		l := f.name("nugoS")
		local[arr] = l
		if first == "" {
			first = l
			fmt.Fprintf(w, "%s := %s[%s:%s]\n", l, arr, lo, hi)
		} else {
			fmt.Fprintf(w, "%s := %s[%s:%s]\n%s = %s[:len(%s)]\n", l, arr, lo, hi, l, l, first)
		}
	}
	k := f.name("nugoK")
	// The uniform loop strip-mined by unroll: each thread's round runs
	// unroll of its rounds, its loop variable shadowed in each.
	unroll := int64(interchangeUnroll)
	for trip%unroll != 0 {
		unroll /= 2
	}
	iv := loop.Init.(*ast.AssignStmt).Lhs[0].(*ast.Ident).Name
	fmt.Fprintf(w, "for %s; %s; %s += %d {\n", f.print(loop.Init), f.print(loop.Cond), iv, unroll*step)
	if first != "" {
		fmt.Fprintf(w, "for %s := range %s {\n", k, first)
	} else {
		fmt.Fprintf(w, "for range %s - %s {\n", hi, lo)
	}
	for _, v := range pos {
		fmt.Fprintf(w, "%s := %s[%s]\n", v.Name(), local[posArr[v]], k)
	}
	for _, v := range carried {
		fmt.Fprintf(w, "%s := %s[%s]\n", v.Name(), local[carryArr[v]], k)
	}
	for u := range unroll {
		if u > 0 {
			fmt.Fprintf(w, "{\n%s := %s + %d\n_ = %s\n", iv, iv, u*step, iv)
		} else {
			w.WriteString("{\n")
		}
		for _, s := range loop.Body.List {
			fmt.Fprintf(w, "%s\n", f.printLines(s))
		}
		w.WriteString("}\n")
	}
	for _, v := range carried {
		fmt.Fprintf(w, "%s[%s] = %s\n", local[carryArr[v]], k, v.Name())
	}
	w.WriteString("}\n}\n")
	for _, v := range carried {
		if slices.Contains(j.stores, v) {
			fmt.Fprintf(w, "copy(%s[%s:%s], %s[%s:%s])\n", e.arrays[v], lo, hi, carryArr[v], lo, hi)
		}
	}
	fmt.Fprintf(w, "%s = %s\n", next, hi)
	w.WriteString("}()\n")
	return next, true
}

// constTrip returns the number of rounds of a loop for v := a; v < b; v++
// (or v += c, or <=) whose bounds are constants.
func (e *emitter) constTrip(loop *ast.ForStmt) (trip, step int64, ok bool) {
	f := e.f
	init := loop.Init.(*ast.AssignStmt)
	cond, isBin := loop.Cond.(*ast.BinaryExpr)
	if !isBin || (cond.Op != token.LSS && cond.Op != token.LEQ) {
		return 0, 0, false
	}
	if id, isID := cond.X.(*ast.Ident); !isID || f.varOf(id) != f.varOf(init.Lhs[0].(*ast.Ident)) {
		return 0, 0, false
	}
	from, to := f.info.Types[init.Rhs[0]].Value, f.info.Types[cond.Y].Value
	if from == nil || to == nil {
		return 0, 0, false
	}
	a, okA := constant.Int64Val(constant.ToInt(from))
	b, okB := constant.Int64Val(constant.ToInt(to))
	if !okA || !okB {
		return 0, 0, false
	}
	if cond.Op == token.LEQ {
		b++
	}
	step = 1
	if st, isAssign := loop.Post.(*ast.AssignStmt); isAssign {
		c := f.info.Types[st.Rhs[0]].Value
		if st.Tok != token.ADD_ASSIGN || c == nil {
			return 0, 0, false
		}
		var okC bool
		if step, okC = constant.Int64Val(constant.ToInt(c)); !okC || step <= 0 {
			return 0, 0, false
		}
	} else if st, isInc := loop.Post.(*ast.IncDecStmt); !isInc || st.Tok != token.INC {
		return 0, 0, false
	}
	if b <= a {
		return 0, step, true
	}
	return (b - a + step - 1) / step, step, true
}

// readVars returns the variables n refers to.
func (e *emitter) readVars(n ast.Node) map[*types.Var]bool {
	vars := map[*types.Var]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID {
			if v := e.f.varOf(id); v != nil {
				vars[v] = true
			}
		}
		return true
	})
	return vars
}

// reads reports whether n refers to v.
func (e *emitter) reads(n ast.Node, v *types.Var) bool { return e.readVars(n)[v] }
