package compiler

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/half"
	"github.com/nugo-dev/nugo/internal/ptx"
)

// Half precision: a cuda.Float16 is a Go struct (so that Go's operators do
// not compile on it), but in kernels it is one scalar leaf, sF16, held in a
// .b16 register and loaded and stored as .b16. Its operations are the
// functions of package cuda, lowered here; each computes exactly what
// internal/half computes on the CPU.

// minHalfSM is the oldest architecture with half-precision arithmetic
// (add/sub/mul/fma/setp .f16).
const minHalfSM = 53

// isFloat16 reports whether t is cuda.Float16.
func isFloat16(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Name() == "Float16" && o.Pkg() != nil && o.Pkg().Path() == frontend.CudaPath
}

// halfFuncs are package cuda's Float16 functions.
var halfFuncs = map[string]bool{
	"F16": true, "F16FromFloat64": true, "Float16FromBits": true,
	"HAdd": true, "HSub": true, "HMul": true, "HDiv": true, "HFma": true, "HNeg": true, "HAbs": true,
	"HMax": true, "HMin": true, "HEq": true, "HNe": true, "HLt": true, "HLe": true, "HGt": true, "HGe": true,
	"HSqrt": true, "HRsqrt": true, "HRcp": true, "HExp": true, "HExp2": true, "HExp10": true,
	"HLog": true, "HLog2": true, "HLog10": true, "HSin": true, "HCos": true,
	"HFloor": true, "HCeil": true, "HTrunc": true, "HRint": true,
}

// halfMath maps the math functions to the device math library's float32
// functions that compute them (then rounded to half).
var halfMath = map[string]string{
	"HExp": "Exp32", "HExp2": "Exp232", "HLog": "Log32", "HLog2": "Log232", "HLog10": "Log1032",
	"HSin": "Sin32", "HCos": "Cos32",
}

// needHalf refuses half precision on targets without it.
func (f *fnState) needHalf(what string) {
	if sm := f.m.target.sm(); sm < minHalfSM {
		f.errorf("%s needs half-precision instructions, which GPUs of compute capability 5.3 and newer have; this kernel is compiled for sm_%d (compute in float32 for older GPUs)", what, sm)
	}
}

// h returns a Float16 operand in a .b16 register.
func (f *fnState) h(v ssa.Value) string { return regOr(f, f.one(v), sF16) }

func (f *fnState) halfToF32(h string) string {
	r := f.newReg(sF32)
	f.p.Emit("cvt.f32.f16", r, h)
	return r
}

func (f *fnState) f32ToHalf(x string) string {
	r := f.newReg(sF16)
	f.p.Emit("cvt.rn.f16.f32", r, x)
	return r
}

// halfImm is the immediate of half bits b.
func halfImm(b uint16) string { return fmt.Sprint(b) }

// halfMethod lowers the methods of cuda.Float16.
func (f *fnState) halfMethod(in *ssa.Call, name string) {
	args := in.Call.Args
	switch name {
	case "Float32":
		f.bind(in, []string{f.halfToF32(f.h(args[0]))})
	case "Float64":
		d := f.newReg(sF64)
		f.p.Emit("cvt.f64.f32", d, f.halfToF32(f.h(args[0])))
		f.bind(in, []string{d})
	case "Bits":
		d := f.newReg(sU16)
		f.p.Emit("cvt.u32.u16", d, f.h(args[0]))
		f.bind(in, []string{d})
	default:
		f.errorf("method Float16.%s cannot be called in a kernel; kernels call Float32, Float64 and Bits", name)
	}
}

