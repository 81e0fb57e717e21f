package compiler

import (
	"fmt"
	"go/constant"
	"go/types"
	"math"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

func (f *fnState) newReg(s scalar) string { return f.p.NewReg(s.class()).String() }

// newRegs allocates one register per leaf of t.
func (f *fnState) newRegs(t types.Type) []string {
	ls, err := leaves(t)
	if err != nil {
		f.errorf("%v", err)
	}
	regs := make([]string, len(ls))
	for i, s := range ls {
		regs[i] = f.newReg(s)
	}
	return regs
}

// bind records the registers holding v; they must be fresh (written once).
func (f *fnState) bind(v ssa.Value, regs []string) { f.vals[v] = regs }

// bindCopy binds v to copies of parts: parts may belong to a phi, whose
// registers are rewritten on loop edges while v must keep its value.
func (f *fnState) bindCopy(v ssa.Value, parts []string) {
	ls, err := leaves(v.Type())
	if err != nil {
		f.errorf("%v", err)
	}
	regs := make([]string, len(parts))
	for i, p := range parts {
		if isImmediate(p) {
			regs[i] = p
			continue
		}
		regs[i] = f.newReg(ls[i])
		f.mov(ls[i], regs[i], p)
	}
	f.vals[v] = regs
}

func (f *fnState) mov(s scalar, dst, src string) {
	f.p.Emit("mov"+s.movType(), dst, src)
}

func isImmediate(s string) bool {
	return len(s) > 0 && s[0] != '%'
}

// get returns the operands of v: registers, or immediates for constants.
func (f *fnState) get(v ssa.Value) []string {
	if regs, ok := f.vals[v]; ok {
		return regs
	}
	switch v := v.(type) {
	case *ssa.Const:
		return f.constant(v)
	case *ssa.Function:
		f.errorf("cannot use function %s as a value in a kernel; call it directly", v.Name())
	case *ssa.Global:
		r := f.globalTable(v)
		f.vals[v] = []string{r}
		return []string{r}
	case *ssa.Builtin:
		f.errorf("cannot use builtin %s as a value", v.Name())
	}
	f.errorf("internal compiler error: value %s (%T) used before its definition", v.Name(), v)
	return nil
}

// getAs returns v's operands with pointer leaves converted to state space sp.
func (f *fnState) getAs(v ssa.Value, sp space) []string {
	regs := f.get(v)
	from := f.spaceOf(v)
	if sp != spaceGeneric || from == spaceGeneric || from == spaceNone {
		return regs
	}
	ls, _ := leaves(v.Type())
	out := append([]string(nil), regs...)
	for i, s := range ls {
		if s == sPtr && !isImmediate(regs[i]) {
			out[i] = f.toGeneric(regs[i], from)
		}
	}
	return out
}

// scalarOperand returns the single operand of a scalar value.
func (f *fnState) one(v ssa.Value) string {
	r := f.get(v)
	if len(r) != 1 {
		f.errorf("internal compiler error: %s has %d parts, want 1", v, len(r))
	}
	return r[0]
}

// reg returns v's single operand in a register (immediates are moved).
func (f *fnState) reg(v ssa.Value) string {
	o := f.one(v)
	if !isImmediate(o) {
		return o
	}
	s := f.scalar(v.Type())
	r := f.newReg(s)
	f.mov(s, r, o)
	return r
}

// pred returns the predicate register of a bool value.
func (f *fnState) pred(v ssa.Value) string { return f.one(v) }

func (f *fnState) scalar(t types.Type) scalar {
	s, err := scalarOf(t)
	if err != nil {
		f.errorf("%v", err)
	}
	return s
}

// constant lowers a constant to immediates (bools to predicate registers).
func (f *fnState) constant(c *ssa.Const) []string {
	t := c.Type()
	if c.Value == nil {
		ls, err := leaves(t)
		if err != nil {
			f.errorf("%v", err)
		}
		out := make([]string, len(ls))
		for i, s := range ls {
			out[i] = f.zeroOf(s)
		}
		return out
	}
	if cs, ok := complexPart(t); ok {
		return f.complexConst(cs, c.Value)
	}
	s := f.scalar(t)
	return []string{f.immediate(s, c.Value)}
}

func (f *fnState) zeroOf(s scalar) string {
	switch s {
	case sBool:
		return f.boolConst(false)
	case sF32:
		return "0f00000000"
	case sF64:
		return "0d0000000000000000"
	}
	return "0"
}

func (f *fnState) boolConst(b bool) string {
	p := f.p.NewReg(ptx.Pred).String()
	v := "0"
	if b {
		v = "1"
	}
	f.p.Emit("setp.ne.b32", p, v, "0")
	return p
}

// immediate formats a constant of scalar kind s.
func (f *fnState) immediate(s scalar, v constant.Value) string {
	switch s {
	case sBool:
		return f.boolConst(constant.BoolVal(v))
	case sF32:
		x, _ := constant.Float32Val(constant.ToFloat(v))
		return f32imm(x)
	case sF64:
		x, _ := constant.Float64Val(constant.ToFloat(v))
		return f64imm(x)
	}
	iv := constant.ToInt(v)
	var bits uint64
	if x, ok := constant.Int64Val(iv); ok {
		bits = uint64(x)
	} else if x, ok := constant.Uint64Val(iv); ok {
		bits = x
	} else {
		f.errorf("constant %s does not fit in 64 bits", v)
	}
	return intImm(s, bits)
}

func intImm(s scalar, bits uint64) string {
	if s.is64() {
		return strconv.FormatInt(int64(bits), 10)
	}
	// 32-bit registers hold narrow values sign- or zero-extended.
	switch s {
	case sI8:
		return strconv.FormatInt(int64(int8(bits)), 10)
	case sI16:
		return strconv.FormatInt(int64(int16(bits)), 10)
	case sU8:
		return strconv.FormatInt(int64(uint8(bits)), 10)
	case sU16:
		return strconv.FormatInt(int64(uint16(bits)), 10)
	}
	return strconv.FormatInt(int64(int32(bits)), 10)
}

func f32imm(x float32) string { return fmt.Sprintf("0f%08X", math.Float32bits(x)) }
func f64imm(x float64) string { return fmt.Sprintf("0d%016X", math.Float64bits(x)) }
