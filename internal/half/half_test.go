package half

import (
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"testing"
)

// positives are the finite non-negative halves in increasing order, exact.
var positives = func() []*big.Float {
	var out []*big.Float
	for h := uint16(0); h < PosInf; h++ {
		out = append(out, new(big.Float).SetFloat64(float64(ToFloat32(h))))
	}
	return out
}()

var (
	maxHalf  = new(big.Float).SetFloat64(65504)
	overflow = new(big.Float).SetFloat64(65520)
)

// refRound rounds an exact value to half, ties to even, independently of
// FromFloat64: a search of the sorted finite halves.
func refRound(x *big.Float) uint16 {
	var sign uint16
	if x.Signbit() {
		sign = signBit
		x = new(big.Float).Neg(x)
	}
	if x.Cmp(overflow) >= 0 {
		return sign | PosInf
	}
	if x.Cmp(maxHalf) >= 0 {
		return sign | 0x7BFF
	}
	// first index with value > x
	i := sort.Search(len(positives), func(i int) bool { return positives[i].Cmp(x) > 0 })
	lo := uint16(i - 1)
	dlo := new(big.Float).Sub(x, positives[lo])
	dhi := new(big.Float).Sub(positives[lo+1], x)
	switch c := dlo.Cmp(dhi); {
	case c < 0:
		return sign | lo
	case c > 0:
		return sign | (lo + 1)
	}
	if lo&1 == 0 {
		return sign | lo
	}
	return sign | (lo + 1)
}

func exact(x float64) *big.Float { return new(big.Float).SetPrec(400).SetFloat64(x) }

// TestRoundTripAllBits converts every one of the 65536 bit patterns to
// float32 and back: finite values and infinities come back unchanged, NaNs
// as the canonical NaN; the float32 value agrees with math.Ldexp's.
func TestRoundTripAllBits(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := ToFloat32(h)
		exp, man := int(h>>10)&31, float64(h&0x3FF)
		var want float64
		switch exp {
		case 31:
			want = math.Inf(1)
			if man != 0 {
				want = math.NaN()
			}
		case 0:
			want = math.Ldexp(man, -24)
		default:
			want = math.Ldexp(1024+man, exp-25)
		}
		if h&signBit != 0 {
			want = -want
		}
		if want == want && (float64(f) != want || math.Signbit(float64(f)) != math.Signbit(want)) {
			t.Fatalf("ToFloat32(%#04x) = %v, want %v", h, f, want)
		}
		if want != want && math.Float32bits(f) != 0x7FFFFFFF {
			t.Fatalf("ToFloat32(%#04x) = %#x, want the canonical NaN", h, math.Float32bits(f))
		}
		back := FromFloat32(f)
		if IsNaN(h) {
			if back != NaN {
				t.Fatalf("NaN %#04x came back as %#04x", h, back)
			}
		} else if back != h {
			t.Fatalf("%#04x came back as %#04x", h, back)
		}
	}
}

// TestFromFloat32Edges checks rounding against the reference at every
// midpoint between neighbouring halves and one float32 ulp either side,
// at the overflow threshold and in the subnormal range.
func TestFromFloat32Edges(t *testing.T) {
	cases := []struct {
		x    float32
		want uint16
	}{
		{65504, 0x7BFF},
		{65519.998, 0x7BFF},
		{65520, 0x7C00},
		{-65520, 0xFC00},
		{1e10, 0x7C00},
		{float32(math.Inf(-1)), 0xFC00},
		{0x1p-24, 0x0001},
		{0x1p-25, 0x0000},                      // tie to even: 0
		{0x1.8p-24, 0x0002},                    // tie to even: 2
		{math.Nextafter32(0x1p-25, 1), 0x0001}, // just above the tie
		{-0x1p-26, 0x8000},
		{0x1p-14, 0x0400},
		{0x1.ffcp-15, 0x0400}, // largest subnormal + half ulp rounds to the smallest normal
		{1, 0x3C00},
		{1 + 0x1p-11, 0x3C00}, // tie to even
		{1 + 0x3p-11, 0x3C02}, // tie to even, upward
		{float32(math.NaN()), NaN},
		{math.Float32frombits(0xFF800001), NaN},
	}
	for _, c := range cases {
		if got := FromFloat32(c.x); got != c.want {
			t.Errorf("FromFloat32(%g) = %#04x, want %#04x", c.x, got, c.want)
		}
	}
	check := func(x float32) {
		t.Helper()
		want := refRound(exact(float64(x)))
		if got := FromFloat32(x); got != want {
			t.Fatalf("FromFloat32(%g [%#x]) = %#04x, reference %#04x", x, math.Float32bits(x), got, want)
		}
	}
	for h := uint16(0); h < 0x7BFF; h++ {
		lo, hi := ToFloat32(h), ToFloat32(h+1)
		mid := float32((float64(lo) + float64(hi)) / 2) // exact
		for _, x := range []float32{mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, 1e9), lo, -mid, -math.Nextafter32(mid, 0)} {
			check(x)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		x := math.Float32frombits(r.Uint32())
		if x != x {
			continue
		}
		check(x)
	}
}

