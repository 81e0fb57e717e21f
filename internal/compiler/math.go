package compiler

import (
	"fmt"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptx"
)

// goNaN64 and goNaN32 are the NaNs Go's math.NaN returns.
const (
	goNaN64 = "0d7FF8000000000001"
	goNaN32 = "0f7FC00000"
)

// fbits describes the integer view of a float kind.
func fbits(s scalar) (ptx.RegClass, string, string) {
	if s == sF32 {
		return ptx.B32, ".b32", "-2147483648"
	}
	return ptx.B64, ".b64", "-9223372036854775808"
}

// mathCall lowers math.X (float64) and math32.X (float32): functions with a
// PTX instruction map to it with Go's exact semantics; the others call the
// device math library's Go code.
func (f *fnState) mathCall(in *ssa.Call, name string, is32 bool) {
	s := sF64
	if is32 {
		s = sF32
	}
	args := in.Call.Args
	arg := func(i int) string { return regOr(f, f.one(args[i]), f.scalar(args[i].Type())) }
	r := func() string { return f.newReg(s) }
	one := func(op string) {
		d := r()
		f.p.Emit(op, d, arg(0))
		f.bind(in, []string{d})
	}
	bc, bt, sign := fbits(s)
	switch name {
	case "Sqrt":
		if is32 && f.m.target.FastMath {
			one("sqrt.approx.f32")
		} else {
			one("sqrt.rn" + s.op())
		}
	case "Floor":
		one("cvt.rmi" + s.op() + s.op())
	case "Ceil":
		one("cvt.rpi" + s.op() + s.op())
	case "Trunc":
		one("cvt.rzi" + s.op() + s.op())
	case "RoundToEven":
		one("cvt.rni" + s.op() + s.op())
	case "Round":
		f.bind(in, []string{f.round(s, arg(0))})
	case "Abs":
		b := f.p.NewReg(bc).String()
		f.p.Emit("mov"+bt, b, arg(0))
		f.p.Emit("and"+bt, b, b, notSign(s))
		d := r()
		f.p.Emit("mov"+bt, d, b)
		f.bind(in, []string{d})
	case "Copysign":
		x, y := f.p.NewReg(bc).String(), f.p.NewReg(bc).String()
		f.p.Emit("mov"+bt, x, arg(0))
		f.p.Emit("mov"+bt, y, arg(1))
		f.p.Emit("and"+bt, x, x, notSign(s))
		f.p.Emit("and"+bt, y, y, sign)
		f.p.Emit("or"+bt, x, x, y)
		d := r()
		f.p.Emit("mov"+bt, d, x)
		f.bind(in, []string{d})
	case "Signbit":
		b := f.p.NewReg(bc).String()
		f.p.Emit("mov"+bt, b, arg(0))
		p := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("setp.lt.s"+bt[2:], p, b, "0")
		f.bind(in, []string{p})
	case "Min", "Max":
		f.bind(in, []string{f.goMathMinMax(s, name == "Max", arg(0), arg(1))})
	case "FMA":
		d := r()
		f.p.Emit("fma.rn"+s.op(), d, arg(0), arg(1), arg(2))
		f.bind(in, []string{d})
	case "Dim":
		d := r()
		f.p.Emit("sub.rn"+s.op(), d, arg(0), arg(1))
		p := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("setp.le"+s.op(), p, d, f.zeroOf(s))
		f.p.EmitIf(p, "mov"+s.op(), d, f.zeroOf(s))
		f.bind(in, []string{d})
	case "Inf":
		p := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("setp.ge.s64", p, arg(0), "0")
		d := r()
		pos, neg := "0d7FF0000000000000", "0dFFF0000000000000"
		if is32 {
			pos, neg = "0f7F800000", "0fFF800000"
		}
		f.p.Emit("selp"+s.op(), d, pos, neg, p)
		f.bind(in, []string{d})
	case "NaN":
		if is32 {
			f.bind(in, []string{goNaN32})
		} else {
			f.bind(in, []string{goNaN64})
		}
	case "IsNaN":
		p := f.p.NewReg(ptx.Pred).String()
		x := arg(0)
		f.p.Emit("setp.nan"+s.op(), p, x, x)
		f.bind(in, []string{p})
	case "IsInf":
		f.bind(in, []string{f.isInf(s, arg(0), args[1])})
	case "Float64bits", "Float32bits":
		d := f.p.NewReg(bc2(name == "Float32bits")).String()
		f.p.Emit("mov"+bits2(name == "Float32bits"), d, arg(0))
		f.bind(in, []string{d})
	case "Float64frombits", "Float32frombits":
		fs := sF64
		if name == "Float32frombits" {
			fs = sF32
		}
		d := f.newReg(fs)
		f.p.Emit("mov"+bits2(fs == sF32), d, arg(0))
		f.bind(in, []string{d})
	case "FastExp", "FastExp2", "FastLog", "FastLog2", "FastSin", "FastCos", "FastSqrt", "FastRsqrt", "FastDiv":
		f.fastMath(in, name, arg)
	default:
		f.devmathCall(in, name, is32)
	}
}

