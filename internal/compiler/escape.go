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
