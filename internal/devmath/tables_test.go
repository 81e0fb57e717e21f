package devmath

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// The tables come from testdata/gentables.py (mpmath); these tests
// recompute the ones math/big can check, independently.

const bigPrec = 300

func bf(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

// bigAtanh returns atanh(s) for |s| < 1/2 by its series.
func bigAtanh(s *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(bigPrec).Set(s)
	s2 := new(big.Float).SetPrec(bigPrec).Mul(s, s)
	term := new(big.Float).SetPrec(bigPrec).Set(s)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -bigPrec)
	for n := 3; ; n += 2 {
		term.Mul(term, s2)
		t := new(big.Float).SetPrec(bigPrec).Quo(term, bf(float64(n)))
		sum.Add(sum, t)
		if t.Abs(t).Cmp(eps) < 0 {
			return sum
		}
	}
}

// bigLog returns log(x) for x in [1/2, 2]: 2*atanh((x-1)/(x+1)).
func bigLog(x *big.Float) *big.Float {
	num := new(big.Float).SetPrec(bigPrec).Sub(x, bf(1))
	den := new(big.Float).SetPrec(bigPrec).Add(x, bf(1))
	r := bigAtanh(num.Quo(num, den))
	return r.Mul(r, bf(2))
}

// bigAtan returns atan(x) for 0 <= x <= 1/2 by its series.
func bigAtan(x *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(bigPrec).Set(x)
	x2 := new(big.Float).SetPrec(bigPrec).Mul(x, x)
	term := new(big.Float).SetPrec(bigPrec).Set(x)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -bigPrec)
	for n := 3; ; n += 2 {
		term.Mul(term, x2)
		term.Neg(term)
		t := new(big.Float).SetPrec(bigPrec).Quo(term, bf(float64(n)))
		sum.Add(sum, t)
		if new(big.Float).Abs(t).Cmp(eps) < 0 || x.Sign() == 0 {
			return sum
		}
	}
}

// bigPi returns pi by Machin's formula, to prec bits.
func bigPi(prec uint) *big.Float {
	at := func(inv float64) *big.Float { // atan(1/inv)
		x := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).SetInt64(1), new(big.Float).SetPrec(prec).SetFloat64(inv))
		sum := new(big.Float).SetPrec(prec).Set(x)
		x2 := new(big.Float).SetPrec(prec).Mul(x, x)
		term := new(big.Float).SetPrec(prec).Set(x)
		eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(prec)-8)
		for n := int64(3); ; n += 2 {
			term.Mul(term, x2).Neg(term)
			t := new(big.Float).SetPrec(prec).Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
			sum.Add(sum, t)
			if new(big.Float).Abs(t).Cmp(eps) < 0 {
				return sum
			}
		}
	}
	p := new(big.Float).SetPrec(prec).Mul(at(5), new(big.Float).SetPrec(prec).SetInt64(16))
	return p.Sub(p, new(big.Float).SetPrec(prec).Mul(at(239), new(big.Float).SetPrec(prec).SetInt64(4)))
}

// checkDD reports whether hi+lo rounds the big value v to double-double
// precision (|hi+lo-v| < 2**-104 |v|) with hi = v rounded.
func checkDD(t *testing.T, name string, hi, lo float64, v *big.Float) {
	t.Helper()
	if h, _ := v.Float64(); h != hi {
		t.Errorf("%s: hi %v, want %v", name, hi, h)
	}
	d := new(big.Float).SetPrec(bigPrec).Sub(v, bf(hi))
	d.Sub(d, bf(lo))
	lim := new(big.Float).SetPrec(bigPrec).Abs(v)
	lim.SetMantExp(lim, -104)
	if d.Abs(d).Cmp(lim) > 0 {
		t.Errorf("%s: hi+lo off by %v", name, d)
	}
}

func TestLogTable(t *testing.T) {
	for j := 0; j <= 128; j++ {
		want := math.Round(256/(1+float64(j)/128)) / 256
		if logC[j] != want {
			t.Errorf("logC[%d] = %v, want %v", j, logC[j], want)
		}
		v := bigLog(bf(logC[j]))
		v.Neg(v)
		checkDD(t, "logT", logTH[j], logTL[j], v)
	}
	if logTH[128] != ln2Hi || logTL[128] != ln2Lo {
		t.Errorf("logT[128] = %v + %v, want ln2Hi + ln2Lo = %v + %v", logTH[128], logTL[128], ln2Hi, ln2Lo)
	}
	checkDD(t, "ln2", ln2Hi, ln2Lo, bigLog(bf(2)))
}

// TestLogReductionExact checks that r = m*c_j - 1 is exact for the
// mantissas of each bin of logParts (its ends and random inside).
func TestLogReductionExact(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for idx := uint64(0); idx < 256; idx++ {
		j := int(idx+1) >> 1
		lo := idx << 44
		for k := 0; k < 200; k++ {
			var frac uint64
			switch k {
			case 0:
				frac = lo
			case 1:
				frac = lo | (1<<44 - 1)
			default:
				frac = lo | r.Uint64()&(1<<44-1)
			}
			m := math.Float64frombits(frac | expOneBit)
			got := math.FMA(m, logC[j], -1)
			p, pe := twoProd(m, logC[j])
			exact := new(big.Float).SetPrec(bigPrec).Sub(bf(p), bf(1))
			exact.Add(exact, bf(pe))
			if e, acc := exact.Float64(); acc != big.Exact || e != got {
				t.Fatalf("m=%v, j=%d: m*c-1 = %v is not exact (%v)", m, j, got, exact)
			}
		}
	}
}

func TestAtanTable(t *testing.T) {
	pi := bigPi(bigPrec)
	for j := 0; j <= 8; j++ {
		var v *big.Float
		switch {
		case j == 8:
			v = new(big.Float).SetPrec(bigPrec).Quo(pi, bf(4))
		case j <= 4:
			v = bigAtan(bf(float64(j) / 8))
		default:
			// atan(x) = pi/4 - atan((1-x)/(1+x))
			x := float64(j) / 8
			v = new(big.Float).SetPrec(bigPrec).Quo(pi, bf(4))
			q := new(big.Float).SetPrec(bigPrec).Quo(bf(1-x), bf(1+x))
			v.Sub(v, bigAtan(q))
		}
		checkDD(t, "atanT", atanTH[j], atanTL[j], v)
	}
	checkDD(t, "pi", piHi, piLo, pi)
}

func TestTwoOverPi(t *testing.T) {
	const bits = uint(64 * (len(twoOverPi) + 1))
	pi := bigPi(bits + 64)
	v := new(big.Float).SetPrec(bits+64).Quo(new(big.Float).SetPrec(bits+64).SetInt64(2), pi)
	if twoOverPi[0] != 0 {
		t.Fatalf("twoOverPi[0] = %#x, want 0", twoOverPi[0])
	}
	for i := 1; i < len(twoOverPi); i++ {
		v.SetMantExp(v, 64) // shift the next 64 digits above the point
		ip, _ := v.Int(nil)
		w := ip.Uint64()
		if w != twoOverPi[i] {
			t.Fatalf("twoOverPi[%d] = %#x, want %#x", i, twoOverPi[i], w)
		}
		v.Sub(v, new(big.Float).SetPrec(bits+64).SetInt(ip))
	}
}
