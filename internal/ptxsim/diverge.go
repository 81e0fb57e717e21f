package ptxsim

import "slices"

// Divergence tracking, for activemask. Threads run one at a time here, each
// until it blocks, so which lanes of a warp "execute together" must be
// reconstructed: a GPU's warp parts at a conditional branch that some lanes
// take and others do not, runs each side, and joins again where the two
// paths meet, the branch's immediate post-dominator (the reconvergence
// point of the SIMT stack; Volta's independent thread scheduling still
// reconverges there for structured code). Each thread keeps that stack for
// itself: an entry per branch (and call) it is inside, with the branch's
// sequence number at its level, the loop trips and the side taken. Lanes
// with equal stacks at the same activemask are the lanes that run it
// together; a lane whose stack shows it has not yet reached a point that
// others wait at (it is still inside an earlier branch, or loop trip) is
// "behind", and an activemask waits until no lane of the warp is behind
// it, so that lanes that will join the same path are counted.
//
// Only modules that use activemask pay for it: their conditional branches
// become opBraCond, and an opJoin is placed at each reconvergence point.

// divEntry is one branch or call a thread is inside.
type divEntry struct {
	br    int32 // pc of the branch; -1 for a call
	rc    int32 // pc of the opJoin where it ends; -1: at the function's return
	depth int32 // call depth (len(thread.frames)) where it ends
	seq   int32 // the split's number among those of its level
	trip  int32 // times the branch ran again before its join (loop trips)
	inner int32 // splits so far inside this entry
	taken bool
}

// nextSeq numbers a new split at the thread's current level.
func (t *thread) nextSeq() int32 {
	if n := len(t.div); n > 0 {
		s := t.div[n-1].inner
		t.div[n-1].inner++
		return s
	}
	s := t.divRoot
	t.divRoot++
	return s
}

// divBranch records that the thread runs the conditional branch at pc
// (taken or not) whose reconvergence point is rc.
func (t *thread) divBranch(pc, rc int32, taken bool) {
	depth := int32(len(t.frames))
	// Back at a branch it has not left: another loop trip, and whatever it
	// entered since then (a break's branch that joins after the loop) is
	// part of the trip before.
	for k := len(t.div) - 1; k >= 0 && t.div[k].depth == depth; k-- {
		if e := &t.div[k]; e.br == pc && e.br >= 0 {
			t.div = t.div[:k+1]
			e.trip++
			e.inner = 0
			e.taken = taken
			return
		}
	}
	seq := t.nextSeq()
	t.div = append(t.div, divEntry{br: pc, rc: rc, depth: depth, seq: seq, taken: taken})
}

// divJoin ends the entries of the current call depth that reconverge at pc,
// with everything entered inside them.
func (t *thread) divJoin(pc int32) {
	depth := int32(len(t.frames))
	k := -1
	for i := len(t.div) - 1; i >= 0 && t.div[i].depth == depth; i-- {
		if t.div[i].rc == pc {
			k = i
		}
	}
	if k >= 0 {
		t.div = t.div[:k]
	}
}

// divCall records a call: the callee's branches are numbered inside it.
func (t *thread) divCall() {
	seq := t.nextSeq()
	t.div = append(t.div, divEntry{br: -1, rc: -1, depth: int32(len(t.frames)) + 1, seq: seq})
}

// divReturn ends the entries of the returning call depth.
func (t *thread) divReturn() {
	depth := int32(len(t.frames))
	k := len(t.div)
	for k > 0 && t.div[k-1].depth >= depth {
		k--
	}
	t.div = t.div[:k]
}

// sameDiv reports whether threads x and y are on the same path: equal
// stacks and as many splits at their level.
func sameDiv(x, y *thread) bool {
	if len(x.div) != len(y.div) || x.divRoot != y.divRoot {
		return false
	}
	for i := range x.div {
		a, b := &x.div[i], &y.div[i]
		if a.br != b.br || a.seq != b.seq || a.trip != b.trip || a.taken != b.taken || a.inner != b.inner {
			return false
		}
	}
	return true
}

