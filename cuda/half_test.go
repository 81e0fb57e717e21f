package cuda_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// Float16's conversions and formatting on the host.
func TestFloat16Host(t *testing.T) {
	cases := []struct {
		h    Float16
		bits uint16
		f    float32
		s    string
	}{
		{F16(1), 0x3C00, 1, "1"},
		{F16(-2.5), 0xC100, -2.5, "-2.5"},
		{F16(65504), 0x7BFF, 65504, "65500"},
		{F16(65520), 0x7C00, float32(math.Inf(1)), "+Inf"},
		{F16(0.1), 0x2E66, 0.099975586, "0.1"},
		{F16(0x1p-24), 0x0001, 0x1p-24, "6e-08"},
		{F16(float32(math.Copysign(0, -1))), 0x8000, float32(math.Copysign(0, -1)), "-0"},
		{F16FromFloat64(1 + 0x1p-11 + 0x1p-40), 0x3C01, 1 + 0x1p-10, "1.001"},
		{F16(float32(math.NaN())), 0x7FFF, float32(math.NaN()), "NaN"},
		{Float16FromBits(0x7C01), 0x7C01, float32(math.NaN()), "NaN"},
		{Float16{}, 0, 0, "0"},
	}
	for _, c := range cases {
		if c.h.Bits() != c.bits {
			t.Errorf("%v: bits %#04x, want %#04x", c.s, c.h.Bits(), c.bits)
		}
		f := c.h.Float32()
		if f != c.f && !(f != f && c.f != c.f) || math.Signbit(float64(f)) != math.Signbit(float64(c.f)) {
			t.Errorf("%#04x.Float32() = %v, want %v", c.bits, f, c.f)
		}
		if f != f && math.Float32bits(f) != 0x7FFFFFFF {
			t.Errorf("%#04x.Float32() = %#x, want the canonical NaN", c.bits, math.Float32bits(f))
		}
		if float64(f) != c.h.Float64() && f == f {
			t.Errorf("%#04x: Float64 %v != Float32 %v", c.bits, c.h.Float64(), f)
		}
		if c.h.String() != c.s {
			t.Errorf("%#04x.String() = %q, want %q", c.bits, c.h.String(), c.s)
		}
	}
	one, two := F16(1), F16(2)
	if got := HAdd(one, two); got != F16(3) {
		t.Errorf("HAdd(1, 2) = %v", got)
	}
	if got := HDiv(one, F16(3)); got.Bits() != 0x3555 {
		t.Errorf("HDiv(1, 3) = %#04x, want 0x3555", got.Bits())
	}
	if !HNe(one, two) || HNe(F16(float32(math.NaN())), one) || HEq(F16(0), HNeg(F16(0))) == false {
		t.Errorf("comparisons: ordered HNe, HEq(0, -0)")
	}
}

// halfInputs is every one of the 65536 bit patterns.
func halfInputs() []Float16 {
	a := make([]Float16, 1<<16)
	for i := range a {
		a[i] = Float16FromBits(uint16(i))
	}
	return a
}

