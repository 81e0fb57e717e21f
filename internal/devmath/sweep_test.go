package devmath

import (
	"math"
	"math/rand"
)

// ulpDist returns the distance in units in the last place between a and
// b: the number of float64 values between them. NaN matches only NaN; a
// mismatch in NaN-ness or between an infinity and a finite value is +Inf.
func ulpDist(a, b float64) float64 {
	if a != a || b != b {
		if a != a && b != b {
			return 0
		}
		return math.Inf(1)
	}
	if a == b {
		return 0
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	ia, ib := ordered(a), ordered(b)
	d := ia - ib
	if d < 0 {
		d = -d
	}
	return float64(d)
}

func ordered(x float64) int64 {
	i := int64(math.Float64bits(x))
	if i < 0 {
		i = math.MinInt64 - i
	}
	return i
}

// domain describes where a sweep draws its points.
type domain struct {
	lo, hi  float64 // magnitudes: log-spaced in [lo, hi]
	neg     bool    // both signs
	ulo     float64 // uniform range [ulo, uhi] (when uhi > ulo)
	uhi     float64
	near    []float64          // special points to cluster around
	spacing float64            // when nonzero: points near multiples of spacing
	maxMul  int                // largest multiple of spacing (default 2**20)
	skip    func(float64) bool // points to leave out
}

// points returns n reproducible points of d.
func (d domain) points(n int, seed int64) []float64 {
	r := rand.New(rand.NewSource(seed))
	xs := make([]float64, 0, n)
	llo, lhi := math.Log(d.lo), math.Log(d.hi)
	for len(xs) < n {
		var x float64
		switch k := len(xs) % 8; {
		case k < 4:
			x = math.Exp(llo + (lhi-llo)*r.Float64())
			if x > d.hi {
				x = d.hi
			}
		case k < 6 && d.uhi > d.ulo:
			x = d.ulo + (d.uhi-d.ulo)*r.Float64()
		case k == 6 && len(d.near) > 0:
			c := d.near[r.Intn(len(d.near))]
			x = c + c*math.Ldexp(r.Float64()-0.5, -r.Intn(52))
			if c == 0 {
				x = math.Ldexp(r.Float64()-0.5, -r.Intn(60))
			}
		case k == 7 && d.spacing != 0:
			mm := d.maxMul
			if mm == 0 {
				mm = 1 << 20
			}
			m := float64(r.Intn(mm))
			x = m*d.spacing + math.Ldexp(r.Float64()-0.5, -r.Intn(50))
		default:
			x = math.Exp(llo + (lhi-llo)*r.Float64())
			if x > d.hi {
				x = d.hi
			}
		}
		if math.Abs(x) > d.hi || (d.skip != nil && d.skip(x)) {
			continue
		}
		if d.neg && r.Intn(2) == 0 {
			x = -x
		}
		xs = append(xs, x)
	}
	return xs
}
