package math32

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const sweepN = 100000

func ulps(a, b float32) float64 {
	if a != a || b != b {
		if a != a && b != b {
			return 0
		}
		return math.Inf(1)
	}
	if a == b {
		return 0
	}
	if IsInf(a, 0) || IsInf(b, 0) {
		return math.Inf(1)
	}
	o := func(x float32) int64 {
		i := int64(int32(Float32bits(x)))
		if i < 0 {
			i = math.MinInt32 - i
		}
		return i
	}
	d := o(a) - o(b)
	if d < 0 {
		d = -d
	}
	return float64(d)
}

// points returns n float32 values: log-spaced magnitudes in [lo, hi] of
// both signs, uniform values in [-u, u], halves and integers.
func points(r *rand.Rand, n int, lo, hi, u float64) []float32 {
	xs := make([]float32, 0, n)
	for len(xs) < n {
		var x float64
		switch len(xs) % 4 {
		case 0, 1:
			x = math.Exp(math.Log(lo) + (math.Log(hi)-math.Log(lo))*r.Float64())
		case 2:
			x = (2*r.Float64() - 1) * u
		default:
			x = float64(r.Intn(1000)) / 2
		}
		if r.Intn(2) == 0 {
			x = -x
		}
		xs = append(xs, float32(x))
	}
	return xs
}

var sweeps = []struct {
	name   string
	f      func(float32) float32
	g      func(float64) float64
	lo, hi float64
	u      float64
	bound  float64
}{
	{"Sqrt", Sqrt, math.Sqrt, 1e-45, math.MaxFloat32, 4, 0},
	{"Floor", Floor, math.Floor, 1e-45, math.MaxFloat32, 4, 0},
	{"Ceil", Ceil, math.Ceil, 1e-45, math.MaxFloat32, 4, 0},
	{"Trunc", Trunc, math.Trunc, 1e-45, math.MaxFloat32, 4, 0},
	{"Round", Round, math.Round, 1e-45, math.MaxFloat32, 4, 0},
	{"RoundToEven", RoundToEven, math.RoundToEven, 1e-45, math.MaxFloat32, 4, 0},
	{"Abs", Abs, math.Abs, 1e-45, math.MaxFloat32, 4, 0},
	{"Exp", Exp, math.Exp, 1e-10, 105, 90, 1},
	{"Exp2", Exp2, math.Exp2, 1e-10, 151, 130, 1},
	{"Expm1", Expm1, math.Expm1, 1e-40, 90, 2, 1},
	{"Log", Log, math.Log, 1e-45, math.MaxFloat32, 4, 1},
	{"Log2", Log2, math.Log2, 1e-45, math.MaxFloat32, 4, 1},
	{"Log10", Log10, math.Log10, 1e-45, math.MaxFloat32, 4, 1},
	{"Log1p", Log1p, math.Log1p, 1e-40, math.MaxFloat32, 1, 1},
	{"Sin", Sin, math.Sin, 1e-40, math.MaxFloat32, 10, 1},
	{"Cos", Cos, math.Cos, 1e-40, math.MaxFloat32, 10, 1},
	{"Tan", Tan, math.Tan, 1e-40, math.MaxFloat32, 10, 1},
	{"Asin", Asin, math.Asin, 1e-40, 1, 1, 1},
	{"Acos", Acos, math.Acos, 1e-40, 1, 1, 1},
	{"Atan", Atan, math.Atan, 1e-40, math.MaxFloat32, 4, 1},
	{"Sinh", Sinh, math.Sinh, 1e-40, 90, 3, 1},
	{"Cosh", Cosh, math.Cosh, 1e-40, 90, 3, 1},
	{"Tanh", Tanh, math.Tanh, 1e-40, 12, 3, 1},
	{"Asinh", Asinh, math.Asinh, 1e-40, math.MaxFloat32, 3, 1},
	{"Acosh", Acosh, math.Acosh, 1, math.MaxFloat32, 3, 1},
	{"Atanh", Atanh, math.Atanh, 1e-40, 1, 1, 1},
	{"Cbrt", Cbrt, math.Cbrt, 1e-45, math.MaxFloat32, 8, 1},
	{"Erf", Erf, math.Erf, 1e-40, 5, 3, 1},
	{"Erfc", Erfc, math.Erfc, 1e-40, 11, 3, 1},
	{"FastExp(host)", FastExp, math.Exp, 1e-10, 105, 90, 1},
	{"FastExp2(host)", FastExp2, math.Exp2, 1e-10, 151, 130, 1},
	{"FastLog(host)", FastLog, math.Log, 1e-45, math.MaxFloat32, 4, 1},
	{"FastLog2(host)", FastLog2, math.Log2, 1e-45, math.MaxFloat32, 4, 1},
	{"FastSin(host)", FastSin, math.Sin, 1e-40, math.MaxFloat32, 10, 1},
	{"FastCos(host)", FastCos, math.Cos, 1e-40, math.MaxFloat32, 10, 1},
	{"FastSqrt(host)", FastSqrt, math.Sqrt, 1e-45, math.MaxFloat32, 4, 0},
	{"FastRsqrt(host)", FastRsqrt, func(x float64) float64 { return 1 / math.Sqrt(x) }, 1e-38, math.MaxFloat32, 4, 1},
}