// runOn launches k on backend b.
func runOn(t *testing.T, b Backend, n int, k any, args ...any) {
	t.Helper()
	onBackend(t, b)
	if err := Jit(k).Launch(Dim1((n+255)/256), Dim1(256), args...); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

func sameBits(t *testing.T, what string, n int, want, got []Float16, names []string) {
	t.Helper()
	bad := 0
	for j := range want {
		if want[j] != got[j] { // bit patterns, NaN payloads included
			if bad++; bad <= 5 {
				t.Errorf("%s: %s(%d): ptxsim %#04x, cpu %#04x", what, names[j/n], j%n, got[j].Bits(), want[j].Bits())
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d results differ", what, bad)
	}
}

// The compiled kernels (ptxsim) compute exactly the CPU's bits for every
// operation: unary operations over all 65536 inputs, binary ones and fma
// over random and special operands, conversions over edge values.
func TestFloat16CompiledMatchesCPU(t *testing.T) {
	t.Run("unary", func(t *testing.T) {
		a := halfInputs()
		n := len(a)
		want, got := make([]Float16, testkernels.HalfOps*n), make([]Float16, testkernels.HalfOps*n)
		runOn(t, CPU, n, testkernels.HalfUnary, a, want)
		runOn(t, PTXSim, n, testkernels.HalfUnary, a, got)
		names := strings.Fields("HNeg HAbs HSqrt HRsqrt HRcp HExp HExp2 HExp10 HLog HLog2 HLog10 HSin HCos HFloor HCeil HTrunc HRint F16(x*3)")
		sameBits(t, "unary", n, want, got, names)
		// spot checks of the reference itself
		if r := want[2*n+0x4400]; r != F16(2) { // HSqrt(4)
			t.Errorf("HSqrt(4) = %v", r)
		}
		if r := want[13*n+0xBE00]; r != F16(-2) { // HFloor(-1.5)
			t.Errorf("HFloor(-1.5) = %v", r)
		}
	})
	t.Run("binary", func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		specials := []uint16{0, 0x8000, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x0001, 0x8001, 0x03FF, 0x7C00, 0xFC00, 0x7FFF, 0x7D01, 0xFE00}
		const n = 20000
		a, b, c := make([]Float16, n), make([]Float16, n), make([]Float16, n)
		for i := range a {
			if i < len(specials)*len(specials) {
				a[i] = Float16FromBits(specials[i/len(specials)])
				b[i] = Float16FromBits(specials[i%len(specials)])
			} else {
				a[i], b[i] = Float16FromBits(uint16(r.Uint32())), Float16FromBits(uint16(r.Uint32()))
			}
			c[i] = Float16FromBits(uint16(r.Uint32()))
			if i%5 == 0 {
				c[i] = HNeg(HMul(a[i], b[i])) // cancellation in fma
			}
		}
		want, got := make([]Float16, 7*n), make([]Float16, 7*n)
		wantCmp, gotCmp := make([]uint8, n), make([]uint8, n)
		runOn(t, CPU, n, testkernels.HalfBinary, a, b, c, want, wantCmp)
		runOn(t, PTXSim, n, testkernels.HalfBinary, a, b, c, got, gotCmp)
		sameBits(t, "binary", n, want, got, strings.Fields("HAdd HSub HMul HDiv HFma HMax HMin"))
		for i := range wantCmp {
			if wantCmp[i] != gotCmp[i] {
				t.Fatalf("comparisons of %#04x, %#04x: ptxsim %06b, cpu %06b", a[i].Bits(), b[i].Bits(), gotCmp[i], wantCmp[i])
			}
		}
	})
	t.Run("convert", func(t *testing.T) {
		f := []float32{0, 1, -1, 65504, 65519.996, 65520, -65520, 1e-8, 0x1p-25, 0x1.8p-24, 0x1.ffcp-15, 1 + 0x1p-11, 1 + 0x3p-11,
			float32(math.Inf(1)), float32(math.NaN()), math.Float32frombits(0xFF800001), 3.14159, -2.71828, 1e30, -1e-30}
		n := len(f)
		d := make([]float64, n)
		bits := make([]uint16, n)
		for i := range d {
			d[i] = float64(f[i]) * (1 + 0x1p-30)
			bits[i] = uint16(i * 4099)
		}
		bits[0], bits[1] = 0x7C01, 0xFBFF
		type out struct {
			h, hd []Float16
			f32   []float32
			f64   []float64
			bits  []uint16
		}
		run := func(b Backend) out {
			o := out{make([]Float16, n), make([]Float16, n), make([]float32, n), make([]float64, n), append([]uint16(nil), bits...)}
			runOn(t, b, n, testkernels.HalfConvert, f, d, o.h, o.hd, o.f32, o.f64, o.bits)
			return o
		}
		want, got := run(CPU), run(PTXSim)
		for i := range f {
			if want.h[i] != got.h[i] || want.hd[i] != got.hd[i] || want.bits[i] != got.bits[i] ||
				math.Float32bits(want.f32[i]) != math.Float32bits(got.f32[i]) || math.Float64bits(want.f64[i]) != math.Float64bits(got.f64[i]) {
				t.Errorf("input %d (%g): cpu %v %v %#x %#x %#04x, ptxsim %v %v %#x %#x %#04x", i, f[i],
					want.h[i], want.hd[i], math.Float32bits(want.f32[i]), math.Float64bits(want.f64[i]), want.bits[i],
					got.h[i], got.hd[i], math.Float32bits(got.f32[i]), math.Float64bits(got.f64[i]), got.bits[i])
			}
		}
		if want.h[5] != F16(float32(math.Inf(1))) || want.bits[0] != 0x7FFF {
			t.Errorf("F16(65520) = %v, NaN+1 = %#04x", want.h[5], want.bits[0])
		}
	})
}

// Float16 scalars, slices and device arrays are kernel arguments on every
// backend; other types for a Float16 parameter are refused with a hint.
func TestFloat16Arguments(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		x := []Float16{F16(1), F16(2), F16(-3), F16(0.5)}
		y := []Float16{F16(10), F16(10), F16(10), F16(10)}
		dy, err := ToDevice(y)
		if err != nil {
			t.Fatal(err)
		}
		if err := Jit(testkernels.HalfAxpy).Launch(Dim1(1), Dim1(32), F16(2), x, dy); err != nil {
			t.Fatal(err)
		}
		err = Jit(testkernels.HalfAxpy).Launch(Dim1(1), Dim1(32), float32(2), x, y)
		wantErr(t, "float32 for Float16", err, "argument 1", "cuda.F16")
		if backend == "gpu-fake" {
			return // the recording fake runs no kernels
		}
		if err := dy.CopyToHost(y); err != nil {
			t.Fatal(err)
		}
		for i, want := range []float32{12, 14, 4, 11} {
			if y[i].Float32() != want {
				t.Errorf("y[%d] = %v, want %v", i, y[i], want)
			}
		}
	})
}

