package ptxsim

import (
	"math"
	"testing"
)

var cmpOps = []string{"eq", "ne", "lt", "le", "gt", "ge"}

func goCmp[T int16 | uint16 | int32 | uint32 | int64 | uint64 | float32 | float64](op string, a, b T) bool {
	switch op {
	case "eq":
		return a == b
	case "ne":
		return a != b
	case "lt", "lo":
		return a < b
	case "le", "ls":
		return a <= b
	case "gt", "hi":
		return a > b
	case "ge", "hs":
		return a >= b
	}
	panic(op)
}

func TestSetpInteger(t *testing.T) {
	for _, w := range []int{16, 32, 64} {
		vals := intEdges(w)
		vv := pairs(vals, vals)
		for _, op := range append(cmpOps, "lo", "ls", "hi", "hs") {
			op := op
			opCase{inst: "setp." + op + ".s" + itoa(w), srcW: []int{w, w}, dstW: 1}.check(t, vv, func(v []uint64) uint64 {
				if op[0] == 'l' && op != "lt" && op != "le" || op[0] == 'h' {
					return b2u(goCmp(op, v[0], v[1])) // unsigned comparisons of register bits
				}
				return b2u(goCmp(op, sext(v[0], w), sext(v[1], w)))
			})
			opCase{inst: "setp." + op + ".u" + itoa(w), srcW: []int{w, w}, dstW: 1}.check(t, vv, func(v []uint64) uint64 {
				return b2u(goCmp(op, v[0], v[1]))
			})
		}
	}
	// combining with a predicate, and the p|q form
	vals := intEdges(32)
	var vv [][]uint64
	for _, p := range pairs(vals[:6], vals[:6]) {
		vv = append(vv, append(p, 0), append(append([]uint64{}, p...), 1))
	}
	for _, bop := range []string{"and", "or", "xor"} {
		bop := bop
		comb := func(r, c bool) bool {
			switch bop {
			case "and":
				return r && c
			case "or":
				return r || c
			}
			return r != c
		}
		opCase{inst: "setp.lt." + bop + ".s32", srcW: []int{32, 32, 1}, dstW: 1}.check(t, vv, func(v []uint64) uint64 {
			return b2u(comb(int32(v[0]) < int32(v[1]), v[2] != 0))
		})
		// q = !(a cmp b) BOP c, read through the negated-source form
		src := `.version 7.8
.target sm_75
.address_size 64
.visible .entry k(.param .u32 a, .param .u32 b, .param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<2>;
	ld.param.u32 %r1, [a];
	ld.param.u32 %r2, [b];
	ld.param.u64 %rd1, [out];
	setp.ne.u32 %p3, %r2, 7;
	setp.lt.` + bop + `.s32 %p1|%p2, %r1, %r2, !%p3;
	selp.u32 %r3, 1, 0, %p1;
	selp.u32 %r4, 1, 0, %p2;
	st.global.u32 [%rd1], %r3;
	st.global.u32 [%rd1+4], %r4;
	ret;
}`
		for _, ab := range [][2]int32{{1, 2}, {2, 1}, {3, 7}, {9, 7}} {
			out := runScalar(t, src, "k", 8, uint32(ab[0]), uint32(ab[1]))
			c := ab[1] == 7
			r := ab[0] < ab[1]
			if got, want := u32at(out, 0), b2u(comb(r, c)); uint64(got) != want {
				t.Errorf("setp.lt.%s p for %v = %d, want %d", bop, ab, got, want)
			}
			if got, want := u32at(out, 4), b2u(comb(!r, c)); uint64(got) != want {
				t.Errorf("setp.lt.%s q for %v = %d, want %d", bop, ab, got, want)
			}
		}
	}
}

func TestSetpFloat(t *testing.T) {
	unordered := func(op string, a, b float64) bool {
		nan := a != a || b != b
		switch op {
		case "equ", "neu", "ltu", "leu", "gtu", "geu":
			return nan || goCmp(op[:2], a, b)
		case "num":
			return !nan
		case "nan":
			return nan
		}
		if op == "ne" {
			return !nan && a != b
		}
		return goCmp(op, a, b)
	}
	ops := append(cmpOps, "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan")
	var v32, v64 [][]uint64
	for _, a := range f32Specials {
		for _, b := range f32Specials {
			v32 = append(v32, []uint64{f32b(a), f32b(b)})
		}
	}
	for _, a := range f64Specials {
		for _, b := range f64Specials {
			v64 = append(v64, []uint64{f64b(a), f64b(b)})
		}
	}
	for _, op := range ops {
		op := op
		opCase{inst: "setp." + op + ".f32", srcW: []int{32, 32}, dstW: 1}.check(t, v32, func(v []uint64) uint64 {
			return b2u(unordered(op, float64(math.Float32frombits(uint32(v[0]))), float64(math.Float32frombits(uint32(v[1])))))
		})
		opCase{inst: "setp." + op + ".f64", srcW: []int{64, 64}, dstW: 1}.check(t, v64, func(v []uint64) uint64 {
			return b2u(unordered(op, math.Float64frombits(v[0]), math.Float64frombits(v[1])))
		})
	}
	// .ftz flushes subnormal operands: 1e-40 == 0
	opCase{inst: "setp.eq.ftz.f32", srcW: []int{32, 32}, dstW: 1}.check(t, [][]uint64{{f32b(1e-40), 0}, {f32b(1e-30), 0}},
		func(v []uint64) uint64 { return b2u(math.Float32frombits(uint32(v[0])) < 0x1p-126) })
}

func TestSelpSet(t *testing.T) {
	vals := intEdges(64)
	var vv [][]uint64
	for _, p := range pairs(vals[:5], vals[5:10]) {
		vv = append(vv, append(p, 0), append(append([]uint64{}, p...), 1))
	}
	opCase{inst: "selp.b64", srcW: []int{64, 64, 1}, dstW: 64}.check(t, vv, func(v []uint64) uint64 {
		if v[2] != 0 {
			return v[0]
		}
		return v[1]
	})
	v32 := intEdges(32)
	opCase{inst: "set.lt.u32.s32", srcW: []int{32, 32}, dstW: 32}.check(t, pairs(v32, v32), func(v []uint64) uint64 {
		if int32(v[0]) < int32(v[1]) {
			return 0xffffffff
		}
		return 0
	})
	opCase{inst: "set.gtu.f32.f32", srcW: []int{32, 32}, dstW: 32}.check(t, [][]uint64{{f32b(2), f32b(1)}, {f32b(1), f32b(2)}, {f32b(float32(math.NaN())), f32b(1)}},
		func(v []uint64) uint64 {
			a, b := math.Float32frombits(uint32(v[0])), math.Float32frombits(uint32(v[1]))
			if a > b || a != a {
				return f32b(1)
			}
			return 0
		})
	opCase{inst: "slct.s32.s32", srcW: []int{32, 32, 32}, dstW: 32}.check(t, [][]uint64{{1, 2, 0}, {1, 2, 0x80000000}, {1, 2, 5}},
		func(v []uint64) uint64 {
			if int32(v[2]) >= 0 {
				return v[0]
			}
			return v[1]
		})
}
