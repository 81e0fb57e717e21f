package loopgen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"
)

// Warp operations under thread-dependent conditions (divergent ifs), in
// continuation style as AdaptiveCpp and COX do it. An if whose condition
// differs from thread to thread, and whose arms hold warp operations but
// no block barrier, becomes:
//
//	in[i] = cond                          (in the region before, per thread)
//	if cuda.BlockBranch(offThen, in, outer, true) {
//		the then arm, its regions skipping the threads of offThen
//	}
//	if cuda.BlockBranch(offElse, in, outer, false) {
//		the else arm likewise
//	}
//
// Inside an arm the threads that did not take it are absent, as threads
// that returned are: the arm's regions skip them and its warp operations
// (which take the arm's off flags where they take the exited flags) leave
// them out. This equals the goroutine path, where a warp operation is a
// rendezvous of the live lanes of its mask, when no live lane of the mask
// is elsewhere: checked at run time before each of the arm's warp
// operations (cuda.BlockBranchCheck, a failed launch otherwise, where the
// goroutine path would pair the operation with whatever the other lanes
// reach next: undefined on a GPU). The check is left out, and the other
// lanes count as absent, when they can reach no further warp operation
// (the arm is relaxed: nothing after the if synchronises and the other
// arm does not either), where the goroutine path sees them leave.
// ActiveMask, whose rendezvous is the full warp's, is taken in an arm
// when the arm is relaxed or when the two arms of an outermost divergent
// if call it equally often at their top level (the goroutine path then
// pairs the calls, and each lane gets the lanes of its own call site).

// divergence is the plan of one divergent if.
type divergence struct {
	in, offThen, offElse string
	// relaxed: the lanes not on that side reach no further warp
	// operation.
	relaxedThen, relaxedElse bool
}

// divState is the fissioner's state for divergent ifs.
type divState struct {
	ifs  map[*ast.IfStmt]bool
	tail map[*ast.IfStmt]bool // nothing after the if synchronises
	// arms are the arms being transformed (list) or written (emit),
	// innermost last.
	arms []divArm
	// active are the predicate arrays of ActiveMask calls.
	active map[string]bool
}

type divArm struct {
	off     string
	outer   string // the exited or off flags around the arm ("" none)
	relaxed bool
}

// findDivergent finds the divergent ifs and takes back the uniformity of
// the variables their arms assign (declared outside the arm): they differ
// between the threads that took the arm and the others. Repeated, as
// fewer uniform variables may make more conditions divergent.
func (f *fissioner) findDivergent() {
	d := &divState{ifs: map[*ast.IfStmt]bool{}, tail: map[*ast.IfStmt]bool{}}
	f.div = d
	for {
		changed := false
		ast.Inspect(f.fd.Body, func(n ast.Node) bool {
			s, ok := n.(*ast.IfStmt)
			if !ok || d.ifs[s] || !f.block[s] || !f.hasColl(s) || f.collOnlyInHead(s) {
				return true
			}
			if f.uniformExpr(s.Cond) && (s.Init == nil || f.isUniformStmt(s.Init)) {
				return true
			}
			d.ifs[s] = true
			changed = true
			return true
		})
		if !changed {
			break
		}
		for s := range d.ifs {
			for _, arm := range []ast.Node{s.Body, s.Else} {
				if arm == nil {
					continue
				}
				for v, as := range f.assigns {
					if within(arm, v.Pos()) {
						continue
					}
					for _, a := range as {
						if within(arm, a.Pos()) {
							delete(f.uniform, v)
						}
					}
				}
			}
		}
		for again := true; again; {
			again = false
			for v := range f.uniform {
				for _, a := range f.assigns[v] {
					if !f.uniformAssign(a) {
						delete(f.uniform, v)
						again = true
						break
					}
				}
			}
		}
	}
	var walk func(list []ast.Stmt, tail bool)
	walk = func(list []ast.Stmt, tail bool) {
		for i, s := range list {
			t := tail
			for _, after := range list[i+1:] {
				t = t && !f.hasColl(after)
			}
			switch s := s.(type) {
			case *ast.IfStmt:
				d.tail[s] = t
				walk(s.Body.List, t)
				if s.Else != nil {
					walk([]ast.Stmt{s.Else}, t)
				}
			case *ast.BlockStmt:
				walk(s.List, t)
			case *ast.ForStmt:
				walk(s.Body.List, false)
			case *ast.RangeStmt:
				walk(s.Body.List, false)
			}
		}
	}
	walk(f.fd.Body.List, true)
}

