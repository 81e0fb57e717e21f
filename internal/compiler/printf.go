package compiler

import (
	"fmt"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptx"
)

// findPrintf finds the arguments of each cuda.Printf call (a varargs array
// of interfaces built in the caller) and marks the instructions that build
// them as folded into the call.
func (f *fnState) findPrintf() {
	for _, b := range f.fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := call.Call.StaticCallee()
			if callee == nil || calleePkg(callee) != frontend.CudaPath || calleeName(callee) != "Printf" || len(call.Call.Args) != 2 {
				continue
			}
			sl, ok := call.Call.Args[1].(*ssa.Slice)
			if !ok {
				f.printf[call] = nil // no arguments (a nil slice)
				continue
			}
			alloc, ok := sl.X.(*ssa.Alloc)
			if !ok {
				continue
			}
			n := arrayLen(alloc.Type())
			args := make([]ssa.Value, n)
			f.skip[alloc] = true
			f.skip[sl] = true
			for _, ref := range *alloc.Referrers() {
				ia, ok := ref.(*ssa.IndexAddr)
				if !ok {
					continue
				}
				idx, ok := ia.Index.(*ssa.Const)
				if !ok {
					continue
				}
				f.skip[ia] = true
				for _, r2 := range *ia.Referrers() {
					st, ok := r2.(*ssa.Store)
					if !ok {
						continue
					}
					f.skip[st] = true
					if mi, ok := st.Val.(*ssa.MakeInterface); ok {
						f.skip[mi] = true
						args[idx.Int64()] = mi.X
					} else {
						args[idx.Int64()] = st.Val
					}
				}
			}
			f.printf[call] = args
		}
	}
}

// printfArg is one argument as vprintf reads it.
type printfArg struct {
	v       ssa.Value
	s       scalar
	isConst bool   // a constant string, folded into the format
	str     string // its text
}

// printfCall lowers cuda.Printf to vprintf(format, buffer): the buffer holds
// each argument at its natural alignment, integers narrower than 32 bits
// promoted to 32, floats to double (C's default argument promotions), bools
// as pointers to "true"/"false".
func (f *fnState) printfCall(in *ssa.Call) {
	fc, ok := in.Call.Args[0].(*ssa.Const)
	if !ok || fc.Value == nil || fc.Value.Kind() != constant.String {
		f.errorf("the format of cuda.Printf must be a constant string")
	}
	args, found := f.printf[in]
	if !found {
		f.errorf("cuda.Printf arguments must be listed in the call (not passed as a slice...)")
	}
	pargs := make([]printfArg, len(args))
	for i, a := range args {
		if a == nil {
			f.errorf("cuda.Printf argument %d could not be traced", i+1)
		}
		if c, ok := a.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
			pargs[i] = printfArg{v: a, isConst: true, str: constant.StringVal(c.Value)}
			continue
		}
		if isFloat16(a.Type()) {
			f.errorf("cuda.Printf argument %d is a cuda.Float16; print its value as h.Float32()", i+1)
		}
		if isComplex(a.Type()) {
			f.errorf("cuda.Printf argument %d is a %s; print its parts, real(x) and imag(x), with two verbs", i+1, a.Type())
		}
		b, ok := a.Type().Underlying().(*types.Basic)
		if !ok {
			f.errorf("cuda.Printf argument %d has type %s; print numbers, bools or constant strings", i+1, a.Type())
		}
		s, ok := basicScalar(b)
		if !ok {
			f.errorf("cuda.Printf argument %d has type %s; print numbers, bools or constant strings", i+1, a.Type())
		}
		pargs[i] = printfArg{v: a, s: s}
	}
	format, used, err := translateFormat(constant.StringVal(fc.Value), pargs)
	if err != nil {
		f.errorf("cuda.Printf: %v", err)
	}
	f.m.usesVprintf = true
	fmtSym := f.m.constString(format)
	fmtPtr := f.globalAddr(fmtSym)
	bufPtr := "0"
	// Lay out the buffer.
	off := int64(0)
	type slot struct {
		a   printfArg
		off int64
	}
	var slots []slot
	for _, a := range used {
		size := int64(8)
		if a.s != sBool && a.s.isInt() && !a.s.is64() {
			size = 4
		}
		off = (off + size - 1) / size * size
		slots = append(slots, slot{a, off})
		off += size
	}
	if len(slots) > 0 {
		sym := fmt.Sprintf("__printf_%s_%d", f.p.Name, len(f.p.Locals))
		f.p.AddLocal(fmt.Sprintf(".local .align 8 .b8 %s[%d]", sym, (off+7)/8*8))
		base := f.p.NewReg(ptx.B64).String()
		f.p.Emit("mov.u64", base, sym)
		for _, sl := range slots {
			v := f.one(sl.a.v)
			switch {
			case sl.a.s == sBool:
				t, fa := f.globalAddr(f.m.constString("true")), f.globalAddr(f.m.constString("false"))
				r := f.p.NewReg(ptx.B64).String()
				f.p.Emit("selp.b64", r, t, fa, v)
				f.p.Emit("st.local.u64", addr(base, sl.off), r)
			case sl.a.s == sF32:
				r := f.p.NewReg(ptx.F64).String()
				f.p.Emit("cvt.f64.f32", r, regOr(f, v, sF32))
				f.p.Emit("st.local.f64", addr(base, sl.off), r)
			case sl.a.s == sF64:
				f.p.Emit("st.local.f64", addr(base, sl.off), v)
			case sl.a.s.is64():
				f.p.Emit("st.local.u64", addr(base, sl.off), v)
			default:
				f.p.Emit("st.local.u32", addr(base, sl.off), v)
			}
		}
		bufPtr = f.p.NewReg(ptx.B64).String()
		f.p.Emit("cvta.local.u64", bufPtr, base)
	}
	ret := f.p.NewReg(ptx.B32).String()
	f.p.Raw("\t{")
	f.p.Raw("\t.param .b64 param0;")
	f.p.Raw(fmt.Sprintf("\tst.param.b64 [param0], %s;", fmtPtr))
	f.p.Raw("\t.param .b64 param1;")
	f.p.Raw(fmt.Sprintf("\tst.param.b64 [param1], %s;", bufPtr))
	f.p.Raw("\t.param .b32 retval0;")
	f.p.Raw("\tcall.uni (retval0), vprintf, (param0, param1);")
	f.p.Raw(fmt.Sprintf("\tld.param.b32 %s, [retval0];", ret))
	f.p.Raw("\t}")
}

