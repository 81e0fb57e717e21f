package compiler

import (
	"fmt"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

var errKinds = map[int]string{
	ErrIndex:      "index out of range",
	ErrDivide:     "integer divide by zero",
	ErrSliceAcap:  "slice bounds out of range",
	ErrShift:      "negative shift amount",
	ErrShape:      "array shape does not match its data's length",
	ErrSliceAlen:  "slice bounds out of range",
	ErrSliceB:     "slice bounds out of range",
	ErrSlice3Alen: "slice bounds out of range",
	ErrSlice3Acap: "slice bounds out of range",
	ErrSlice3B:    "slice bounds out of range",
	ErrSlice3C:    "slice bounds out of range",
	ErrConvert:    "slice length too short to convert to array or pointer to array",
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
// (x a, y b; unsigned: a is of unsigned type) and exits the thread.
func (f *fnState) trapIf(op, a, b string, code int, unsigned bool) {
	if isImmediate(a) {
		r := f.p.NewReg(ptx.B64).String()
		f.p.Emit("mov.b64", r, a)
		a = r
	}
	p := f.p.NewReg(ptx.Pred).String()
	f.p.Emit(op, p, a, b)
	label := f.newLabel("err")
	f.p.EmitIf(p, "bra", label)
	site := len(f.m.out.Sites)
	f.m.out.Sites = append(f.m.out.Sites, Site{Kind: errKinds[code], Pos: f.m.k.Fset.Position(f.pos).String(), Func: f.fn.String()})
	f.m.errorRecord = true
	f.tail = append(f.tail, func() { f.errorPath(label, code, site, a, b, unsigned) })
}

func (f *fnState) errorPath(label string, code, site int, value, bound string, unsigned bool) {
	p := f.p
	p.Label(label)
	rec := p.NewReg(ptx.B64).String()
	old := p.NewReg(ptx.B32).String()
	won := p.NewReg(ptx.Pred).String()
	p.Emit("mov.u64", rec, ErrorSymbol)
	p.Emit("atom.global.cas.b32", old, "["+rec+"]", "0", "1")
	p.Emit("setp.ne.b32", won, old, "0")
	p.EmitIf(won, "exit")
	p.Emit("st.global.u32", addr(rec, 4), fmt.Sprint(code))
	p.Emit("st.global.u32", addr(rec, 8), fmt.Sprint(site))
	for i, sreg := range []string{"%ctaid.x", "%ctaid.y", "%ctaid.z", "%tid.x", "%tid.y", "%tid.z"} {
		r := p.NewReg(ptx.B32).String()
		p.Emit("mov.u32", r, sreg)
		p.Emit("st.global.u32", addr(rec, int64(12+4*i)), r)
	}
	if unsigned {
		p.Emit("st.global.u32", addr(rec, 36), fmt.Sprint(RecordUnsigned))
	}
	p.Emit("st.global.u64", addr(rec, 40), value)
	if isImmediate(bound) {
		r := p.NewReg(ptx.B64).String()
		p.Emit("mov.b64", r, bound)
		bound = r
	}
	p.Emit("st.global.u64", addr(rec, 48), bound)
	p.Emit("membar.gl")
	p.Emit("exit")
}
