package devmath

import (
	"math"
	"math/rand"
	"testing"
)

// gammaExactBound is the largest error, in ulp against the correctly
// rounded value, Gamma and Lgamma may show on testdata/refgamma.txt.gz
// (as in doc.go's table).
// Where lgamma(x < -5) is within 2**-10 of a zero (|Gamma(x)| = 1) Lgamma's
// error is bounded in absolute terms instead, by lgammaZeroAbs; the zeros
// in (-5, -2) have Taylor series of their own and keep the relative bound
// (TestWindowsExact).
var gammaExactBound = map[string]float64{"Gamma": 1, "Lgamma": 3}

const lgammaZeroAbs = 0x1p-56

func TestGammaExact(t *testing.T) {
	worst := map[string]float64{}
	at := map[string]float64{}
	count := map[string]int{}
	for _, l := range readRefFile(t, "testdata/refgamma.txt.gz") {
		x := l.args[0]
		var got, want float64
		switch l.name {
		case "Gamma":
			got, want = Gamma(x), l.want
		case "Lgamma":
			var sign int
			got, sign = Lgamma(x)
			want = l.args[1]
			if float64(sign) != l.want {
				t.Errorf("Lgamma(%v): sign %d, want %v", x, sign, l.want)
			}
		default:
			t.Fatalf("unknown function %s", l.name)
		}
		count[l.name]++
		if l.name == "Lgamma" && x < -5 && math.Abs(want) < 0x1p-10 {
			if e := math.Abs(got - want); !(e <= lgammaZeroAbs) {
				t.Errorf("Lgamma(%v) = %v, exact %v: error %g above %g", x, got, want, e, lgammaZeroAbs)
			}
			continue
		}
		if d := ulpDist(got, want); d > worst[l.name] {
			worst[l.name], at[l.name] = d, x
		}
	}
	for name, b := range gammaExactBound {
		if count[name] < 2000 {
			t.Errorf("%s: only %d reference points", name, count[name])
		}
		t.Logf("%-6s %5d points, max %.0f ulp from exact at %v", name, count[name], worst[name], at[name])
		if !(worst[name] <= b) {
			t.Errorf("%s: %v ulp from the exact value at %v; bound %v", name, worst[name], at[name], b)
		}
	}
}

// gammaSweep draws n points of one of the sweep domains of TestGammaSweep.
func gammaSweep(r *rand.Rand, kind int) float64 {
	switch kind {
	case 0: // ordinary positive arguments
		return r.Float64() * 171
	case 1: // log-spaced positive magnitudes, tiny to overflow
		return math.Exp(r.Float64()*(math.Log(171.6)-math.Log(1e-300)) + math.Log(1e-300))
	case 2: // negative arguments, away from Go's inaccurate lgamma zeros
		return -r.Float64() * 170
	case 3: // near the poles
		return -float64(r.Intn(170)+1) + (r.Float64()-0.5)*math.Ldexp(1, -r.Intn(40)-2)
	case 4: // near 1 and 2
		return float64(r.Intn(2)+1) + (r.Float64()-0.5)*math.Ldexp(1, -r.Intn(50))
	}
	return 0
}

// TestGammaSweep compares with Go's math on 10**5 points per function. Go's
// own Gamma is several ulp off for large arguments, and its Lgamma loses
// relative accuracy near the zeros of lgamma for x < 0 (where |Gamma| = 1)
// and is wrong for subnormal arguments; those are excluded here and covered
// by TestGammaExact against mpmath.
func TestGammaSweep(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	var wg, wl float64
	var ag, al float64
	for i := 0; i < 100000; i++ {
		x := gammaSweep(r, i%5)
		if d := ulpDist(Gamma(x), math.Gamma(x)); d > wg && !math.IsNaN(d) {
			wg, ag = d, x
		}
		l, s := Lgamma(x)
		lw, sw := math.Lgamma(x)
		if s != sw {
			t.Errorf("Lgamma(%v) sign %d, Go %d", x, s, sw)
		}
		if x < 0 && math.Abs(lw) < 0.5 {
			continue // near a zero of lgamma(x < 0): Go's cancels
		}
		if d := ulpDist(l, lw); d > wl {
			wl, al = d, x
		}
	}
	t.Logf("Gamma: max %.0f ulp from Go at %v; Lgamma: max %.0f ulp from Go at %v", wg, ag, wl, al)
	if wg > gammaGoBound || wl > lgammaGoBound {
		t.Errorf("Gamma %v ulp (at %v), Lgamma %v ulp (at %v) from Go; bounds %v, %v", wg, ag, wl, al, gammaGoBound, lgammaGoBound)
	}
}