func TestSweep(t *testing.T) {
	for i, c := range sweeps {
		r := rand.New(rand.NewSource(int64(i + 1)))
		var worst float64
		var wx float32
		for _, x := range points(r, sweepN, c.lo, c.hi, c.u) {
			if d := ulps(c.f(x), float32(c.g(float64(x)))); d > worst || d != d {
				worst, wx = d, x
			}
		}
		t.Logf("%-16s max %.0f ulp at %v", c.name, worst, wx)
		if !(worst <= c.bound) {
			t.Errorf("%s(%v) = %v, float32(Go) = %v: %v ulp; bound %v", c.name, wx, c.f(wx), float32(c.g(float64(wx))), worst, c.bound)
		}
	}
}

func TestSweep2(t *testing.T) {
	tests := []struct {
		name  string
		f     func(x, y float32) float32
		g     func(x, y float64) float64
		bound float64
	}{
		{"Pow", Pow, math.Pow, 1},
		{"Atan2", Atan2, math.Atan2, 1},
		{"Hypot", Hypot, math.Hypot, 1},
		{"Mod", Mod, math.Mod, 0},
		{"Remainder", Remainder, math.Remainder, 0},
		{"Dim", Dim, math.Dim, 0},
		{"Min", Min, math.Min, 0},
		{"Max", Max, math.Max, 0},
		{"Copysign", Copysign, math.Copysign, 0},
		{"FastDiv(host)", FastDiv, func(x, y float64) float64 { return x / y }, 0},
	}
	for i, c := range tests {
		r := rand.New(rand.NewSource(int64(100 + i)))
		xs := points(r, sweepN, 1e-30, 1e30, 4)
		ys := points(r, sweepN, 1e-30, 1e30, 4)
		var worst float64
		var wx, wy float32
		for k := range xs {
			x, y := xs[k], ys[k]
			if c.name == "Pow" {
				y = float32(math.Mod(float64(y), 40)) // keep x**y mostly finite
			}
			if d := ulps(c.f(x, y), float32(c.g(float64(x), float64(y)))); d > worst || d != d {
				worst, wx, wy = d, x, y
			}
		}
		t.Logf("%-14s max %.0f ulp at (%v, %v)", c.name, worst, wx, wy)
		if !(worst <= c.bound) {
			t.Errorf("%s(%v, %v) = %v, float32(Go) = %v: %v ulp", c.name, wx, wy, c.f(wx, wy), float32(c.g(float64(wx), float64(wy))), worst)
		}
	}
}

