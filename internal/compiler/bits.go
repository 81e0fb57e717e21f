package compiler

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// bitsCall lowers math/bits to clz, popc, brev and shifts.
func (f *fnState) bitsCall(in *ssa.Call, name string) {
	args := in.Call.Args
	base := strings.TrimRight(name, "0123456789")
	width := 64
	if n := name[len(base):]; n != "" {
		fmt.Sscan(n, &width)
	}
	if len(args) == 0 {
		f.errorf("bits.%s is not supported in kernels", name)
	}
	x := regOr(f, f.one(args[0]), f.scalar(args[0].Type()))
	w64 := width == 64
	bt := ".b32"
	if w64 {
		bt = ".b64"
	}
	toInt := func(r32 string) string {
		r := f.p.NewReg(ptx.B64).String()
		f.p.Emit("cvt.u64.u32", r, r32)
		return r
	}
	newW := func() string {
		if w64 {
			return f.p.NewReg(ptx.B64).String()
		}
		return f.p.NewReg(ptx.B32).String()
	}
	mask := func(r string) {
		if width < 32 {
			f.p.Emit("and.b32", r, r, fmt.Sprint((1<<width)-1))
		}
	}
	switch base {
	case "LeadingZeros", "Len":
		c := f.p.NewReg(ptx.B32).String()
		f.p.Emit("clz"+bt, c, x)
		if width < 32 {
			f.p.Emit("sub.s32", c, c, fmt.Sprint(32-width))
		}
		if base == "Len" {
			f.p.Emit("sub.s32", c, fmt.Sprint(width), c)
		}
		f.bind(in, []string{toInt(c)})
	case "TrailingZeros":
		t := newW()
		f.p.Emit("brev"+bt, t, x)
		c := f.p.NewReg(ptx.B32).String()
		f.p.Emit("clz"+bt, c, t)
		if width < 32 {
			f.p.Emit("min.u32", c, c, fmt.Sprint(width))
		}
		f.bind(in, []string{toInt(c)})
	case "OnesCount":
		c := f.p.NewReg(ptx.B32).String()
		f.p.Emit("popc"+bt, c, x)
		f.bind(in, []string{toInt(c)})
	case "Reverse":
		t := newW()
		f.p.Emit("brev"+bt, t, x)
		if width < 32 {
			f.p.Emit("shr.u32", t, t, fmt.Sprint(32-width))
		}
		f.bind(in, []string{t})
	case "ReverseBytes":
		t := newW()
		switch width {
		case 64:
			lo, hi := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
			f.p.Emit("mov.b64", "{"+lo+", "+hi+"}", x)
			f.p.Emit("prmt.b32", lo, lo, "0", "0x0123")
			f.p.Emit("prmt.b32", hi, hi, "0", "0x0123")
			f.p.Emit("mov.b64", t, "{"+hi+", "+lo+"}")
		case 32:
			f.p.Emit("prmt.b32", t, x, "0", "0x0123")
		case 16:
			f.p.Emit("prmt.b32", t, x, "0", "0x4401")
		default:
			f.errorf("bits.%s is not supported in kernels", name)
		}
		f.bind(in, []string{t})
	case "RotateLeft":
		k := regOr(f, f.one(args[1]), sI64)
		s := f.p.NewReg(ptx.B32).String()
		f.p.Emit("cvt.u32.u64", s, k)
		f.p.Emit("and.b32", s, s, fmt.Sprint(width-1))
		rs := f.p.NewReg(ptx.B32).String()
		f.p.Emit("sub.s32", rs, fmt.Sprint(width), s)
		a, b, r := newW(), newW(), newW()
		f.p.Emit("shl"+bt, a, x, s)
		if w64 {
			f.p.Emit("shr.u64", b, x, rs)
		} else {
			f.p.Emit("shr.u32", b, x, rs)
		}
		f.p.Emit("or"+bt, r, a, b)
		mask(r)
		f.bind(in, []string{r})
	case "Mul":
		if width != 64 && width != 32 {
			f.errorf("bits.%s is not supported in kernels", name)
		}
		y := f.one(args[1])
		hi, lo := newW(), newW()
		f.p.Emit("mul.hi.u"+bt[2:], hi, x, y)
		f.p.Emit("mul.lo.u"+bt[2:], lo, x, y)
		f.bind(in, []string{hi, lo})
	case "Add", "Sub":
		if width != 64 && width != 32 {
			f.errorf("bits.%s is not supported in kernels", name)
		}
		y := regOr(f, f.one(args[1]), f.scalar(args[1].Type()))
		c := f.one(args[2])
		sum, t, u, carry := newW(), newW(), newW(), newW()
		ut := ".u" + bt[2:]
		sh := fmt.Sprint(width - 1)
		if base == "Add" {
			f.p.Emit("add"+ut, sum, x, y)
			f.p.Emit("add"+ut, sum, sum, c)
			// carry = ((x & y) | ((x | y) &^ sum)) >> (w-1)
			f.p.Emit("and"+bt, t, x, y)
			f.p.Emit("or"+bt, u, x, y)
			nsum := newW()
			f.p.Emit("not"+bt, nsum, sum)
			f.p.Emit("and"+bt, u, u, nsum)
		} else {
			f.p.Emit("sub"+ut, sum, x, y)
			f.p.Emit("sub"+ut, sum, sum, c)
			// borrow = ((^x & y) | (^(x ^ y) & diff)) >> (w-1)
			nx := newW()
			f.p.Emit("not"+bt, nx, x)
			f.p.Emit("and"+bt, t, nx, y)
			f.p.Emit("xor"+bt, u, x, y)
			f.p.Emit("not"+bt, u, u)
			f.p.Emit("and"+bt, u, u, sum)
		}
		f.p.Emit("or"+bt, t, t, u)
		f.p.Emit("shr"+ut, carry, t, sh)
		f.bind(in, []string{sum, carry})
	default:
		f.errorf("bits.%s is not supported in kernels", name)
	}
}
