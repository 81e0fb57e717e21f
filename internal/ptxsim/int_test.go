package ptxsim

import (
	"math"
	"math/bits"
	"testing"
)

type integer interface {
	~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64
}

// intOps is Go's own arithmetic on T, the reference for PTX integer ops.
func intOp[T integer](op string, a, b, c T) T {
	var zero T
	minusOne := zero - 1
	signed := minusOne < 0
	switch op {
	case "add":
		return a + b
	case "sub":
		return a - b
	case "mul.lo":
		return a * b
	case "mad.lo":
		return a*b + c
	case "div":
		if b == 0 {
			if !signed {
				return ^zero
			}
			if a < 0 {
				return 1
			}
			return minusOne
		}
		return a / b // Go: MinInt / -1 == MinInt, like PTX
	case "rem":
		if b == 0 {
			return a
		}
		return a % b
	case "min":
		return min(a, b)
	case "max":
		return max(a, b)
	case "abs":
		if a < 0 {
			return -a
		}
		return a
	case "neg":
		return -a
	}
	panic(op)
}

func bitsOf[T integer](v T) uint64 {
	var zero T
	switch any(zero).(type) {
	case int16, uint16:
		return uint64(v) & 0xffff
	case int32, uint32:
		return uint64(v) & 0xffffffff
	}
	return uint64(v)
}

func checkIntFamily[T integer](t *testing.T, suffix string, w int) {
	cast := func(v uint64) T { return T(v) } // truncating conversion of register bits
	sign := func(v uint64) T {
		var zero T
		if zero-1 < 0 {
			return T(sext(v, w))
		}
		return T(v)
	}
	_ = cast
	vals := intEdges(w)
	for _, op := range []string{"add", "sub", "mul.lo", "div", "rem", "min", "max"} {
		if (op == "div" || op == "rem") && false {
			continue
		}
		c := opCase{inst: op + "." + suffix, srcW: []int{w, w}, dstW: w}
		c.check(t, pairs(vals, vals), func(v []uint64) uint64 { return bitsOf(intOp(op, sign(v[0]), sign(v[1]), 0)) })
	}
	c := opCase{inst: "mad.lo." + suffix, srcW: []int{w, w, w}, dstW: w}
	small := vals[:8]
	c.check(t, triples(small, small, small), func(v []uint64) uint64 {
		return bitsOf(intOp("mad.lo", sign(v[0]), sign(v[1]), sign(v[2])))
	})
	if suffix[0] == 's' {
		for _, op := range []string{"abs", "neg"} {
			c := opCase{inst: op + "." + suffix, srcW: []int{w}, dstW: w}
			var vv [][]uint64
			for _, x := range vals {
				vv = append(vv, []uint64{x})
			}
			c.check(t, vv, func(v []uint64) uint64 { return bitsOf(intOp(op, sign(v[0]), 0, 0)) })
		}
	}
}

func TestIntegerArithmetic(t *testing.T) {
	checkIntFamily[int16](t, "s16", 16)
	checkIntFamily[uint16](t, "u16", 16)
	checkIntFamily[int32](t, "s32", 32)
	checkIntFamily[uint32](t, "u32", 32)
	checkIntFamily[int64](t, "s64", 64)
	checkIntFamily[uint64](t, "u64", 64)
}