// behind reports whether thread x has yet to reach where thread y is: at
// the first level where they differ, x is inside an earlier split or loop
// trip than y, or has not yet reached the split y is inside. Lanes on the
// two sides of one branch are not behind each other.
func behind(x, y *thread) bool {
	cx, cy := x.divRoot, y.divRoot
	for i := 0; ; i++ {
		hx, hy := i < len(x.div), i < len(y.div)
		switch {
		case hx && hy:
			ex, ey := &x.div[i], &y.div[i]
			if ex.seq != ey.seq {
				return ex.seq < ey.seq
			}
			if ex.br != ey.br {
				return false
			}
			if ex.trip != ey.trip {
				return ex.trip < ey.trip
			}
			if ex.taken != ey.taken {
				return false
			}
			cx, cy = ex.inner, ey.inner
		case hx:
			return x.div[i].seq < cy
		case hy:
			return cx <= y.div[i].seq
		default:
			return cx < cy
		}
	}
}

// releaseActive completes the activemask of the lanes of active, every
// live lane of the warp being blocked: each group of lanes on the same
// path at the same activemask gets its mask, once no live lane is behind
// it. If every group has a lane behind it (which then waits at bar.sync,
// or at a warp-level instruction that needs the group), all go on, each
// with the lanes it has.
func (w *worker) releaseActive(warp []thread, live, active uint32) {
	var groups []uint32
	left := active
	for l := range warp {
		if left&(1<<l) == 0 {
			continue
		}
		var g uint32
		for j := l; j < len(warp); j++ {
			if left&(1<<j) != 0 && warp[j].warpIn == warp[l].warpIn && sameDiv(&warp[j], &warp[l]) {
				g |= 1 << j
			}
		}
		left &^= g
		groups = append(groups, g)
	}
	var ready []uint32
	for _, g := range groups {
		rep := &warp[lowest(g)]
		ok := true
		for x := range warp {
			if live&^g&(1<<x) != 0 && behind(&warp[x], rep) {
				ok = false
				break
			}
		}
		if ok {
			ready = append(ready, g)
		}
	}
	if len(ready) == 0 {
		ready = groups
	}
	for _, g := range ready {
		for l := range warp {
			if g&(1<<l) == 0 {
				continue
			}
			t := &warp[l]
			if in := t.warpIn; in.d >= 0 {
				t.regs[in.d] = uint64(g)
			}
			t.warpIn = nil
			t.state = stRun
		}
	}
}

// lowest is the index of m's lowest set bit (m != 0).
func lowest(m uint32) int {
	for l := range 32 {
		if m&(1<<l) != 0 {
			return l
		}
	}
	return 0
}

// usesActivemask reports whether any function of the module has an
// activemask instruction.
func (m *Module) usesActivemask() bool {
	for _, f := range m.funcs {
		for i := range f.code {
			if in := &f.code[i]; in.op == opVote && in.fop == voteActive {
				return true
			}
		}
	}
	return false
}