// The PTX of half kernels uses the f16 instructions and .b16 memory
// accesses and assembles for sm_75 and sm_90; == on Float16 is refused.
func TestFloat16PTX(t *testing.T) {
	for _, c := range []struct {
		kernel any
		want   []string
	}{
		{testkernels.HalfBinary, []string{".reg .b16", "add.rn.f16", "sub.rn.f16", "mul.rn.f16", "fma.rn.f16", "setp.eq.f16", "setp.ne.f16", "div.rn.f32", "cvt.f32.f16", "cvt.rn.f16.f32", "ld.global.nc.b16", "st.global.b16", "max.f32"}},
		{testkernels.HalfUnary, []string{"xor.b16", "and.b16", "sqrt.rn.f32", "rcp.rn.f32", "cvt.rmi.f32.f32", "cvt.rni.f32.f32"}},
		{testkernels.HalfConvert, []string{"cvt.rn.f16.f64", "cvt.f64.f32", "cvt.u16.u32", "cvt.u32.u16"}},
		{testkernels.HalfAxpy, []string{"ld.param.b16"}},
	} {
		k := Jit(c.kernel)
		for _, sm := range []int{75, 90} {
			src, err := k.PTX(sm)
			if err != nil {
				t.Fatalf("%s: %v", k.Name(), err)
			}
			for _, w := range c.want {
				if !strings.Contains(src, w) {
					t.Errorf("%s sm_%d: PTX lacks %q", k.Name(), sm, w)
				}
			}
			ptxastest.Assemble(t, k.Name(), src, sm)
		}
	}
	_, err := Jit(testkernels.HalfCompareOp).PTX(75)
	wantErr(t, "== on Float16", err, "half.go", "cannot compare cuda.Float16 values with ==", "cuda.HEq")
}

