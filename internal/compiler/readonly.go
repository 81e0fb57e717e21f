package compiler

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Read-only slices: a kernel parameter whose memory the kernel never writes
// (no store, atomic, Array Set, and no pointer into it passed to a device
// function) is loaded with ld.global.nc, through the read-only data cache.
// Like CUDA's const __restrict__, this assumes the launch's arguments do not
// overlap; Target.NoReadOnlyCache turns it off for launches where they do.

// paramRoots returns the kernel parameters a pointer value may derive from.
func (f *fnState) paramRoots(v ssa.Value, seen map[ssa.Value]bool, out map[*ssa.Parameter]bool) {
	if seen[v] {
		return
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Parameter:
		out[v] = true
	case *ssa.IndexAddr:
		f.paramRoots(v.X, seen, out)
	case *ssa.FieldAddr:
		f.paramRoots(v.X, seen, out)
	case *ssa.Slice:
		f.paramRoots(v.X, seen, out)
	case *ssa.Field:
		f.paramRoots(v.X, seen, out)
	case *ssa.ChangeType:
		f.paramRoots(v.X, seen, out)
	case *ssa.SliceToArrayPointer:
		f.paramRoots(v.X, seen, out)
	case *ssa.Phi:
		for _, e := range v.Edges {
			f.paramRoots(e, seen, out)
		}
	case *ssa.Call:
		// Data's result and MustView2's and MustView3's share their
		// first argument's memory.
		if fn := v.Call.StaticCallee(); fn != nil && len(fn.Blocks) == 0 && len(v.Call.Args) > 0 {
			switch name := calleeName(fn); {
			case name == "Data" && len(v.Call.Args) == 1, name == "MustView2", name == "MustView3":
				f.paramRoots(v.Call.Args[0], seen, out)
			}
		}
	}
}

// findReadOnly computes the kernel's read-only parameters.
func (f *fnState) findReadOnly() {
	f.readOnly = map[*ssa.Parameter]bool{}
	if !f.kernel || f.m.target.NoReadOnlyCache {
		return
	}
	written := map[*ssa.Parameter]bool{}
	mark := func(v ssa.Value) {
		f.paramRoots(v, map[ssa.Value]bool{}, written)
	}
	for _, b := range f.fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				mark(in.Addr)
				if hasPointer(in.Val.Type()) {
					mark(in.Val) // a pointer kept in memory may be written through later
				}
			case *ssa.Call:
				if b, ok := in.Call.Value.(*ssa.Builtin); ok {
					// copy and clear write their first argument; len, cap,
					// min, max and nil checks write nothing.
					if (b.Name() == "copy" || b.Name() == "clear") && len(in.Call.Args) > 0 {
						mark(in.Call.Args[0])
					}
					continue
				}
				fn := in.Call.StaticCallee()
				intrinsic := fn != nil && len(fn.Blocks) == 0
				name := ""
				if intrinsic {
					name = calleeName(fn)
				}
				for i, a := range in.Call.Args {
					if !hasPointer(a.Type()) {
						continue
					}
					switch {
					case intrinsic && (name == "At" || name == "Shape" || name == "Len" || name == "Data") && i == 0:
						// Reads (Data's result is tracked through its uses).
					case intrinsic && (name == "Set" || len(name) > 6 && name[:6] == "Atomic"):
						mark(a)
					case intrinsic:
						// Other intrinsics take no pointers.
					default:
						mark(a) // a device function may write through it
					}
				}
			case *ssa.Return:
				for _, r := range in.Results {
					if hasPointer(r.Type()) {
						mark(r)
					}
				}
			}
		}
	}
	for _, p := range f.fn.Params {
		if hasPointer(p.Type()) && !written[p] {
			f.readOnly[p] = true
		}
	}
}

// tableElem reports whether ptr addresses an element of a read-only table
// (a package-level array initialized with constants; see globalTable)
// through indexing and field selection, and the table is sealed: no function
// of the module's programs does more with its address than load through it.
// The front end refuses stores to package-level variables and their
// addresses, but a slice of a table (tbl[:]) may be written through; such a
// table keeps coherent loads. Loads from a sealed table may use ld.global.nc
// in kernels and device functions alike, whatever Target.NoReadOnlyCache
// says: no launch argument can overlap a table.
func (f *fnState) tableElem(ptr ssa.Value) bool {
	for {
		switch p := ptr.(type) {
		case *ssa.Global:
			return f.m.sealedTable(p)
		case *ssa.IndexAddr:
			ptr = p.X
		case *ssa.FieldAddr:
			ptr = p.X
		default:
			return false
		}
	}
}

// sealedTable reports whether every use of g's address in the module's
// programs is a load, an index or a field selection whose uses are such too.
// The answer for every global is computed on first use.
func (m *modState) sealedTable(g *ssa.Global) bool {
	if m.unsealed == nil {
		m.unsealed = map[*ssa.Global]bool{}
		seen := map[*ssa.Program]bool{}
		for _, k := range m.owners {
			if k.Prog == nil || seen[k.Prog] {
				continue
			}
			seen[k.Prog] = true
			for fn := range ssautil.AllFunctions(k.Prog) {
				if packageInit(fn) {
					continue // host-only: it writes the tables' initial values
				}
				for _, b := range fn.Blocks {
					for _, instr := range b.Instrs {
						m.markUnsealed(instr)
					}
				}
			}
		}
	}
	return !m.unsealed[g]
}

// packageInit reports whether fn is a package initializer (init, or a
// user's init#N), which only the host runs.
func packageInit(fn *ssa.Function) bool {
	name := fn.Name()
	return fn.Pkg != nil && fn.Parent() == nil && fn.Signature.Recv() == nil &&
		(name == "init" || strings.HasPrefix(name, "init#"))
}

// markUnsealed marks the globals instr uses other than by loading through
// their addresses.
func (m *modState) markUnsealed(instr ssa.Instruction) {
	var ops [8]*ssa.Value
	for _, op := range instr.Operands(ops[:0]) {
		g, ok := (*op).(*ssa.Global)
		if !ok || m.unsealed[g] {
			continue
		}
		if v, isVal := instr.(ssa.Value); !isVal || !loadOnly(v, g) {
			m.unsealed[g] = true
		}
	}
}

// loadOnly reports whether v, an instruction using address x, only loads
// through x, directly or through addresses derived from it by indexing and
// field selection.
func loadOnly(v ssa.Value, x ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.UnOp:
		return v.Op == token.MUL
	case *ssa.IndexAddr:
		if v.X != x {
			return false
		}
	case *ssa.FieldAddr:
	default:
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		if _, dbg := r.(*ssa.DebugRef); dbg {
			continue
		}
		u, isVal := r.(ssa.Value)
		if !isVal || !loadOnly(u, v) {
			return false
		}
	}
	return true
}

// nonCoherentOK reports whether a load through ptr may use ld.global.nc.
func (f *fnState) nonCoherentOK(ptr ssa.Value) bool {
	if f.spaceOf(ptr) != spaceGlobal {
		return false
	}
	if f.tableElem(ptr) {
		return true
	}
	if len(f.readOnly) == 0 {
		return false
	}
	roots := map[*ssa.Parameter]bool{}
	f.paramRoots(ptr, map[ssa.Value]bool{}, roots)
	if len(roots) == 0 {
		return false
	}
	for p := range roots {
		if !f.readOnly[p] {
			return false
		}
	}
	return true
}
