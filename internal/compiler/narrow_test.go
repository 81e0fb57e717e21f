package compiler

import (
	"go/token"
	"go/types"
	"math"
	"math/rand"
	"regexp"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/frontend"
)

const narrowSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func localLoop(t cuda.Thread, out []float64) {
	var buf [16]float64
	for k := 0; k < 16; k++ {
		buf[k] = float64(k)
	}
	s := 0.0
	for k := range buf {
		s += buf[k]
	}
	out[t.ThreadIdx().X] = s
}

func reduce(t cuda.Thread, in, out []float32) {
	sh := cuda.SharedArray[float32](t, 256)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.Grid1()]
	t.SyncThreads()
	for s := 128; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.SyncThreads()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

func shifts(t cuda.Thread, out []int64) {
	tid := t.ThreadIdx().X
	a := [8]int64{1, 2, 3, 4, 5, 6, 7, int64(tid)}
	for k := range 8 {
		out[tid] += int64(tid>>k) + a[k]*int64(k)
	}
	var buf [8]int64
	for k := range 8 {
		buf[k] = int64(tid << k)
	}
	out[0] = a[tid%8] + buf[tid&7]
	for k := range 4 {
		out[k] = mkArr(tid)[k] // an array value indexed by a variable
	}
}

func mkArr(x int) [4]int64 { return [4]int64{int64(x), 2, 3, 4} }

// tid-1 may be -1: a signed 32-bit index.
func negIdx(t cuda.Thread, a []float32) {
	tid := t.ThreadIdx().X
	a[tid-1] = 1
}

func divs(t cuda.Thread, out []float32, m int8) {
	tid := t.ThreadIdx().X
	q := tid/7 + tid%9 + tid/(tid%5+1) + tid%16 + tid/32
	out[q] = float32(q) + float32(int8(q))
	out[1] = float32(tid % int(m)) // m may be 0 or -1: 64-bit with its checks
}

// tid-5 may be negative: signed 32-bit multiply-high sequences (the
// interval analysis bounds quotients by positive divisors only: by
// negative ones, 64-bit multiply-high sequences).
func signedDivs(t cuda.Thread, out []int64) {
	x := t.ThreadIdx().X - 5
	out[x+5] = int64(x/7 + x%10 + x/-3 + x%-16)
}

// Grid1 may reach 2**41: its arithmetic stays 64-bit.
func grid(t cuda.Thread, a []float32) {
	i := t.Grid1()
	if i+1 < len(a) {
		a[i+1] = 1
	}
}

// A loop bounded by a parameter is not bounded.
func paramLoop(t cuda.Thread, a []int64, n int) {
	for k := 0; k < n; k++ {
		a[k] = int64(k)
	}
}

// k*k for k < 65536 overflows 32 bits.
func square(t cuda.Thread, a []int64) {
	for k := 0; k < 65536; k++ {
		a[k*k%7] += int64(k * k)
	}
}

// x - y of unsigned values in range can wrap below zero.
func unsignedSub(t cuda.Thread, a []uint) {
	x := uint(t.ThreadIdx().X)
	y := uint(t.ThreadIdx().Y)
	a[0] = x - y
}

