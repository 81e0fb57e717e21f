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
		f.checkLE(lo, hi, ErrSlice)
		f.checkLE(hi, max, ErrSlice)
		if in.Max != nil {
			f.checkLE(max, capacity, ErrSlice)
		} else if in.High != nil {
			f.checkLE(hi, capacity, ErrSlice)
		}
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
