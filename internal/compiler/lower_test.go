package compiler

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
)

const lowerSrc = `package k

import (
	"math"
	"math/bits"

	"github.com/nugo-dev/nugo/cuda"
)

func fadd(t cuda.Thread, a, b []float64) {
	i := t.Grid1()
	if i < len(a) {
		a[i] = a[i]*b[i] + b[i]
	}
}

func div64(t cuda.Thread, a, b []int64) {
	i := t.Grid1()
	if i < len(a) {
		a[i] = a[i] / b[i]
	}
}

func divConst(t cuda.Thread, a []int64) {
	i := t.Grid1()
	if i < len(a) {
		a[i] = a[i] / 10
	}
}

func divRem(t cuda.Thread, a, b []int64) {
	i := t.Grid1()
	if x, y := a[i], b[i]; x%y == 0 {
		a[i] = x / y
	}
}

func divPow2(t cuda.Thread, a []int64) {
	i := t.Grid1()
	if i < len(a) {
		a[i] = a[i]/16 + a[i]%16
	}
}

func swap(t cuda.Thread, out []int64) {
	a, b := int64(1), int64(2)
	for k := 0; k < len(out); k++ {
		a, b = b, a
	}
	out[0] = a - b
}

func shared(t cuda.Thread, out []float32) {
	s := cuda.SharedArray[float32](t, 256)
	u := cuda.SharedArray[int64](t, 10)
	s[t.ThreadIdx().X] = 1
	u[0] = 2
	t.SyncThreads()
	out[0] = s[0] + float32(u[0])
	cuda.AtomicAdd(&out[1], 1)
	cuda.AtomicAdd(&s[1], 1)
}

func intr(t cuda.Thread, a []float64, n []uint64, r []int) {
	a[0] = math.Max(a[1], a[2]) + math.Sqrt(a[3]) + math.FMA(a[4], a[5], a[6])
	r[0] = bits.OnesCount64(n[0]) + bits.LeadingZeros64(n[1])
}

func printer(t cuda.Thread, a []int32, f []float32) {
	cuda.Printf("%d %v %5.2f %x %t\n", a[0], int64(a[1]), f[0], uint64(a[2]), a[0] > 0)
}

func params(t cuda.Thread, s float32, b bool, x []int16, m cuda.Array2[float64], y cuda.Array3[uint8]) {
	if b {
		x[0] = int16(s)
	}
	m.Set(0, 0, 1)
	y.Set(0, 0, 0, 1)
}

func nonconstShared(t cuda.Thread, n int, out []int32) {
	s := cuda.SharedArray[int32](t, n)
	out[0] = s[0]
}

func small(s []float32, i int) float32 { return s[i] * 2 }

func fact(n int) int {
	if n < 2 {
		return 1
	}
	return n * fact(n-1)
}

func inl(t cuda.Thread, out []float32, r []int) {
	sh := cuda.SharedArray[float32](t, 32)
	out[0] = small(out, 1) + small(sh, 2)
	r[0] = fact(r[1])
}
`

func compileLower(t *testing.T, name string, target Target) *Module {
	t.Helper()
	m, err := compileSrc(t, lowerSrc, name, target)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	assembleAll(t, name, m)
	return m
}

