package compiler

import (
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// fullWarp is the member mask of the warp-level instructions: the kernel
// API only offers full-warp operations.
const fullWarp = "0xffffffff"

// shflModes maps cuda's shuffles to shfl.sync's mode and c operand (the
// lane clamp: 31 for all but up, whose lower bound is 0).
var shflModes = map[string]struct{ mode, c string }{
	"ShflSync":     {"idx", "31"},
	"ShflDownSync": {"down", "31"},
	"ShflUpSync":   {"up", "0"},
	"ShflXorSync":  {"bfly", "31"},
}

// shfl lowers cuda.Shfl*Sync(t, v, lane) to shfl.sync; a 64-bit value is
// shuffled as its two 32-bit halves, a Float16 (.b16) in the low half of a
// 32-bit register.
func (f *fnState) shfl(in *ssa.Call, name string) {
	args := in.Call.Args
	s := f.scalar(in.Type())
	v := regOr(f, f.one(args[1]), s)
	lane := f.lane32(args[2])
	m := shflModes[name]
	op := "shfl.sync." + m.mode + ".b32"
	if s == sF16 {
		w, w2 := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
		f.p.Emit("cvt.u32.u16", w, v)
		f.p.Emit(op, w2, w, lane, m.c, fullWarp)
		d := f.newReg(s)
		f.p.Emit("cvt.u16.u32", d, w2)
		f.bind(in, []string{d})
		return
	}
	if !s.is64() {
		d := f.newReg(s)
		f.p.Emit(op, d, v, lane, m.c, fullWarp)
		f.bind(in, []string{d})
		return
	}
	lo, hi := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
	f.p.Emit("mov.b64", "{"+lo+", "+hi+"}", v)
	lo2, hi2 := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
	f.p.Emit(op, lo2, lo, lane, m.c, fullWarp)
	f.p.Emit(op, hi2, hi, lane, m.c, fullWarp)
	d := f.newReg(s)
	f.p.Emit("mov.b64", d, "{"+lo2+", "+hi2+"}")
	f.bind(in, []string{d})
}

// lane32 is a lane operand (an int) as a 32-bit operand; shfl.sync only
// reads its low 5 bits.
func (f *fnState) lane32(v ssa.Value) string {
	o := f.one(v)
	if isImmediate(o) {
		if n, err := strconv.ParseInt(o, 0, 64); err == nil {
			return strconv.FormatInt(n&31, 10)
		}
	}
	r := f.p.NewReg(ptx.B32).String()
	f.p.Emit("cvt.u32.u64", r, regOr(f, o, sI64))
	return r
}

// vote lowers cuda.AllSync, AnySync and BallotSync to vote.sync.
func (f *fnState) vote(in *ssa.Call, name string) {
	p := regOr(f, f.pred(in.Call.Args[1]), sBool)
	switch name {
	case "BallotSync":
		d := f.newReg(sU32)
		f.p.Emit("vote.sync.ballot.b32", d, p, fullWarp)
		f.bind(in, []string{d})
	default:
		mode := "all"
		if name == "AnySync" {
			mode = "any"
		}
		d := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("vote.sync."+mode+".pred", d, p, fullWarp)
		f.bind(in, []string{d})
	}
}

// matchMinSM is the oldest compute capability with match.sync.
const matchMinSM = 70

// match lowers cuda.MatchAnySync and MatchAllSync to match.sync, which
// compares the bits of 32- or 64-bit values (so a float's -0 and +0
// differ, as on the cpu backend); a Float16 is compared as its bits
// zero-extended to 32.
func (f *fnState) match(in *ssa.Call, name string) {
	if sm := f.m.target.sm(); sm < matchMinSM {
		f.errorf("cuda.%s needs compute capability 7.0 (sm_70) or later (PTX match.sync), but the target is sm_%d; on older GPUs compare with ShflSync and BallotSync instead", name, sm)
	}
	v := in.Call.Args[1]
	s := f.scalar(v.Type())
	a := regOr(f, f.one(v), s)
	if s == sF16 {
		w := f.p.NewReg(ptx.B32).String()
		f.p.Emit("cvt.u32.u16", w, a)
		a = w
	}
	ty := ".b32"
	if s.is64() {
		ty = ".b64"
	}
	d := f.newReg(sU32)
	if name == "MatchAnySync" {
		f.p.Emit("match.any.sync"+ty, d, a, fullWarp)
		f.bind(in, []string{d})
		return
	}
	p := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("match.all.sync"+ty, d+"|"+p, a, fullWarp)
	f.bind(in, []string{d, p})
}
