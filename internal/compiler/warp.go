package compiler

import (
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// fullWarp is the member mask of the plain warp functions (ShflSync, ...);
// their Mask forms (ShflSyncMask, ...) take it as the argument after t.
const fullWarp = "0xffffffff"

// maskArgs splits the arguments of a warp function after t: the member
// mask operand (fullWarp for the plain forms) and the rest.
func (f *fnState) maskArgs(in *ssa.Call, name string) (mask string, rest []ssa.Value) {
	args := in.Call.Args[1:]
	if !strings.HasSuffix(name, "Mask") {
		return fullWarp, args
	}
	return f.memberMask(args[0]), args[1:]
}

// memberMask is the operand of a warp instruction's member mask v. In
// debug mode a lane that is not in its mask (undefined in CUDA) fails the
// launch with ErrWarpMask, as the cpu backend and ptxsim always do.
func (f *fnState) memberMask(v ssa.Value) string {
	m := f.one(v)
	if isImmediate(m) {
		// A uint32 constant may be written as a negative number (-1).
		n, err := strconv.ParseInt(m, 0, 64)
		if err != nil {
			u, uerr := strconv.ParseUint(m, 0, 64)
			n, err = int64(u), uerr
		}
		if err == nil {
			m = "0x" + strconv.FormatUint(uint64(n)&0xffffffff, 16)
			if uint32(n) == 0xffffffff {
				return m
			}
		}
	}
	if !f.m.target.Debug {
		return m
	}
	mr := m
	if isImmediate(m) {
		mr = f.p.NewReg(ptx.B32).String()
		f.p.Emit("mov.b32", mr, m)
	}
	eq, in := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
	f.p.Emit("mov.u32", eq, "%lanemask_eq")
	f.p.Emit("and.b32", in, mr, eq)
	m64, lane64, lane := f.p.NewReg(ptx.B64).String(), f.p.NewReg(ptx.B64).String(), f.p.NewReg(ptx.B32).String()
	f.p.Emit("cvt.u64.u32", m64, mr)
	f.p.Emit("mov.u32", lane, "%laneid")
	f.p.Emit("cvt.u64.u32", lane64, lane)
	f.trapWith("setp.eq.b32", in, "0", ErrWarpMask, false, m64, lane64)
	return mr
}

// shflModes maps cuda's shuffles to shfl.sync's mode and c operand (the
// lane clamp: 31 for all but up, whose lower bound is 0).
var shflModes = map[string]struct{ mode, c string }{
	"ShflSync":     {"idx", "31"},
	"ShflDownSync": {"down", "31"},
	"ShflUpSync":   {"up", "0"},
	"ShflXorSync":  {"bfly", "31"},
}

// Mask forms of the shuffles: the same modes with the mask argument.
func init() {
	for k, v := range shflModes {
		shflModes[k+"Mask"] = v
	}
}

// shfl lowers cuda.Shfl*Sync(t, v, lane) and Shfl*SyncMask(t, mask, v,
// lane) to shfl.sync; a 64-bit value is shuffled as its two 32-bit halves,
// a Float16 (.b16) in the low half of a 32-bit register.
func (f *fnState) shfl(in *ssa.Call, name string) {
	mask, args := f.maskArgs(in, name)
	s := f.scalar(in.Type())
	v := regOr(f, f.one(args[0]), s)
	lane := f.lane32(args[1])
	m := shflModes[name]
	op := "shfl.sync." + m.mode + ".b32"
	if s == sF16 {
		w, w2 := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
		f.p.Emit("cvt.u32.u16", w, v)
		f.p.Emit(op, w2, w, lane, m.c, mask)
		d := f.newReg(s)
		f.p.Emit("cvt.u16.u32", d, w2)
		f.bind(in, []string{d})
		return
	}
	if !s.is64() {
		d := f.newReg(s)
		f.p.Emit(op, d, v, lane, m.c, mask)
		f.bind(in, []string{d})
		return
	}
	lo, hi := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
	f.p.Emit("mov.b64", "{"+lo+", "+hi+"}", v)
	lo2, hi2 := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
	f.p.Emit(op, lo2, lo, lane, m.c, mask)
	f.p.Emit(op, hi2, hi, lane, m.c, mask)
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

// vote lowers cuda.AllSync, AnySync, UniSync and BallotSync, and their
// Mask forms, to vote.sync.
func (f *fnState) vote(in *ssa.Call, name string) {
	mask, args := f.maskArgs(in, name)
	p := regOr(f, f.pred(args[0]), sBool)
	switch strings.TrimSuffix(name, "Mask") {
	case "BallotSync":
		d := f.newReg(sU32)
		f.p.Emit("vote.sync.ballot.b32", d, p, mask)
		f.bind(in, []string{d})
	default:
		mode := map[string]string{"AllSync": "all", "AnySync": "any", "UniSync": "uni"}[strings.TrimSuffix(name, "Mask")]
		d := f.p.NewReg(ptx.Pred).String()
		f.p.Emit("vote.sync."+mode+".pred", d, p, mask)
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
	mask, args := f.maskArgs(in, name)
	v := args[0]
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
	if strings.TrimSuffix(name, "Mask") == "MatchAnySync" {
		f.p.Emit("match.any.sync"+ty, d, a, mask)
		f.bind(in, []string{d})
		return
	}
	p := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("match.all.sync"+ty, d+"|"+p, a, mask)
	f.bind(in, []string{d, p})
}