// TestLowering checks the PTX of small kernels with contains / not-contains
// patterns (regular expressions).
func TestLowering(t *testing.T) {
	cases := []struct {
		kernel  string
		target  Target
		want    []string
		notWant []string
	}{
		{"fadd", Target{}, []string{`mul\.rn\.f64`, `add\.rn\.f64`, `ld\.global\.nc\.f64`, `ld\.global\.f64`, `st\.global\.f64`, `\.target sm_75`, `\.version 7\.8`}, []string{`fma`, `ld\.f64`}},
		{"fadd", Target{FastMath: true}, []string{`mul\.f64`, `add\.f64`}, []string{`\.rn\.f64`}},
		{"fadd", Target{SM: 90}, []string{`\.target sm_90`}, nil},
		// PTX 7.8 names no architecture after sm_90: newer devices JIT sm_90 PTX.
		{"fadd", Target{SM: 100}, []string{`\.version 7\.8\s`, `\.target sm_90\s`}, nil},
		{"fadd", Target{SM: 120}, []string{`\.target sm_90\s`}, []string{`sm_120`}},
		{"fadd", Target{SM: 86}, []string{`\.target sm_86\s`}, nil},
		{"fadd", Target{NoReadOnlyCache: true}, nil, []string{`\.nc`}},
		{"shared", Target{}, nil, []string{`\.nc`}},
		{"div64", Target{}, []string{`div\.u32`, `div\.s64`, `and\.b64 .*-4294967296`, `setp\.eq\.s64 .*, -1`}, nil},
		{"divRem", Target{}, []string{`(?s)div\.s64.*div\.u32`}, []string{`rem\.`, `(?s)div\.s64.*div\.s64`}},
		{"divConst", Target{}, []string{`mul\.hi\.s64 .*, 7378697629483820647;`, `shr\.s64 .*, 2;`, `shr\.u64 .*, 63;`}, []string{`-1;`, `div\.`, `rem\.`}},
		{"divPow2", Target{}, []string{`shr\.s64`, `shr\.u64`, `and\.b64 .*, -16;`}, []string{`div\.`, `rem\.`}},
		{"shared", Target{}, []string{`\.shared \.align 16 \.b8 __shared_\w+\[1024\]`, `\.shared \.align 16 \.b8 __shared_\w+\[80\]`, `st\.shared\.f32`, `bar\.sync \t0`, `atom\.global\.add\.f32`, `atom\.shared\.add\.f32`}, nil},
		{"intr", Target{}, []string{`max\.f64`, `setp\.nan\.f64`, `0d7FF8000000000001`, `sqrt\.rn\.f64`, `fma\.rn\.f64`, `popc\.b64`, `clz\.b64`}, nil},
		{"printer", Target{}, []string{`vprintf`, `cvta\.local\.u64`, `st\.local\.f64`}, nil},
		{"inl", Target{}, []string{`call\.uni \(retval0\), fn_fact`, `ld\.shared\.f32`, `ld\.global\.f32`}, []string{`fn_small`}},
		{"fadd", Target{Debug: true}, []string{ErrorSymbol, `atom\.global\.cas\.b32`, `exit;`}, nil},
		{"fadd", Target{}, nil, []string{ErrorSymbol, `exit;`}},
	}
	for _, c := range cases {
		m := compileLower(t, c.kernel, c.target)
		for _, w := range c.want {
			if !regexp.MustCompile(w).MatchString(m.PTX) {
				t.Errorf("%s %+v: PTX lacks %q:\n%s", c.kernel, c.target, w, m.PTX)
			}
		}
		for _, w := range c.notWant {
			if regexp.MustCompile(w).MatchString(m.PTX) {
				t.Errorf("%s %+v: PTX has %q:\n%s", c.kernel, c.target, w, m.PTX)
			}
		}
	}
}

func TestModuleMetadata(t *testing.T) {
	m := compileLower(t, "shared", Target{})
	if m.SharedBytes < 1024+80 {
		t.Errorf("SharedBytes = %d, want at least %d", m.SharedBytes, 1024+80)
	}
	p := compileLower(t, "printer", Target{})
	if !p.UsesPrintf || m.UsesPrintf {
		t.Errorf("UsesPrintf: printer %v, shared %v", p.UsesPrintf, m.UsesPrintf)
	}
	d := compileLower(t, "fadd", Target{Debug: true})
	if !d.UsesErrorRecord || len(d.Sites) == 0 || !strings.Contains(d.Sites[0].Pos, "kernel.go:") {
		t.Errorf("debug module: UsesErrorRecord %v, sites %v", d.UsesErrorRecord, d.Sites)
	}
	// Format translation reaches the module's string constant.
	if !strings.Contains(p.PTX, bytesOf("%d %lld %5.2f %llx %s\n")) {
		t.Errorf("printf format not translated to C:\n%s", p.PTX)
	}
}