// TestFMA checks the single rounding of FMA against exact big products
// where float64 double rounding would go wrong.
func TestFMA(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	// exactFMA uses the float64 product (exact) and a float64 sum that is
	// exact here because the exponents are close.
	for i := 0; i < sweepN; i++ {
		x := float32(r.Float64()*2 - 1)
		y := float32(r.Float64()*2 - 1)
		z := float32(r.Float64()*2 - 1)
		p := float64(x) * float64(y)
		s := p + float64(z)
		if s-p != float64(z) || s-float64(z) != p {
			continue // the float64 sum was not exact; skip
		}
		if got, want := FMA(x, y, z), float32(s); got != want {
			t.Fatalf("FMA(%v, %v, %v) = %v, want %v", x, y, z, got, want)
		}
	}
	// A double-rounding case: x*y+z = 1 + 2**-24 + 2**-60 must round up.
	x, y, z := float32(1+0x1p-12), float32(1+0x1p-12), float32(-0x1p-11)
	// x*y = 1 + 2**-11 + 2**-24; + z = 1 + 2**-24: a tie, to even = 1.
	if got := FMA(x, y, z); got != 1 {
		t.Errorf("FMA tie = %v, want 1", got)
	}
	a, b, c := float32(1+0x1p-23), float32(1+0x1p-23), float32(0x1p-60)
	// (1+2**-23)**2 = 1 + 2**-22 + 2**-46; + 2**-60: rounds to 1 + 2**-22.
	if got, want := FMA(a, b, c), float32(1+0x1p-22); got != want {
		t.Errorf("FMA = %v, want %v", got, want)
	}
	d, e, f := float32(1+0x1p-12), float32(1-0x1p-12), float32(0x1p-24+0x1p-50)
	// d*e = 1 - 2**-24; + 2**-24 + 2**-50 = 1 + 2**-50 -> 1.
	if got := FMA(d, e, f); got != 1 {
		t.Errorf("FMA = %v, want 1", got)
	}
	g, h := float32(1+0x1p-23), float32(0x1p-25)
	// 1*(1+2**-23) is exact; adding 2**-25 + ... tests the odd rounding:
	// 1 + 2**-23 + 2**-25 -> 1 + 2**-23.
	if got := FMA(g, 1, h); got != g {
		t.Errorf("FMA = %v, want %v", got, g)
	}
}

