package compiler

import (
	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// atomic lowers cuda.Atomic* on &slice[i] (global or shared memory) to atom;
// float min and max, which PTX lacks, become a compare-and-swap loop.
func (f *fnState) atomic(in *ssa.Call, name string) {
	args := in.Call.Args
	ptrV := args[0]
	s := f.scalar(in.Type())
	sp := f.spaceOf(ptrV)
	a := "[" + f.reg(ptrV) + "]"
	r := f.newReg(s)
	if s == sF16 {
		f.atomicHalf(in, name, r, sp, a)
		f.bind(in, []string{r})
		return
	}
	atom := "atom" + sp.suffix()
	val := f.one(args[1])
	typ := s.op()
	switch name {
	case "AtomicAdd", "AtomicSub":
		if name == "AtomicSub" {
			n := f.newReg(s)
			op := s.op()
			if s.isInt() {
				op = ".s" + op[2:]
			}
			f.p.Emit("neg"+op, n, regOr(f, val, s))
			val = n
		}
		if s.isInt() {
			typ = ".u" + typ[2:] // two's complement: one add for both signs
		}
		f.p.Emit(atom+".add"+typ, r, a, val)
	case "AtomicMax", "AtomicMin", "AtomicNanMax", "AtomicNanMin":
		op := ".max"
		if name == "AtomicMin" || name == "AtomicNanMin" {
			op = ".min"
		}
		if s.isFloat() {
			nan := name == "AtomicNanMax" || name == "AtomicNanMin"
			if nan {
				f.atomicFloatNanMinMax(r, s, sp, a, regOr(f, val, s), op == ".max")
				break
			}
			f.atomicFloatMinMax(r, s, sp, a, regOr(f, val, s), op == ".max")
			break
		}
		// on integers, NanMax and NanMin are Max and Min
		f.p.Emit(atom+op+typ, r, a, val)
	case "AtomicExch":
		f.p.Emit(atom+".exch"+s.bits(), r, a, val)
	case "AtomicCAS":
		f.p.Emit(atom+".cas"+s.bits(), r, a, val, f.one(args[2]))
	case "AtomicAnd":
		f.p.Emit(atom+".and"+s.bits(), r, a, val)
	case "AtomicOr":
		f.p.Emit(atom+".or"+s.bits(), r, a, val)
	case "AtomicXor":
		f.p.Emit(atom+".xor"+s.bits(), r, a, val)
	case "AtomicInc", "AtomicDec":
		op := ".inc"
		if name == "AtomicDec" {
			op = ".dec"
		}
		if !s.is64() {
			f.p.Emit(atom+op+".u32", r, a, val)
			break
		}
		f.atomicWrap64(r, sp, a, regOr(f, val, s), op == ".inc")
	}
	f.bind(in, []string{r})
}

// atomicAddComplex lowers cuda.AtomicAddComplex: one atom.add on each
// part of the complex element (real part at its address, imaginary part
// one part's size further), as CUDA code adds to a float2's x and y.
func (f *fnState) atomicAddComplex(in *ssa.Call) {
	args := in.Call.Args
	ptrV := args[0]
	ls, err := leaves(in.Type())
	if err != nil || len(ls) != 2 {
		f.errorf("cuda.AtomicAddComplex takes a complex64 or complex128 element, not %s", in.Type())
		return
	}
	s := ls[0]
	sp := f.spaceOf(ptrV)
	base := f.reg(ptrV)
	val := f.get(args[1])
	size := int64(4)
	if s.is64() {
		size = 8
	}
	re, im := f.newReg(s), f.newReg(s)
	atom := "atom" + sp.suffix() + ".add" + s.op()
	f.p.Emit(atom, re, addr(base, 0), regOr(f, val[0], s))
	f.p.Emit(atom, im, addr(base, size), regOr(f, val[1], s))
	f.bind(in, []string{re, im})
}

// minAtomicHalfSM is the oldest architecture with 16-bit atomics
// (atom.add.noftz.f16 and atom.cas.b16).
const minAtomicHalfSM = 70

// atomicHalf lowers the Float16 atomics: AtomicAdd and AtomicSub to
// atom.add.noftz.f16 (noftz: the sum keeps subnormals, as HAdd does),
// AtomicCAS to atom.cas.b16, and AtomicExch, AtomicMax, AtomicMin,
// AtomicNanMax and AtomicNanMin, which
// PTX lacks for 16 bits, to atom.cas.b16 loops. Before sm_70 there is no
// 16-bit atomic to build on: refused, as CUDA refuses atomicAdd(__half*).
func (f *fnState) atomicHalf(in *ssa.Call, name, r string, sp space, a string) {
	if sm := f.m.target.sm(); sm < minAtomicHalfSM {
		f.errorf("cuda.%s on a Float16 needs compute capability 7.0 (sm_70) or later (PTX atom.add.noftz.f16, atom.cas.b16), but the target is sm_%d; for older GPUs accumulate in float32 and round with cuda.F16 afterwards", name, sm)
		return
	}
	args := in.Call.Args
	atom := "atom" + sp.suffix()
	val := f.h(args[1])
	switch name {
	case "AtomicAdd", "AtomicSub":
		if name == "AtomicSub" {
			n := f.newReg(sF16)
			f.p.Emit("xor.b16", n, val, "0x8000") // x - y is x + -y, exactly
			val = n
		}
		f.p.Emit(atom+".add.noftz.f16", r, a, val)
	case "AtomicCAS":
		f.p.Emit(atom+".cas.b16", r, a, val, f.h(args[2]))
	case "AtomicExch":
		loop := f.newLabel("axch")
		f.p.Emit("ld"+sp.suffix()+".volatile.b16", r, a)
		f.p.Label(loop)
		got := f.newReg(sF16)
		f.p.Emit(atom+".cas.b16", got, a, r, val)
		same := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("setp.eq.b16", same, got, r)
		f.p.Emit("mov.b16", r, got)
		f.p.EmitIf("!"+same, "bra", loop)
	case "AtomicMax", "AtomicMin":
		f.atomicFloatMinMax(r, sF16, sp, a, val, name == "AtomicMax")
	case "AtomicNanMax", "AtomicNanMin":
		f.atomicFloatNanMinMax(r, sF16, sp, a, val, name == "AtomicNanMax")
	default:
		f.errorf("cuda.%s cannot take a Float16", name) // the type checker refuses it first
	}
}

// casTypes are the register class, load type and bit type of a CAS loop
// over floats of s (ld has no .f16, so halves move as .b16).
func casTypes(s scalar) (ic ptx.RegClass, ld, b string) {
	switch s {
	case sF64:
		return ptx.B64, s.op(), s.bits()
	case sF16:
		return ptx.B16, ".b16", ".b16"
	}
	return ptx.B32, s.op(), s.bits()
}

// casOrRetry ends a CAS loop: it swaps val in at a if a still holds r (the
// old value) and branches back to loop with the value found otherwise;
// r is the old value either way, and done follows.
func (f *fnState) casOrRetry(r string, sp space, a, val string, ic ptx.RegClass, b, loop, done string) {
	oldBits, newBits, got := f.p.NewReg(ic).String(), f.p.NewReg(ic).String(), f.p.NewReg(ic).String()
	f.p.Emit("mov"+b, oldBits, r)
	f.p.Emit("mov"+b, newBits, val)
	f.p.Emit("atom"+sp.suffix()+".cas"+b, got, a, oldBits, newBits)
	same := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.eq"+b, same, got, oldBits)
	f.p.Emit("mov"+b, r, got)
	f.p.EmitIf("!"+same, "bra", loop)
	f.p.Label(done)
}

// atomicFloatMinMax: old = *a; while val beats old, CAS it in.
func (f *fnState) atomicFloatMinMax(r string, s scalar, sp space, a, val string, isMax bool) {
	ic, ld, b := casTypes(s)
	loop, done := f.newLabel("amm"), f.newLabel("ammdone")
	f.p.Emit("ld"+sp.suffix()+".volatile"+ld, r, a)
	f.p.Label(loop)
	p := f.p.NewReg(ptx.Pred).String()
	// Stop unless val beats old: !(val > old), which holds when either is
	// NaN, as the CPU backend's loop does.
	cmp, stop := "setp.leu", p
	if !isMax {
		cmp = "setp.geu"
	}
	if s == sF16 { // the same as !(val > old) with an ordered comparison
		cmp, stop = "setp.gt", "!"+p
		if !isMax {
			cmp = "setp.lt"
		}
	}
	f.p.Emit(cmp+s.op(), p, val, r)
	f.p.EmitIf(stop, "bra", done)
	f.casOrRetry(r, sp, a, val, ic, b, loop, done)
}

// atomicFloatNanMinMax is AtomicNanMax (isMax) or AtomicNanMin, Numba's
// nanmax and nanmin: old = *a; unless val is a NaN, while val beats old or
// old is a NaN, CAS it in. It compares ordered only (eq, lt, gt), which
// ptxsim runs for .f16 too: val == val is false only for a NaN.
func (f *fnState) atomicFloatNanMinMax(r string, s scalar, sp space, a, val string, isMax bool) {
	ic, ld, b := casTypes(s)
	loop, store, done := f.newLabel("anmm"), f.newLabel("anmmstore"), f.newLabel("anmmdone")
	f.p.Emit("ld"+sp.suffix()+".volatile"+ld, r, a)
	num := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.eq"+s.op(), num, val, val)
	f.p.EmitIf("!"+num, "bra", done) // a NaN val is never stored
	f.p.Label(loop)
	beats, oldNum := f.p.NewReg(ptx.Pred).String(), f.p.NewReg(ptx.Pred).String()
	cmp := "setp.gt"
	if !isMax {
		cmp = "setp.lt"
	}
	f.p.Emit(cmp+s.op(), beats, val, r)
	f.p.EmitIf(beats, "bra", store)
	f.p.Emit("setp.eq"+s.op(), oldNum, r, r)
	f.p.EmitIf(oldNum, "bra", done) // a number that val does not beat stays
	f.p.Label(store)
	f.casOrRetry(r, sp, a, val, ic, b, loop, done)
}

// atomicWrap64 is AtomicInc or AtomicDec on 64 bits, which atom.inc and
// atom.dec lack: a compare-and-swap loop computing the next count.
func (f *fnState) atomicWrap64(r string, sp space, a, val string, inc bool) {
	loop := f.newLabel("awrap")
	f.p.Emit("ld"+sp.suffix()+".volatile.u64", r, a)
	f.p.Label(loop)
	wrap, next, got := f.p.NewReg(ptx.Pred).String(), f.p.NewReg(ptx.B64).String(), f.p.NewReg(ptx.B64).String()
	if inc {
		// old >= val wraps to 0, else old+1.
		f.p.Emit("setp.ge.u64", wrap, r, val)
		f.p.Emit("add.u64", next, r, "1")
		f.p.Emit("selp.b64", next, "0", next, wrap)
	} else {
		// old == 0 or old > val wraps to val, else old-1.
		zero := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("setp.gt.u64", wrap, r, val)
		f.p.Emit("setp.eq.u64", zero, r, "0")
		f.p.Emit("or.pred", wrap, wrap, zero)
		f.p.Emit("sub.u64", next, r, "1")
		f.p.Emit("selp.b64", next, val, next, wrap)
	}
	f.p.Emit("atom"+sp.suffix()+".cas.b64", got, a, r, next)
	same := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.eq.b64", same, got, r)
	f.p.Emit("mov.b64", r, got)
	f.p.EmitIf("!"+same, "bra", loop)
}
