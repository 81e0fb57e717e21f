package compiler

import (
	"fmt"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// panic(v) in a kernel (Numba's raise): v is a constant of a basic type or
// errors.New of a constant string, so what the panic prints is known when
// compiling. The panicking thread fills the error record with the site,
// whose Msg is fmt.Sprint(v), the text the CPU backend's KernelError holds
// for the same panic, and exits; the launch reports it as any failed check.

// panicStmt lowers panic(v).
func (f *fnState) panicStmt(in *ssa.Panic) {
	msg, ok := panicMessage(in.X)
	if !ok {
		f.errorf("panic in a kernel takes a constant string, number or bool, or errors.New(\"constant text\"); write the value into a slice parameter to report it")
	}
	site := len(f.m.out.Sites)
	if site >= MaxSites {
		f.errorf("more than %d checks and panics in one kernel", MaxSites)
	}
	f.m.out.Sites = append(f.m.out.Sites, Site{Kind: errKinds[ErrPanic], Pos: f.sitePos(), Func: f.fn.String(), Msg: msg})
	f.m.errorRecord = true
	f.errorPath(f.newLabel("panic"), ErrPanic, site, false, nil, "")
}

// panicOperand reports whether v is used only as the value of panics that
// panicStmt lowers (it then needs no code of its own).
func panicOperand(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Panic:
			if _, ok := panicMessage(r.X); !ok {
				return false
			}
		case *ssa.ChangeInterface:
			if !panicOperand(r) {
				return false
			}
		case *ssa.MakeInterface:
			if !panicOperand(r) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// panicMessage is what Go's fmt.Sprint prints for the panic value v, when
// it is known when compiling.
func panicMessage(v ssa.Value) (string, bool) {
	switch v := v.(type) {
	case *ssa.MakeInterface:
		c, ok := v.X.(*ssa.Const)
		if !ok {
			return "", false
		}
		return constText(c)
	case *ssa.ChangeInterface:
		return panicMessage(v.X)
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil || calleePkg(fn) != "errors" || calleeName(fn) != "New" || len(v.Call.Args) != 1 {
			return "", false
		}
		c, ok := v.Call.Args[0].(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(c.Value), true
	}
	return "", false
}

// constText formats a constant of a basic type as fmt.Sprint formats the
// Go value.
func constText(c *ssa.Const) (string, bool) {
	b, ok := c.Type().(*types.Basic) // not a named type: a String method would decide what it prints

	if !ok || c.Value == nil {
		return "", false
	}
	val := c.Value
	switch {
	case b.Info()&types.IsBoolean != 0:
		return fmt.Sprint(constant.BoolVal(val)), true
	case b.Info()&types.IsString != 0:
		return constant.StringVal(val), true
	case b.Info()&types.IsInteger != 0:
		if b.Info()&types.IsUnsigned != 0 {
			u, _ := constant.Uint64Val(val)
			return fmt.Sprint(u), true
		}
		i, _ := constant.Int64Val(val)
		return fmt.Sprint(i), true
	case b.Kind() == types.Float32:
		x, _ := constant.Float32Val(val)
		return fmt.Sprint(x), true
	case b.Info()&types.IsFloat != 0:
		x, _ := constant.Float64Val(val)
		return fmt.Sprint(x), true
	case b.Kind() == types.Complex64:
		re, _ := constant.Float32Val(constant.Real(val))
		im, _ := constant.Float32Val(constant.Imag(val))
		return fmt.Sprint(complex(re, im)), true
	case b.Info()&types.IsComplex != 0:
		re, _ := constant.Float64Val(constant.Real(val))
		im, _ := constant.Float64Val(constant.Imag(val))
		return fmt.Sprint(complex(re, im)), true
	}
	return "", false
}
