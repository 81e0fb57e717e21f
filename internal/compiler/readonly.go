package compiler

import (
	"golang.org/x/tools/go/ssa"
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

// nonCoherentOK reports whether a load through ptr may use ld.global.nc.
func (f *fnState) nonCoherentOK(ptr ssa.Value) bool {
	if len(f.readOnly) == 0 || f.spaceOf(ptr) != spaceGlobal {
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
