package compiler

import (
	"fmt"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/frontend"
)

// bind records the functions bound to the kernel's func parameters (the
// keys of bound are Go argument indices after the cuda.Thread).
func (m *modState) bind(bound map[int]*frontend.Kernel) error {
	params := m.k.Func.Params
	for arg, d := range bound {
		if arg < 0 || arg+1 >= len(params) {
			return fmt.Errorf("kernel %s: function bound to argument %d, which the kernel does not have", m.k.Name, arg)
		}
		prm := params[arg+1]
		if !isFuncType(prm.Type()) {
			return fmt.Errorf("kernel %s: function bound to parameter %s of type %s, which is not a func", m.k.Name, prm.Name(), prm.Type())
		}
		if d == nil || d.Func == nil {
			return fmt.Errorf("kernel %s: no function bound to parameter %s", m.k.Name, prm.Name())
		}
		if !types.Identical(prm.Type().Underlying(), d.Func.Signature.Underlying()) && !sameScalarSignature(prm.Type(), d.Func.Signature) {
			return fmt.Errorf("kernel %s: parameter %s has type %s, but the function %s bound to it has type %s", m.k.Name, prm.Name(), prm.Type(), d.Name, d.Func.Signature)
		}
		if m.bound == nil {
			m.bound = map[*ssa.Parameter]*frontend.Kernel{}
		}
		m.bound[prm] = d
		m.owners = append(m.owners, d)
	}
	return nil
}

func isFuncType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// sameScalarSignature compares two signatures of numbers and bools by the
// basic types under them, and of other named types (cuda.Float16) by their
// package path and name: a function loaded in a second program has its
// own named types, which are never identical to the kernel's.
func sameScalarSignature(a, b types.Type) bool {
	sa, ok1 := a.Underlying().(*types.Signature)
	sb, ok2 := b.Underlying().(*types.Signature)
	if !ok1 || !ok2 || sa.Variadic() != sb.Variadic() {
		return false
	}
	same := func(x, y *types.Tuple) bool {
		if x.Len() != y.Len() {
			return false
		}
		for i := 0; i < x.Len(); i++ {
			tx, ty := x.At(i).Type(), y.At(i).Type()
			bx, ok1 := tx.Underlying().(*types.Basic)
			by, ok2 := ty.Underlying().(*types.Basic)
			if ok1 && ok2 && bx.Kind() == by.Kind() {
				continue
			}
			// A named type (cuda.Float16, or a slice of or pointer to it)
			// of the other program: the same path and name.
			if !ok1 && !ok2 && types.TypeString(tx, nil) == types.TypeString(ty, nil) {
				continue
			}
			return false
		}
		return true
	}
	return same(sa.Params(), sb.Params()) && same(sa.Results(), sb.Results())
}

// funcParam handles a kernel parameter of func type: it has no PTX
// parameter; the function bound to it is called directly, so the parameter
// may only be called.
func (f *fnState) funcParam(arg int, prm *ssa.Parameter) {
	d := f.m.bound[prm]
	if d == nil {
		f.errorf("kernel parameter %s has func type %s; the kernel must be compiled for the function passed to it at launch (cuda compiles it then)", prm.Name(), prm.Type())
	}
	for _, r := range *prm.Referrers() {
		if call, ok := r.(*ssa.Call); ok && call.Call.Value == prm && !usesAsArg(call, prm) {
			continue
		}
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		f.m.diags.add(instrPos(r, f.fn), "kernel parameter %s is a function: a kernel may only call it (%s(...)), not store, compare or pass it on", prm.Name(), prm.Name())
	}
	f.m.out.FuncParams = append(f.m.out.FuncParams, FuncParam{Arg: arg, Name: prm.Name(), Func: d.Name})
}

func usesAsArg(call *ssa.Call, v ssa.Value) bool {
	for _, a := range call.Call.Args {
		if a == v {
			return true
		}
	}
	return false
}

// boundCallee returns the function bound to a func parameter called by a
// call instruction, or the function literal of a recursive closure called
// through its variable, or nil.
func (f *fnState) boundCallee(v ssa.Value) *ssa.Function {
	if p, ok := v.(*ssa.Parameter); ok {
		if d := f.m.bound[p]; d != nil {
			return d.Func
		}
	}
	return closureCallee(v) // a recursive closure's variable (closures.go)
}

// tableInit finds a read-only table's initial value in whichever loaded
// program (the kernel's, or a bound function's) declares it.
func (m *modState) tableInit(v *types.Var) ([]constant.Value, bool) {
	for _, k := range m.owners {
		if vals, ok := k.TableInit(v); ok {
			return vals, true
		}
	}
	return nil, false
}