// trackDivergence turns the conditional branches of f into opBraCond and
// puts an opJoin at each one's reconvergence point (its block's immediate
// post-dominator), moving the branch targets to match.
func (f *function) trackDivergence() {
	f.track = true
	code := f.code
	n := len(code)
	if n == 0 {
		return
	}
	// Basic blocks.
	leader := make([]bool, n+1)
	leader[0] = true
	for i := range code {
		in := &code[i]
		switch in.op {
		case opBra:
			leader[in.tgt] = true
			leader[i+1] = true
		case opRet, opExit, opTrap:
			leader[i+1] = true
		}
	}
	var starts []int
	blockOf := make([]int, n)
	for i := range n {
		if leader[i] {
			starts = append(starts, i)
		}
		blockOf[i] = len(starts) - 1
	}
	nb := len(starts)
	exit := nb
	// Edges, and the blocks that return (ret) rather than stop the thread
	// (exit, trap: the failure paths of debug checks and panics).
	succ := make([][]int, nb+1)
	returns := make([]bool, nb)
	for b := range starts {
		e := n
		if b+1 < nb {
			e = starts[b+1]
		}
		last := &code[e-1]
		ends := last.op == opBra || last.op == opRet || last.op == opExit || last.op == opTrap
		if !ends || last.g != slotTrue {
			// The implicit ret at the end of the code means a block that
			// falls through has a next one.
			succ[b] = append(succ[b], blockOf[e])
		}
		switch last.op {
		case opBra:
			succ[b] = append(succ[b], blockOf[last.tgt])
		case opRet, opExit, opTrap:
			succ[b] = append(succ[b], exit)
			returns[b] = last.op == opRet
		}
	}
	// A path that can only stop the thread does not keep the others from
	// reconverging (a GPU's warp joins after an if whose bounds check
	// could trap): where some block returns, post-dominance is computed
	// over the blocks that can return.
	canReturn := make([]bool, nb+1)
	var work []int
	for b := range nb {
		if returns[b] {
			canReturn[b] = true
			work = append(work, b)
		}
	}
	rpred := make([][]int, nb+1)
	for a, ss := range succ {
		for _, b := range ss {
			rpred[b] = append(rpred[b], a)
		}
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range rpred[b] {
			if !canReturn[a] {
				canReturn[a] = true
				work = append(work, a)
			}
		}
	}
	if len(rpred[exit]) > 0 && slices.Contains(canReturn, true) {
		canReturn[exit] = true
		for b := range nb {
			if !canReturn[b] {
				continue
			}
			keep := succ[b][:0]
			for _, s := range succ[b] {
				if canReturn[s] && (s != exit || returns[b]) {
					keep = append(keep, s)
				}
			}
			succ[b] = keep
		}
	}
	pred := make([][]int, nb+1)
	for a, ss := range succ {
		for _, b := range ss {
			pred[b] = append(pred[b], a)
		}
	}
	ipdom := postDominators(nb+1, exit, succ, pred)
	// Reconvergence points of the conditional branches.
	joinAt := make([]bool, n+1)
	rcOld := make([]int, n)
	for i := range code {
		in := &code[i]
		if in.op != opBra || in.g == slotTrue {
			continue
		}
		rcOld[i] = -1
		if p := ipdom[blockOf[i]]; p >= 0 && p != exit {
			rcOld[i] = starts[p]
			joinAt[starts[p]] = true
		}
	}
	// pos is where old pc i's code (its join, if it has one) goes.
	pos := make([]int, n+1)
	k := 0
	for i := 0; i <= n; i++ {
		pos[i] = i + k
		if joinAt[i] {
			k++
		}
	}
	out := make([]inst, 0, n+k)
	for i := range code {
		in := code[i]
		if joinAt[i] {
			out = append(out, inst{op: opJoin, g: slotTrue, line: in.line, text: in.text})
		}
		if in.op == opBra {
			if in.g != slotTrue {
				in.op = opBraCond
				in.a, in.fop = in.g, uint8(in.gx)
				in.g, in.gx = slotTrue, 0
				in.off = -1
				if rcOld[i] >= 0 {
					in.off = int64(pos[rcOld[i]])
				}
			}
			in.tgt = int32(pos[in.tgt])
		}
		out = append(out, in)
	}
	f.code = out
}

// postDominators returns the immediate post-dominator of each of the n
// nodes of the graph (exit its exit node, succ and pred its edges): the
// algorithm of Cooper, Harvey and Kennedy on the reversed graph. A node
// that cannot reach exit (an endless loop) gets -1.
func postDominators(n, exit int, succ, pred [][]int) []int {
	// Post-order of the reversed graph from exit.
	order := make([]int, n) // node -> post-order number
	for i := range order {
		order[i] = -1
	}
	var post []int
	seen := make([]bool, n)
	type item struct{ v, i int }
	stack := []item{{exit, 0}}
	seen[exit] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(pred[top.v]) {
			u := pred[top.v][top.i]
			top.i++
			if !seen[u] {
				seen[u] = true
				stack = append(stack, item{u, 0})
			}
			continue
		}
		order[top.v] = len(post)
		post = append(post, top.v)
		stack = stack[:len(stack)-1]
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for order[a] < order[b] {
				a = idom[a]
			}
			for order[b] < order[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(post) - 1; i >= 0; i-- {
			v := post[i]
			if v == exit {
				continue
			}
			nd := -1
			for _, s := range succ[v] {
				if idom[s] < 0 {
					continue
				}
				if nd < 0 {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			if nd != idom[v] {
				idom[v] = nd
				changed = true
			}
		}
	}
	return idom
}
