package corpus

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// Half precision (cuda.Float16): arithmetic, fma, comparisons, conversions
// with edge values, math functions, and Float16 through phis, device
// functions, struct fields, local arrays and scalar parameters. Every
// result is compared bit for bit (a NaN matching any NaN, as for float32).

func halfArith(t cuda.Thread, a, b, c []cuda.Float16, add, sub, mul, div, fma, mx, mn, neg, abs []cuda.Float16) {
	if i := t.Grid1(); i < len(a) {
		x, y := a[i], b[i]
		add[i], sub[i], mul[i], div[i] = cuda.HAdd(x, y), cuda.HSub(x, y), cuda.HMul(x, y), cuda.HDiv(x, y)
		fma[i] = cuda.HFma(x, y, c[i])
		mx[i], mn[i] = cuda.HMax(x, y), cuda.HMin(x, y)
		neg[i], abs[i] = cuda.HNeg(x), cuda.HAbs(y)
	}
}

func halfCompare(t cuda.Thread, a, b []cuda.Float16, out []int32) {
	if i := t.Grid1(); i < len(a) {
		x, y := a[i], b[i]
		var r int32
		for k, p := range [...]bool{cuda.HEq(x, y), cuda.HNe(x, y), cuda.HLt(x, y), cuda.HLe(x, y), cuda.HGt(x, y), cuda.HGe(x, y), cuda.HEq(x, x)} {
			if p {
				r |= 1 << k
			}
		}
		if x.Bits() == y.Bits() {
			r |= 1 << 8
		}
		out[i] = r
	}
}

func halfConvert(t cuda.Thread, f []float32, d []float64, h, hd []cuda.Float16, back []float32, back64 []float64, bits []uint16) {
	if i := t.Grid1(); i < len(f) {
		h[i] = cuda.F16(f[i])
		hd[i] = cuda.F16FromFloat64(d[i])
		back[i] = h[i].Float32()
		back64[i] = hd[i].Float64()
		b := bits[i]
		bits[i] = cuda.HMul(cuda.Float16FromBits(b), cuda.F16(-0.5)).Bits() ^ uint16(i)
	}
}

func halfMath(t cuda.Thread, a []cuda.Float16, sq, rsq, rcp, exp, exp2, exp10, log, log2, log10, sin, cos, fl, ce, tr, ri []cuda.Float16) {
	if i := t.Grid1(); i < len(a) {
		x := a[i]
		sq[i], rsq[i], rcp[i] = cuda.HSqrt(x), cuda.HRsqrt(x), cuda.HRcp(x)
		exp[i], exp2[i], exp10[i] = cuda.HExp(x), cuda.HExp2(x), cuda.HExp10(x)
		log[i], log2[i], log10[i] = cuda.HLog(x), cuda.HLog2(x), cuda.HLog10(x)
		sin[i], cos[i] = cuda.HSin(x), cuda.HCos(x)
		fl[i], ce[i], tr[i], ri[i] = cuda.HFloor(x), cuda.HCeil(x), cuda.HTrunc(x), cuda.HRint(x)
	}
}

// halfWeighted is a struct with a Float16 field.
type halfWeighted struct {
	N int8
	W cuda.Float16
	X float32
}

// halfScale is a device function over Float16, recursive so that it is
// called rather than inlined.
func halfScale(x, s cuda.Float16, depth int) cuda.Float16 {
	if depth > 0 {
		return halfScale(x, s, depth-1)
	}
	return cuda.HMul(x, s)
}

// halfDot accumulates in half precision (a loop phi of Float16), through a
// device function, a scalar Float16 parameter, a local array and a struct
// field.
func halfDot(t cuda.Thread, alpha cuda.Float16, ws []halfWeighted, a []cuda.Float16, out []cuda.Float16, out32 []float32) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	var window [4]cuda.Float16
	acc := cuda.F16(0)
	for k := range 8 {
		j := (i + k) % len(a)
		window[k%4] = a[j]
		acc = cuda.HFma(halfScale(a[j], alpha, 1), ws[j].W, acc)
	}
	out[i] = acc
	out32[i] = cuda.HAdd(window[i%4], cuda.F16(float32(ws[i].N))).Float32() + ws[i].X
}

