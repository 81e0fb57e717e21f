package compiler

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// Complex numbers. A complex64 or complex128 value is held as two float
// registers (.f32 or .f64), real part then imaginary part, and lies in
// memory as Go lays it out (two floats, aligned as one): leaves and
// leafOffsets make parameters, loads, stores, phis, struct fields and
// arrays of complex work like those of a two-field struct. The operators
// compute what Go's compiler and runtime compute on amd64, bit for bit:
//
//   - + and - act on each part in the part's precision;
//   - * is (ac-bd) + (ad+bc)i, computed in float64 even for complex64
//     (cmd/compile widens to minimise cancellation) and rounded back;
//   - / is the runtime's complex128div (Smith's algorithm with C99's
//     infinity and zero fix-ups), complex64 widened and rounded back, as
//     cmd/compile's walk does; it is the device library's Cdiv128;
//   - == compares both parts, != is its negation (true if either is NaN).
//
// Float operations carry .rn so that ptxas does not contract them into
// FMA, as everywhere in nugo, unless the launch asks for FastMath.

// complexBinOp lowers x op y on complex values.
func (f *fnState) complexBinOp(in *ssa.BinOp, s scalar) []string {
	x, y := f.get(in.X), f.get(in.Y)
	rn := ".rn"
	if f.m.target.FastMath {
		rn = ""
	}
	op := func(name string, s scalar, a, b string) string {
		r := f.newReg(s)
		f.p.Emit(name+rn+s.op(), r, a, b)
		return r
	}
	switch in.Op {
	case token.ADD, token.SUB:
		name := "add"
		if in.Op == token.SUB {
			name = "sub"
		}
		return []string{op(name, s, x[0], y[0]), op(name, s, x[1], y[1])}
	case token.MUL:
		a, b, c, d := x[0], x[1], y[0], y[1]
		if s == sF32 {
			a, b, c, d = f.widenF(a), f.widenF(b), f.widenF(c), f.widenF(d)
		}
		re := op("sub", sF64, op("mul", sF64, a, c), op("mul", sF64, b, d))
		im := op("add", sF64, op("mul", sF64, a, d), op("mul", sF64, b, c))
		if s == sF32 {
			return []string{f.narrowF(re), f.narrowF(im)}
		}
		return []string{re, im}
	case token.QUO:
		return f.complexDiv(s, x, y)
	}
	f.errorf("operator %s is not supported on %s", in.Op, in.X.Type())
	return nil
}

// widenF converts a float32 operand to a float64 register.
func (f *fnState) widenF(x string) string {
	r := f.newReg(sF64)
	f.p.Emit("cvt.f64.f32", r, regOr(f, x, sF32))
	return r
}

// narrowF rounds a float64 operand to a float32 register.
func (f *fnState) narrowF(x string) string {
	r := f.newReg(sF32)
	f.p.Emit("cvt.rn.f32.f64", r, regOr(f, x, sF64))
	return r
}

// complexDiv calls the device library's Cdiv128, Go's runtime
// complex128div written over the four float64 parts.
func (f *fnState) complexDiv(s scalar, x, y []string) []string {
	pkg := f.m.k.Devmath()
	if pkg == nil {
		f.errorf("complex division needs nugo's device math library, which is not part of this build")
	}
	fn := pkg.Func("Cdiv128")
	if fn == nil || len(fn.Blocks) == 0 {
		f.errorf("internal compiler error: the device math library has no Cdiv128")
	}
	ops := append(append([]string(nil), x...), y...)
	if s == sF32 {
		for i, o := range ops {
			ops[i] = f.widenF(o)
		}
	}
	ls := [][]scalar{{sF64}, {sF64}, {sF64}, {sF64}}
	vals := [][]string{{ops[0]}, {ops[1]}, {ops[2]}, {ops[3]}}
	res := f.callRegs(fn, ls, vals)
	if s == sF32 {
		return []string{f.narrowF(res[0]), f.narrowF(res[1])}
	}
	return res
}