func within(n ast.Node, p token.Pos) bool { return n.Pos() <= p && p < n.End() }

// divergentIf transforms s if it is a divergent if, appending its node to
// out, and reports whether it did.
func (f *fissioner) divergentIf(s *ast.IfStmt, open func() *region, out *[]node) bool {
	d := f.div
	if d == nil || !d.ifs[s] {
		return false
	}
	if s.Init != nil {
		f.fail(s.Pos(), "a warp operation under an if with an init statement whose condition is not the same in every thread of the block (declare the variable before the if)")
	}
	var bodies []ast.Node
	bodies = append(bodies, s.Body)
	if s.Else != nil {
		bodies = append(bodies, s.Else)
	}
	for _, b := range bodies {
		ast.Inspect(b, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				switch k, name := f.g.collective(call); {
				case name == "SyncWarp":
					f.fail(call.Pos(), "SyncWarp under a condition that is not the same in every thread of the block (write t.SyncWarpMask with the lanes that take the branch)")
				case k == collBarrier || k == collReduce || k == collGrid:
					f.fail(call.Pos(), "%s under a condition that is not the same in every thread of the block (a barrier under thread-dependent control flow, undefined on a GPU)", name)
				}
			}
			return true
		})
	}
	outerRelaxed := true
	if len(d.arms) > 0 {
		outerRelaxed = d.arms[len(d.arms)-1].relaxed
	}
	dv := &divergence{
		relaxedThen: outerRelaxed && d.tail[s] && (s.Else == nil || !f.hasColl(s.Else)),
		relaxedElse: outerRelaxed && d.tail[s] && !f.hasColl(s.Body),
	}
	// ActiveMask: see the comment at the top of the file.
	var elseList []ast.Stmt
	switch e := s.Else.(type) {
	case *ast.BlockStmt:
		elseList = e.List
	case *ast.IfStmt:
		elseList = []ast.Stmt{e}
	}
	topT, allT := f.activeCounts(s.Body.List)
	topE, allE := f.activeCounts(elseList)
	paired := len(d.arms) == 0 && topT == allT && topE == allE && topT == topE
	if allT > 0 && !dv.relaxedThen && !paired || allE > 0 && !dv.relaxedElse && !paired {
		f.fail(s.Cond.Pos(), "ActiveMask under a condition that is not the same in every thread of the block, where the block loop cannot tell which lanes the goroutine path would gather (write it at the top level of both arms, as often in each)")
	}
	// The condition, per thread, in the region before (after the
	// exchanges of warp operations in it).
	r := open()
	if f.hasColl(s.Cond) {
		wrap := &ast.ExprStmt{X: s.Cond}
		f.gather(wrap, r, out)
		s.Cond = wrap.X
		r = &region{id: len(f.regions)}
		f.regions = append(f.regions, r)
		*out = append(*out, r)
	}
	dv.in = f.scratchOf("nugoIn", types.Typ[types.Bool])
	r.pieces = append(r.pieces, piece{text: dv.in + "[" + f.ti + "] = %s", exprs: []ast.Expr{s.Cond}})
	dv.offThen = f.scratchOf("nugoOff", types.Typ[types.Bool])
	n := &ifElseNode{s: s, div: dv}
	d.arms = append(d.arms, divArm{relaxed: dv.relaxedThen})
	n.then = f.list(s.Body.List)
	d.arms = d.arms[:len(d.arms)-1]
	if s.Else != nil {
		dv.offElse = f.scratchOf("nugoOff", types.Typ[types.Bool])
		d.arms = append(d.arms, divArm{relaxed: dv.relaxedElse})
		n.els = f.list(elseList)
		d.arms = d.arms[:len(d.arms)-1]
	}
	*out = append(*out, n)
	return true
}