func TestMulHiWide(t *testing.T) {
	for _, w := range []int{16, 32, 64} {
		vals := intEdges(w)
		for _, signed := range []bool{false, true} {
			s := "u"
			if signed {
				s = "s"
			}
			ty := s + itoa(w)
			hi := func(a, b uint64) uint64 {
				if w == 64 {
					if signed {
						h, _ := bits.Mul64(a, b)
						if int64(a) < 0 {
							h -= b
						}
						if int64(b) < 0 {
							h -= a
						}
						return h
					}
					h, _ := bits.Mul64(a, b)
					return h
				}
				if signed {
					return uint64(sext(a, w)*sext(b, w)) >> uint(w)
				}
				return a * b >> uint(w)
			}
			opCase{inst: "mul.hi." + ty, srcW: []int{w, w}, dstW: w}.check(t, pairs(vals, vals), func(v []uint64) uint64 { return hi(v[0], v[1]) })
			opCase{inst: "mad.hi." + ty, srcW: []int{w, w, w}, dstW: w}.check(t, triples(vals[:6], vals[:6], vals[:4]), func(v []uint64) uint64 { return hi(v[0], v[1]) + v[2] })
			if w < 64 {
				wide := func(a, b uint64) uint64 {
					if signed {
						return uint64(sext(a, w) * sext(b, w))
					}
					return a * b
				}
				opCase{inst: "mul.wide." + ty, srcW: []int{w, w}, dstW: 2 * w}.check(t, pairs(vals, vals), func(v []uint64) uint64 { return wide(v[0], v[1]) })
				opCase{inst: "mad.wide." + ty, srcW: []int{w, w, 2 * w}, dstW: 2 * w}.check(t, triples(vals[:6], vals[:6], intEdges(2 * w)[:4]), func(v []uint64) uint64 { return wide(v[0], v[1]) + v[2] })
			}
		}
	}
	vals := intEdges(32)
	opCase{inst: "add.sat.s32", srcW: []int{32, 32}, dstW: 32}.check(t, pairs(vals, vals), func(v []uint64) uint64 {
		return uint64(uint32(satS32Ref(int64(int32(v[0])) + int64(int32(v[1])))))
	})
	opCase{inst: "sub.sat.s32", srcW: []int{32, 32}, dstW: 32}.check(t, pairs(vals, vals), func(v []uint64) uint64 {
		return uint64(uint32(satS32Ref(int64(int32(v[0])) - int64(int32(v[1])))))
	})
	opCase{inst: "mul24.lo.u32", srcW: []int{32, 32}, dstW: 32}.check(t, pairs(vals, vals), func(v []uint64) uint64 {
		return uint64(uint32((v[0] & 0xffffff) * (v[1] & 0xffffff)))
	})
	opCase{inst: "mul24.hi.s32", srcW: []int{32, 32}, dstW: 32}.check(t, pairs(vals, vals), func(v []uint64) uint64 {
		return uint64(uint32(sext(v[0], 24) * sext(v[1], 24) >> 16))
	})
	opCase{inst: "sad.s32", srcW: []int{32, 32, 32}, dstW: 32}.check(t, triples(vals[:8], vals[:8], vals[:3]), func(v []uint64) uint64 {
		a, b := int64(int32(v[0])), int64(int32(v[1]))
		d := a - b
		if d < 0 {
			d = -d
		}
		return uint64(uint32(uint64(d) + v[2]))
	})
}

