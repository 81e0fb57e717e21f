package compiler

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// slice lowers s[lo:hi:max] of a slice or of a pointer to an array.
func (f *fnState) slice(in *ssa.Slice) {
	var base, length, capacity string
	var elem types.Type
	switch t := in.X.Type().Underlying().(type) {
	case *types.Slice:
		parts := f.get(in.X)
		base, length, capacity = parts[0], parts[1], parts[2]
		elem = t.Elem()
	case *types.Pointer:
		arr, ok := t.Elem().Underlying().(*types.Array)
		if !ok {
			f.errorf("cannot slice %s in a kernel", in.X.Type())
		}
		base = f.reg(in.X)
		length = fmt.Sprint(arr.Len())
		capacity = length
		elem = arr.Elem()
	default:
		f.errorf("cannot slice %s in a kernel (strings are not supported)", in.X.Type())
	}
	lo, hi, max := "0", length, capacity
	if in.Low != nil {
		lo = f.index64(in.Low)
	}
	if in.High != nil {
		hi = f.index64(in.High)
	}
	if in.Max != nil {
		max = f.index64(in.Max)
	}
	if f.m.target.Debug {
		f.sliceChecks(in, lo, hi, max, capacity)
	}
	newBase := base
	if lo != "0" {
		newBase = f.p.NewReg(ptx.B64).String()
		size := sizes.Sizeof(elem)
		if isImmediate(lo) {
			var c int64
			fmt.Sscan(lo, &c)
			f.p.Emit("add.s64", newBase, base, fmt.Sprint(c*size))
		} else {
			t := f.p.NewReg(ptx.B64).String()
			f.p.Emit("mul.lo.s64", t, lo, fmt.Sprint(size))
			f.p.Emit("add.s64", newBase, base, t)
		}
	} else if !isImmediate(base) {
		newBase = f.p.NewReg(ptx.B64).String()
		f.p.Emit("mov.u64", newBase, base)
	}
	f.bind(in, []string{newBase, f.sub64(hi, lo), f.sub64(max, lo)})
}

// sliceChecks checks s[lo:hi:max]'s indices as the gc compiler does,
// right to left, each against the next (an omitted one needs none):
// s[lo:hi] checks hi <= cap(s) (len(a) for an array, ErrSliceAlen), then
// lo <= hi; s[lo:hi:max] checks max <= cap(s), hi <= max, lo <= hi. So the
// first failing condition, and the values it names, are the ones Go's
// runtime reports.
func (f *fnState) sliceChecks(in *ssa.Slice, lo, hi, max, capacity string) {
	_, ofSlice := in.X.Type().Underlying().(*types.Slice)
	unsigned := func(v ssa.Value) bool { return isUnsigned(v.Type()) }
	if in.Max != nil {
		code := ErrSlice3Alen
		if ofSlice {
			code = ErrSlice3Acap
		}
		f.checkLE(max, capacity, code, unsigned(in.Max))
		f.checkLE(hi, max, ErrSlice3B, unsigned(in.High))
		if in.Low != nil {
			f.checkLE(lo, hi, ErrSlice3C, unsigned(in.Low))
		}
		return
	}
	if in.High != nil {
		code := ErrSliceAlen
		if ofSlice {
			code = ErrSliceAcap
		}
		f.checkLE(hi, capacity, code, unsigned(in.High))
	}
	if in.Low != nil {
		f.checkLE(lo, hi, ErrSliceB, unsigned(in.Low))
	}
}

// sub64 returns a - b as a fresh register (or an immediate when both are).
func (f *fnState) sub64(a, b string) string {
	if b == "0" && isImmediate(a) {
		return a
	}
	r := f.p.NewReg(ptx.B64).String()
	if b == "0" {
		f.p.Emit("mov.b64", r, a)
		return r
	}
	f.p.Emit("sub.s64", r, a, b)
	return r
}