// complexCompare lowers x == y and x != y on complex values.
func (f *fnState) complexCompare(op token.Token, s scalar, xv, yv ssa.Value) string {
	x, y := f.get(xv), f.get(yv)
	cmp, join := ".eq", "and.pred"
	if op == token.NEQ {
		cmp, join = ".neu", "or.pred"
	} else if op != token.EQL {
		f.errorf("operator %s is not defined on %s", op, xv.Type())
	}
	p := f.p.NewReg(ptx.Pred).String()
	q := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp"+cmp+s.op(), p, regOr(f, x[0], s), y[0])
	f.p.Emit("setp"+cmp+s.op(), q, regOr(f, x[1], s), y[1])
	r := f.p.NewReg(ptx.Pred).String()
	f.p.Emit(join, r, p, q)
	return r
}

// complexNeg lowers -x: each part negated.
func (f *fnState) complexNeg(s scalar, x []string) []string {
	out := make([]string, 2)
	for i := range out {
		out[i] = f.newReg(s)
		f.p.Emit("neg"+s.op(), out[i], regOr(f, x[i], s))
	}
	return out
}

// complexConvert lowers complex64(x) and complex128(x).
func (f *fnState) complexConvert(xv ssa.Value, fs, ts scalar) []string {
	x := f.get(xv)
	switch {
	case fs == ts:
		return x
	case fs == sF32:
		return []string{f.widenF(x[0]), f.widenF(x[1])}
	}
	return []string{f.narrowF(x[0]), f.narrowF(x[1])}
}

// complexBuiltin lowers real, imag and complex.
func (f *fnState) complexBuiltin(in *ssa.Call, name string) {
	args := in.Call.Args
	switch name {
	case "real", "imag":
		parts := f.get(args[0])
		if len(parts) != 2 {
			f.errorf("internal compiler error: %s of %s", name, args[0].Type())
		}
		i := 0
		if name == "imag" {
			i = 1
		}
		f.bindCopy(in, parts[i:i+1])
	case "complex":
		f.bindCopy(in, []string{f.one(args[0]), f.one(args[1])})
	}
}

// complexConst lowers a complex constant to two float immediates.
func (f *fnState) complexConst(s scalar, v constant.Value) []string {
	return []string{f.immediate(s, constant.Real(v)), f.immediate(s, constant.Imag(v))}
}

// isComplex reports whether t is a complex type.
func isComplex(t types.Type) bool {
	_, ok := complexPart(t)
	return ok
}

// cmplxCall lowers math/cmplx.X as a call of the device math library's Go
// implementation, devmath.CmplxX (Conj is two moves and a negation).
func (f *fnState) cmplxCall(in *ssa.Call, name string) {
	args := in.Call.Args
	if name == "Conj" {
		x := f.get(args[0])
		im := f.newReg(sF64)
		f.p.Emit("neg.f64", im, regOr(f, x[1], sF64))
		f.bindCopy(in, []string{x[0], im})
		return
	}
	pkg := f.m.k.Devmath()
	if pkg == nil {
		f.errorf("cmplx.%s needs nugo's device math library, which is not part of this build", name)
	}
	fn := pkg.Func("Cmplx" + name)
	if fn == nil || len(fn.Blocks) == 0 {
		f.errorf("cmplx.%s is not available in kernels yet; the device math library has Abs, Acos, Acosh, Asin, Asinh, Atan, Atanh, Conj, Cos, Cosh, Cot, Exp, Inf, IsInf, IsNaN, Log, Log10, NaN, Phase, Polar, Pow, Rect, Sin, Sinh, Sqrt, Tan and Tanh", name)
	}
	if f.shouldInline(fn) {
		f.inlineCall(in, fn, args)
		return
	}
	f.deviceCall(in, fn, args)
}
