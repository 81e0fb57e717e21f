package corpus

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/math32"
)

// Math functions with PTX instructions: exact, Go's semantics.

func mathRounding(t cuda.Thread, a []float64, fl, ce, tr, re, ro []float64) {
	if i := t.Grid1(); i < len(a) {
		x := a[i]
		fl[i], ce[i], tr[i] = math.Floor(x), math.Ceil(x), math.Trunc(x)
		re[i], ro[i] = math.RoundToEven(x), math.Round(x)
	}
}

func mathSqrtAbs(t cuda.Thread, a []float64, sq, ab, cs []float64) {
	if i := t.Grid1(); i < len(a) {
		x := a[i]
		sq[i] = math.Sqrt(x)
		ab[i] = math.Abs(x)
		cs[i] = math.Copysign(3, x) + math.Copysign(x, -1)
	}
}

func mathMinMax(t cuda.Thread, a, b []float64, mn, mx []float64) {
	if i := t.Grid1(); i < len(a) {
		mn[i] = math.Min(a[i], b[i])
		mx[i] = math.Max(a[i], b[i])
	}
}

func mathFMA(t cuda.Thread, a, b, c, out []float64) {
	if i := t.Grid1(); i < len(a) {
		out[i] = math.FMA(a[i], b[i], c[i])
	}
}

func mathClassify(t cuda.Thread, a []float64, out []int32) {
	if i := t.Grid1(); i < len(a) {
		x := a[i]
		var r int32
		if math.IsNaN(x) {
			r |= 1
		}
		if math.IsInf(x, 1) {
			r |= 2
		}
		if math.IsInf(x, -1) {
			r |= 4
		}
		if math.IsInf(x, 0) {
			r |= 8
		}
		if math.Signbit(x) {
			r |= 16
		}
		if math.IsInf(x, i%3-1) {
			r |= 32
		}
		out[i] = r
	}
}

func mathBits(t cuda.Thread, a []float64, b []uint64, g []float32, bits []uint64, back []float64, bits32 []uint32) {
	if i := t.Grid1(); i < len(a) {
		bits[i] = math.Float64bits(a[i])
		back[i] = math.Float64frombits(b[i]) + math.Inf(1-i%3) - math.Inf(1)
		bits32[i] = math.Float32bits(g[i]) ^ math.Float32bits(math.Float32frombits(uint32(b[i])))
	}
}

func mathNaNDim(t cuda.Thread, a, b []float64, out []uint64) {
	if i := t.Grid1(); i < len(a) {
		d := math.Dim(a[i], b[i])
		if d != d {
			d = -1 // NaN payloads of arithmetic differ between CPUs and GPUs
		}
		out[i] = math.Float64bits(d) ^ math.Float64bits(math.NaN())>>1
	}
}

func mathFloat32(t cuda.Thread, a, b []float32, out1, out2, out3 []float32) {
	if i := t.Grid1(); i < len(a) {
		x, y := a[i], b[i]
		out1[i] = float32(math.Sqrt(float64(x))) + float32(math.Floor(float64(y)))
		out2[i] = max(x, y) - min(x, y)
		out3[i] = x*y + 1 + float32(math.Trunc(float64(x)))
	}
}

func mathBuiltinMinMax(t cuda.Thread, a, b []int32, f, g []float64, out []int32, fout []float64) {
	if i := t.Grid1(); i < len(a) {
		out[i] = min(a[i], b[i], 7) + max(a[i], b[i])
		fout[i] = max(f[i], g[i]) + min(f[i], g[i], 0.5)
	}
}

// Device math library functions: compiled from nugo's Go code.

func mathTranscendental(t cuda.Thread, a []float64, e, l, s, c []float64) {
	if i := t.Grid1(); i < len(a) {
		x := a[i]
		e[i] = math.Exp(x / 100)
		l[i] = math.Log(math.Abs(x) + 1)
		s[i] = math.Sin(x)
		c[i] = math.Cos(x) + math.Pow(math.Abs(x)+0.5, 1.5)
	}
}

func mathGamma(t cuda.Thread, a []float64, g, l []float64, s []int, a32, g32, l32 []float32, s32 []int) {
	if i := t.Grid1(); i < len(a) {
		g[i] = math.Gamma(a[i])
		l[i], s[i] = math.Lgamma(a[i])
		g32[i] = math32.Gamma(a32[i])
		l32[i], s32[i] = math32.Lgamma(a32[i])
	}
}

// gammaInputs covers Gamma's branches: poles and special values, near 1
// and 2, the shifted and Stirling ranges, reflection, overflow, underflow.
func gammaInputs(n int) []float64 {
	base := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -1, -2, -170,
		1, 2, 1.001, 0.999, 2.01, 1e-300, -1e-300, 0.5, -0.5, -2.5, 31.5, 33, 171.5, 172, -170.6, -185.3, -250.5, 1e300}
	f := make([]float64, n)
	for i := range f {
		if i < len(base) {
			f[i] = base[i]
		} else {
			f[i] = float64(i%97)*0.37 - 12.3 + float64(i)*1e-4
		}
	}
	return f
}

