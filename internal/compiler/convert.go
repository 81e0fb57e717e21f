package compiler

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// convert lowers T(x) between numeric types with Go's semantics: integer
// narrowing truncates, widening sign- or zero-extends by the source's
// signedness, float to integer truncates toward zero.
func (f *fnState) convert(xv ssa.Value, to types.Type) []string {
	from := xv.Type()
	if _, ok := from.Underlying().(*types.Basic); !ok {
		f.errorf("conversion from %s to %s is not supported in kernels", from, to)
	}
	if b, ok := from.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		f.errorf("strings are not supported in kernels")
	}
	if b, ok := to.Underlying().(*types.Basic); !ok || b.Info()&types.IsString != 0 || b.Kind() == types.UnsafePointer {
		f.errorf("conversion to %s is not supported in kernels", to)
	}
	if fc, ok := complexPart(from); ok {
		if tc, ok := complexPart(to); ok {
			return f.complexConvert(xv, fc, tc)
		}
		f.errorf("cannot convert %s to %s; take real(x) or imag(x)", from, to)
	}
	if _, ok := complexPart(to); ok {
		f.errorf("cannot convert %s to %s; write complex(x, 0)", from, to)
	}
	fs, ts := f.scalar(from), f.scalar(to)
	if r := f.narrowConvert(xv, fs, ts); r != "" {
		return []string{r}
	}
	x := f.one(xv)
	r := f.newReg(ts)
	if isImmediate(x) {
		x = regOr(f, x, fs)
	}
	switch {
	case fs == ts:
		f.mov(ts, r, x)
	case fs.isInt() && ts.isInt():
		switch {
		case ts.is64() && fs.is64():
			f.mov(ts, r, x)
		case ts.is64():
			if fs.signed() {
				f.p.Emit("cvt.s64.s32", r, x)
			} else {
				f.p.Emit("cvt.u64.u32", r, x)
			}
		case fs.is64():
			f.p.Emit("cvt.u32.u64", r, x)
			f.normalize(ts, r)
		default:
			f.mov(ts, r, x)
			f.normalize(ts, r)
		}
	case fs.isInt() && ts.isFloat():
		src := fs.op()
		f.p.Emit("cvt.rn"+ts.op()+src, r, x)
	case fs.isFloat() && ts.isInt():
		dst := ts.op()
		if ts.small() {
			if ts.signed() {
				dst = ".s32"
			} else {
				dst = ".u32"
			}
		}
		f.p.Emit("cvt.rzi"+dst+fs.op(), r, x)
		f.normalize(ts, r)
	case fs == sF64 && ts == sF32:
		f.p.Emit("cvt.rn.f32.f64", r, x)
	case fs == sF32 && ts == sF64:
		f.p.Emit("cvt.f64.f32", r, x)
	default:
		f.errorf("conversion from %s to %s is not supported in kernels", from, to)
	}
	return []string{r}
}