func bc2(is32 bool) ptx.RegClass {
	if is32 {
		return ptx.B32
	}
	return ptx.B64
}

func bits2(is32 bool) string {
	if is32 {
		return ".b32"
	}
	return ".b64"
}

func notSign(s scalar) string {
	if s == sF32 {
		return "2147483647"
	}
	return "9223372036854775807"
}

// round is Go's math.Round: half away from zero, keeping the sign of zero.
func (f *fnState) round(s scalar, x string) string {
	t := f.newReg(s)
	f.p.Emit("cvt.rzi"+s.op()+s.op(), t, x)
	d := f.newReg(s)
	f.p.Emit("sub.rn"+s.op(), d, x, t)
	f.p.Emit("abs"+s.op(), d, d)
	half := "0d3FE0000000000000"
	one := "0d3FF0000000000000"
	if s == sF32 {
		half, one = "0f3F000000", "0f3F800000"
	}
	p := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.ge"+s.op(), p, d, half)
	// copysign(1, x)
	bc, bt, sign := fbits(s)
	xb, ob := f.p.NewReg(bc).String(), f.p.NewReg(bc).String()
	f.p.Emit("mov"+bt, xb, x)
	f.p.Emit("and"+bt, xb, xb, sign)
	onev := f.newReg(s)
	f.mov(s, onev, one)
	f.p.Emit("mov"+bt, ob, onev)
	f.p.Emit("or"+bt, ob, ob, xb)
	sone := f.newReg(s)
	f.p.Emit("mov"+bt, sone, ob)
	r := f.newReg(s)
	f.p.Emit("add.rn"+s.op(), r, t, sone)
	f.p.EmitIf("!"+p, "mov"+s.op(), r, t)
	return r
}

// minMax computes min or max with Go's semantics: for integers the obvious;
// for floats a NaN operand gives NaN and -0 < +0.
func (f *fnState) minMax(s scalar, isMax bool, x, y string) string {
	op := "min"
	if isMax {
		op = "max"
	}
	r := f.newReg(s)
	x = regOr(f, x, s)
	if !s.isFloat() {
		f.p.Emit(op+s.op(), r, x, y)
		return r
	}
	y = regOr(f, y, s)
	f.p.Emit(op+s.op(), r, x, y)
	bc, bt, _ := fbits(s)
	zx, zy := f.p.NewReg(ptx.Pred).String(), f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.eq"+s.op(), zx, x, f.zeroOf(s))
	f.p.Emit("setp.eq"+s.op(), zy, y, f.zeroOf(s))
	f.p.Emit("and.pred", zx, zx, zy)
	bx, by := f.p.NewReg(bc).String(), f.p.NewReg(bc).String()
	f.p.Emit("mov"+bt, bx, x)
	f.p.Emit("mov"+bt, by, y)
	if isMax {
		f.p.Emit("and"+bt, bx, bx, by) // +0 unless both are -0
	} else {
		f.p.Emit("or"+bt, bx, bx, by) // -0 if either is -0
	}
	z := f.newReg(s)
	f.p.Emit("mov"+bt, z, bx)
	f.p.EmitIf(zx, "mov"+s.op(), r, z)
	nan := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.nan"+s.op(), nan, x, y)
	n := goNaN64
	if s == sF32 {
		n = goNaN32
	}
	f.p.EmitIf(nan, "mov"+s.op(), r, n)
	return r
}