func satS32Ref(v int64) int32 {
	return int32(max(math.MinInt32, min(math.MaxInt32, v)))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func TestBitOps(t *testing.T) {
	for _, w := range []int{16, 32, 64} {
		vals := intEdges(w)
		m := maskOf(w)
		b := "b" + itoa(w)
		opCase{inst: "and." + b, srcW: []int{w, w}, dstW: w}.check(t, pairs(vals, vals), func(v []uint64) uint64 { return v[0] & v[1] })
		opCase{inst: "or." + b, srcW: []int{w, w}, dstW: w}.check(t, pairs(vals, vals), func(v []uint64) uint64 { return v[0] | v[1] })
		opCase{inst: "xor." + b, srcW: []int{w, w}, dstW: w}.check(t, pairs(vals, vals), func(v []uint64) uint64 { return v[0] ^ v[1] })
		var singles [][]uint64
		for _, x := range vals {
			singles = append(singles, []uint64{x})
		}
		opCase{inst: "not." + b, srcW: []int{w}, dstW: w}.check(t, singles, func(v []uint64) uint64 { return ^v[0] & m })
		opCase{inst: "cnot." + b, srcW: []int{w}, dstW: w}.check(t, singles, func(v []uint64) uint64 { return b2u(v[0] == 0) })
		var shifts []uint64
		for s := uint64(0); s <= uint64(w)+3; s++ {
			shifts = append(shifts, s)
		}
		shifts = append(shifts, 1000, 0xffffffff)
		// Go's shifts do what PTX specifies: amounts >= width give 0 (or the sign).
		opCase{inst: "shl." + b, srcW: []int{w, 32}, dstW: w}.check(t, pairs(vals, shifts), func(v []uint64) uint64 {
			return v[0] << v[1] & m
		})
		opCase{inst: "shr.u" + itoa(w), srcW: []int{w, 32}, dstW: w}.check(t, pairs(vals, shifts), func(v []uint64) uint64 {
			return v[0] >> v[1]
		})
		opCase{inst: "shr.s" + itoa(w), srcW: []int{w, 32}, dstW: w}.check(t, pairs(vals, shifts), func(v []uint64) uint64 {
			return uint64(sext(v[0], w)>>v[1]) & m
		})
		if w >= 32 {
			opCase{inst: "clz." + b, srcW: []int{w}, dstW: 32}.check(t, singles, func(v []uint64) uint64 { return uint64(bits.LeadingZeros64(v[0]) - (64 - w)) })
			opCase{inst: "popc." + b, srcW: []int{w}, dstW: 32}.check(t, singles, func(v []uint64) uint64 { return uint64(bits.OnesCount64(v[0])) })
			opCase{inst: "brev." + b, srcW: []int{w}, dstW: w}.check(t, singles, func(v []uint64) uint64 { return bits.Reverse64(v[0]) >> uint(64-w) })
			var bf [][]uint64
			for _, x := range vals[:8] {
				for _, pos := range []uint64{0, 1, 4, uint64(w) - 1, uint64(w), 300} {
					for _, ln := range []uint64{0, 1, 3, 8, uint64(w), 256 + 2} {
						bf = append(bf, []uint64{x, pos, ln})
					}
				}
			}
			ref := func(v []uint64, signed bool) uint64 {
				// bit field extract by the definition: bits pos.. of a, len bits, extended
				pos, ln := int(v[1]&0xff), int(v[2]&0xff)
				var r uint64
				for i := 0; i < ln && i < w; i++ {
					if pos+i < w {
						r |= (v[0] >> uint(pos+i) & 1) << uint(i)
					} else if signed {
						r |= (v[0] >> uint(w-1) & 1) << uint(i)
					}
				}
				if signed && ln > 0 && ln < w {
					r = uint64(sext(r, ln)) & m
				}
				return r
			}
			opCase{inst: "bfe.u" + itoa(w), srcW: []int{w, 32, 32}, dstW: w}.check(t, bf, func(v []uint64) uint64 { return ref(v, false) })
			opCase{inst: "bfe.s" + itoa(w), srcW: []int{w, 32, 32}, dstW: w}.check(t, bf, func(v []uint64) uint64 { return ref(v, true) })
			var bi [][]uint64
			for _, pos := range []uint64{0, 3, uint64(w) - 2, uint64(w) + 1} {
				for _, ln := range []uint64{0, 1, 5, uint64(w)} {
					bi = append(bi, []uint64{0xffffffffffffffff & m, 0x1234567890abcdef & m, pos, ln}, []uint64{0x5 & m, m, pos, ln})
				}
			}
			opCase{inst: "bfi." + b, srcW: []int{w, w, 32, 32}, dstW: w}.check(t, bi, func(v []uint64) uint64 {
				pos, ln := v[2]&0xff, v[3]&0xff
				r := v[1]
				for i := uint64(0); i < ln && pos+i < uint64(w); i++ {
					r = r&^(1<<(pos+i)) | (v[0]>>i&1)<<(pos+i)
				}
				return r
			})
		}
	}
	opCase{inst: "prmt.b32", srcW: []int{32, 32, 32}, dstW: 32}.check(t, [][]uint64{{0x44332211, 0x88776655, 0x3210}, {0x44332211, 0x88776655, 0x7654}, {0x44332211, 0x88776655, 0x0404}, {0x44332211, 0x88776655, 0x8f}},
		func(v []uint64) uint64 {
			bytes := []byte{byte(v[0]), byte(v[0] >> 8), byte(v[0] >> 16), byte(v[0] >> 24), byte(v[1]), byte(v[1] >> 8), byte(v[1] >> 16), byte(v[1] >> 24)}
			var r uint64
			for i := 0; i < 4; i++ {
				sel := v[2] >> (4 * uint(i)) & 0xf
				b := bytes[sel&7]
				if sel&8 != 0 {
					b = byte(int8(b) >> 7)
				}
				r |= uint64(b) << (8 * uint(i))
			}
			return r
		})
}
