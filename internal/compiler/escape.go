package compiler

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Pointers that outlive their frame. A device function's own variables live
// in its .local frame, which ends when a real (.func) call returns; Go keeps
// such a variable alive (on the heap) as long as a pointer to it exists.
// A function that hands out the address of one of its own variables is
// therefore always inlined, so that the variable lives in the caller's
// frame; where it cannot be inlined (recursion, closures) the compiler
// refuses it with the position of the return or store that lets it out.

// localLeak returns the position where fn lets the address of one of its own
// variables out (a return, or a store into memory it does not own), or
// token.NoPos.
func (m *modState) localLeak(fn *ssa.Function) token.Pos {
	if p, ok := m.leaks[fn]; ok {
		return p
	}
	own := map[ssa.Value]bool{}
	var derived func(v ssa.Value) bool
	derived = func(v ssa.Value) bool {
		if d, ok := own[v]; ok {
			return d
		}
		own[v] = false // cycles through phis
		d := false
		switch v := v.(type) {
		case *ssa.Alloc, *ssa.MakeSlice:
			d = true
		case *ssa.IndexAddr:
			d = derived(v.X)
		case *ssa.FieldAddr:
			d = derived(v.X)
		case *ssa.Slice:
			d = derived(v.X)
		case *ssa.ChangeType:
			d = derived(v.X)
		case *ssa.Convert:
			d = derived(v.X)
		case *ssa.SliceToArrayPointer:
			d = derived(v.X)
		case *ssa.Phi:
			for _, e := range v.Edges {
				if derived(e) {
					d = true
					break
				}
			}
		case *ssa.UnOp:
			// A struct or array value loaded from the function's own
			// memory may carry a pointer stored there.
			d = v.Op == token.MUL && hasPointer(v.Type()) && derived(v.X)
		case *ssa.Field:
			d = derived(v.X)
		case *ssa.Index:
			d = derived(v.X)
		}
		own[v] = d
		return d
	}
	pos := token.NoPos
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Return:
				for _, r := range in.Results {
					if hasPointer(r.Type()) && derived(r) {
						pos = in.Pos()
						if pos == token.NoPos {
							pos = fn.Pos()
						}
					}
				}
			case *ssa.Store:
				if hasPointer(in.Val.Type()) && derived(in.Val) && !derived(in.Addr) {
					pos = in.Pos()
					if pos == token.NoPos {
						pos = fn.Pos()
					}
				}
			}
			if pos != token.NoPos {
				break
			}
		}
		if pos != token.NoPos {
			break
		}
	}
	m.leaks[fn] = pos
	return pos
}

// checkLoopAddresses refuses, once per function, a variable declared in a
// loop whose address outlives its iteration: Go gives each iteration its
// own variable, where a GPU thread, without a heap, reuses one frame slot;
// the pointers kept would all see the last iteration's value. Such an
// address is one of a variable declared in a loop body, or returned by an
// inlined device function that lets its own variable's address out
// (localLeak) called in a loop; it outlives the iteration when it is
// stored to memory or carried by a phi of a loop header around it.
func (m *modState) checkLoopAddresses(fn *ssa.Function) {
	if m.loopChecked[fn] {
		return
	}
	m.loopChecked[fn] = true
	inLoop := func(b *ssa.BasicBlock) bool {
		seen := map[*ssa.BasicBlock]bool{}
		stack := append([]*ssa.BasicBlock(nil), b.Succs...)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x == b {
				return true
			}
			if !seen[x] {
				seen[x] = true
				stack = append(stack, x.Succs...)
			}
		}
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var src ssa.Value
			name := ""
			switch v := instr.(type) {
			case *ssa.Alloc:
				if v.Heap && inLoop(b) {
					src, name = v, v.Comment
				}
			case *ssa.Call:
				if c := v.Call.StaticCallee(); c != nil && len(c.Blocks) > 0 && m.localLeak(c) != token.NoPos && inLoop(b) {
					src, name = v, "the variable of "+c.Name()
				}
			}
			if src == nil {
				continue
			}
			if pos, kept := keptPastIteration(src, b); kept {
				if !pos.IsValid() {
					pos = src.Pos()
				}
				if !pos.IsValid() {
					pos = fn.Pos()
				}
				m.diags.add(pos, "the address of %s, made anew in each iteration of a loop, is kept past its iteration; a GPU thread has no heap to give each iteration its own variable, so declare an array outside the loop and take the addresses of its elements", name)
			}
		}
	}
}

// keptPastIteration reports whether an address made in block b (or one
// derived from it) is stored to memory or enters a phi of a block that
// dominates b (a loop header around it), and where.
func keptPastIteration(src ssa.Value, b *ssa.BasicBlock) (token.Pos, bool) {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) (token.Pos, bool)
	walk = func(v ssa.Value) (token.Pos, bool) {
		if seen[v] {
			return token.NoPos, false
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return token.NoPos, false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Val == v {
					return r.Pos(), true
				}
			case *ssa.Phi:
				if r.Block() != b && r.Block().Dominates(b) {
					return v.Pos(), true
				}
				if p, kept := walk(r); kept {
					return p, true
				}
			case *ssa.IndexAddr, *ssa.FieldAddr, *ssa.Slice, *ssa.ChangeType, *ssa.Convert, *ssa.SliceToArrayPointer:
				if p, kept := walk(r.(ssa.Value)); kept {
					return p, true
				}
			}
		}
		return token.NoPos, false
	}
	return walk(src)
}