// bytesOf renders s as the comma-separated bytes of a PTX initializer.
func bytesOf(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(int(s[i])))
	}
	return b.String()
}

func TestParamLayout(t *testing.T) {
	m := compileLower(t, "params", Target{})
	type want struct {
		kind  ParamKind
		elem  string
		roles string
	}
	wants := []want{
		{Scalar, "float32", "value"},
		{Scalar, "bool", "value"},
		{Slice, "int16", "ptr len cap"},
		{Array2, "float64", "ptr len cap rows cols off s0 s1"},
		{Array3, "uint8", "ptr len cap d0 d1 d2 off s0 s1 s2"},
	}
	if len(m.Params) != len(wants) {
		t.Fatalf("got %d params, want %d: %+v", len(m.Params), len(wants), m.Params)
	}
	end := 0
	for i, w := range wants {
		p := m.Params[i]
		var roles []string
		for _, pp := range p.PTX {
			roles = append(roles, pp.Role)
			if pp.Offset%pp.Size != 0 || pp.Offset < end {
				t.Errorf("param %s: offset %d size %d misaligned or overlapping (previous end %d)", pp.Name, pp.Offset, pp.Size, end)
			}
			end = pp.Offset + pp.Size
			if !strings.Contains(m.PTX, pp.Type+" "+pp.Name) {
				t.Errorf("PTX lacks parameter %s %s", pp.Type, pp.Name)
			}
		}
		if p.Kind != w.kind || p.Elem != w.elem || strings.Join(roles, " ") != w.roles {
			t.Errorf("param %d: got %v %s %v, want %v %s %s", i, p.Kind, p.Elem, roles, w.kind, w.elem, w.roles)
		}
	}
	if m.ParamBytes < end {
		t.Errorf("ParamBytes = %d < %d", m.ParamBytes, end)
	}
}

func TestCompileErrorPositions(t *testing.T) {
	_, err := compileSrc(t, lowerSrc, "nonconstShared", Target{})
	var fe *frontend.Error
	if !errors.As(err, &fe) || len(fe.Diags) == 0 {
		t.Fatalf("got %v, want a *frontend.Error", err)
	}
	d := fe.Diags[0]
	if d.Pos.Line != 82 || !strings.Contains(d.Msg, "must be a constant") {
		t.Errorf("got %s, want kernel.go:82: ...must be a constant...", d)
	}
}

// TestTranslateFormat checks Go verbs against the C ones vprintf needs.
func TestTranslateFormat(t *testing.T) {
	args := func(ss ...scalar) []printfArg {
		var out []printfArg
		for _, s := range ss {
			out = append(out, printfArg{s: s})
		}
		return out
	}
	cases := []struct {
		format string
		args   []printfArg
		want   string
		bad    bool
	}{
		{"%d %d %d\n", args(sI64, sI32, sU8), "%lld %d %u\n", false},
		{"%v %v %v %v", args(sF32, sU64, sI16, sBool), "%g %llu %d %s", false},
		{"%08.3f|%-5x|%X|%o|%c|%e|%G", args(sF64, sU32, sI64, sU16, sI32, sF64, sF32), "%08.3f|%-5x|%llX|%o|%c|%e|%G", false},
		{"100%% %t", args(sBool), "100%% %s", false},
		{"%s=%d", []printfArg{{isConst: true, str: "n%"}, {s: sI64}}, "n%%=%lld", false},
		{"%d %d", args(sI64), "", true},
		{"%q", args(sI64), "", true},
		{"%*d", args(sI64, sI64), "", true},
		{"%s", args(sI64), "", true},
	}
	for _, c := range cases {
		got, _, err := translateFormat(c.format, c.args)
		if c.bad {
			if err == nil {
				t.Errorf("%q: want an error, got %q", c.format, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.format, got, err, c.want)
		}
	}
}