// The math functions are within 1 half ulp of the exact result (float64
// math rounded to half) over all finite inputs, as documented; the exact
// ones (HSqrt, HRcp, HRsqrt, the roundings) are correctly rounded.
func TestFloat16MathAccuracy(t *testing.T) {
	ulps := func(a, b Float16) int {
		x, y := int(a.Bits()), int(b.Bits())
		if x >= 1<<15 {
			x = 1<<15 - x
		}
		if y >= 1<<15 {
			y = 1<<15 - y
		}
		if x > y {
			return x - y
		}
		return y - x
	}
	fns := []struct {
		name  string
		h     func(Float16) Float16
		exact func(float64) float64
		ulp   int
	}{
		{"HSqrt", HSqrt, math.Sqrt, 0},
		{"HRcp", HRcp, func(x float64) float64 { return 1 / x }, 0},
		{"HFloor", HFloor, math.Floor, 0},
		{"HRint", HRint, math.RoundToEven, 0},
		{"HCeil", HCeil, math.Ceil, 0},
		{"HTrunc", HTrunc, math.Trunc, 0},
		{"HRsqrt", HRsqrt, func(x float64) float64 { return 1 / math.Sqrt(x) }, 0}, // correctly rounded, as documented
		{"HExp", HExp, math.Exp, 1},
		{"HExp2", HExp2, math.Exp2, 1},
		{"HExp10", HExp10, func(x float64) float64 { return math.Pow(10, x) }, 1},
		{"HLog", HLog, math.Log, 1},
		{"HLog2", HLog2, math.Log2, 1},
		{"HLog10", HLog10, math.Log10, 1},
		{"HSin", HSin, math.Sin, 1},
		{"HCos", HCos, math.Cos, 1},
	}
	for _, fn := range fns {
		worst, off := 0, 0
		for i := 0; i < 1<<16; i++ {
			x := Float16FromBits(uint16(i))
			if x.Float32() != x.Float32() {
				continue
			}
			want := F16FromFloat64(fn.exact(x.Float64()))
			got := fn.h(x)
			if want.Float32() != want.Float32() {
				if got.Float32() == got.Float32() {
					t.Errorf("%s(%v) = %v, want NaN", fn.name, x, got)
				}
				continue
			}
			if got.Float32() != got.Float32() {
				t.Errorf("%s(%v) = NaN, want %v", fn.name, x, want)
				continue
			}
			if d := ulps(got, want); d > 0 {
				off++
				worst = max(worst, d)
				if d > fn.ulp {
					t.Errorf("%s(%v) = %v, want %v (%d ulp)", fn.name, x, got, want, d)
				}
			}
		}
		t.Logf("%s: %d of 63488 finite inputs off by up to %d ulp", fn.name, off, worst)
	}
}