func mathLogs(t cuda.Thread, a cuda.Array2[float64]) {
	i, j := t.Grid2()
	r, c := a.Shape()
	if i < r && j < c {
		a.Set(i, j, math.Log10(a.At(i, j))+math.Log2(float64(i+j+1)))
	}
}

func noNaN(n int) []float64 {
	f := inRange(n, 1e300)
	for i := range f {
		if f[i] != f[i] {
			f[i] = 2
		}
	}
	return f
}

// mathMaxMinEdges applies math.Max/Min and math32.Max/Min to every pair of
// edge values: ±Inf comes before NaN, as in Go (issue 21 item 2).
func mathMaxMinEdges(t cuda.Thread, x []float64, mx, mn []float64, mx32, mn32 []float32) {
	i := t.Grid1()
	n := len(x)
	if i < n*n {
		a, b := x[i/n], x[i%n]
		mx[i], mn[i] = math.Max(a, b), math.Min(a, b)
		mx32[i], mn32[i] = math32.Max(float32(a), float32(b)), math32.Min(float32(a), float32(b))
	}
}

// maxMinEdges are the special cases of math.Max and math.Min.
var maxMinEdges = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -2.5, math.MaxFloat64}

var mathCases = []Case{
	{Name: "math/max_min_edges", Kernel: mathMaxMinEdges, Grid: cuda.Dim1(1), Block: cuda.Dim1(64), Args: func() []any {
		n := len(maxMinEdges) * len(maxMinEdges)
		return []any{append([]float64(nil), maxMinEdges...), zeros[float64](n), zeros[float64](n), zeros[float32](n), zeros[float32](n)}
	}},
	c1("math/rounding", mathRounding, func() []any {
		return []any{cycleF64(n1), zeros[float64](n1), zeros[float64](n1), zeros[float64](n1), zeros[float64](n1), zeros[float64](n1)}
	}),
	c1("math/sqrt_abs_copysign", mathSqrtAbs, func() []any {
		return []any{cycleF64(n1), zeros[float64](n1), zeros[float64](n1), zeros[float64](n1)}
	}),
	c1("math/min_max", mathMinMax, func() []any {
		a, b := cycleF64(n1), cycleF64(n1)
		for i := range b {
			b[i] = a[(i*7)%len(a)]
		}
		return []any{a, b, zeros[float64](n1), zeros[float64](n1)}
	}),
	c1("math/fma", mathFMA, func() []any {
		return []any{cycleF64(n1), cycleF64(n1 + 1)[1:], cycleF64(n1 + 2)[2:], zeros[float64](n1)}
	}),
	c1("math/classify", mathClassify, func() []any { return []any{cycleF64(n1), zeros[int32](n1)} }),
	c1("math/float_bits", mathBits, func() []any {
		return []any{cycleF64(n1), cycleOf[uint64](n1), cycleF32(n1), zeros[uint64](n1), zeros[float64](n1), zeros[uint32](n1)}
	}),
	c1("math/dim_nan", mathNaNDim, func() []any { return []any{cycleF64(n1), cycleF64(n1 + 4)[4:], zeros[uint64](n1)} }),
	c1("math/float32", mathFloat32, func() []any {
		return []any{inRange32(n1, 3e38), inRange32(n1+6, 3e38)[6:], zeros[float32](n1), zeros[float32](n1), zeros[float32](n1)}
	}),
	c1("math/builtin_min_max", mathBuiltinMinMax, func() []any {
		return []any{cycleOf[int32](n1), cycleOf[int32](n1 + 2)[2:], noNaN(n1), noNaN(n1 + 3)[3:], zeros[int32](n1), zeros[float64](n1)}
	}),
	// Go's own math.Sin is several ulps from the true value near multiples
	// of π (sin(Pi) is 7 ulps off); the device library is closer, so the
	// bound against the native run is wider than the library's error.
	{Name: "math/transcendental", Kernel: mathTranscendental, Grid: grid1(n1, 128), Block: cuda.Dim1(128), MathULP: 16, Devmath: true, Args: func() []any {
		return []any{inRange(n1, 1e5), zeros[float64](n1), zeros[float64](n1), zeros[float64](n1), zeros[float64](n1)}
	}},
	// Go's math.Gamma is up to about 100 ulp from the true value for large
	// arguments and its Lgamma hundreds of ulp near 1 and 2 and near the
	// zeros of lgamma for x < 0; the device library is within 3 ulp of the
	// true values (internal/devmath), so the bound against the native run
	// is Go's error.
	{Name: "math/gamma", Kernel: mathGamma, Grid: grid1(n1, 128), Block: cuda.Dim1(128), MathULP: 64, Devmath: true, Args: func() []any {
		a := gammaInputs(n1)
		a32 := make([]float32, n1)
		for i, v := range a {
			a32[i] = float32(v)
		}
		return []any{a, zeros[float64](n1), zeros[float64](n1), zeros[int](n1), a32, zeros[float32](n1), zeros[float32](n1), zeros[int](n1)}
	}},
	{Name: "math/logs2d", Kernel: mathLogs, Grid: cuda.Dim2(2, 2), Block: cuda.Dim2(16, 16), MathULP: 2, Devmath: true, Args: func() []any {
		return []any{arr2(25, 19, func(i, j int) float64 { return float64(i*19+j) + 0.5 })}
	}},
}