// halfCall lowers cuda.F16, cuda.HAdd and the other Float16 functions.
func (f *fnState) halfCall(in *ssa.Call, name string) {
	args := in.Call.Args
	f.needHalf("cuda." + name)
	if c, ok := args[0].(*ssa.Const); ok && c.Value != nil && len(args) == 1 {
		switch name { // constant conversions: folded
		case "F16":
			v, _ := constant.Float32Val(c.Value)
			f.bind(in, []string{halfImm(half.FromFloat32(v))})
			return
		case "F16FromFloat64":
			v, _ := constant.Float64Val(c.Value)
			f.bind(in, []string{halfImm(half.FromFloat64(v))})
			return
		case "Float16FromBits":
			v, _ := constant.Uint64Val(c.Value)
			f.bind(in, []string{halfImm(uint16(v))})
			return
		}
	}
	d := func() string { return f.newReg(sF16) }
	x := func(i int) string { return f.h(args[i]) }
	x32 := func(i int) string { return f.halfToF32(x(i)) }
	switch name {
	case "F16":
		f.bind(in, []string{f.f32ToHalf(regOr(f, f.one(args[0]), sF32))})
	case "F16FromFloat64":
		r := d()
		f.p.Emit("cvt.rn.f16.f64", r, regOr(f, f.one(args[0]), sF64))
		f.bind(in, []string{r})
	case "Float16FromBits":
		r := d()
		f.p.Emit("cvt.u16.u32", r, regOr(f, f.one(args[0]), sU16))
		f.bind(in, []string{r})
	case "HAdd", "HSub", "HMul":
		// .rn: no contraction into fma, as for float32 (results match the CPU)
		op := map[string]string{"HAdd": "add", "HSub": "sub", "HMul": "mul"}[name]
		r := d()
		f.p.Emit(op+".rn.f16", r, x(0), x(1))
		f.bind(in, []string{r})
	case "HFma":
		r := d()
		f.p.Emit("fma.rn.f16", r, x(0), x(1), x(2))
		f.bind(in, []string{r})
	case "HNeg", "HAbs":
		// the sign bit itself, as Go's -x and math.Abs: NaN payloads pass
		r := d()
		if name == "HNeg" {
			f.p.Emit("xor.b16", r, x(0), "0x8000")
		} else {
			f.p.Emit("and.b16", r, x(0), "0x7FFF")
		}
		f.bind(in, []string{r})
	case "HMax", "HMin":
		// max.f16 needs sm_80; max.f32 of the exact float32 values picks
		// the same operand (a NaN gives the other one), and the cvt back is
		// exact. Two zeros are ordered -0 < +0 explicitly, as __hmax does,
		// whatever the instruction makes of them.
		a, b := x(0), x(1)
		op, zop := "max.f32", "and.b16" // +0 unless both are -0
		if name == "HMin" {
			op, zop = "min.f32", "or.b16" // -0 if either is -0
		}
		t := f.newReg(sF32)
		f.p.Emit(op, t, f.halfToF32(a), f.halfToF32(b))
		r := f.f32ToHalf(t)
		both := f.newReg(sF16)
		f.p.Emit("or.b16", both, a, b)
		f.p.Emit("and.b16", both, both, "0x7FFF")
		zeros := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("setp.eq.b16", zeros, both, "0")
		z := f.newReg(sF16)
		f.p.Emit(zop, z, a, b)
		f.p.EmitIf(zeros, "mov.b16", r, z)
		f.bind(in, []string{r})
	case "HEq", "HNe", "HLt", "HLe", "HGt", "HGe":
		// ordered comparisons, as CUDA's __heq ... __hne: NaN makes them false
		p := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("setp."+map[string]string{"HEq": "eq", "HNe": "ne", "HLt": "lt", "HLe": "le", "HGt": "gt", "HGe": "ge"}[name]+".f16", p, x(0), x(1))
		f.bind(in, []string{p})
	case "HDiv":
		t := f.newReg(sF32)
		f.p.Emit("div.rn.f32", t, x32(0), x32(1))
		f.bind(in, []string{f.f32ToHalf(t)})
	case "HSqrt", "HRcp", "HRsqrt", "HFloor", "HCeil", "HTrunc", "HRint":
		a := x32(0)
		t := f.newReg(sF32)
		switch name {
		case "HSqrt":
			f.p.Emit("sqrt.rn.f32", t, a)
		case "HRcp":
			f.p.Emit("rcp.rn.f32", t, a)
		case "HRsqrt":
			s := f.newReg(sF32)
			f.p.Emit("sqrt.rn.f32", s, a)
			f.p.Emit("rcp.rn.f32", t, s)
		default:
			rnd := map[string]string{"HFloor": "rmi", "HCeil": "rpi", "HTrunc": "rzi", "HRint": "rni"}[name]
			f.p.Emit("cvt."+rnd+".f32.f32", t, a)
		}
		f.bind(in, []string{f.f32ToHalf(t)})
	case "HExp10":
		f.bind(in, []string{f.f32ToHalf(f.devmath32("cuda."+name, "Pow32", "0f41200000", x32(0)))})
	default:
		target, ok := halfMath[name]
		if !ok {
			f.errorf("cuda.%s cannot be called in a kernel", name)
		}
		f.bind(in, []string{f.f32ToHalf(f.devmath32("cuda."+name, target, x32(0)))})
	}
}

// regValue is a value that exists only as registers: the arguments and the
// result of a device math call that the compiler makes itself.
type regValue struct{ t types.Type }

func (v *regValue) Name() string                  { return "tmp" }
func (v *regValue) String() string                { return "tmp" }
func (v *regValue) Type() types.Type              { return v.t }
func (v *regValue) Parent() *ssa.Function         { return nil }
func (v *regValue) Referrers() *[]ssa.Instruction { return nil }
func (v *regValue) Pos() token.Pos                { return token.NoPos }

// devmath32 calls the device math library's float32 function name on
// float32 operands and returns the result's register.
func (f *fnState) devmath32(what, name string, args ...string) string {
	pkg := f.m.k.Devmath()
	if pkg == nil {
		f.errorf("%s needs nugo's device math library, which is not part of this build", what)
	}
	fn := pkg.Func(name)
	if fn == nil || len(fn.Blocks) == 0 {
		f.errorf("internal compiler error: %s: the device math library has no %s", what, name)
	}
	f32 := types.Typ[types.Float32]
	vals := make([]ssa.Value, len(args))
	for i, a := range args {
		v := &regValue{t: f32}
		f.vals[v] = []string{a}
		vals[i] = v
	}
	res := &regValue{t: f32}
	if f.shouldInline(fn) {
		f.inlineCall(res, fn, vals)
	} else {
		f.deviceCall(res, fn, vals)
	}
	return f.one(res)
}