// TestFromFloat64 checks the direct float64 rounding (no double rounding
// through float32) against the reference.
func TestFromFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	// just above a tie at float64 precision but a tie at float32's
	x := 1 + 0x1p-11 + 0x1p-40
	if got := FromFloat64(x); got != 0x3C01 {
		t.Errorf("FromFloat64(1+2^-11+2^-40) = %#04x, want 0x3c01", got)
	}
	for range 200000 {
		x := math.Ldexp(r.Float64()+0.5, r.IntN(50)-30)
		if r.IntN(2) == 0 {
			x = -x
		}
		if got, want := FromFloat64(x), refRound(exact(x)); got != want {
			t.Fatalf("FromFloat64(%g) = %#04x, reference %#04x", x, got, want)
		}
	}
}

// randHalf draws halves with the special values over-represented.
func randHalf(r *rand.Rand) uint16 {
	specials := []uint16{0, 0x8000, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x0001, 0x8001, 0x03FF, 0x0400, PosInf, NegInf, NaN, 0x7E00, 0x3555, 0x5BFF}
	if r.IntN(8) == 0 {
		return specials[r.IntN(len(specials))]
	}
	return uint16(r.Uint32())
}

// TestArithmeticCorrectlyRounded checks + - × ÷ √ and fma against exact
// big.Float arithmetic rounded by the reference.
func TestArithmeticCorrectlyRounded(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	big3 := func(h uint16) *big.Float { return exact(float64(ToFloat32(h))) }
	ops := []struct {
		name string
		fn   func(a, b, c uint16) uint16
		ref  func(a, b, c *big.Float) *big.Float
	}{
		{"Add", func(a, b, _ uint16) uint16 { return Add(a, b) }, func(a, b, _ *big.Float) *big.Float { return new(big.Float).SetPrec(400).Add(a, b) }},
		{"Sub", func(a, b, _ uint16) uint16 { return Sub(a, b) }, func(a, b, _ *big.Float) *big.Float { return new(big.Float).SetPrec(400).Sub(a, b) }},
		{"Mul", func(a, b, _ uint16) uint16 { return Mul(a, b) }, func(a, b, _ *big.Float) *big.Float { return new(big.Float).SetPrec(400).Mul(a, b) }},
		{"Div", func(a, b, _ uint16) uint16 { return Div(a, b) }, func(a, b, _ *big.Float) *big.Float { return new(big.Float).SetPrec(400).Quo(a, b) }},
		{"Sqrt", func(a, _, _ uint16) uint16 { return Sqrt(a) }, func(a, _, _ *big.Float) *big.Float { return new(big.Float).SetPrec(400).Sqrt(a) }},
		{"Fma", Fma, func(a, b, c *big.Float) *big.Float {
			p := new(big.Float).SetPrec(400).Mul(a, b)
			return p.Add(p, c)
		}},
	}
	for _, op := range ops {
		n := 0
		for range 300000 {
			a, b, c := randHalf(r), randHalf(r), randHalf(r)
			if op.name == "Fma" && r.IntN(4) == 0 {
				// c near -a×b: cancellation, the hard cases
				c = Neg(Mul(a, b)) ^ uint16(r.IntN(3))
			}
			if IsNaN(a) || IsNaN(b) || IsNaN(c) || a&0x7C00 == 0x7C00 || b&0x7C00 == 0x7C00 || c&0x7C00 == 0x7C00 {
				continue // specials: TestSpecials
			}
			if op.name == "Div" && b&0x7FFF == 0 || op.name == "Sqrt" && a&signBit != 0 && a != 0x8000 {
				continue
			}
			got := op.fn(a, b, c)
			e := op.ref(big3(a), big3(b), big3(c))
			want := refRound(e)
			if e.Sign() == 0 {
				// exact zero: sign by IEEE rules, checked in TestSpecials
				got &^= signBit
				want &^= signBit
			}
			if got != want {
				t.Fatalf("%s(%#04x, %#04x, %#04x) = %#04x, reference %#04x", op.name, a, b, c, got, want)
			}
			n++
		}
		if n < 100000 {
			t.Errorf("%s: only %d cases checked", op.name, n)
		}
	}
}