// gammaGoBound and lgammaGoBound are the distances from Go's math measured
// on the sweep: Go's errors, not devmath's (Gamma(128.26...) is 102 ulp off
// in Go, Lgamma(1.19...) 328 ulp; devmath's are the correctly rounded values).
const (
	gammaGoBound  = 128
	lgammaGoBound = 400
)

func TestGammaSpecialValues(t *testing.T) {
	xs := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 0, math.Copysign(0, -1),
		-1, -2, -3, -170, -171, -1e10, -0x1p52, -0x1p52 - 2, -0x1p53, -1e300, -math.MaxFloat64,
		1, 2, 3, 171, 171.62, 171.63, 172, 1e10, 1e300, math.MaxFloat64,
		5e-324, -5e-324, 1e-308, -1e-308, 5e-309, 6e-309, -5e-309,
		-200.5, -201.5, -1e5 - 0.5, -1e15 - 0.5, -0x1p51 - 0.5, -0.5, 0.5}
	for _, x := range xs {
		g, w := Gamma(x), math.Gamma(x)
		if g != g || w != w || math.IsInf(w, 0) || w == 0 || g == 0 || math.IsInf(g, 0) {
			if !(g != g && w != w) && math.Float64bits(g) != math.Float64bits(w) {
				t.Errorf("Gamma(%v) = %v, Go %v", x, g, w)
			}
		}
		l, s := Lgamma(x)
		lw, sw := math.Lgamma(x)
		if l != l || lw != lw || math.IsInf(l, 0) || math.IsInf(lw, 0) {
			if !(l != l && lw != lw) && (l != lw || s != sw) {
				t.Errorf("Lgamma(%v) = %v, %d; Go %v, %d", x, l, s, lw, sw)
			}
		}
	}
	// Where Go's generic code is right, the integers are exact factorials.
	f := 1.0
	for n := 1; n <= 23; n++ {
		if g := Gamma(float64(n)); g != f {
			t.Errorf("Gamma(%d) = %v, want %v", n, g, f)
		}
		f *= float64(n)
	}
	if l, _ := Lgamma(1); l != 0 || math.Signbit(l) {
		t.Errorf("Lgamma(1) = %v, want +0", l)
	}
	if l, _ := Lgamma(2); l != 0 || math.Signbit(l) {
		t.Errorf("Lgamma(2) = %v, want +0", l)
	}
}

// TestGamma32 holds Gamma32 and Lgamma32 to 1 ulp of Go's float64 function
// rounded to float32 on every 4096th float32 pattern and a sweep.
func TestGamma32(t *testing.T) {
	var wg, wl float64
	check := func(x float32) {
		g, w := Gamma32(x), float32(math.Gamma(float64(x)))
		if d := ulpDist32(g, w); d > wg {
			wg = d
			if d > 1 {
				t.Errorf("Gamma32(%v) = %v, float32(Go) = %v", x, g, w)
			}
		}
		l, s := Lgamma32(x)
		lw, sw := math.Lgamma(float64(x))
		if x < 0 && math.Abs(lw) < 0.5 || math.Abs(float64(x)) < 1e-30 {
			lw, sw = Lgamma(float64(x)) // Go's cancels or errs here (TestGammaExact)
		}
		if s != sw {
			t.Errorf("Lgamma32(%v) sign %d, Go %d", x, s, sw)
		}
		if d := ulpDist32(l, float32(lw)); d > wl {
			wl = d
			if d > 1 {
				t.Errorf("Lgamma32(%v) = %v, float32(Go) = %v", x, l, float32(lw))
			}
		}
	}
	for b := uint64(0); b < 1<<32; b += 4096 {
		check(math.Float32frombits(uint32(b)))
	}
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 100000; i++ {
		check(float32(gammaSweep(r, i%5)))
	}
	t.Logf("Gamma32 max %.0f ulp, Lgamma32 max %.0f ulp from float32(Go)", wg, wl)
}
