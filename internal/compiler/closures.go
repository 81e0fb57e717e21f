package compiler

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Recursive closures (issue 21, item 9). Go writes a recursive function
// literal through a variable it captures:
//
//	var fib func(int) int
//	fib = func(n int) int { ... fib(n-1) ... }
//
// go/ssa puts the variable in a heap cell (an Alloc), makes the closure
// with the cell as its one binding, stores the closure in the cell, and
// calls it by loading the cell (in the literal, through its free
// variable). When the literal captures nothing else, the variable is
// assigned that closure once, and every load of it is only called, each
// call is a direct call of the literal, compiled as a recursive device
// function: the cell, the closure and the loads need no code. The front
// end refuses literals that capture other variables too.

// selfClosure returns the function literal of a recursive closure given
// its variable: the heap cell in the function that makes the closure, or
// the literal's free variable for it; nil when v is neither.
func selfClosure(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Alloc:
		return cellClosure(v)
	case *ssa.FreeVar:
		fn := v.Parent()
		if fn == nil || len(fn.FreeVars) != 1 || !loadsOnlyCalled(v) || fn.Referrers() == nil {
			return nil
		}
		for _, r := range *fn.Referrers() {
			if mc, ok := r.(*ssa.MakeClosure); ok && len(mc.Bindings) == 1 {
				if cell, ok := mc.Bindings[0].(*ssa.Alloc); ok && cellClosure(cell) == fn {
					return fn
				}
			}
		}
	}
	return nil
}

// cellClosure returns the function literal of a recursive closure whose
// variable's heap cell is cell, or nil.
func cellClosure(cell *ssa.Alloc) *ssa.Function {
	p, ok := cell.Type().Underlying().(*types.Pointer)
	if !cell.Heap || !ok || !isFuncType(p.Elem()) || !loadsOnlyCalled(cell) {
		return nil
	}
	var made *ssa.MakeClosure
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			mc, ok := r.Val.(*ssa.MakeClosure)
			if !ok || r.Addr != cell || made != nil {
				return nil
			}
			made = mc
		case *ssa.MakeClosure:
			if len(r.Bindings) != 1 || r.Bindings[0] != cell {
				return nil
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return nil
		}
	}
	if made == nil || len(made.Bindings) != 1 || made.Bindings[0] != cell {
		return nil
	}
	fn, _ := made.Fn.(*ssa.Function)
	return fn
}

// loadsOnlyCalled reports whether every use of v is a load whose value is
// only called (not passed, stored or compared).
func loadsOnlyCalled(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
			for _, u := range *r.Referrers() {
				if _, ok := u.(*ssa.DebugRef); ok {
					continue
				}
				call, ok := u.(*ssa.Call)
				if !ok || call.Call.Value != r || usesAsArg(call, r) {
					return false
				}
			}
		case *ssa.Store, *ssa.MakeClosure, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// selfClosureInstr reports whether instr is part of a recursive closure's
// plumbing (its cell, the closure, its store and the loads), which needs
// no code.
func selfClosureInstr(instr ssa.Instruction) bool {
	switch in := instr.(type) {
	case *ssa.Alloc:
		return cellClosure(in) != nil
	case *ssa.Store:
		cell, ok := in.Addr.(*ssa.Alloc)
		return ok && cellClosure(cell) != nil
	case *ssa.MakeClosure:
		if len(in.Bindings) != 1 {
			return false
		}
		cell, ok := in.Bindings[0].(*ssa.Alloc)
		return ok && cellClosure(cell) != nil
	case *ssa.UnOp:
		return in.Op == token.MUL && selfClosure(in.X) != nil
	}
	return false
}

// closureCallee returns the function literal a call through a recursive
// closure's variable calls, or nil.
func closureCallee(v ssa.Value) *ssa.Function {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		return selfClosure(u.X)
	}
	return nil
}
