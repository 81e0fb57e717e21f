package compiler

import (
	"go/token"
	"go/types"
	"math"
	"math/rand"
	"testing"
)

// evalOp computes x op y in type t with Go's semantics (wrapping, shifts
// past the width), the operands given as int64 holding values of t.
func evalOp(op token.Token, x, y int64, t types.Type) (int64, bool) {
	k := t.Underlying().(*types.Basic).Kind()
	wrap := func(v int64) int64 {
		switch k {
		case types.Int8:
			return int64(int8(v))
		case types.Int16:
			return int64(int16(v))
		case types.Int32:
			return int64(int32(v))
		case types.Uint8:
			return int64(uint8(v))
		case types.Uint16:
			return int64(uint16(v))
		case types.Uint32:
			return int64(uint32(v))
		}
		return v
	}
	uns := isUnsigned(t)
	switch op {
	case token.ADD:
		return wrap(x + y), true
	case token.SUB:
		return wrap(x - y), true
	case token.MUL:
		return wrap(x * y), true
	case token.QUO, token.REM:
		if y == 0 || (!uns && y == -1) {
			return 0, false
		}
		if uns {
			if op == token.QUO {
				return wrap(int64(uint64(x) / uint64(y))), true
			}
			return wrap(int64(uint64(x) % uint64(y))), true
		}
		if op == token.QUO {
			return wrap(x / y), true
		}
		return wrap(x % y), true
	case token.AND:
		return wrap(x & y), true
	case token.OR:
		return wrap(x | y), true
	case token.XOR:
		return wrap(x ^ y), true
	case token.SHL:
		if y < 0 {
			return 0, false
		}
		if y >= 64 {
			return 0, true
		}
		return wrap(x << uint(y)), true
	case token.SHR:
		if y < 0 {
			return 0, false
		}
		n := uint(min(y, 63))
		if uns {
			if y >= 64 {
				return 0, true
			}
			return wrap(int64(uint64(x) >> n)), true
		}
		return wrap(x >> n), true
	}
	return 0, false
}

// TestBinRangeSound checks every transfer function on random intervals:
// x op y for points of the operand intervals lies in the result interval.
func TestBinRangeSound(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	kinds := []types.BasicKind{types.Int, types.Int8, types.Int16, types.Int32, types.Uint8, types.Uint16, types.Uint32, types.Uint}
	ops := []token.Token{token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.SHL, token.SHR}
	edges := []int64{0, 1, -1, 2, 7, 31, 32, 63, 64, 127, 128, 255, 1 << 15, 1<<31 - 1, 1 << 31, 1 << 32, 1<<62 + 3, math.MaxInt64, math.MinInt64, -1 << 31}
	point := func(tr rng) int64 {
		switch rnd.Intn(3) {
		case 0:
			return edges[rnd.Intn(len(edges))]
		case 1:
			return rnd.Int63n(200) - 100
		}
		return rnd.Int63() >> rnd.Intn(63) * (1 - 2*int64(rnd.Intn(2)))
	}
	inType := func(v int64, tr rng, uns bool) bool { return v >= tr.lo && v <= tr.hi && (!uns || v >= 0) }
	interval := func(tr rng, uns bool) rng {
		for {
			a, b := point(tr), point(tr)
			if a > b {
				a, b = b, a
			}
			if inType(a, tr, uns) && inType(b, tr, uns) {
				return rng{a, b}
			}
		}
	}
	sample := func(r rng) int64 {
		switch rnd.Intn(4) {
		case 0:
			return r.lo
		case 1:
			return r.hi
		}
		span := uint64(r.hi - r.lo)
		if span == math.MaxUint64 {
			return int64(rnd.Uint64())
		}
		return r.lo + int64(rnd.Uint64()%(span+1))
	}
	for _, k := range kinds {
		typ := types.Typ[k]
		tr, _ := typeRange(typ)
		uns := isUnsigned(typ)
		for _, op := range ops {
			for n := 0; n < 3000; n++ {
				x, y := interval(tr, uns), interval(tr, uns)
				if op == token.SHL || op == token.SHR {
					y = rng{rnd.Int63n(70), 0}
					y.hi = y.lo + rnd.Int63n(10)
				}
				got := binRange(op, x, y, typ)
				for s := 0; s < 8; s++ {
					a, b := sample(x), sample(y)
					v, ok := evalOp(op, a, b, typ)
					if !ok {
						continue
					}
					if uns && k == types.Uint && v < 0 {
						if got.within(full) && got != full && got.nonNeg() {
							t.Fatalf("%s: %v %s %v = %v: %d %s %d = %d (uint64 above 2**63)", typ, x, op, y, got, a, op, b, uint64(v))
						}
						continue
					}
					if v < got.lo || v > got.hi {
						t.Fatalf("%s: %v %s %v = %v, but %d %s %d = %d", typ, x, op, y, got, a, op, b, v)
					}
				}
			}
		}
	}
}