// goMathMinMax is math.Max/Min (and math32's): as the builtin max/min,
// except that +Inf (Max) or -Inf (Min) comes before NaN, as Go's special
// cases order them: math.Max(NaN, +Inf) = +Inf.
func (f *fnState) goMathMinMax(s scalar, isMax bool, x, y string) string {
	r := f.minMax(s, isMax, x, y)
	if !s.isFloat() {
		return r
	}
	inf := "0d7FF0000000000000"
	if !isMax {
		inf = "0dFFF0000000000000"
	}
	if s == sF32 {
		inf = "0f7F800000"
		if !isMax {
			inf = "0fFF800000"
		}
	}
	x, y = regOr(f, x, s), regOr(f, y, s)
	px, py := f.p.NewReg(ptx.Pred).String(), f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.eq"+s.op(), px, x, inf)
	f.p.Emit("setp.eq"+s.op(), py, y, inf)
	f.p.Emit("or.pred", px, px, py)
	f.p.EmitIf(px, "mov"+s.op(), r, inf)
	return r
}

func (f *fnState) isInf(s scalar, x string, signV ssa.Value) string {
	pos, neg := "0d7FF0000000000000", "0dFFF0000000000000"
	if s == sF32 {
		pos, neg = "0f7F800000", "0fFF800000"
	}
	pp, pn := f.p.NewReg(ptx.Pred).String(), f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.eq"+s.op(), pp, x, pos)
	f.p.Emit("setp.eq"+s.op(), pn, x, neg)
	if c, ok := signV.(*ssa.Const); ok {
		switch v := c.Int64(); {
		case v > 0:
			return pp
		case v < 0:
			return pn
		}
		f.p.Emit("or.pred", pp, pp, pn)
		return pp
	}
	sg := regOr(f, f.one(signV), sI64)
	gt, lt, eq := f.p.NewReg(ptx.Pred).String(), f.p.NewReg(ptx.Pred).String(), f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.ge.s64", gt, sg, "0")
	f.p.Emit("setp.le.s64", lt, sg, "0")
	f.p.Emit("and.pred", gt, gt, pp)
	f.p.Emit("and.pred", lt, lt, pn)
	f.p.Emit("or.pred", eq, gt, lt)
	return eq
}

// fastMath lowers math32's approximate functions to PTX's approximations.
func (f *fnState) fastMath(in *ssa.Call, name string, arg func(int) string) {
	d := f.newReg(sF32)
	switch name {
	case "FastExp":
		t := f.newReg(sF32)
		f.p.Emit("mul.f32", t, arg(0), "0f3FB8AA3B") // log2(e)
		f.p.Emit("ex2.approx.f32", d, t)
	case "FastExp2":
		f.p.Emit("ex2.approx.f32", d, arg(0))
	case "FastLog":
		t := f.newReg(sF32)
		f.p.Emit("lg2.approx.f32", t, arg(0))
		f.p.Emit("mul.f32", d, t, "0f3F317218") // ln(2)
	case "FastLog2":
		f.p.Emit("lg2.approx.f32", d, arg(0))
	case "FastSin":
		f.p.Emit("sin.approx.f32", d, arg(0))
	case "FastCos":
		f.p.Emit("cos.approx.f32", d, arg(0))
	case "FastSqrt":
		f.p.Emit("sqrt.approx.f32", d, arg(0))
	case "FastRsqrt":
		f.p.Emit("rsqrt.approx.f32", d, arg(0))
	case "FastDiv":
		f.p.Emit("div.approx.f32", d, arg(0), arg(1))
	}
	f.bind(in, []string{d})
}

// devmathCall compiles math.X as a call of the device math library's Go
// implementation (devmath.X, or devmath.X32 for math32).
func (f *fnState) devmathCall(in *ssa.Call, name string, is32 bool) {
	pkgName := "math"
	target := name
	if is32 {
		pkgName = "math32"
		target = name + "32"
	}
	pkg := f.m.k.Devmath()
	if pkg == nil {
		f.errorf("%s.%s needs nugo's device math library, which is not part of this build", pkgName, name)
	}
	fn := pkg.Func(target)
	if fn == nil || len(fn.Blocks) == 0 {
		f.errorf("%s.%s is not available in kernels yet (the device math library has no %s)", pkgName, name, target)
	}
	if f.shouldInline(fn) {
		f.inlineCall(in, fn, in.Call.Args)
		return
	}
	f.deviceCall(in, fn, in.Call.Args)
}

var _ = fmt.Sprint
var _ = frontend.MathPath
