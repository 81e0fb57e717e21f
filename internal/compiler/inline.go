package compiler

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Inlining: ptxas does not inline .func calls, and a call costs an ABI
// round trip through parameter space and keeps pointer arguments generic.
// Small non-recursive device functions are therefore lowered into their
// caller: parameters take the caller's operands (and state spaces), returns
// copy into result registers and branch to the code after the call.

const (
	inlineMaxInstrs = 150 // SSA instructions of a function worth inlining
	inlineMaxDepth  = 4
)

type inlineState struct {
	done       string // label after the inlined body
	results    []string
	resultType []scalar
	paramSpace map[*ssa.Parameter]space
	depth      int
}

// shouldInline decides whether a call of callee is lowered inline.
func (f *fnState) shouldInline(callee *ssa.Function) bool {
	depth := 0
	if f.inl != nil {
		depth = f.inl.depth
	}
	if callee.Recover != nil || len(callee.FreeVars) > 0 {
		return false
	}
	if f.m.localLeak(callee) != token.NoPos {
		// Its variables must live in the caller's frame (escape.go);
		// without recursion the nesting is finite.
		return !f.m.recursive(callee)
	}
	if depth >= inlineMaxDepth {
		return false
	}
	n := 0
	for _, b := range callee.Blocks {
		n += len(b.Instrs)
	}
	if n > inlineMaxInstrs {
		return false
	}
	return !f.m.recursive(callee)
}

// recursive reports whether fn can reach itself through static calls.
func (m *modState) recursive(fn *ssa.Function) bool {
	if r, ok := m.recursion[fn]; ok {
		return r
	}
	seen := map[*ssa.Function]bool{}
	var reach func(g *ssa.Function) bool
	reach = func(g *ssa.Function) bool {
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				c := call.Common().StaticCallee()
				if c == nil || len(c.Blocks) == 0 {
					continue
				}
				if c == fn {
					return true
				}
				if !seen[c] {
					seen[c] = true
					if reach(c) {
						return true
					}
				}
			}
		}
		return false
	}
	r := reach(fn)
	m.recursion[fn] = r
	return r
}

// inlineCall lowers the body of callee in place of the call.
func (f *fnState) inlineCall(in ssa.Value, callee *ssa.Function, args []ssa.Value) {
	g := &fnState{
		m: f.m, fn: callee, p: f.p, kernel: false,
		vals:   map[ssa.Value][]string{},
		labels: map[*ssa.BasicBlock]string{},
		skip:   map[ssa.Instruction]bool{},
		printf: map[*ssa.Call][]ssa.Value{},
		spaces: map[ssa.Value]space{},
		pos:    f.pos,
	}
	st := &inlineState{done: f.newLabel("ret"), paramSpace: map[*ssa.Parameter]space{}, depth: 1}
	if f.inl != nil {
		st.depth = f.inl.depth + 1
	}
	g.inl = st
	for i, prm := range callee.Params {
		st.paramSpace[prm] = f.spaceOf(args[i])
		// Copies: the callee may not write the caller's registers, and a
		// phi's register passed here changes on the caller's loop edges.
		ls, err := leaves(prm.Type())
		if err != nil {
			f.errorf("argument %d: %v", i, err)
		}
		src := f.get(args[i])
		regs := make([]string, len(src))
		for k, o := range src {
			regs[k] = f.newReg(ls[k])
			f.mov(ls[k], regs[k], o)
		}
		g.vals[prm] = regs
	}
	if callee.Signature.Results().Len() > 0 {
		ls, err := leaves(callee.Signature.Results())
		if err != nil {
			f.errorf("result: %v", err)
		}
		st.resultType = ls
		for _, s := range ls {
			st.results = append(st.results, f.newReg(s))
		}
	}
	g.computeSpaces()
	g.readOnly = map[*ssa.Parameter]bool{}
	g.emitBody()
	f.p.Label(st.done)
	f.tail = append(f.tail, g.tail...)
	f.lastLoc = ""
	if callee.Signature.Results().Len() > 0 {
		f.bind(in, st.results)
	}
}

// inlineReturn copies the results and leaves the inlined body. The caller
// sees a call's pointer results as generic (it cannot know which state space
// each return of the callee took), so pointers into local, shared or global
// memory are converted here, as a real call's results are.
func (f *fnState) inlineReturn(in *ssa.Return) {
	var vals []string
	for _, r := range in.Results {
		vals = append(vals, f.getAs(r, spaceGeneric)...)
	}
	for i, s := range f.inl.resultType {
		f.mov(s, f.inl.results[i], vals[i])
	}
	f.p.Emit("bra.uni", f.inl.done)
}