func TestSpecialValues(t *testing.T) {
	nz := float32(math.Copysign(0, -1))
	inf, nan := Inf(1), NaN()
	same := func(a, b float32) bool {
		return a != a && b != b || Float32bits(a) == Float32bits(b)
	}
	tests := []struct {
		name      string
		got, want float32
	}{
		{"Min(-0, 0)", Min(nz, 0), nz}, {"Min(0, -0)", Min(0, nz), nz},
		{"Max(-0, 0)", Max(nz, 0), 0}, {"Max(0, -0)", Max(0, nz), 0},
		{"Min(NaN, -Inf)", Min(nan, -inf), -inf}, {"Max(NaN, Inf)", Max(nan, inf), inf},
		{"Min(NaN, 1)", Min(nan, 1), nan}, {"Max(1, NaN)", Max(1, nan), nan},
		{"Dim(Inf, Inf)", Dim(inf, inf), nan}, {"Dim(-0, 0)", Dim(nz, 0), 0},
		{"Sqrt(-0)", Sqrt(nz), nz}, {"Sqrt(-1)", Sqrt(-1), nan}, {"Sqrt(Inf)", Sqrt(inf), inf},
		{"Round(-0.5)", Round(-0.5), -1}, {"Round(-0.4)", Round(-0.4), nz}, {"RoundToEven(2.5)", RoundToEven(2.5), 2},
		{"Floor(-0)", Floor(nz), nz}, {"Ceil(-0.5)", Ceil(-0.5), nz}, {"Trunc(-Inf)", Trunc(-inf), -inf},
		{"Abs(-0)", Abs(nz), 0}, {"Copysign(1, -0)", Copysign(1, nz), -1},
		{"Exp(-Inf)", Exp(-inf), 0}, {"Log(-1)", Log(-1), nan}, {"Log(0)", Log(0), -inf},
		{"Sin(-0)", Sin(nz), nz}, {"Cos(Inf)", Cos(inf), nan}, {"Atan2(-0, -1)", Atan2(nz, -1), -Pi},
		{"Pow(-0, -1)", Pow(nz, -1), -inf}, {"Hypot(NaN, Inf)", Hypot(nan, inf), inf},
		{"Mod(5, 0)", Mod(5, 0), nan}, {"Remainder(5, Inf)", Remainder(5, inf), 5},
		{"FMA(Inf, 0, 1)", FMA(inf, 0, 1), nan}, {"FMA(-1, 0, 0)", FMA(-1, 0, 0), 0}, {"FMA(-1, 0, -0)", FMA(-1, 0, nz), nz},
		{"Erfc(-Inf)", Erfc(-inf), 2}, {"Cbrt(-8)", Cbrt(-8), -2},
	}
	for _, tt := range tests {
		if !same(tt.got, tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if !IsInf(inf, 1) || IsInf(inf, -1) || !IsInf(-inf, 0) || IsInf(MaxFloat32, 0) || !IsNaN(nan) || IsNaN(inf) {
		t.Error("IsInf/IsNaN")
	}
	if !Signbit(nz) || Signbit(0) || Float32frombits(Float32bits(1.5)) != 1.5 {
		t.Error("Signbit/Float32bits")
	}
	if fr, e := Frexp(8); fr != 0.5 || e != 4 {
		t.Errorf("Frexp(8) = %v, %v", fr, e)
	}
	if v := Ldexp(0.5, 4); v != 8 {
		t.Errorf("Ldexp(0.5, 4) = %v", v)
	}
	if i, f := Modf(-2.5); i != -2 || f != -0.5 {
		t.Errorf("Modf(-2.5) = %v, %v", i, f)
	}
}

func TestConstants(t *testing.T) {
	tests := []struct {
		name string
		got  float32
		want float64
	}{
		{"E", E, math.E}, {"Pi", Pi, math.Pi}, {"Phi", Phi, math.Phi}, {"Sqrt2", Sqrt2, math.Sqrt2},
		{"SqrtE", SqrtE, math.SqrtE}, {"SqrtPi", SqrtPi, math.SqrtPi}, {"SqrtPhi", SqrtPhi, math.SqrtPhi},
		{"Ln2", Ln2, math.Ln2}, {"Log2E", Log2E, math.Log2E}, {"Ln10", Ln10, math.Ln10}, {"Log10E", Log10E, math.Log10E},
		{"MaxFloat32", math.MaxFloat32, math.MaxFloat32}, {"SmallestNonzeroFloat32", SmallestNonzeroFloat32, math.SmallestNonzeroFloat32},
	}
	for _, tt := range tests {
		if tt.got != float32(tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, float32(tt.want))
		}
	}
}

// inline are the functions the compiler lowers to PTX instructions; every
// other exported function F must have devmath.F32 (the naming rule of
// doc.go).
var inline = map[string]bool{
	"Sqrt": true, "Floor": true, "Ceil": true, "Trunc": true, "RoundToEven": true, "Round": true,
	"Abs": true, "Copysign": true, "Signbit": true, "Min": true, "Max": true, "Dim": true, "FMA": true,
	"Inf": true, "NaN": true, "IsNaN": true, "IsInf": true, "Float32bits": true, "Float32frombits": true,
	"FastExp": true, "FastExp2": true, "FastLog": true, "FastLog2": true, "FastSin": true, "FastCos": true,
	"FastSqrt": true, "FastRsqrt": true, "FastDiv": true,
}

func exportedFuncs(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				out[fd.Name.Name] = true
			}
		}
	}
	return out
}

func TestNamingRule(t *testing.T) {
	mine := exportedFuncs(t, ".")
	dev := exportedFuncs(t, "../internal/devmath")
	for f := range mine {
		if !inline[f] && !dev[f+"32"] {
			t.Errorf("math32.%s has no devmath.%s32", f, f)
		}
	}
	// Round goes inline in the compiler, but keep the library's too.
	if !dev["Round32"] {
		t.Error("devmath.Round32 missing")
	}
	// Every function the compiler's declaration stub offers kernels exists.
	stub, err := os.ReadFile("../internal/frontend/stubs/math32.go.txt")
	if err != nil {
		t.Fatalf("the compiler stub: %v", err)
	}
	var missing []string
	for _, m := range regexp.MustCompile(`(?m)^func (\w+)\(`).FindAllStringSubmatch(string(stub), -1) {
		if !mine[m[1]] {
			missing = append(missing, m[1])
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("functions of the compiler's math32 stub missing here: %v", missing)
	}
}
