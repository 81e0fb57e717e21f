package compiler

import (
	"go/token"
	"iter"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Read-only slices: a kernel parameter whose memory the kernel never writes
// (no store, atomic, Array Set, and no pointer into it passed to a device
// function) is loaded with ld.global.nc, through the read-only data cache.
// Like CUDA's const __restrict__, this assumes the launch's arguments do not
// overlap; Target.NoReadOnlyCache turns it off for launches where they do.

// paramRoots returns the parameters a pointer value may derive from (see
// roots).
func paramRoots(v ssa.Value) []*ssa.Parameter {
	var out []*ssa.Parameter
	for r := range roots(v) {
		if p, ok := r.(*ssa.Parameter); ok {
			out = append(out, p)
		}
	}
	return out
}

// findReadOnly computes the kernel's read-only parameters.
func (f *fnState) findReadOnly() {
	f.readOnly = map[*ssa.Parameter]bool{}
	if !f.kernel || f.m.target.NoReadOnlyCache {
		return
	}
	written := map[*ssa.Parameter]bool{}
	mark := func(v ssa.Value) {
		for _, p := range paramRoots(v) {
			written[p] = true
		}
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
// Writes through a table's memory are refused (the front end refuses
// direct ones, checkTableWrites those through slices and calls), but a
// table whose address is used for more than loads (a slice of it passed on)
// keeps coherent loads, as writes through a func parameter's function are
// not followed. Loads from a sealed table may use ld.global.nc
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
		for fn := range m.deviceFunctions() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					m.markUnsealed(instr)
				}
			}
		}
	}
	return !m.unsealed[g]
}

// deviceFunctions yields every function of the module's programs (the
// kernel's and those of the functions bound to its func parameters) but
// the package initializers, which only the host runs (they write the
// tables' initial values).
func (m *modState) deviceFunctions() iter.Seq[*ssa.Function] {
	return func(yield func(*ssa.Function) bool) {
		seen := map[*ssa.Program]bool{}
		for _, k := range m.owners {
			if k.Prog == nil || seen[k.Prog] {
				continue
			}
			seen[k.Prog] = true
			for fn := range ssautil.AllFunctions(k.Prog) {
				if !packageInit(fn) && !yield(fn) {
					return
				}
			}
		}
	}
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
	params := paramRoots(ptr)
	if len(params) == 0 {
		return false
	}
	for _, p := range params {
		if !f.readOnly[p] {
			return false
		}
	}
	return true
}