// copySlices lowers copy(dst, src): n = min(len(dst), len(src)) elements,
// leaf by leaf, front to back, or back to front when dst lies above src so
// that overlapping slices of one array copy as Go's memmove does.
func (f *fnState) copySlices(in *ssa.Call) {
	dv, sv := in.Call.Args[0], in.Call.Args[1]
	st, ok := sv.Type().Underlying().(*types.Slice)
	if !ok || !isSlice(dv.Type()) {
		f.errorf("copy from a string is not supported in kernels (strings are not); copy from a slice")
	}
	elem := st.Elem()
	ls, err := leaves(elem)
	if err != nil {
		f.errorf("%v", err)
	}
	offs := leafOffsets(elem)
	size := sizes.Sizeof(elem)
	d, s := f.get(dv), f.get(sv)
	dsp, ssp := f.spaceOf(dv), f.spaceOf(sv)
	dptr, sptr := regOr(f, d[0], sPtr), regOr(f, s[0], sPtr)
	n := f.p.NewReg(ptx.B64).String()
	f.p.Emit("min.s64", n, regOr(f, d[1], sI64), s[1])

	done, loop := f.newLabel("copydone"), f.newLabel("copy")
	p := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.le.s64", p, n, "0")
	f.p.EmitIf(p, "bra", done)
	// Direction: pointers into different state spaces cannot overlap;
	// a generic pointer is compared with the other one made generic.
	da, sa := dptr, sptr
	switch {
	case dsp == ssp:
	case dsp == spaceGeneric && ssp != spaceNone:
		sa = f.toGeneric(sptr, ssp)
	case ssp == spaceGeneric && dsp != spaceNone:
		da = f.toGeneric(dptr, dsp)
	}
	back := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.gt.u64", back, da, sa)
	off, step, cnt := f.p.NewReg(ptx.B64).String(), f.p.NewReg(ptx.B64).String(), f.p.NewReg(ptx.B64).String()
	f.p.Emit("mov.b64", off, "0")
	f.p.Emit("mov.b64", step, fmt.Sprint(size))
	f.p.Emit("mov.b64", cnt, n)
	f.p.EmitIf(back, "mad.lo.s64", off, n, fmt.Sprint(size), fmt.Sprint(-size))
	f.p.EmitIf(back, "mov.b64", step, fmt.Sprint(-size))
	f.p.Label(loop)
	from, to := f.p.NewReg(ptx.B64).String(), f.p.NewReg(ptx.B64).String()
	f.p.Emit("add.s64", from, sptr, off)
	f.p.Emit("add.s64", to, dptr, off)
	for i, l := range ls {
		v := f.loadScalar(l, ssp, from, offs[i])
		f.storeScalar(l, dsp, to, offs[i], v)
	}
	f.p.Emit("add.s64", off, off, step)
	f.p.Emit("sub.s64", cnt, cnt, "1")
	f.p.Emit("setp.gt.s64", p, cnt, "0")
	f.p.EmitIf(p, "bra", loop)
	f.p.Label(done)
	f.bind(in, []string{n})
}

// clearSlice lowers clear(s): every element's bytes set to zero.
func (f *fnState) clearSlice(in *ssa.Call) {
	sv := in.Call.Args[0]
	st, ok := sv.Type().Underlying().(*types.Slice)
	if !ok {
		f.errorf("clear of %s is not supported in kernels; clear a slice", sv.Type())
	}
	elem := st.Elem()
	ls, err := leaves(elem)
	if err != nil {
		f.errorf("%v", err)
	}
	offs := leafOffsets(elem)
	size := sizes.Sizeof(elem)
	s := f.get(sv)
	sp := f.spaceOf(sv)
	ptr := regOr(f, s[0], sPtr)
	done, loop := f.newLabel("cleardone"), f.newLabel("clear")
	p := f.p.NewReg(ptx.Pred).String()
	cur, end := f.p.NewReg(ptx.B64).String(), f.p.NewReg(ptx.B64).String()
	f.p.Emit("setp.le.s64", p, regOr(f, s[1], sI64), "0")
	f.p.EmitIf(p, "bra", done)
	f.p.Emit("mov.b64", cur, ptr)
	f.p.Emit("mad.lo.s64", end, regOr(f, s[1], sI64), fmt.Sprint(size), ptr)
	f.p.Label(loop)
	for i, l := range ls {
		typ := map[int]string{1: ".u8", 2: ".u16", 4: ".u32", 8: ".u64"}[l.size()]
		f.p.Emit("st"+sp.suffix()+typ, addr(cur, offs[i]), "0")
	}
	f.p.Emit("add.s64", cur, cur, fmt.Sprint(size))
	f.p.Emit("setp.lt.u64", p, cur, end)
	f.p.EmitIf(p, "bra", loop)
	f.p.Label(done)
}
