package compiler

import (
	"fmt"
	"go/token"
	"math/bits"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// 32-bit index arithmetic: a 64-bit integer (Go's int) whose interval
// (ranges.go) lies in [-2**31, 2**31) is also kept in a 32-bit register.
// Adds, subtracts, multiplies, bitwise operations and constant shifts
// whose operands and result all fit are done in 32 bits (the exact result
// fits, so no bit differs from the 64-bit one), as are divisions and
// remainders by a divisor proven >= 1 (by a constant: a multiply-high,
// unsigned for a dividend proven non-negative, else the signed sequence of
// constDiv); comparisons of such values use
// setp.*.s32, element addresses mul.wide.s32, conversions to floats
// cvt.rn.*.s32, and loop counters live in 32-bit phis. The 64-bit register
// is still defined (cvt.s64.s32 after the 32-bit result) for the uses that
// need it; ptxas drops it where nothing reads it.

// rangeAt returns v's interval in block b, refined by dominating branches.
func (f *fnState) rangeAt(v ssa.Value, b *ssa.BasicBlock) (rng, bool) {
	if f.ranges == nil {
		return rng{}, false
	}
	plain := func(x ssa.Value) (rng, bool) { return plainRange(f.ranges.r, x) }
	r, ok := plain(v)
	if !ok || b == nil {
		return r, ok
	}
	return refine(plain, f.ranges.facts, v, r, b)
}

// fits32 reports whether the 64-bit integer v is known to lie in
// [-2**31, 2**31) (and to be non-negative if its type is unsigned) in b.
func (f *fnState) fits32(v ssa.Value, b *ssa.BasicBlock) bool {
	s, err := scalarOf(v.Type())
	if err != nil || (s != sI64 && s != sU64) {
		return false
	}
	r, ok := f.rangeAt(v, b)
	if !ok || !r.within(r32) {
		return false
	}
	return !isUnsigned(v.Type()) || r.nonNeg()
}

// provenNonNeg reports whether v is known to be >= 0 in the current block
// (a shift count that needs no debug check).
func (f *fnState) provenNonNeg(v ssa.Value) bool {
	r, ok := f.rangeAt(v, f.block)
	return ok && r.nonNeg() && !isUnsigned(v.Type())
}

// provenNonZero reports whether v is known not to be 0 in the current block
// (a divisor that needs no debug check).
func (f *fnState) provenNonZero(v ssa.Value) bool {
	r, ok := f.rangeAt(v, f.block)
	if !ok || isUnsigned(v.Type()) && !r.nonNeg() {
		return false
	}
	return r.lo > 0 || r.hi < 0
}

// narrowOperand returns the 32-bit form of a value for which fits32 holds
// in the current block: its 32-bit register, an immediate, or the low half
// of its 64-bit register.
func (f *fnState) narrowOperand(v ssa.Value) string {
	if n, ok := f.narrow[v]; ok {
		return n
	}
	o := f.one(v)
	if isImmediate(o) {
		return o // a constant in range: the same digits
	}
	t := f.p.NewReg(ptx.B32).String()
	f.p.Emit("cvt.u32.u64", t, o)
	return t
}

// narrowBinOp lowers x op y of 64-bit integers in 32 bits when the interval
// analysis proves that operands and result fit; it returns "" otherwise,
// having emitted nothing.
func (f *fnState) narrowBinOp(in *ssa.BinOp, s scalar) string {
	if s != sI64 && s != sU64 {
		return ""
	}
	var op string
	switch in.Op {
	case token.ADD:
		op = "add.s32"
	case token.SUB:
		op = "sub.s32"
	case token.MUL:
		op = "mul.lo.s32"
	case token.QUO, token.REM:
		// Only with a divisor proven >= 1: no division by zero, no
		// MinInt/-1, and truncation agrees at both widths.
		c, isConst := in.Y.(*ssa.Const)
		if isConst && c.Value != nil && c.Int64() != 0 && !isUnsigned(in.Type()) && f.fits32(in, nil) && f.fits32(in.X, in.Block()) && f.fits32(in.Y, in.Block()) {
			// A signed dividend by a constant: multiply-high with the
			// signed magic number (a dividend proven non-negative takes
			// the unsigned sequence below). Both fit in 32 bits and so
			// does the result, so MinInt32 / -1 does not arise.
			if r, _ := f.rangeAt(in.X, in.Block()); !r.nonNeg() || c.Int64() < 1 {
				x := regOr(f, f.narrowOperand(in.X), sI32)
				if q := f.pow2Div(sI32, x, c, in.Op == token.REM); q != "" {
					return f.widen(in, q)
				}
				return f.widen(in, f.constDiv(sI32, x, c.Int64(), in.Op == token.REM))
			}
		}
		if r, ok := f.rangeAt(in.Y, in.Block()); !ok || r.lo < 1 {
			return ""
		}
		op = map[token.Token]string{token.QUO: "div.s32", token.REM: "rem.s32"}[in.Op]
		constDivisor := func() (*ssa.Const, bool) {
			c, isConst := in.Y.(*ssa.Const)
			ok := isConst && f.fits32(in, nil) && f.fits32(in.X, in.Block()) && f.fits32(in.Y, in.Block())
			return c, ok
		}
		if c, ok := constDivisor(); ok {
			// A power of two: shifts and masks (unsigned ones for a
			// dividend proven non-negative).
			s32 := sI32
			if r, _ := f.rangeAt(in.X, in.Block()); r.nonNeg() {
				s32 = sU32
			}
			if q := f.pow2Div(s32, regOr(f, f.narrowOperand(in.X), sI32), c, in.Op == token.REM); q != "" {
				return f.widen(in, q)
			}
		}
		if r, _ := f.rangeAt(in.X, in.Block()); r.nonNeg() {
			// Both operands non-negative: unsigned division; by a
			// constant, a multiply by its reciprocal (ptxas divides by
			// constants with the general sequence).
			op = map[token.Token]string{token.QUO: "div.u32", token.REM: "rem.u32"}[in.Op]
			if c, ok := constDivisor(); ok {
				return f.widen(in, f.magicDiv(regOr(f, f.narrowOperand(in.X), sI32), uint32(c.Int64()), in.Op == token.REM))
			}
		}
	case token.AND, token.OR, token.XOR:
		// Bitwise operations of sign-extended values are sign-extended.
		op = map[token.Token]string{token.AND: "and.b32", token.OR: "or.b32", token.XOR: "xor.b32"}[in.Op]
	case token.SHL, token.SHR:
		// PTX clamps 32-bit shift counts at 32, which for a value that
		// fits in 32 bits gives the 64-bit result too. A signed variable
		// count keeps the 64-bit path in debug mode, which checks it.
		_, isConst := in.Y.(*ssa.Const)
		if !isConst && f.m.target.Debug && f.scalar(in.Y.Type()).signed() && !f.provenNonNeg(in.Y) {
			return ""
		}
		b := in.Block()
		if !f.fits32(in, nil) || !f.fits32(in.X, b) {
			return ""
		}
		x := regOr(f, f.narrowOperand(in.X), sI32)
		op = "shl.b32"
		if in.Op == token.SHR {
			op = "shr.s32"
		}
		n := f.p.NewReg(ptx.B32).String()
		f.p.Emit(op, n, x, f.shiftCount(in.Y))
		return f.widen(in, n)
	default:
		return ""
	}
	b := in.Block()
	if !f.fits32(in, nil) || !f.fits32(in.X, b) || !f.fits32(in.Y, b) {
		return ""
	}
	x, y := f.narrowOperand(in.X), f.narrowOperand(in.Y)
	if isImmediate(x) {
		x = regOr(f, x, sI32)
	}
	n := f.p.NewReg(ptx.B32).String()
	f.p.Emit(op, n, x, y)
	return f.widen(in, n)
}

// widen records n as v's 32-bit register and returns v's 64-bit register.
func (f *fnState) widen(v ssa.Value, n string) string {
	if f.narrow == nil {
		f.narrow = map[ssa.Value]string{}
	}
	f.narrow[v] = n
	w := f.p.NewReg(ptx.B64).String()
	f.p.Emit("cvt.s64.s32", w, n)
	return w
}

// narrowCompare lowers a comparison of 64-bit integers that both fit in 32
// bits with setp.*.s32 (for unsigned types both are non-negative, where
// signed and unsigned order agree); "" otherwise.
func (f *fnState) narrowCompare(in *ssa.BinOp, cmp string) string {
	b := in.Block()
	if !f.fits32(in.X, b) || !f.fits32(in.Y, b) {
		return ""
	}
	x, y := f.narrowOperand(in.X), f.narrowOperand(in.Y)
	x = regOr(f, x, sI32)
	p := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp."+cmp+".s32", p, x, y)
	return p
}

// narrowConvert lowers a conversion of a 64-bit integer that fits in 32
// bits from its 32-bit register: to a float with cvt.rn.*.s32, to a 32-bit
// or narrower integer by a copy (normalized); "" otherwise.
func (f *fnState) narrowConvert(xv ssa.Value, fs, ts scalar) string {
	if fs != sI64 && fs != sU64 || !f.fits32(xv, f.block) {
		return ""
	}
	switch {
	case ts.isFloat():
		x := regOr(f, f.narrowOperand(xv), sI32)
		r := f.newReg(ts)
		f.p.Emit("cvt.rn"+ts.op()+".s32", r, x)
		return r
	case ts.isInt() && !ts.is64():
		r := f.newReg(ts)
		f.p.Emit("mov.b32", r, f.narrowOperand(xv))
		f.normalize(ts, r)
		return r
	}
	return ""
}

// magicDivU31 returns m and sh such that x/d == (x*m) >> sh for every
// x in [0, 2**31) (Granlund and Montgomery, "Division by invariant integers
// using multiplication", 1994): with l = ceil(log2 d) and
// m = ceil(2**(31+l) / d), m*x/2**(31+l) exceeds x/d by less than 1/d, so
// the floors agree; m < 2**32 when d is no power of two (and 1 for d = 1).
func magicDivU31(d uint32) (m uint32, sh uint) {
	if d == 1 {
		return 1, 0
	}
	l := uint(bits.Len32(d - 1))
	num := uint64(1) << (31 + l)
	return uint32((num + uint64(d) - 1) / uint64(d)), 31 + l
}

// magicDiv emits x / d (or x % d) for x in [0, 2**31) and a constant d >= 1
// as a multiply-high and shift.
func (f *fnState) magicDiv(x string, d uint32, rem bool) string {
	m, sh := magicDivU31(d)
	w := f.p.NewReg(ptx.B64).String()
	f.p.Emit("mul.wide.u32", w, x, fmt.Sprint(m))
	f.p.Emit("shr.u64", w, w, fmt.Sprint(sh))
	q := f.p.NewReg(ptx.B32).String()
	f.p.Emit("cvt.u32.u64", q, w)
	if !rem {
		return q
	}
	r := f.p.NewReg(ptx.B32).String()
	f.p.Emit("mul.lo.u32", r, q, fmt.Sprint(d))
	f.p.Emit("sub.u32", r, x, r)
	return r
}

// narrowPhi reports whether a phi of a 64-bit integer is kept in 32 bits.
func (f *fnState) narrowPhi(phi *ssa.Phi) bool { return f.fits32(phi, nil) }
