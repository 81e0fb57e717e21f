package compiler

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Writes through package-level tables. The front end refuses a write to a
// package-level variable and its address (tbl[i] = v, &tbl[i]), but not a
// write through a slice of it (s := tbl[:]; s[i] = v), which only the
// program's data flow shows: on a GPU such a write would change the module's
// copy of the table, which the host never sees, while the CPU backend
// changes the Go variable. checkTableWrites follows pointers from each
// write back to what they are made from, across calls of device functions
// (a parameter a function writes through is written by its callers'
// arguments), and refuses every write that reaches a table. Writes through
// a func parameter's function and through pointers a function returns or
// keeps in memory are not followed.

// checkTableWrites adds a diagnostic for every write through memory of a
// package-level variable in the module's programs.
func (m *modState) checkTableWrites() {
	w := &writeFlow{params: map[*ssa.Function][]bool{}}
	reported := map[token.Pos]bool{}
	for fn := range m.deviceFunctions() {
		for _, s := range w.sites(fn) {
			for r := range roots(s.ptr) {
				g, ok := r.(*ssa.Global)
				if !ok || reported[s.pos] {
					continue
				}
				reported[s.pos] = true
				m.diags.add(s.pos, "cannot write to package-level variable %s in a kernel, here through a slice or pointer made from it: every thread would share it and the host would not see it; copy it into a local array (var a [N]T; copy(a[:], %s[:])) or write into a slice parameter instead", g.Name(), g.Name())
			}
		}
	}
}

// writeSite is a write through ptr at pos.
type writeSite struct {
	ptr ssa.Value
	pos token.Pos
}

// writeFlow computes which parameters of each function it writes through,
// itself or through the functions it calls.
type writeFlow struct {
	params map[*ssa.Function][]bool // nil while being computed (recursion)
}

// sites returns fn's writes: stores, copy and clear, Array2/3 Set and
// atomics, and arguments for parameters that the callee writes through.
func (w *writeFlow) sites(fn *ssa.Function) []writeSite {
	var out []writeSite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				out = append(out, writeSite{in.Addr, in.Pos()})
			case *ssa.Call:
				if bi, ok := in.Call.Value.(*ssa.Builtin); ok {
					if (bi.Name() == "copy" || bi.Name() == "clear") && len(in.Call.Args) > 0 {
						out = append(out, writeSite{in.Call.Args[0], in.Pos()})
					}
					continue
				}
				callee := in.Call.StaticCallee()
				if callee == nil {
					continue // a func parameter's function: not followed
				}
				if len(callee.Blocks) == 0 { // an intrinsic
					if name := calleeName(callee); name == "Set" || strings.HasPrefix(name, "Atomic") {
						for _, a := range in.Call.Args {
							if hasPointer(a.Type()) {
								out = append(out, writeSite{a, in.Pos()})
							}
						}
					}
					continue
				}
				written := w.paramsOf(callee)
				for i, a := range in.Call.Args {
					if i < len(written) && written[i] && hasPointer(a.Type()) {
						out = append(out, writeSite{a, in.Pos()})
					}
				}
			}
		}
	}
	return out
}

// paramsOf reports, for each parameter of fn, whether fn writes through it.
// A recursive call sees the parameters written before it as far as known:
// the writes of the recursion's other calls are found on their own.
func (w *writeFlow) paramsOf(fn *ssa.Function) []bool {
	if p, ok := w.params[fn]; ok {
		return p // nil while fn is being computed
	}
	w.params[fn] = nil
	index := map[*ssa.Parameter]int{}
	for i, p := range fn.Params {
		index[p] = i
	}
	written := make([]bool, len(fn.Params))
	for _, s := range w.sites(fn) {
		for r := range roots(s.ptr) {
			if p, ok := r.(*ssa.Parameter); ok {
				if i, ok := index[p]; ok {
					written[i] = true
				}
			}
		}
	}
	w.params[fn] = written
	return written
}

// roots returns the globals and parameters that pointer value v is made
// from by indexing, field selection, slicing and conversions.
func roots(v ssa.Value) map[ssa.Value]bool {
	out := map[ssa.Value]bool{}
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if seen[v] {
			return
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Global, *ssa.Parameter:
			out[v] = true
		case *ssa.IndexAddr:
			walk(v.X)
		case *ssa.FieldAddr:
			walk(v.X)
		case *ssa.Slice:
			walk(v.X)
		case *ssa.Field:
			walk(v.X)
		case *ssa.ChangeType:
			walk(v.X)
		case *ssa.SliceToArrayPointer:
			walk(v.X)
		case *ssa.Phi:
			for _, e := range v.Edges {
				walk(e)
			}
		case *ssa.Call:
			// Data's and T's results and MustView2's and MustView3's
			// share their first argument's memory.
			if fn := v.Call.StaticCallee(); fn != nil && len(fn.Blocks) == 0 && len(v.Call.Args) > 0 {
				switch name := calleeName(fn); {
				case (name == "Data" || name == "T") && len(v.Call.Args) == 1, name == "MustView2", name == "MustView3":
					walk(v.Call.Args[0])
				}
			}
		}
	}
	walk(v)
	return out
}
