package compiler

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptx"
)

// Arrays and structs passed to a kernel by value (Numba's tuples and
// namedtuples). Each is one PTX parameter, a byte array aligned as Go
// aligns the type and holding the value as Go lays it out in memory, so
// that a launch copies the argument's bytes as they are; the kernel loads
// each leaf from its Go offset. A value of zero size (an empty struct, a
// zero-length array) has no PTX parameter at all.

// isAggregate reports whether a kernel parameter of type t is passed as an
// aggregate: an array, or a struct other than cuda.Float16 and nugo's
// array views.
func isAggregate(t types.Type) bool {
	if isFloat16(t) || isArrayView(t) {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Array, *types.Struct:
		return true
	}
	return false
}

// isArrayView reports whether t is cuda.Array2 or cuda.Array3.
func isArrayView(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != frontend.CudaPath {
		return false
	}
	name := n.Obj().Name()
	return name == "Array2" || name == "Array3"
}

// aggregateParam declares the kernel's parameter pi, an aggregate, and
// loads its leaves into registers.
func (f *fnState) aggregateParam(pi int, prm *ssa.Parameter) {
	t := prm.Type()
	ls, err := leaves(t)
	if err == nil {
		for _, s := range ls {
			if s == sPtr {
				err = fmt.Errorf("it holds a pointer or a slice; arrays and structs passed by value hold numbers, bools and cuda.Float16s (and arrays and structs of them): pass memory as a slice parameter")
				break
			}
		}
	}
	if err != nil {
		f.errorf("kernel parameter %s of type %s: %v", prm.Name(), t, err)
	}
	size, align := int(sizes.Sizeof(t)), int(sizes.Alignof(t))
	layout := &Param{Arg: pi - 1, Name: prm.Name(), Kind: Aggregate, Elem: types.TypeString(t, nil), ElemSize: size}
	regs := make([]string, len(ls))
	if size > 0 {
		name := fmt.Sprintf("%s_param_%d", f.p.Name, pi)
		f.p.Params = append(f.p.Params, ptx.Param{Name: name, Align: align, Size: size})
		offs := leafOffsets(t)
		for li, s := range ls {
			r := f.newReg(s)
			addr := fmt.Sprintf("[%s+%d]", name, offs[li])
			if s == sBool {
				b := f.p.NewReg(ptx.B32).String()
				f.p.Emit("ld.param.u8", b, addr)
				f.p.Emit("setp.ne.b32", r, b, "0")
			} else {
				f.p.Emit("ld.param"+s.mem(), r, addr)
			}
			regs[li] = r
		}
		off := (f.m.out.ParamBytes + align - 1) / align * align
		f.m.out.ParamBytes = off + size
		layout.PTX = []PTXParam{{Name: name, Type: ".b8", Size: size, Offset: off, Role: "bytes", Align: align}}
	}
	f.m.out.Params = append(f.m.out.Params, *layout)
	f.vals[prm] = regs
}
