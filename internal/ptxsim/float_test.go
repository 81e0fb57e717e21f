package ptxsim

import (
	"math"
	"math/big"
	"testing"
)

var f32Specials = []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.1, -2.5, 3, 1e10, -7e-5, 1.0 / 3, math.Pi,
	16777217, 1.0000001, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 1e-40, -3e-39, 0x1p-126,
	float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}

var f64Specials = []float64{0, math.Copysign(0, -1), 1, -1, 0.1, -2.5, 3, 1e300, -7e-5, 1.0 / 3, math.Pi,
	9007199254740993, 1.0000000000000002, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-310, 0x1p-1022,
	math.Inf(1), math.Inf(-1), math.NaN()}

var f32Normals = []float32{1, -1, 0.1, -2.5, 3, 1e10, -7e-5, 1.0 / 3, math.Pi, 16777215, 1.0000001, -123456.79, 5e-20, 2e19}
var f64Normals = []float64{1, -1, 0.1, -2.5, 3, 1e100, -7e-5, 1.0 / 3, math.Pi, 9007199254740991, 1.0000000000000002, -123456.789, 5e-200, 2e150}

var bigModes = map[string]big.RoundingMode{"rn": big.ToNearestEven, "rz": big.ToZero, "rm": big.ToNegativeInf, "rp": big.ToPositiveInf}

// bigOp computes op exactly (or, for div and sqrt, to 400 bits in the same
// direction) and rounds it to prec bits with mode.
func bigOp(op string, prec uint, mode big.RoundingMode, xs ...float64) float64 {
	exact := func(v float64) *big.Float { return new(big.Float).SetPrec(4000).SetFloat64(v) }
	z := new(big.Float).SetPrec(4000).SetMode(mode)
	switch op {
	case "add":
		z.Add(exact(xs[0]), exact(xs[1]))
	case "sub":
		z.Sub(exact(xs[0]), exact(xs[1]))
	case "mul":
		z.Mul(exact(xs[0]), exact(xs[1]))
	case "fma":
		z.Mul(exact(xs[0]), exact(xs[1]))
		z.Add(z, exact(xs[2]))
	case "div":
		z.SetPrec(400).Quo(exact(xs[0]), exact(xs[1]))
	case "sqrt":
		z.SetPrec(400).Sqrt(exact(xs[0]))
	}
	if prec == 24 {
		return refRound(z, 24, -149, math.MaxFloat32, mode)
	}
	return refRound(z, 53, -1074, math.MaxFloat64, mode)
}

// refRound rounds z to a binary format with mant significand bits, smallest
// ulp 2^minExp (subnormals) and largest finite value maxv, in mode.
func refRound(z *big.Float, mant int, minExp int, maxv float64, mode big.RoundingMode) float64 {
	if z.Sign() == 0 {
		f, _ := z.Float64()
		return f
	}
	e := z.MantExp(nil)
	ulp := max(e-mant, minExp)
	s := new(big.Float).SetPrec(z.Prec()).SetMantExp(z, -ulp)
	ti, _ := s.Int(nil) // toward zero
	frac := new(big.Float).SetPrec(s.Prec()).Sub(s, new(big.Float).SetInt(ti))
	half := big.NewFloat(0.5)
	af := new(big.Float).Abs(frac)
	away := false
	switch mode {
	case big.ToNearestEven:
		c := af.Cmp(half)
		away = c > 0 || c == 0 && ti.Bit(0) == 1
	case big.ToNegativeInf:
		away = frac.Sign() < 0
	case big.ToPositiveInf:
		away = frac.Sign() > 0
	}
	if away {
		if s.Sign() < 0 {
			ti.Sub(ti, big.NewInt(1))
		} else {
			ti.Add(ti, big.NewInt(1))
		}
	}
	r := new(big.Float).SetPrec(200).SetInt(ti)
	r.SetMantExp(r, ulp)
	f, _ := r.Float64()
	if math.Abs(f) > maxv {
		toward := mode == big.ToZero || mode == big.ToNegativeInf && f > 0 || mode == big.ToPositiveInf && f < 0
		if toward {
			return math.Copysign(maxv, f)
		}
		return math.Copysign(math.Inf(1), f)
	}
	if f == 0 {
		return math.Copysign(0, float64(z.Sign()))
	}
	return f
}

func sameFloat(a, b uint64, w int) bool {
	if w == 32 {
		x, y := math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b))
		return a == b || x != x && y != y
	}
	x, y := math.Float64frombits(a), math.Float64frombits(b)
	return a == b || x != x && y != y
}

func checkFloat(t *testing.T, c opCase, vecs [][]uint64, want func(v []uint64) uint64) {
	t.Helper()
	got := c.run(t, vecs)
	bad := 0
	for i, v := range vecs {
		if w := want(v); !sameFloat(got[i], w, c.dstW) {
			t.Errorf("%s %#x = %#x, want %#x", c.inst, v, got[i], w)
			if bad++; bad > 8 {
				t.FailNow()
			}
		}
	}
}