// TestSpecials checks infinities, NaNs (canonical), signed zeros, min/max
// and the ordered comparisons.
func TestSpecials(t *testing.T) {
	const (
		one, mone, zero, mzero, two = 0x3C00, 0xBC00, 0x0000, 0x8000, 0x4000
		nan2                        = 0x7D01 // a NaN with a payload
	)
	cases := []struct {
		name string
		got  uint16
		want uint16
	}{
		{"inf-inf", Sub(PosInf, PosInf), NaN},
		{"0*inf", Mul(zero, PosInf), NaN},
		{"nan+1", Add(nan2, one), NaN},
		{"1/0", Div(one, zero), PosInf},
		{"1/-0", Div(one, mzero), NegInf},
		{"0/0", Div(zero, zero), NaN},
		{"sqrt(-1)", Sqrt(mone), NaN},
		{"sqrt(-0)", Sqrt(mzero), mzero},
		{"-0 + -0", Add(mzero, mzero), mzero},
		{"-0 + 0", Add(mzero, zero), zero},
		{"1 - 1", Sub(one, one), zero},
		{"fma(-0,1,-0)", Fma(mzero, one, mzero), mzero},
		{"fma(1,1,-1)", Fma(one, one, mone), zero},
		{"fma(inf,0,1)", Fma(PosInf, zero, one), NaN},
		{"fma(max,2,-inf)", Fma(0x7BFF, two, NegInf), NegInf},
		{"fma overflow", Fma(0x7BFF, two, mone), PosInf},
		{"65504+16", Add(0x7BFF, 0x4C00), PosInf},
		{"neg nan", Neg(nan2), nan2 | signBit},
		{"abs -nan", Abs(nan2 | signBit), nan2},
		{"min(nan,1)", Min(nan2, one), one},
		{"max(1,nan)", Max(one, nan2), one},
		{"max(nan,nan)", Max(nan2, nan2), NaN},
		{"min(0,-0)", Min(zero, mzero), mzero},
		{"max(-0,0)", Max(mzero, zero), zero},
		{"min(-1,1)", Min(mone, one), mone},
		{"max(-inf,1)", Max(NegInf, one), one},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %#04x, want %#04x", c.name, c.got, c.want)
		}
	}
	cmps := []struct {
		op   int
		a, b uint16
		want bool
	}{
		{EQ, zero, mzero, true},
		{NE, zero, mzero, false},
		{EQ, nan2, nan2, false},
		{NE, nan2, one, false}, // ordered, as CUDA's __hne
		{LT, mone, one, true},
		{LE, one, one, true},
		{GT, PosInf, 0x7BFF, true},
		{GE, NegInf, one, false},
		{LT, nan2, one, false},
		{GE, one, nan2, false},
	}
	for _, c := range cmps {
		if got := Compare(c.op, c.a, c.b); got != c.want {
			t.Errorf("Compare(%d, %#04x, %#04x) = %v, want %v", c.op, c.a, c.b, got, c.want)
		}
	}
}