// halfTile stages an Array2 of Float16 through a shared array and adds
// each element to its neighbour in the block.
func halfTile(t cuda.Thread, m cuda.Array2[cuda.Float16], out []cuda.Float16) {
	tile := cuda.SharedArray[cuda.Float16](t, 128)
	tx := t.ThreadIdx().X
	rows, cols := m.Shape()
	i := t.Grid1()
	if i < rows*cols {
		tile[tx] = m.At(i/cols, i%cols)
	}
	t.SyncThreads()
	if i < len(out) {
		out[i] = cuda.HAdd(tile[tx], tile[(tx+1)%128])
		m.Set(i/cols, i%cols, cuda.HSqrt(cuda.HAbs(out[i])))
	}
}

// halfEdge is the bit patterns every half case starts with.
var halfEdge = []uint16{
	0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0x3E00, 0x4100, 0xC100, 0x7BFF, 0xFBFF, // 0, -0, 1, -1, 0.5, 1.5, 2.5, -2.5, ±max
	0x0001, 0x8001, 0x03FF, 0x0400, 0x8400, 0x7C00, 0xFC00, 0x7E00, 0x7FFF, 0xFD01, // subnormals, min normal, ±Inf, NaNs
	0x4248, 0xC170, 0x3555, 0x5BFF, 0x1400, 0x6800, 0x3C01, 0x3BFF, // pi, -e, 1/3, 255.9, 2^-10, 2048, 1+ulp, 1-ulp/2
}

// cycleF16 fills n values: the edge patterns, then a spread of finite
// values from 2^-24 to 65504, both signs.
func cycleF16(n int, seed uint64) []cuda.Float16 {
	out := make([]cuda.Float16, n)
	x := seed
	for i := range out {
		if i < len(halfEdge) {
			out[i] = cuda.Float16FromBits(halfEdge[(i+int(seed))%len(halfEdge)])
			continue
		}
		x = x*6364136223846793005 + 1442695040888963407
		b := uint16(x >> 48)
		if i%3 != 0 {
			b &^= 0x4000 // magnitudes below 2: no overflow in products
		}
		out[i] = cuda.Float16FromBits(b)
	}
	return out
}

func halfs(n, k int) []any {
	out := make([]any, k)
	for i := range out {
		out[i] = make([]cuda.Float16, n)
	}
	return out
}

func halfWeights(n int) []halfWeighted {
	a := cycleF16(n, 3)
	out := make([]halfWeighted, n)
	for i := range out {
		out[i] = halfWeighted{N: int8(i%11 - 5), W: a[i], X: float32(i) * 0.25}
	}
	return out
}

var halfCases = []Case{
	c1("half/arith", halfArith, func() []any {
		return append([]any{cycleF16(n1, 0), cycleF16(n1, 7), cycleF16(n1, 13)}, halfs(n1, 9)...)
	}),
	c1("half/compare", halfCompare, func() []any { return []any{cycleF16(n1, 0), cycleF16(n1, 1), make([]int32, n1)} }),
	c1("half/convert", halfConvert, func() []any {
		f := cycleF32(n1)
		f[30], f[31], f[32], f[33], f[34] = 65504, 65519.996, 65520, 0x1p-25, 0x1.8p-24
		d := cycleF64(n1)
		d[30], d[31], d[32] = 1+0x1p-11+0x1p-40, 0x1p-25, -65520
		for i := 40; i < n1; i++ {
			d[i] = math.Mod(d[i], 70000)
		}
		bits := make([]uint16, n1)
		for i := range bits {
			bits[i] = uint16(i * 251)
		}
		return []any{f, d, make([]cuda.Float16, n1), make([]cuda.Float16, n1), make([]float32, n1), make([]float64, n1), bits}
	}),
	{Name: "half/math", Kernel: halfMath, Grid: grid1(n1, 128), Block: cuda.Dim1(128), Devmath: true, Args: func() []any {
		return append([]any{cycleF16(n1, 5)}, halfs(n1, 15)...)
	}},
	c1("half/shared_array2", halfTile, func() []any {
		return []any{cuda.MustView2(cycleF16(n1, 17), 20, 15), make([]cuda.Float16, n1)}
	}),
	c1("half/dot_phi_call_struct", halfDot, func() []any {
		return []any{cuda.F16(0.75), halfWeights(n1), cycleF16(n1, 11), make([]cuda.Float16, n1), make([]float32, n1)}
	}),
}
