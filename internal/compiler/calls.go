package compiler

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptx"
)

// calleeName is the Go name of a function, without type arguments.
func calleeName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.Name()
}

// calleePkg is the import path of a function's package.
func calleePkg(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if obj := fn.Object(); obj != nil && obj.Pkg() != nil {
		return obj.Pkg().Path()
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg.Path()
	}
	return ""
}

// call lowers a call: builtins, intrinsics of the supported packages, and
// device functions of the kernel's package (or of the device math library).
func (f *fnState) call(in *ssa.Call) {
	c := in.Common()
	if c.IsInvoke() {
		f.errorf("cannot call methods through an interface in a kernel; use a concrete type")
	}
	value := c.Value
	if fn := f.boundCallee(value); fn != nil {
		value = fn // a kernel's func parameter: its bound function
	}
	switch v := value.(type) {
	case *ssa.Builtin:
		f.builtin(in, v)
	case *ssa.Function:
		if calleePkg(v) == "errors" {
			if calleeName(v) == "New" && panicOperand(in) {
				return // the panic's message (panic.go)
			}
			f.errorf("errors.%s is supported in kernels only as panic(errors.New(\"constant text\"))", calleeName(v))
		}
		if len(v.Blocks) > 0 {
			if f.shouldInline(v) {
				f.inlineCall(in, v, c.Args)
				return
			}
			f.deviceCall(in, v, c.Args)
			return
		}
		f.intrinsic(in, v)
	default:
		f.errorf("calls through function values are not supported in kernels; call the function by name")
	}
}

// intrinsic dispatches a call into a stub package.
func (f *fnState) intrinsic(in *ssa.Call, fn *ssa.Function) {
	pkg, name := calleePkg(fn), calleeName(fn)
	switch pkg {
	case frontend.CudaPath:
		f.cudaCall(in, fn, name)
	case frontend.MathPath:
		f.mathCall(in, name, false)
	case frontend.Math32Path:
		f.mathCall(in, name, true)
	case frontend.BitsPath:
		f.bitsCall(in, name)
	case frontend.CmplxPath:
		f.cmplxCall(in, name)
	default:
		f.errorf("cannot call %s.%s in a kernel: it has no Go body the GPU can run (kernels call Go functions compiled from source, and cuda, math, math/bits, math/cmplx and math32 as intrinsics)", pkg, name)
	}
}

// deviceCall calls a device function through the PTX ABI: one .param per
// scalar leaf, bools as .b32, pointers as generic addresses.
func (f *fnState) deviceCall(in ssa.Value, callee *ssa.Function, args []ssa.Value) {
	if callee.Parent() != nil && len(callee.FreeVars) > 0 && selfClosure(callee.FreeVars[0]) != callee {
		f.errorf("closures that capture variables are not supported in kernels; write a top-level device function")
	}
	argLeaves := make([][]scalar, len(args))
	argVals := make([][]string, len(args))
	for ai, a := range args {
		ls, err := leaves(a.Type())
		if err != nil {
			f.errorf("argument %d: %v", ai, err)
		}
		argLeaves[ai] = ls
		argVals[ai] = f.getAs(a, spaceGeneric)
	}
	results := f.callRegs(callee, argLeaves, argVals)
	if callee.Signature.Results().Len() > 0 {
		f.bind(in, results)
	}
}

// callRegs emits a call of a device function on operands already in
// registers (or immediates), one list per argument with its leaves' kinds;
// it returns the registers of the results' leaves.
func (f *fnState) callRegs(callee *ssa.Function, argLeaves [][]scalar, argVals [][]string) []string {
	pf := f.m.deviceFunc(callee)
	var b strings.Builder
	lines := []string{"\t{"}
	var params []string
	for ai, ls := range argLeaves {
		vals := argVals[ai]
		for li, s := range ls {
			name := fmt.Sprintf("param%d", len(params))
			params = append(params, name)
			v := vals[li]
			if s == sBool {
				t := f.p.NewReg(ptx.B32).String()
				f.p.Emit("selp.b32", t, "1", "0", v)
				v = t
			}
			lines = append(lines, fmt.Sprintf("\t.param %s %s;", paramType(s), name), fmt.Sprintf("\tst.param%s [%s], %s;", paramType(s), name, v))
		}
	}
	if f.m.recursive(callee) {
		d := f.depthArg(callee)
		name := fmt.Sprintf("param%d", len(params))
		params = append(params, name)
		lines = append(lines, fmt.Sprintf("\t.param .b32 %s;", name), fmt.Sprintf("\tst.param.b32 [%s], %s;", name, d))
	}
	var rets []string
	var results []string
	var fixups []string
	if callee.Signature.Results().Len() > 0 {
		ls, offs, total := retLayout(callee.Signature.Results())
		rets = append(rets, "retval0")
		lines = append(lines, fmt.Sprintf("\t.param .align 8 .b8 retval0[%d];", total))
		for i, s := range ls {
			r := f.newReg(s)
			at := addr("retval0", int64(offs[i]))
			if s == sBool {
				t := f.p.NewReg(ptx.B32).String()
				fixups = append(fixups, fmt.Sprintf("\tld.param.b32 %s, %s;", t, at), fmt.Sprintf("\tsetp.ne.b32 %s, %s, 0;", r, t))
			} else {
				fixups = append(fixups, fmt.Sprintf("\tld.param%s %s, %s;", paramType(s), r, at))
			}
			results = append(results, r)
		}
	}
	b.WriteString("\tcall.uni ")
	if len(rets) > 0 {
		b.WriteString("(" + strings.Join(rets, ", ") + "), ")
	}
	b.WriteString(pf.Name)
	b.WriteString(", (" + strings.Join(params, ", ") + ");")
	lines = append(lines, b.String())
	lines = append(lines, fixups...)
	lines = append(lines, "\t}")
	for _, l := range lines {
		f.p.Raw(l)
	}
	return results
}

// builtin lowers len, cap, min and max.
func (f *fnState) builtin(in *ssa.Call, b *ssa.Builtin) {
	args := in.Call.Args
	switch b.Name() {
	case "len", "cap":
		t := args[0].Type().Underlying()
		switch {
		case isSlice(t):
			parts := f.get(args[0])
			i := 1
			if b.Name() == "cap" {
				i = 2
			}
			f.bindCopy(in, parts[i:i+1])
		case arrayLen(t) >= 0:
			f.bind(in, []string{fmt.Sprint(arrayLen(t))})
		default:
			f.errorf("%s of %s is not supported in kernels", b.Name(), args[0].Type())
		}
	case "min", "max":
		s := f.scalar(in.Type())
		acc := f.one(args[0])
		for _, a := range args[1:] {
			acc = f.minMax(s, b.Name() == "max", regOr(f, acc, s), f.one(a))
		}
		f.bindCopy(in, []string{acc})
	case "copy":
		f.copySlices(in)
	case "clear":
		f.clearSlice(in)
	case "real", "imag", "complex":
		f.complexBuiltin(in, b.Name())
	case "ssa:wrapnilchk":
		f.bindCopy(in, f.get(args[0]))
	default:
		f.errorf("builtin %s is not supported in kernels", b.Name())
	}
}

func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// arrayLen returns the length of an array or pointer-to-array type, or -1.
func arrayLen(t types.Type) int64 {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if a, ok := t.Underlying().(*types.Array); ok {
		return a.Len()
	}
	return -1
}