// globalAddr returns the generic address of a module-scope .global symbol.
func (f *fnState) globalAddr(sym string) string {
	r := f.p.NewReg(ptx.B64).String()
	f.p.Emit("mov.u64", r, sym)
	g := f.p.NewReg(ptx.B64).String()
	f.p.Emit("cvta.global.u64", g, r)
	return g
}

// translateFormat turns a Go format into a C printf format for the argument
// types, and returns the arguments vprintf reads (constant strings are
// folded into the format).
func translateFormat(format string, args []printfArg) (string, []printfArg, error) {
	var b strings.Builder
	var used []printfArg
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0", format[j]) >= 0 {
			j++
		}
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.') {
			j++
		}
		if j >= len(format) {
			return "", nil, fmt.Errorf("format %q ends in the middle of a verb", format)
		}
		if format[j] == '*' || format[j] == '[' {
			return "", nil, fmt.Errorf("%%%c (arguments for width or index) is not supported; write the width into the format", format[j])
		}
		flags := format[i+1 : j]
		verb := format[j]
		i = j
		if verb == '%' {
			b.WriteString("%%")
			continue
		}
		if next >= len(args) {
			return "", nil, fmt.Errorf("format %q has more verbs than arguments", format)
		}
		a := args[next]
		next++
		if a.isConst {
			if verb != 's' && verb != 'v' {
				return "", nil, fmt.Errorf("constant string argument needs %%s or %%v, not %%%c", verb)
			}
			b.WriteString(strings.ReplaceAll(a.str, "%", "%%"))
			continue
		}
		cverb, err := cVerb(verb, a.s)
		if err != nil {
			return "", nil, err
		}
		b.WriteString("%" + flags + cverb)
		used = append(used, a)
	}
	if next != len(args) {
		return "", nil, fmt.Errorf("format %q has %d verbs for %d arguments", format, next, len(args))
	}
	return b.String(), used, nil
}

// cVerb maps a Go verb and an argument kind to a C conversion.
func cVerb(verb byte, s scalar) (string, error) {
	if s == sBool {
		if verb == 't' || verb == 'v' {
			return "s", nil
		}
		return "", fmt.Errorf("bool argument needs %%t or %%v, not %%%c", verb)
	}
	if s.isFloat() {
		switch verb {
		case 'v':
			return "g", nil
		case 'e', 'E', 'f', 'F', 'g', 'G':
			return string(verb), nil
		}
		return "", fmt.Errorf("float argument cannot be printed with %%%c; use %%f, %%e, %%g or %%v", verb)
	}
	long := ""
	if s.is64() {
		long = "ll"
	}
	switch verb {
	case 'd', 'v':
		if s.signed() {
			return long + "d", nil
		}
		return long + "u", nil
	case 'x', 'X', 'o':
		return long + string(verb), nil
	case 'c':
		return "c", nil
	}
	return "", fmt.Errorf("integer argument cannot be printed with %%%c; use %%d, %%x, %%X, %%o, %%c or %%v", verb)
}
