package compiler

import (
	"fmt"
	"go/token"
	"go/types"
	"math/bits"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// normalize re-extends a narrow integer held in a 32-bit register, which
// makes int8/int16/uint8/uint16 arithmetic wrap as Go's does.
func (f *fnState) normalize(s scalar, r string) {
	switch s {
	case sI8:
		f.p.Emit("cvt.s32.s8", r, r)
	case sI16:
		f.p.Emit("cvt.s32.s16", r, r)
	case sU8:
		f.p.Emit("and.b32", r, r, "255")
	case sU16:
		f.p.Emit("and.b32", r, r, "65535")
	}
}

var cmpOps = map[token.Token]string{
	token.EQL: "eq", token.NEQ: "ne", token.LSS: "lt", token.LEQ: "le", token.GTR: "gt", token.GEQ: "ge",
}

// binOp lowers x op y with Go's semantics.
func (f *fnState) binOp(in *ssa.BinOp) []string {
	xt := in.X.Type()
	if cs, ok := complexPart(xt); ok {
		if _, isCmp := cmpOps[in.Op]; isCmp {
			return []string{f.complexCompare(in.Op, cs, in.X, in.Y)}
		}
		return f.complexBinOp(in, cs)
	}
	if cmp, ok := cmpOps[in.Op]; ok {
		if p := f.narrowCompare(in, cmp); p != "" {
			return []string{p}
		}
		return []string{f.compare(in.Op, cmp, in.X, in.Y)}
	}
	s := f.scalar(xt)
	if w := f.narrowBinOp(in, s); w != "" {
		return []string{w}
	}
	if s == sBool || s == sPtr {
		f.errorf("operator %s is not supported on %s", in.Op, xt)
	}
	x, y := f.one(in.X), f.one(in.Y)
	r := f.newReg(s)
	fl := s.isFloat()
	switch in.Op {
	case token.ADD, token.SUB, token.MUL:
		name := map[token.Token]string{token.ADD: "add", token.SUB: "sub", token.MUL: "mul"}[in.Op]
		switch {
		case fl && f.m.target.FastMath:
			f.p.Emit(name+s.op(), r, x, y)
		case fl:
			// .rn forbids contraction into FMA: results match the CPU bit for bit.
			f.p.Emit(name+".rn"+s.op(), r, x, y)
		case in.Op == token.MUL:
			f.p.Emit("mul.lo"+s.op(), r, x, y)
		default:
			f.p.Emit(name+s.op(), r, x, y)
		}
	case token.QUO:
		if fl {
			switch {
			case s == sF32 && f.m.target.FastMath:
				f.p.Emit("div.full.f32", r, x, y)
			default:
				f.p.Emit("div.rn"+s.op(), r, x, y)
			}
			return []string{r}
		}
		return []string{f.intDiv(s, in.X, in.Y, false)}
	case token.REM:
		return []string{f.intDiv(s, in.X, in.Y, true)}
	case token.AND:
		f.p.Emit("and"+s.bits(), r, x, y)
	case token.OR:
		f.p.Emit("or"+s.bits(), r, x, y)
	case token.XOR:
		f.p.Emit("xor"+s.bits(), r, x, y)
	case token.AND_NOT:
		t := f.newReg(s)
		if isImmediate(y) {
			f.mov(s, t, y)
			y = t
			t = f.newReg(s)
		}
		f.p.Emit("not"+s.bits(), t, y)
		f.p.Emit("and"+s.bits(), r, x, t)
	case token.SHL, token.SHR:
		if ys := f.scalar(in.Y.Type()); f.m.target.Debug && ys.signed() && !f.provenNonNeg(in.Y) {
			if _, isConst := in.Y.(*ssa.Const); !isConst {
				f.trapIf("setp.lt.s64", f.index64(in.Y), "0", ErrShift, false)
			}
		}
		n := f.shiftCount(in.Y)
		if in.Op == token.SHL {
			f.p.Emit("shl"+s.bits(), r, x, n)
		} else if s.signed() {
			f.p.Emit("shr"+s.op(), r, x, n)
		} else {
			f.p.Emit("shr"+s.op(), r, x, n)
		}
	default:
		f.errorf("operator %s is not supported in kernels", in.Op)
	}
	f.normalize(s, r)
	return []string{r}
}

// shiftCount returns a .u32 shift count: PTX clamps counts at the register
// width, which gives Go's results for counts >= width; 64-bit counts are
// clamped first so that their high bits are not lost.
func (f *fnState) shiftCount(y ssa.Value) string {
	if c, ok := y.(*ssa.Const); ok {
		v, exact := constantUint64(c)
		if !exact || v > 64 {
			v = 64
		}
		return fmt.Sprint(v)
	}
	s := f.scalar(y.Type())
	n := f.one(y)
	if !s.is64() {
		return n
	}
	t := f.p.NewReg(ptx.B64).String()
	f.p.Emit("min.u64", t, n, "64")
	r := f.p.NewReg(ptx.B32).String()
	f.p.Emit("cvt.u32.u64", r, t)
	return r
}

func constantUint64(c *ssa.Const) (uint64, bool) {
	if c.Value == nil {
		return 0, true
	}
	s, err := scalarOf(c.Type())
	if err == nil && s.signed() {
		v := c.Int64()
		return uint64(v), v >= 0
	}
	return c.Uint64(), true
}

// compare lowers a comparison to a predicate.
func (f *fnState) compare(op token.Token, cmp string, xv, yv ssa.Value) string {
	t := xv.Type()
	p := f.p.NewReg(ptx.Pred).String()
	switch u := t.Underlying().(type) {
	case *types.Slice:
		// Only comparison with nil: compare the pointer.
		a, b := f.get(xv)[0], f.get(yv)[0]
		f.p.Emit("setp."+cmp+".u64", p, regOr(f, a, sPtr), b)
		return p
	case *types.Basic, *types.Pointer:
		_ = u
	default:
		if isFloat16(t) {
			f.errorf("cannot compare cuda.Float16 values with %s in a kernel; use cuda.HEq, cuda.HNe, cuda.HLt ... (IEEE comparisons), or compare a.Bits() and b.Bits()", op)
		}
		f.errorf("comparison of %s values is not supported in kernels; compare their fields", t)
	}
	s := f.scalar(t)
	x, y := f.one(xv), f.one(yv)
	switch {
	case s == sBool:
		t := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("xor.pred", t, x, y)
		if op == token.EQL {
			f.p.Emit("not.pred", p, t)
			return p
		}
		return t
	case s.isFloat():
		if op == token.NEQ {
			cmp = "neu" // Go's != is true when either side is NaN
		}
		f.p.Emit("setp."+cmp+s.op(), p, regOr(f, x, s), y)
	default:
		f.p.Emit("setp."+cmp+s.op(), p, regOr(f, x, s), y)
	}
	return p
}

// regOr moves an immediate into a register (setp wants a register first).
func regOr(f *fnState, o string, s scalar) string {
	if !isImmediate(o) {
		return o
	}
	r := f.newReg(s)
	f.mov(s, r, o)
	return r
}

// unOp lowers -x, ^x, !x and *p.
func (f *fnState) unOp(in *ssa.UnOp) {
	switch in.Op {
	case token.MUL:
		f.load(in)
		return
	case token.ARROW:
		f.errorf("cannot receive from a channel in a kernel")
	}
	if cs, ok := complexPart(in.Type()); ok && in.Op == token.SUB {
		f.bind(in, f.complexNeg(cs, f.get(in.X)))
		return
	}
	s := f.scalar(in.Type())
	x := f.one(in.X)
	r := f.newReg(s)
	switch in.Op {
	case token.NOT:
		f.p.Emit("not.pred", r, x)
	case token.SUB:
		op := s.op()
		if s.isInt() {
			op = ".s" + op[2:] // two's complement negation for both signs
		}
		f.p.Emit("neg"+op, r, x)
		f.normalize(s, r)
	case token.XOR:
		f.p.Emit("not"+s.bits(), r, x)
		f.normalize(s, r)
	default:
		f.errorf("operator %s is not supported in kernels", in.Op)
	}
	f.bind(in, []string{r})
}

// intDiv lowers integer / and % with Go's semantics: truncation toward zero,
// the remainder takes the dividend's sign, MinInt / -1 wraps to MinInt with
// remainder 0. 64-bit division by a constant is a multiply-high sequence
// (constDiv); by a variable it goes through 32-bit division when both
// operands fit in 32 bits unsigned (a 64-bit divide is a long software
// sequence on the GPU).
func (f *fnState) intDiv(s scalar, xv, yv ssa.Value, rem bool) string {
	x, y := f.one(xv), f.one(yv)
	if isImmediate(x) {
		x = regOr(f, x, s)
	}
	yc, yConst := yv.(*ssa.Const)
	if !(yConst && yc.Value != nil && yc.Int64() != 0) && !f.provenNonZero(yv) && !f.zeroCheckedBefore(yv) {
		// Go panics on an integer division by zero, in every build: so
		// does a kernel, on every backend (issue 21 item 3). The check
		// is one compare and a branch not taken beside the division.
		f.trapWith("setp.eq"+s.bits(), regOr(f, y, s), "0", ErrDivide, false)
		if f.zeroChecked == nil {
			f.zeroChecked = map[ssa.Value][]*ssa.BasicBlock{}
		}
		f.zeroChecked[yv] = append(f.zeroChecked[yv], f.block)
	}
	if yConst {
		if q := f.pow2Div(s, x, yc, rem); q != "" {
			return q
		}
		if (s == sI64 || s == sU64) && yc.Value != nil {
			// 64-bit division by any other constant: a multiply-high.
			var d int64
			if s == sI64 {
				d = yc.Int64()
			} else {
				d = int64(yc.Uint64())
			}
			if d != 0 {
				return f.constDiv(s, x, d, rem)
			}
		}
		if (s == sI32 || s == sI16 || s == sI8) && yc.Value != nil && yc.Int64() != 0 {
			// Signed 32-bit and narrower (sign-extended in 32-bit
			// registers; the result re-normalized, so that MinInt8 / -1
			// wraps): ptxas divides by most constants with its general
			// sequence.
			r := f.constDiv(sI32, x, yc.Int64(), rem)
			f.normalize(s, r)
			return r
		}
		if (s == sU32 || s == sU16 || s == sU8) && yc.Value != nil && yc.Uint64() != 0 {
			// Unsigned ones likewise (zero-extended: no normalizing).
			return f.constDiv(sU32, x, int64(yc.Uint64()), rem)
		}
	}
	op := "div"
	if rem {
		op = "rem"
	}
	r := f.newReg(s)
	// x / -1 == -x (wrapping), x % -1 == 0: PTX leaves MinInt / -1 undefined.
	fixMinusOne := func() {
		if s.signed() && (s == sI32 || s == sI64) && !(yConst && yc.Int64() != -1) {
			p := f.p.NewReg(ptx.Pred).String()
			f.p.Emit("setp.eq"+s.op(), p, regOr(f, y, s), "-1")
			if rem {
				f.p.EmitIf(p, "mov"+s.movType(), r, "0")
			} else {
				f.p.EmitIf(p, "neg"+s.op(), r, x)
			}
		}
	}
	if s.is64() && !yConst {
		q, rm := f.divRem64(s, xv, yv, x, y)
		if rem {
			return rm
		}
		return q
	}
	// Here s has 32 bits or fewer (64-bit divisions returned above).
	f.p.Emit(op+s.op(), r, x, y)
	fixMinusOne()
	f.normalize(s, r)
	return r
}

// zeroCheckedBefore reports whether divisor y was checked against zero in
// a block that strictly dominates the current one: every path here passed
// that check (and a copy of the block emitted twice, as a loop unrolled on
// its entry edge, checks again, since a block does not strictly dominate
// itself).
func (f *fnState) zeroCheckedBefore(y ssa.Value) bool {
	for _, b := range f.zeroChecked[y] {
		if b != f.block && b.Dominates(f.block) {
			return true
		}
	}
	return false
}

// pow2Div lowers x / 2**k and x % 2**k to shifts and masks (ptxas does not
// strength-reduce 64-bit division by constants): signed quotients round
// toward zero by adding 2**k-1 to negative dividends first. It returns "" for
// other divisors, having emitted nothing.
func (f *fnState) pow2Div(s scalar, x string, c *ssa.Const, rem bool) string {
	v, ok := constantUint64(c)
	if !ok || v < 2 || v&(v-1) != 0 {
		return ""
	}
	k := 0
	for 1<<k != v {
		k++
	}
	width := 32
	if s.is64() {
		width = 64
	}
	if k >= width-1 && s.signed() || k >= width {
		return ""
	}
	bt := s.bits()
	ut := ".u32"
	st := ".s32"
	if width == 64 {
		ut, st = ".u64", ".s64"
	}
	r := f.newReg(s)
	if !s.signed() {
		if rem {
			f.p.Emit("and"+bt, r, x, fmt.Sprint(v-1))
		} else {
			f.p.Emit("shr"+ut, r, x, fmt.Sprint(k))
		}
		return r
	}
	t := f.newReg(s)
	f.p.Emit("shr"+st, t, x, fmt.Sprint(width-1))
	f.p.Emit("shr"+ut, t, t, fmt.Sprint(width-k))
	f.p.Emit("add"+st, t, t, x)
	if !rem {
		f.p.Emit("shr"+st, r, t, fmt.Sprint(k))
		f.normalize(s, r)
		return r
	}
	f.p.Emit("and"+bt, t, t, fmt.Sprint(-int64(v)))
	f.p.Emit("sub"+st, r, x, t)
	f.normalize(s, r)
	return r
}

// divPair is a quotient and remainder computed together.
type divPair struct {
	q, r  string
	block *ssa.BasicBlock
}

// divRem64 computes x / y and x % y of 64-bit integers at once and keeps
// them for a later division of the same operands in a dominated block (the
// n%f == 0 { n /= f } of trial division): 32-bit division when both fit,
// else one 64-bit division, the remainder as x - q*y in both cases.
func (f *fnState) divRem64(s scalar, xv, yv ssa.Value, x, y string) (string, string) {
	key := [2]ssa.Value{xv, yv}
	if p, ok := f.divPairs[key]; ok && f.block != nil && p.block.Dominates(f.block) {
		return p.q, p.r
	}
	q, r := f.newReg(s), f.newReg(s)
	fast := f.newLabel("div32")
	done := f.newLabel("divdone")
	t := f.p.NewReg(ptx.B64).String()
	p := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("or.b64", t, x, y)
	f.p.Emit("and.b64", t, t, "-4294967296")
	f.p.Emit("setp.eq.s64", p, t, "0")
	f.p.EmitIf(p, "bra", fast)
	f.p.Emit("div"+s.op(), q, x, y)
	if s.signed() {
		// x / -1 == -x (wrapping): PTX leaves MinInt / -1 undefined. The
		// remainder x - q*y is then 0, as Go wants.
		m1 := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("setp.eq.s64", m1, y, "-1")
		f.p.EmitIf(m1, "neg.s64", q, x)
	}
	m := f.p.NewReg(ptx.B64).String()
	f.p.Emit("mul.lo.s64", m, q, y)
	f.p.Emit("sub.s64", r, x, m)
	f.p.Emit("bra.uni", done)
	f.p.Label(fast)
	a, b, c, d := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
	f.p.Emit("cvt.u32.u64", a, x)
	f.p.Emit("cvt.u32.u64", b, y)
	f.p.Emit("div.u32", c, a, b)
	f.p.Emit("mul.lo.u32", d, c, b)
	f.p.Emit("sub.s32", d, a, d)
	f.p.Emit("cvt.u64.u32", q, c)
	f.p.Emit("cvt.u64.u32", r, d)
	f.p.Label(done)
	if f.divPairs == nil {
		f.divPairs = map[[2]ssa.Value]divPair{}
	}
	if f.block != nil {
		f.divPairs[key] = divPair{q, r, f.block}
	}
	return q, r
}

// Division by a constant with a multiply-high (Granlund and Montgomery,
// "Division by invariant integers using multiplication", 1994; Warren,
// Hacker's Delight, chapter 10): ptxas does not strength-reduce 64-bit
// division by constants, which is otherwise a long software sequence.

// divKind selects the instruction sequence of a divPlan.
type divKind int

const (
	divIdentity divKind = iota // q = x (d == 1)
	divNegate                  // q = -x, wrapping (signed d == -1)
	divIsMin                   // q = x == MinInt ? 1 : 0 (signed d == MinInt)
	divAtLeast                 // q = x >= d ? 1 : 0 (unsigned d >= 2**(W-1))
	divMagic                   // q from the multiply-high below
)

// divPlan is how to divide a W-bit integer by the constant d.
//
// Signed divMagic: t = mulhi.s(x, m); t += x if add > 0, t -= x if add < 0;
// t >>= sh (arithmetic); q = t + (t >>> (W-1)).
//
// Unsigned divMagic: t = mulhi.u(x, m); without add, q = t >> sh; with it,
// q = (t + ((x - t) >> 1)) >> sh.
type divPlan struct {
	kind divKind
	m    uint64 // the magic number, W bits (as the register holds it)
	sh   uint
	add  int
}

// signedDivPlan returns the plan for x / d of W-bit signed integers
// (W = 32 or 64, d != 0 within W bits), after Hacker's Delight figure 10-1:
// the smallest p >= W with 2**p > nc * (d - 2**p mod d), where
// nc = 2**(W-1) - 1 - (2**(W-1) - [d<0]) mod |d|, and m = (2**p + d -
// 2**p mod d) / d, taken modulo 2**W as a signed multiplier.
func signedDivPlan(d int64, w uint) divPlan {
	mask := uint64(1)<<(w-1)<<1 - 1
	switch {
	case d == 1:
		return divPlan{kind: divIdentity}
	case d == -1:
		return divPlan{kind: divNegate}
	case d == -1<<(w-1):
		return divPlan{kind: divIsMin}
	}
	ad := uint64(d)
	if d < 0 {
		ad = uint64(-d)
	}
	two := uint64(1) << (w - 1)
	t := two
	if d < 0 {
		t++
	}
	anc := t - 1 - t%ad
	p := w - 1
	q1, r1 := two/anc, two%anc
	q2, r2 := two/ad, two%ad
	for {
		p++
		q1, r1 = 2*q1, 2*r1
		if r1 >= anc {
			q1++
			r1 -= anc
		}
		q2, r2 = 2*q2, 2*r2
		if r2 >= ad {
			q2++
			r2 -= ad
		}
		delta := ad - r2
		if q1 > delta || q1 == delta && r1 != 0 {
			break
		}
	}
	m := (q2 + 1) & mask
	if d < 0 {
		m = -m & mask
	}
	pl := divPlan{kind: divMagic, m: m, sh: p - w}
	neg := m&two != 0 // m negative as a W-bit signed number
	switch {
	case d > 0 && neg:
		pl.add = 1
	case d < 0 && !neg:
		pl.add = -1
	}
	return pl
}

// unsignedDivPlan returns the plan for x / d of W-bit unsigned integers
// (W = 32 or 64, 1 <= d < 2**W): with l = ceil(log2 d),
// m = ceil(2**(W-1+l) / d) when its error m*d - 2**(W-1+l) is at most
// 2**(l-1) (Granlund and Montgomery, theorem 4.2), else the (W+1)-bit
// multiplier 2**W + m', m' = floor(2**W * (2**l - d) / d) + 1, with the
// add-and-halve correction (their figure 4.1).
func unsignedDivPlan(d uint64, w uint) divPlan {
	switch {
	case d == 1:
		return divPlan{kind: divIdentity}
	case d >= 1<<(w-1):
		return divPlan{kind: divAtLeast}
	}
	// wide returns hi * 2**W / d and its remainder, for hi < d.
	wide := func(hi uint64) (uint64, uint64) {
		if w == 64 {
			return bits.Div64(hi, 0, d)
		}
		return hi << 32 / d, hi << 32 % d
	}
	mask := uint64(1)<<(w-1)<<1 - 1
	l := uint(bits.Len64(d - 1))
	if q, r := wide(uint64(1) << (l - 1)); r == 0 || q != mask && d-r <= uint64(1)<<(l-1) {
		if r != 0 {
			q++
		}
		return divPlan{kind: divMagic, m: q, sh: l - 1}
	}
	// 2**l - d < d, so the quotient fits in W bits (l < W: d < 2**(W-1)).
	q, _ := wide(uint64(1)<<l - d)
	return divPlan{kind: divMagic, m: q + 1, sh: l - 1, add: 1}
}

// constDiv emits x / d or x % d for a register x of a W-bit integer (s is
// sI32 or sI64 for signed division, sU32 or sU64 for unsigned) and a constant d
// that is not 0 (nor a power of two, which pow2Div handles), following
// signedDivPlan or unsignedDivPlan; the remainder is x - q*d.
func (f *fnState) constDiv(s scalar, x string, d int64, rem bool) string {
	w := uint(32)
	if s.is64() {
		w = 64
	}
	var pl divPlan
	if s.signed() {
		pl = signedDivPlan(d, w)
	} else {
		pl = unsignedDivPlan(uint64(d)&(uint64(1)<<(w-1)<<1-1), w)
	}
	op, ut, bt := s.op(), ".u32", s.bits()
	if w == 64 {
		ut = ".u64"
	}
	imm := func(v uint64) string {
		if s.signed() {
			return fmt.Sprint(int64(v<<(64-w)) >> (64 - w))
		}
		return fmt.Sprint(v)
	}
	q := f.newReg(s)
	switch pl.kind {
	case divIdentity:
		f.p.Emit("mov"+bt, q, x)
	case divNegate:
		f.p.Emit("neg"+op, q, x)
	case divIsMin, divAtLeast:
		p := f.p.NewReg(ptx.Pred).String()
		if pl.kind == divIsMin {
			f.p.Emit("setp.eq"+op, p, x, imm(uint64(d)))
		} else {
			f.p.Emit("setp.ge"+ut, p, x, imm(uint64(d)))
		}
		f.p.Emit("selp"+bt, q, "1", "0", p)
	case divMagic:
		f.p.Emit("mul.hi"+op, q, x, imm(pl.m))
		if s.signed() {
			switch pl.add {
			case 1:
				f.p.Emit("add"+op, q, q, x)
			case -1:
				f.p.Emit("sub"+op, q, q, x)
			}
			if pl.sh > 0 {
				f.p.Emit("shr"+op, q, q, fmt.Sprint(pl.sh))
			}
			t := f.newReg(s)
			f.p.Emit("shr"+ut, t, q, fmt.Sprint(w-1))
			f.p.Emit("add"+op, q, q, t)
			break
		}
		if pl.add != 0 {
			t := f.newReg(s)
			f.p.Emit("sub"+op, t, x, q)
			f.p.Emit("shr"+ut, t, t, "1")
			f.p.Emit("add"+op, q, q, t)
		}
		if pl.sh > 0 {
			f.p.Emit("shr"+ut, q, q, fmt.Sprint(pl.sh))
		}
	}
	if !rem {
		return q
	}
	r := f.newReg(s)
	f.p.Emit("mul.lo"+op, r, q, imm(uint64(d)))
	f.p.Emit("sub"+op, r, x, r)
	return r
}