func TestFloatArithmeticNearest(t *testing.T) {
	var v32 [][]uint64
	for _, a := range f32Specials {
		for _, b := range f32Specials {
			v32 = append(v32, []uint64{f32b(a), f32b(b)})
		}
	}
	g32 := func(v []uint64) (float32, float32) {
		return math.Float32frombits(uint32(v[0])), math.Float32frombits(uint32(v[1]))
	}
	for _, op := range []string{"add", "sub", "mul", "div"} {
		op := op
		ref := func(v []uint64) uint64 {
			a, b := g32(v)
			switch op {
			case "add":
				return f32b(a + b)
			case "sub":
				return f32b(a - b)
			case "mul":
				return f32b(a * b)
			}
			return f32b(a / b)
		}
		// bit-exact: the fast paths use Go's own float32 arithmetic
		opCase{inst: op + ".rn.f32", srcW: []int{32, 32}, dstW: 32}.check(t, v32, ref)
		opCase{inst: op + ".f32", srcW: []int{32, 32}, dstW: 32}.check(t, v32, ref)
	}
	var v64 [][]uint64
	for _, a := range f64Specials {
		for _, b := range f64Specials {
			v64 = append(v64, []uint64{f64b(a), f64b(b)})
		}
	}
	for _, op := range []string{"add", "sub", "mul", "div"} {
		op := op
		opCase{inst: op + ".rn.f64", srcW: []int{64, 64}, dstW: 64}.check(t, v64, func(v []uint64) uint64 {
			a, b := math.Float64frombits(v[0]), math.Float64frombits(v[1])
			switch op {
			case "add":
				return f64b(a + b)
			case "sub":
				return f64b(a - b)
			case "mul":
				return f64b(a * b)
			}
			return f64b(a / b)
		})
	}
	// fma: exact reference through math/big for finite operands
	var fv [][]uint64
	for _, a := range f32Specials[:19] {
		for _, b := range f32Specials[:19:19] {
			for _, c := range []float32{0, 1, -1e-7, 3e38, 1e-45} {
				fv = append(fv, []uint64{f32b(a), f32b(b), f32b(c)})
			}
		}
	}
	checkFloat(t, opCase{inst: "fma.rn.f32", srcW: []int{32, 32, 32}, dstW: 32}, fv, func(v []uint64) uint64 {
		a, b, c := math.Float32frombits(uint32(v[0])), math.Float32frombits(uint32(v[1])), math.Float32frombits(uint32(v[2]))
		r := bigOp("fma", 24, big.ToNearestEven, float64(a), float64(b), float64(c))
		if math.Abs(r) < 0x1p-126 { // subnormal result: round the exact value with float32 spacing
			return f32b(float32(math.FMA(float64(a), float64(b), float64(c))))
		}
		return f32b(float32(r))
	})
	// the classic double-rounding case: a*b+c exact in neither 53 nor 24 bits
	checkFloat(t, opCase{inst: "fma.rn.f32", srcW: []int{32, 32, 32}, dstW: 32},
		[][]uint64{{f32b(1 + 0x1p-23), f32b(1 + 0x1p-23), f32b(-1)}, {f32b(1 + 0x1p-12), f32b(1 + 0x1p-12), f32b(0x1p-48)}},
		func(v []uint64) uint64 {
			a, b, c := math.Float32frombits(uint32(v[0])), math.Float32frombits(uint32(v[1])), math.Float32frombits(uint32(v[2]))
			return f32b(float32(bigOp("fma", 24, big.ToNearestEven, float64(a), float64(b), float64(c))))
		})
	var fv64 [][]uint64
	for _, a := range f64Specials {
		for _, b := range f64Specials[:8] {
			fv64 = append(fv64, []uint64{f64b(a), f64b(b), f64b(0.5)})
		}
	}
	opCase{inst: "fma.rn.f64", srcW: []int{64, 64, 64}, dstW: 64}.check(t, fv64, func(v []uint64) uint64 {
		return f64b(math.FMA(math.Float64frombits(v[0]), math.Float64frombits(v[1]), math.Float64frombits(v[2])))
	})
}

func TestFloatDirectedRounding(t *testing.T) {
	for _, mode := range []string{"rn", "rz", "rm", "rp"} {
		bm := bigModes[mode]
		var v32, v64 [][]uint64
		for _, a := range f32Normals {
			for _, b := range f32Normals {
				v32 = append(v32, []uint64{f32b(a), f32b(b), f32b(a * 0.7)})
				if p := float32(math.Abs(float64(a * b))); p <= math.MaxFloat32 {
					v32 = append(v32, []uint64{f32b(p), f32b(b), f32b(b * 0.3)})
				}
			}
		}
		for _, a := range f64Normals {
			for _, b := range f64Normals {
				v64 = append(v64, []uint64{f64b(a), f64b(b), f64b(a * 0.7)})
				if p := math.Abs(a * b); p <= math.MaxFloat64 {
					v64 = append(v64, []uint64{f64b(p), f64b(b), f64b(b * 0.3)})
				}
			}
		}
		for _, op := range []string{"add", "sub", "mul", "div", "fma", "sqrt"} {
			op := op
			vecs32, vecs64 := v32, v64
			if op == "sqrt" { // non-negative operands only
				vecs32, vecs64 = nil, nil
				for _, v := range v32 {
					if int32(v[0]) >= 0 {
						vecs32 = append(vecs32, v)
					}
				}
				for _, v := range v64 {
					if int64(v[0]) >= 0 {
						vecs64 = append(vecs64, v)
					}
				}
			}
			n := 2
			if op == "fma" {
				n = 3
			}
			if op == "sqrt" {
				n = 1
			}
			srcW := []int{32, 32, 32}[:n]
			checkFloat(t, opCase{inst: op + "." + mode + ".f32", srcW: srcW, dstW: 32}, vecs32, func(v []uint64) uint64 {
				xs := make([]float64, n)
				for i := range xs {
					xs[i] = float64(math.Float32frombits(uint32(v[i])))
				}
				return f32b(float32(bigOp(op, 24, bm, xs...)))
			})
			srcW = []int{64, 64, 64}[:n]
			checkFloat(t, opCase{inst: op + "." + mode + ".f64", srcW: srcW, dstW: 64}, vecs64, func(v []uint64) uint64 {
				xs := make([]float64, n)
				for i := range xs {
					xs[i] = math.Float64frombits(v[i])
				}
				return f64b(bigOp(op, 53, bm, xs...))
			})
		}
	}
}
