package compiler

import (
	"fmt"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// errKinds names the kind of failure each code is (Site.Kind): Go's
// panicCheck1 words, or what the check is about.
var errKinds = map[int]string{
	ErrIndex:      "index out of range",
	ErrDivide:     "integer divide by zero",
	ErrSliceAcap:  "slice bounds out of range",
	ErrShift:      "negative shift amount",
	ErrShape2:     "array shape does not match its data's length",
	ErrShape3:     "array shape does not match its data's length",
	ErrIndex2:     "index out of range",
	ErrIndex3:     "index out of range",
	ErrSliceAlen:  "slice bounds out of range",
	ErrSliceB:     "slice bounds out of range",
	ErrSlice3Alen: "slice bounds out of range",
	ErrSlice3Acap: "slice bounds out of range",
	ErrSlice3B:    "slice bounds out of range",
	ErrSlice3C:    "slice bounds out of range",
	ErrConvert:    "slice length too short to convert to array or pointer to array",
	ErrGridExit:   "block returned before t.SyncGrid",
	ErrPanic:      "panic",
	ErrWarpMask:   "warp member mask without the calling lane",
}

// boundsCheck traps when idx is not in [0, length) (unsigned compare).
// An index proven in range (a constant, or an interval within [0, length)
// for a constant length: a loop counter over a local or shared array) needs
// no check.
func (f *fnState) boundsCheck(idx ssa.Value, length string, code int) {
	if isImmediate(length) {
		var n int64
		fmt.Sscan(length, &n)
		if c, ok := idx.(*ssa.Const); ok {
			if v := c.Int64(); v >= 0 && v < n {
				return
			}
		}
		if r, ok := f.rangeAt(idx, f.block); ok && r.lo >= 0 && r.hi < n && !(isUnsigned(idx.Type()) && !r.nonNeg()) {
			return
		}
	}
	i := f.index64(idx)
	f.trapIf("setp.ge.u64", i, length, code, isUnsigned(idx.Type()))
}

// checkLE traps unless a <= b (unsigned compare); the record's x is a,
// of unsigned type when unsigned is set, and its y is b.
func (f *fnState) checkLE(a, b string, code int, unsigned bool) {
	if isImmediate(a) && isImmediate(b) {
		var x, y int64
		fmt.Sscan(a, &x)
		fmt.Sscan(b, &y)
		if x >= 0 && x <= y {
			return
		}
	}
	f.trapIf("setp.gt.u64", a, b, code, unsigned)
}

// trapIf compares a and b with setp op and, when true, records the error
// (values x a, y b; unsigned: a is of unsigned type) and exits the thread.
func (f *fnState) trapIf(op, a, b string, code int, unsigned bool) {
	if isImmediate(a) {
		r := f.p.NewReg(ptx.B64).String()
		f.p.Emit("mov.b64", r, a)
		a = r
	}
	f.trapWith(op, a, b, code, unsigned, a, b)
}

// trapWith compares a (a register) and b with setp op and, when true,
// records the error with the 64-bit values vals and exits the thread.
func (f *fnState) trapWith(op, a, b string, code int, unsigned bool, vals ...string) {
	if len(vals) > RecordValues {
		f.errorf("internal error: a debug check with %d values, the record holds %d", len(vals), RecordValues)
	}
	p := f.p.NewReg(ptx.Pred).String()
	f.p.Emit(op, p, a, b)
	label := f.newLabel("err")
	f.p.EmitIf(p, "bra", label)
	site := len(f.m.out.Sites)
	if site >= MaxSites {
		f.errorf("more than %d debug checks in one kernel; compile without cuda.Debug", MaxSites)
	}
	f.m.out.Sites = append(f.m.out.Sites, Site{Kind: errKinds[code], Pos: f.sitePos(), Func: f.fn.String()})
	f.m.errorRecord = true
	vals = append([]string(nil), vals...)
	f.tail = append(f.tail, func() { f.errorPath(label, code, site, unsigned, vals, "") })
}

// errorPath is the code at label that fills the error record (see
// ErrorSymbol) unless another thread has, and exits; or, with a resume
// label, goes on there instead of exiting.
func (f *fnState) errorPath(label string, code, site int, unsigned bool, vals []string, resume string) {
	p := f.p
	p.Label(label)
	head := uint32(code) | uint32(site)<<12
	if unsigned {
		head |= RecordUnsigned << 8
	}
	rec := p.NewReg(ptx.B64).String()
	old := p.NewReg(ptx.B32).String()
	won := p.NewReg(ptx.Pred).String()
	p.Emit("mov.u64", rec, ErrorSymbol)
	p.Emit("atom.global.cas.b32", old, "["+rec+"]", "0", fmt.Sprint(head))
	p.Emit("setp.ne.b32", won, old, "0")
	if resume != "" {
		p.EmitIf(won, "bra", resume)
	} else {
		p.EmitIf(won, "exit")
	}
	// blockIdx.x; blockIdx.y | .z<<16; threadIdx.x | .y<<10 | .z<<20.
	for i, w := range [][]string{{"%ctaid.x"}, {"%ctaid.y", "%ctaid.z"}, {"%tid.x", "%tid.y", "%tid.z"}} {
		shift := 16
		if len(w) == 3 {
			shift = 10
		}
		word := p.NewReg(ptx.B32).String()
		p.Emit("mov.u32", word, w[0])
		for k, sreg := range w[1:] {
			r, t := p.NewReg(ptx.B32).String(), p.NewReg(ptx.B32).String()
			p.Emit("mov.u32", r, sreg)
			p.Emit("shl.b32", t, r, fmt.Sprint(shift*(k+1)))
			p.Emit("or.b32", word, word, t)
		}
		p.Emit("st.global.u32", addr(rec, int64(4+4*i)), word)
	}
	for i, v := range vals {
		if isImmediate(v) {
			r := p.NewReg(ptx.B64).String()
			p.Emit("mov.b64", r, v)
			v = r
		}
		p.Emit("st.global.u64", addr(rec, int64(16+8*i)), v)
	}
	p.Emit("membar.gl")
	if resume != "" {
		p.Emit("bra", resume)
		return
	}
	p.Emit("exit")
}