// activeCounts counts the ActiveMask calls of an arm: those in the arm's
// own statements (not inside an if, loop or block of it), and all.
func (f *fissioner) activeCounts(list []ast.Stmt) (top, all int) {
	count := func(n ast.Node, nested bool) int {
		c := 0
		ast.Inspect(n, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.CallExpr:
				if _, name := f.g.collective(x); name == "ActiveMask" {
					c++
				}
			case *ast.BlockStmt, *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
				if !nested {
					return false
				}
			}
			return true
		})
		return c
	}
	for _, s := range list {
		all += count(s, true)
		switch s.(type) {
		case *ast.BlockStmt, *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
		default:
			top += count(s, false)
		}
	}
	return top, all
}

// divergent writes a divergent if (see the top of the file).
func (e *emitter) divergent(n *ifElseNode) {
	f, w, d := e.f, e.w, e.f.div
	dv := n.div
	outer := f.exited
	arms := []struct {
		off     string
		body    []node
		taken   bool
		relaxed bool
	}{{dv.offThen, n.then, true, dv.relaxedThen}}
	if n.s.Else != nil {
		arms = append(arms, struct {
			off     string
			body    []node
			taken   bool
			relaxed bool
		}{dv.offElse, n.els, false, dv.relaxedElse})
	}
	for _, a := range arms {
		o := outer
		if o == "" {
			o = "nil"
		}
		fmt.Fprintf(w, "if %s.BlockBranch(%s, %s, %s, %v) {\n", f.cuda, a.off, dv.in, o, a.taken)
		d.arms = append(d.arms, divArm{off: a.off, outer: outer, relaxed: a.relaxed})
		f.exited = a.off
		e.nodes(a.body)
		f.exited = outer
		d.arms = d.arms[:len(d.arms)-1]
		w.WriteString("}\n")
	}
}

// exitMarks returns the flags a return sets: the exited flags and the off
// flags of the divergent arms around it.
func (f *fissioner) exitMarks() []string {
	if f.div == nil || len(f.div.arms) == 0 || f.div.arms[0].off == "" {
		if f.exited == "" {
			return nil
		}
		return []string{f.exited}
	}
	var marks []string
	if o := f.div.arms[0].outer; o != "" {
		marks = append(marks, o)
	}
	for _, a := range f.div.arms {
		marks = append(marks, a.off)
	}
	return marks
}

var maskName = regexp.MustCompile(`\bnugoMask[0-9]*\b`)

// branchCheck writes, before the exchange n of a warp operation inside a
// divergent arm that is not relaxed, the check that no live lane of the
// operation's mask is elsewhere (cuda.BlockBranchCheck), and reports
// whether it wrote one.
func (e *emitter) branchCheck(n *textNode) bool {
	f, d := e.f, e.f.div
	if d == nil || len(d.arms) == 0 || d.arms[0].off == "" {
		return false
	}
	arm := d.arms[len(d.arms)-1]
	if arm.relaxed {
		return false
	}
	mask := "nil"
	if n.shfl == nil {
		if d.active == nil {
			d.active = map[string]bool{}
			for _, r := range f.regions {
				for _, p := range r.pieces {
					if name, ok := strings.CutSuffix(p.text, "["+f.ti+"] = true"); ok && p.stmt == nil && len(p.exprs) == 0 && !strings.ContainsAny(name, " \n") {
						d.active[name] = true
					}
				}
			}
		}
		for a := range d.active {
			if regexp.MustCompile(`\b` + a + `\b`).MatchString(n.text) {
				return false // ActiveMask: paired or relaxed (divergentIf)
			}
		}
		if m := maskName.FindString(n.text); m != "" {
			mask = m
		}
	}
	live := d.arms[0].outer
	if live == "" {
		live = "nil"
	}
	fmt.Fprintf(e.w, "%s.BlockBranchCheck(%s, %s, %s, %s)\n", f.cuda, f.blk, mask, arm.off, live)
	return true
}
