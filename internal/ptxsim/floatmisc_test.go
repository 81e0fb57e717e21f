package ptxsim

import (
	"math"
	"testing"
)

func fmin64(a, b float64, isMax bool) float64 {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a == 0 && b == 0: // -0 orders below +0
		if math.Signbit(a) != isMax {
			return a
		}
		return b
	case isMax:
		return math.Max(a, b)
	}
	return math.Min(a, b)
}

func TestFloatMisc(t *testing.T) {
	var p32, s32, p64, s64 [][]uint64
	for _, a := range f32Specials {
		s32 = append(s32, []uint64{f32b(a)})
		for _, b := range f32Specials {
			p32 = append(p32, []uint64{f32b(a), f32b(b)})
		}
	}
	for _, a := range f64Specials {
		s64 = append(s64, []uint64{f64b(a)})
		for _, b := range f64Specials {
			p64 = append(p64, []uint64{f64b(a), f64b(b)})
		}
	}
	g := func(v uint64) float64 { return float64(math.Float32frombits(uint32(v))) }
	h := math.Float64frombits
	for _, isMax := range []bool{false, true} {
		name := "min"
		if isMax {
			name = "max"
		}
		isMax := isMax
		checkFloat(t, opCase{inst: name + ".f32", srcW: []int{32, 32}, dstW: 32}, p32, func(v []uint64) uint64 { return f32b(float32(fmin64(g(v[0]), g(v[1]), isMax))) })
		checkFloat(t, opCase{inst: name + ".f64", srcW: []int{64, 64}, dstW: 64}, p64, func(v []uint64) uint64 { return f64b(fmin64(h(v[0]), h(v[1]), isMax)) })
	}
	// abs, neg and copysign are sign-bit operations: exact on every input
	opCase{inst: "abs.f32", srcW: []int{32}, dstW: 32}.check(t, s32, func(v []uint64) uint64 { return v[0] &^ (1 << 31) })
	opCase{inst: "neg.f32", srcW: []int{32}, dstW: 32}.check(t, s32[:len(s32)-1], func(v []uint64) uint64 { return v[0] ^ (1 << 31) })
	opCase{inst: "abs.f64", srcW: []int{64}, dstW: 64}.check(t, s64, func(v []uint64) uint64 { return v[0] &^ (1 << 63) })
	opCase{inst: "neg.f64", srcW: []int{64}, dstW: 64}.check(t, s64[:len(s64)-1], func(v []uint64) uint64 { return v[0] ^ (1 << 63) })
	checkFloat(t, opCase{inst: "copysign.f32", srcW: []int{32, 32}, dstW: 32}, p32, func(v []uint64) uint64 { return v[1]&^(1<<31) | v[0]&(1<<31) })
	checkFloat(t, opCase{inst: "copysign.f64", srcW: []int{64, 64}, dstW: 64}, p64, func(v []uint64) uint64 { return v[1]&^(1<<63) | v[0]&(1<<63) })

	classes := map[string]func(x float64, minNormal float64) bool{
		"finite":     func(x, _ float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) },
		"infinite":   func(x, _ float64) bool { return math.IsInf(x, 0) },
		"number":     func(x, _ float64) bool { return !math.IsNaN(x) },
		"notanumber": func(x, _ float64) bool { return math.IsNaN(x) },
		"normal": func(x, mn float64) bool {
			return !math.IsNaN(x) && !math.IsInf(x, 0) && math.Abs(x) >= mn
		},
		"subnormal": func(x, mn float64) bool { return x != 0 && math.Abs(x) < mn },
	}
	for cl, f := range classes {
		f := f
		opCase{inst: "testp." + cl + ".f32", srcW: []int{32}, dstW: 1}.check(t, s32, func(v []uint64) uint64 { return b2u(f(g(v[0]), 0x1p-126)) })
		opCase{inst: "testp." + cl + ".f64", srcW: []int{64}, dstW: 1}.check(t, s64, func(v []uint64) uint64 { return b2u(f(h(v[0]), 0x1p-1022)) })
	}

	// .ftz flushes subnormal inputs and results; .sat clamps to [0, 1]
	flush := func(x float32) float32 {
		if math.Abs(float64(x)) < 0x1p-126 {
			return float32(math.Copysign(0, float64(x)))
		}
		return x
	}
	checkFloat(t, opCase{inst: "add.ftz.f32", srcW: []int{32, 32}, dstW: 32}, p32, func(v []uint64) uint64 {
		return f32b(flush(flush(float32(g(v[0]))) + flush(float32(g(v[1])))))
	})
	checkFloat(t, opCase{inst: "mul.rn.ftz.sat.f32", srcW: []int{32, 32}, dstW: 32}, p32, func(v []uint64) uint64 {
		r := flush(flush(float32(g(v[0]))) * flush(float32(g(v[1]))))
		switch {
		case r != r || r <= 0:
			r = 0
		case r > 1:
			r = 1
		}
		return f32b(r)
	})

	// sqrt/rcp/div .rn are correctly rounded
	var pos32 [][]uint64
	for _, x := range f32Specials {
		if x >= 0 || x != x {
			pos32 = append(pos32, []uint64{f32b(x)})
		}
	}
	checkFloat(t, opCase{inst: "sqrt.rn.f32", srcW: []int{32}, dstW: 32}, pos32, func(v []uint64) uint64 {
		return f32b(float32(math.Sqrt(g(v[0])))) // double rounding is innocuous for sqrt
	})
	checkFloat(t, opCase{inst: "sqrt.rn.f64", srcW: []int{64}, dstW: 64}, s64, func(v []uint64) uint64 { return f64b(math.Sqrt(h(v[0]))) })
	checkFloat(t, opCase{inst: "rcp.rn.f32", srcW: []int{32}, dstW: 32}, s32, func(v []uint64) uint64 { return f32b(1 / float32(g(v[0]))) })
	checkFloat(t, opCase{inst: "rcp.rn.f64", srcW: []int{64}, dstW: 64}, s64, func(v []uint64) uint64 { return f64b(1 / h(v[0])) })
	checkFloat(t, opCase{inst: "div.full.f32", srcW: []int{32, 32}, dstW: 32}, p32, func(v []uint64) uint64 { return f32b(float32(g(v[0]) / g(v[1]))) })

	// .approx functions: within 2 ulp of the correctly rounded float32 value
	// computed with math/big-free float64 functions (they are accurate to
	// well under a float32 ulp)
	inputs := []float32{0, 0.5, 1, -1, 2.5, -3.75, 10, -20, 100, 0.001, 1e-20, 88, -100}
	var in32 [][]uint64
	for _, x := range inputs {
		in32 = append(in32, []uint64{f32b(x)})
	}
	fns := map[string]func(float64) float64{"ex2.approx.f32": math.Exp2, "lg2.approx.f32": math.Log2, "sin.approx.f32": math.Sin,
		"cos.approx.f32": math.Cos, "tanh.approx.f32": math.Tanh, "rsqrt.approx.f32": func(x float64) float64 { return 1 / math.Sqrt(x) },
		"rcp.approx.f32": func(x float64) float64 { return 1 / x }, "sqrt.approx.f32": math.Sqrt}
	for name, f := range fns {
		c := opCase{inst: name, srcW: []int{32}, dstW: 32}
		got := c.run(t, in32)
		for i, x := range inputs {
			want := float32(f(float64(x)))
			r := math.Float32frombits(uint32(got[i]))
			if !(r == want || r != r && want != want || math.Abs(float64(r-want)) <= 2*ulp32(want)) {
				t.Errorf("%s(%g) = %g, want %g", name, x, r, want)
			}
		}
	}
}

func ulp32(x float32) float64 {
	return math.Abs(float64(math.Nextafter32(x, float32(math.Inf(1))) - x))
}