// tid.y*ntid.x + tid.x < 2**31, and so is the y index of Grid2.
func grid2(t cuda.Thread, a cuda.Array2[float32]) {
	_, y := t.Grid2()
	ty, tx := t.ThreadIdx().Y, t.ThreadIdx().X
	l := ty*t.BlockDim().X + tx
	if y < 10 {
		a.Data()[l] = float32(y)
	}
}
`

func TestNarrowing(t *testing.T) {
	cases := []struct {
		kernel  string
		want    []string
		notWant []string
	}{
		{"localLoop", []string{`setp\.lt\.s32\s+%p\d+, %r\d+, 16;`, `add\.s32\s+%r\d+, %r\d+, 1;`, `cvt\.u64\.u32\s+%rd\d+, %r\d+;\s+shl\.b64\s+%rd\d+, %rd\d+, 3;`, `cvt\.rn\.f64\.s32`},
			[]string{`setp\.lt\.s64`, `add\.s64\s+%rd\d+, %rd\d+, 1;`}},
		{"reduce", []string{`setp\.gt\.s32\s+%p\d+, %r\d+, 0;`, `shr\.s32\s+%r\d+, %r\d+, 1;`, `add\.s32`, `setp\.lt\.s32`, `cvt\.u64\.u32\s+%rd\d+, %r\d+;\s+shl\.b64\s+%rd\d+, %rd\d+, 2;`},
			[]string{`setp\.\w+\.s64`, `shr\.s64`}},
		{"shifts", []string{`shr\.s32\s+%r\d+, %r\d+, %r\d+;`, `shl\.b32\s+%r\d+, %r\d+, %r\d+;`, `setp\.eq\.s32\s+%p\d+, %r\d+, 3;`}, []string{`shr\.s64`, `shl\.b64\s+%rd\d+, %rd\d+, %r`, `setp\.eq\.s64`}},
		{"negIdx", []string{`mul\.wide\.s32\s+%rd\d+, %r\d+, 4;`}, []string{`mul\.wide\.u32\s+%rd\d+, %r\d+, 4;`}},
		{"divs", []string{`mul\.wide\.u32\s+%rd\d+, %r\d+, 2454267027;\s+shr\.u64\s+%rd\d+, %rd\d+, 34;`, `shr\.u64\s+%rd\d+, %rd\d+, 35;(\s+\S+)+\s+mul\.lo\.u32\s+%r\d+, %r\d+, 9;`, `div\.u32\s+%r\d+, %r\d+, %r\d+;`, `and\.b32\s+%r\d+, %r\d+, 15;`, `shr\.u32\s+%r\d+, %r\d+, 5;`, `cvt\.rn\.f32\.s32`, `cvt\.s32\.s8`, `div\.s64`, `cvt\.rn\.f32\.s64`},
			[]string{`div\.s64\s+%rd\d+, %rd\d+, 7;`, `\.s64\s+%rd\d+, %rd\d+, 9;`}},
		{"signedDivs", []string{`mul\.hi\.s32\s+%r\d+, %r\d+, -1840700269;`, `mul\.hi\.s32\s+%r\d+, %r\d+, 1717986919;`, `mul\.hi\.s64\s+%rd\d+, %rd\d+, 6148914691236517205;`, `shr\.u32\s+%r\d+, %r\d+, 31;`},
			[]string{`div\.`, `rem\.`, `\.s64\s+%rd\d+, %rd\d+, (7|10);`}},
		{"grid", []string{`add\.s64\s+%rd\d+, %rd\d+, 1;`, `setp\.lt\.s64`}, []string{`add\.s32`, `setp\.lt\.s32`}},
		{"paramLoop", []string{`setp\.lt\.s64`, `add\.s64\s+%rd\d+, %rd\d+, 1;`}, []string{`setp\.lt\.s32`}},
		{"square", []string{`mul\.lo\.s64`, `add\.s32\s+%r\d+, %r\d+, 1;`}, []string{`mul\.lo\.s32`}},
		{"unsignedSub", []string{`sub\.u64`}, []string{`sub\.s32`}},
		{"grid2", []string{`mul\.lo\.s32`, `add\.s32`, `setp\.lt\.s32`}, nil},
	}
	for _, c := range cases {
		m, err := compileSrc(t, narrowSrc, c.kernel, Target{})
		if err != nil {
			t.Fatalf("%s: %v", c.kernel, err)
		}
		for _, w := range c.want {
			if !regexp.MustCompile(w).MatchString(m.PTX) {
				t.Errorf("%s: PTX lacks %q:\n%s", c.kernel, w, m.PTX)
			}
		}
		for _, w := range c.notWant {
			if regexp.MustCompile(w).MatchString(m.PTX) {
				t.Errorf("%s: PTX has %q:\n%s", c.kernel, w, m.PTX)
			}
		}
		assembleAll(t, c.kernel, m)
	}
}

func TestBinRange(t *testing.T) {
	i64 := types.Typ[types.Int]
	u64 := types.Typ[types.Uint]
	i8 := types.Typ[types.Int8]
	cases := []struct {
		op   token.Token
		x, y rng
		t    types.Type
		want rng
	}{
		{token.ADD, rng{0, 15}, rng{1, 1}, i64, rng{1, 16}},
		{token.ADD, rng{0, math.MaxInt64}, rng{1, 1}, i64, full},
		{token.SUB, rng{0, 10}, rng{0, 10}, i64, rng{-10, 10}},
		{token.SUB, rng{0, 10}, rng{0, 10}, u64, full},
		{token.MUL, rng{-3, 4}, rng{-5, 2}, i64, rng{-20, 15}},
		{token.MUL, rng{0, 1 << 40}, rng{0, 1 << 40}, i64, full},
		{token.ADD, rng{100, 120}, rng{10, 10}, i8, rng{math.MinInt8, math.MaxInt8}},
		{token.QUO, rng{-7, 9}, rng{2, 4}, i64, rng{-3, 4}},
		{token.REM, rng{-100, 100}, rng{1, 8}, i64, rng{-7, 7}},
		{token.REM, rng{0, 3}, rng{1, 8}, i64, rng{0, 3}},
		{token.AND, rng{-5, 5}, rng{0, 255}, i64, rng{0, 255}},
		{token.OR, rng{0, 5}, rng{0, 9}, i64, rng{0, 15}},
		{token.SHR, rng{-8, 1024}, rng{1, 2}, i64, rng{-4, 512}},
		{token.SHL, rng{0, 3}, rng{4, 4}, i64, rng{0, 48}},
		{token.SHL, rng{0, 3}, rng{62, 62}, i64, full},
	}
	for _, c := range cases {
		if got := binRange(c.op, c.x, c.y, c.t); got != c.want {
			t.Errorf("%v %s %v (%s) = %v, want %v", c.x, c.op, c.y, c.t, got, c.want)
		}
	}
}

// TestDebugChecksElided: in debug mode, indexes proven in range of a
// constant-length array need no check; the others keep theirs.
func TestDebugChecksElided(t *testing.T) {
	cases := []struct {
		kernel string
		sites  int // checks left
	}{
		{"localLoop", 1},  // buf[k] twice: proven; out[tid]: runtime length
		{"paramLoop", 1},  // a[k]: runtime length
		{"reduce", 2 + 1}, // in[Grid1], out[BlockIdx]: runtime lengths; sh[tid+s]: tid+s may reach 1023+128
		{"square", 1 + 1}, // a[k*k%7] and a[k*k%7] again (load and store)
		{"shifts", 3 + 1},
		{"divs", 2 + 1}, // out[q], out[1]; tid % int(m): m may be 0; tid/7, tid%9, tid/(tid%5+1): proven  // out[tid] load and store, out[k] (4 > len?); a[tid%8], buf[tid&7], mkArr(tid)[k]: proven
	}
	for _, c := range cases {
		m, err := compileSrc(t, narrowSrc, c.kernel, Target{Debug: true})
		if err != nil {
			t.Fatalf("%s: %v", c.kernel, err)
		}
		if len(m.Sites) != c.sites {
			t.Errorf("%s: %d debug checks, want %d: %+v", c.kernel, len(m.Sites), c.sites, m.Sites)
		}
		assembleAll(t, c.kernel+"/debug", m)
	}
}

// TestMagicDivU31 checks the reciprocal of every small divisor and of
// random large ones on edge and random dividends below 2**31.
func TestMagicDivU31(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	divisors := []uint32{1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 100, 641, 1000003, 1<<31 - 1, 1<<30 + 1, 3 << 28}
	for d := uint32(1); d < 2000; d++ {
		divisors = append(divisors, d)
	}
	for i := 0; i < 200; i++ {
		divisors = append(divisors, uint32(rnd.Int63n(1<<31-1))+1)
	}
	for _, d := range divisors {
		m, sh := magicDivU31(d)
		xs := []uint32{0, 1, d - 1, d, d + 1, 1<<31 - 1, 1<<31 - 2, (1<<31 - 1) / d * d, (1<<31-1)/d*d - 1}
		for i := 0; i < 300; i++ {
			xs = append(xs, uint32(rnd.Int63n(1<<31)))
		}
		for _, x := range xs {
			if x >= 1<<31 {
				continue
			}
			if got := uint32(uint64(x) * uint64(m) >> sh); got != x/d {
				t.Fatalf("d=%d (m=%d, sh=%d): x=%d gives %d, want %d", d, m, sh, x, got, x/d)
			}
		}
	}
}

const uintMaxSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func kernel(t cuda.Thread, in []int64, out []int64) {
	i := t.Grid1()
	v := max(uint(in[2*i]), uint(5542404584781314715))
	w := min(uint(in[2*i]), uint(7))
	r := int(int16(in[2*i+1]))
	if in[2*i+1] > 0 {
		for k := 0; k < 4; k++ {
			r = max(int(min(int64(v), -2)), -2070302597693103544)
		}
	}
	out[i] = int64(r) + int64(w)
}
`

// TestUnsignedMaxRange: max of a uint of unknown range may be at or
// above 2^63, so int64 of it may be any int64 and nothing derived from it
// is narrowed (issue 21 item 0).
func TestUnsignedMaxRange(t *testing.T) {
	k, err := frontend.LoadSource("kernel.go", []byte(uintMaxSrc), "kernel")
	if err != nil {
		t.Fatal(err)
	}
	rs := analyzeRanges(k.Func)
	if rs == nil {
		t.Fatal("the analysis did not converge")
	}
	checked := 0
	for v, r := range rs.r {
		c, ok := v.(*ssa.Call)
		if !ok {
			continue
		}
		b, ok := c.Call.Value.(*ssa.Builtin)
		if !ok || b.Name() != "max" || !isUnsigned(c.Type()) {
			continue
		}
		checked++
		if r.nonNeg() {
			t.Errorf("%s(...) of type %s: range [%d, %d], want unknown (it may exceed 2^63-1)", b.Name(), c.Type(), r.lo, r.hi)
		}
	}
	if checked != 1 {
		t.Errorf("checked %d unsigned max calls, want 1", checked)
	}
}