// TestFloat16String checks String's promise over every bit pattern: the
// shortest decimal that reads back as h. Reading back is parsing and
// rounding to half; shortest is checked against exact rationals: no decimal
// of fewer significant digits lies in the interval of reals that round to
// h (its ends halfway to the neighbours, included when h is even).
func TestFloat16String(t *testing.T) {
	for _, c := range []struct {
		h    Float16
		want string
	}{
		{F16(0.1), "0.1"}, {F16(1), "1"}, {F16(-2.5), "-2.5"}, {F16(65504), "65500"}, {F16(2048), "2048"}, {F16(60000), "60000"},
		{F16(1 + 0x1p-10), "1.001"}, {Float16FromBits(0x0001), "6e-08"}, {F16(3.14159), "3.14"},
		{HNeg(F16(0)), "-0"}, {Float16FromBits(0x7C00), "+Inf"}, {Float16FromBits(0xFC00), "-Inf"}, {Float16FromBits(0x7E01), "NaN"},
	} {
		if got := c.h.String(); got != c.want {
			t.Errorf("%#04x.String() = %q, want %q", c.h.Bits(), got, c.want)
		}
	}
	rat := func(h uint16) *big.Rat {
		return new(big.Rat).SetFloat64(Float16FromBits(h).Float64())
	}
	two := big.NewRat(1, 2)
	for b := 0; b < 0x7C00; b++ { // the positive finite halves; negatives mirror them
		h := Float16FromBits(uint16(b))
		s := h.String()
		if neg := HNeg(h).String(); neg != "-"+s {
			t.Fatalf("%#04x: String %q, of its negation %q", b, s, neg)
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || F16FromFloat64(f) != h {
			t.Fatalf("%#04x.String() = %q, which reads back as %v (%v)", b, s, F16FromFloat64(f), err)
		}
		if b == 0 {
			continue
		}
		digits := len(strings.TrimRight(strings.TrimLeft(strings.ReplaceAll(strings.Split(s, "e")[0], ".", ""), "0"), "0"))
		lo := new(big.Rat).Mul(new(big.Rat).Add(rat(uint16(b-1)), rat(uint16(b))), two)
		var hi *big.Rat
		if b+1 < 0x7C00 {
			hi = new(big.Rat).Mul(new(big.Rat).Add(rat(uint16(b)), rat(uint16(b+1))), two)
		} else {
			hi = big.NewRat(65520, 1)
		}
		even := b%2 == 0
		for p := 1; p < digits; p++ {
			// the smallest p-digit decimal at or above lo (strictly above
			// when lo is excluded), against hi
			x := Float16FromBits(uint16(b)).Float64()
			e := int(math.Floor(math.Log10(x)))
			for _, exp := range []int{e - 1, e, e + 1} {
				scale := new(big.Rat).SetFrac(big.NewInt(1), big.NewInt(1))
				k := p - 1 - exp
				pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(k))), nil)
				if k >= 0 {
					scale.SetInt(pow)
				} else {
					scale.SetFrac(big.NewInt(1), pow)
				}
				n := new(big.Rat).Mul(lo, scale)
				q := new(big.Int).Quo(n.Num(), n.Denom()) // floor, n > 0
				for _, m := range []*big.Int{q, new(big.Int).Add(q, big.NewInt(1))} {
					if m.Sign() == 0 || len(m.String()) > p {
						continue
					}
					d := new(big.Rat).Quo(new(big.Rat).SetInt(m), scale)
					cmpLo, cmpHi := d.Cmp(lo), d.Cmp(hi)
					if (cmpLo > 0 || cmpLo == 0 && even) && (cmpHi < 0 || cmpHi == 0 && even) {
						t.Fatalf("%#04x.String() = %q (%d digits), but %s (%d digits) reads back as it too", b, s, digits, d.FloatString(12), p)
					}
				}
			}
		}
	}
}

func abs(k int) int {
	if k < 0 {
		return -k
	}
	return k
}

// TestFloat16GenericKernel: a generic kernel over cuda.Element (the
// constraint that exists so that such code can take Float16) compiles and
// runs instantiated with Float16 on every backend, as with a number.
func TestFloat16GenericKernel(t *testing.T) {
	eachBackend(t, func(t *testing.T, backend string) {
		h := make([]Float16, 15)
		f := make([]float32, 15)
		for i := range h {
			h[i], f[i] = F16(float32(i)-7.5), float32(i)-7.5
		}
		hb, fb := make([]Float16, 15), make([]float32, 15)
		if err := Jit(testkernels.ElementMove[Float16]).Launch(Dim1(1), Dim1(64), MustView2(h, 3, 5), hb); err != nil {
			t.Fatalf("ElementMove[Float16]: %v", err)
		}
		if err := Jit(testkernels.ElementMove[float32]).Launch(Dim1(1), Dim1(64), MustView2(f, 3, 5), fb); err != nil {
			t.Fatalf("ElementMove[float32]: %v", err)
		}
		if src, err := Jit(testkernels.ElementMove[Float16]).PTX(75); err != nil {
			t.Errorf("PTX of ElementMove[Float16]: %v", err)
		} else if backend == "cpu" {
			ptxastest.Assemble(t, "ElementMove[Float16]", src, 75)
		}
		if backend == "gpu-fake" {
			return // the recording fake runs no kernels
		}
		for i := range h {
			if hb[i] != h[i] || fb[i] != f[i] {
				t.Errorf("element %d: %v and %v, want %v and %v", i, hb[i], fb[i], h[i], f[i])
			}
		}
	})
}
