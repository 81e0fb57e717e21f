package compiler

import (
	"math"
	"math/bits"
	"math/rand"
	"testing"
)

// evalDivPlan computes x / d by the plan as the emitted instructions do
// (for the tests): W-bit registers held in the low bits of a uint64.
func evalDivPlan(pl divPlan, x, d uint64, w uint, signed bool) uint64 {
	mask := uint64(1)<<(w-1)<<1 - 1
	sext := func(v uint64) int64 { return int64(v<<(64-w)) >> (64 - w) }
	x &= mask
	switch pl.kind {
	case divIdentity:
		return x
	case divNegate:
		return -x & mask
	case divIsMin:
		if x == uint64(1)<<(w-1) {
			return 1
		}
		return 0
	case divAtLeast:
		if x >= d&mask {
			return 1
		}
		return 0
	}
	if signed {
		hi := mulHiS(sext(x), sext(pl.m), w)
		t := uint64(hi)
		switch pl.add {
		case 1:
			t += x
		case -1:
			t -= x
		}
		t = uint64(sext(t&mask)>>pl.sh) & mask
		return (t + t>>(w-1)) & mask
	}
	hi, _ := bits.Mul64(x, pl.m)
	if w == 32 {
		hi = x * pl.m >> 32
	}
	if pl.add == 0 {
		return hi >> pl.sh
	}
	return (hi + (x-hi)>>1) & mask >> pl.sh
}

// mulHiS is the high W bits of the signed product a*b (W = 32 or 64).
func mulHiS(a, b int64, w uint) int64 {
	if w == 32 {
		return a * b >> 32
	}
	hi, _ := bits.Mul64(uint64(a), uint64(b))
	h := int64(hi)
	if a < 0 {
		h -= b
	}
	if b < 0 {
		h -= a
	}
	return h
}

// divDividends returns edge values and random dividends for d.
func divDividends(rnd *rand.Rand, d int64, n int) []int64 {
	xs := []int64{0, 1, -1, 2, -2, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MinInt32 - 1, math.MaxUint32,
		d, -d, d + 1, d - 1, -d + 1, -d - 1, 2 * d, 2*d - 1, -2 * d, -2*d + 1,
		math.MaxInt64 / d * d, math.MaxInt64/d*d - 1, math.MinInt64 / d * d, math.MinInt64/d*d + 1}
	for i := 0; i < n; i++ {
		xs = append(xs, int64(rnd.Uint64()), rnd.Int63n(1<<32)-1<<31, rnd.Int63n(2001)-1000, int64(rnd.Uint64())>>rnd.Intn(64))
	}
	return xs
}

// divDivisors returns the divisors the plans are checked for.
func divDivisors() []int64 {
	ds := []int64{1e9 + 7, -(1e9 + 7), 641, 1 << 31, -1 << 31, 1<<31 - 1, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1e18, -1e18,
		math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 62, -1 << 62, 3 << 61, 7 << 60}
	for d := int64(-1000); d <= 1000; d++ {
		if d != 0 {
			ds = append(ds, d)
		}
	}
	return ds
}

func TestSignedDivPlan(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for _, w := range []uint{32, 64} {
		for _, d := range divDivisors() {
			if w == 32 && int64(int32(d)) != d {
				continue
			}
			pl := signedDivPlan(d, w)
			for _, x := range divDividends(rnd, d, 40) {
				var want uint64
				if w == 32 {
					x = int64(int32(x))
					want = uint64(uint32(int32(x) / int32(d)))
				} else {
					want = uint64(x / d)
				}
				if got := evalDivPlan(pl, uint64(x), uint64(d), w, true); got != want {
					t.Fatalf("W=%d d=%d (plan %+v): x=%d gives %d, want %d", w, d, pl, x, int64(got), int64(want))
				}
			}
		}
	}
}

func TestUnsignedDivPlan(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	ds := []uint64{math.MaxUint64, math.MaxUint64 - 1, 1 << 63, 1<<63 + 1, 1<<63 - 1, 1e19, math.MaxUint32, math.MaxUint32 - 1}
	for _, d := range divDivisors() {
		ds = append(ds, uint64(d), uint64(d)&math.MaxUint32)
	}
	for _, w := range []uint{32, 64} {
		for _, d := range ds {
			if d == 0 || w == 32 && d > math.MaxUint32 {
				continue
			}
			pl := unsignedDivPlan(d, w)
			for _, x := range divDividends(rnd, int64(d), 20) {
				for _, u := range []uint64{uint64(x), math.MaxUint64 - uint64(x)} {
					want := u / d
					if w == 32 {
						u &= math.MaxUint32
						want = u / d
					}
					if got := evalDivPlan(pl, u, d, w, false); got != want {
						t.Fatalf("W=%d d=%d (plan %+v): x=%d gives %d, want %d", w, d, pl, u, got, want)
					}
				}
			}
		}
	}
	// A plan without the add for 3, with it for 7 (the textbook cases).
	for _, w := range []uint{32, 64} {
		if pl := unsignedDivPlan(3, w); pl.kind != divMagic || pl.add != 0 {
			t.Errorf("W=%d: plan for 3: %+v", w, pl)
		}
		if pl := unsignedDivPlan(7, w); pl.kind != divMagic || pl.add == 0 {
			t.Errorf("W=%d: plan for 7: %+v", w, pl)
		}
	}
}
