package vectorize

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
	"github.com/nugo-dev/nugo/math32"
)

// Top-level scalar functions, which the compiled backends (gpu, ptxsim)
// take: the CUDA target's kernels are compiled for each of them.

func negHalf(x float64) float64 { return -x * 0.5 }

func scaleBy(x float32, y int32) float64 { return float64(x) * float64(y) }

func lerp4(a, b, w float64, n int16) float64 { return (a + (b-a)*w) * float64(n) }

func maxI32(a, b int32) int32 { return max(a, b) }

// Complex ufuncs: Go's complex product and quotient, bit for bit on every
// target.
func cmul64(a, b complex64) complex64                  { return a * b }
func cdivScaled(a, b complex128, s float64) complex128 { return a / b * complex(s, 0) }

// Bool ufuncs: a predicate and the logical operators NumPy reduces with.
func above2(x float64) bool { return x > 2 }
func andB(a, b bool) bool   { return a && b }
func orB(a, b bool) bool    { return a || b }
func pick(c bool, a, b float32) float32 {
	if c {
		return a
	}
	return b
}

func addF64(a, b float64) float64 { return a + b }

// Float16 ufuncs (Numba's float16): each operation rounded to half
// precision, bit for bit on every target.
func toHalf(x float64) cuda.Float16                 { return cuda.F16FromFloat64(x) }
func hscale(x cuda.Float16, k float32) cuda.Float16 { return cuda.HMul(x, cuda.F16(k)) }
func hfma(a, b, c cuda.Float16) cuda.Float16        { return cuda.HFma(a, b, c) }
func haddH(a, b cuda.Float16) cuda.Float16          { return cuda.HAdd(a, b) }
func hpos(x cuda.Float16) bool                      { return cuda.HGt(x, cuda.Float16{}) }
func hlerp(a, b, w cuda.Float16, n int16) float32 {
	return cuda.HFma(cuda.HSub(b, a), w, a).Float32() * float32(n)
}

// halfBits is a result with its Float16s as their bits, so that a
// comparison of results compares bits (NaNs, zeros' signs).
func halfBits(r any, err error) (any, error) {
	switch v := r.(type) {
	case cuda.Float16:
		return v.Bits(), err
	case []cuda.Float16:
		b := make([]uint16, len(v))
		for i, h := range v {
			b[i] = h.Bits()
		}
		return b, err
	}
	return r, err
}

func hypot32(a, b float32) float32 { return float32(math.Sqrt(float64(a*a + b*b))) }

// TestCompiledKernelsPTX compiles the CUDA target's kernels the way the
// compiled backends do, for each kind of call: the function is inlined or
// called in the module, the entry has PTX parameters for the slices and
// numbers only, and ptxas accepts the module for sm_75 and sm_90.
func TestCompiledKernelsPTX(t *testing.T) {
	tests := []struct {
		name   string
		kernel *cuda.Kernel
		fn     any
		want   string // a regexp the PTX matches: the function's body
		params int    // PTX parameters of the entry
	}{
		{"New1 flat", New1(negHalf).kernels().flat, negHalf, `mul\.rn\.f64`, 6},
		{"New1 broadcast", New1(negHalf).kernels().broadcast, negHalf, `mul\.rn\.f64`, 12},
		{"New2 flat", New2(scaleBy).kernels().flat, scaleBy, `cvt\.rn\.f64\.s32`, 9},
		{"New2 broadcast", New2(scaleBy).kernels().broadcast, scaleBy, `cvt\.rn\.f64\.s32`, 18},
		{"New3 flat", New3(axpy[float32]).kernels().flat, axpy[float32], `mul\.rn\.f32`, 12},
		{"New3 broadcast", New3(axpy[float32]).kernels().broadcast, axpy[float32], `mul\.rn\.f32`, 24},
		{"New4 flat", New4(lerp4).kernels().flat, lerp4, `sub\.rn\.f64`, 15},
		{"New4 broadcast", New4(lerp4).kernels().broadcast, lerp4, `sub\.rn\.f64`, 30},
		{"Reduce", New2(maxI32).reduceKernels().chunk, maxI32, `max\.s32`, 7},
		{"ReduceAxis", New2(addF64).reduceKernels().axis, addF64, `add\.rn\.f64`, 8},
		{"AccumulateAxis", New2(hypot32).reduceKernels().accumulate, hypot32, `sqrt\.rn\.f64`, 9},
		{"float16 New3", New3(hfma).kernels().flat, hfma, `fma\.rn\.f16`, 12},
		{"float16 Reduce", New2(haddH).reduceKernels().chunk, haddH, `add(\.rn)?\.f16`, 7},
		{"math.Sqrt", New1(math.Sqrt).kernels().flat, math.Sqrt, `sqrt\.rn\.f64`, 6},
		{"math32.Exp", New1(math32.Exp).kernels().flat, math32.Exp, `mul\.rn\.f32 .*0f3FB8AA3B`, 6}, // devmath's exp: x·log2(e)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if name := tc.kernel.Name(); !strings.HasSuffix(name, "Kernel") || strings.Contains(name, ".") {
				t.Errorf("kernel name %q; want the generic kernel's name, such as map1Kernel", name)
			}
			for _, sm := range []int{75, 90} {
				ptx, err := tc.kernel.PTX(sm, tc.fn)
				if err != nil {
					t.Fatal(err)
				}
				if !regexp.MustCompile(tc.want).MatchString(ptx) {
					t.Errorf("sm_%d: the PTX lacks the function's %s:\n%s", sm, tc.want, ptx)
				}
				entry := ptx[strings.Index(ptx, ".entry"):]
				if n := strings.Count(entry[:strings.Index(entry, ")")], ".param"); n != tc.params {
					t.Errorf("sm_%d: entry has %d parameters, want %d (none for the function)", sm, n, tc.params)
				}
				assemble(t, ptx, sm)
			}
		})
	}
}

// assemble checks the PTX with ptxas; it is skipped visibly where ptxas is
// absent, but not under CI=true.
func assemble(t *testing.T, ptx string, sm int) {
	t.Helper()
	ptxastest.Assemble(t, t.Name(), ptx, sm)
}

// TestCompiledKernelsRefuseClosures: the compiled forms of the kernels
// refuse a closure as a compile error (resolve keeps such a ufunc off the
// compiled backends before it gets there).
func TestCompiledKernelsRefuseClosures(t *testing.T) {
	k := 2.0
	f := func(x float64) float64 { return x * k }
	_, err := New1(f).kernels().flat.PTX(75, f)
	if err == nil || !strings.Contains(err.Error(), "pass a top-level function, not a closure") {
		t.Fatalf("PTX with a closure: %v", err)
	}
}

// onBackend makes b package cuda's backend for the test, or skips the test
// (visibly) where this build lacks it.
func onBackend(t *testing.T, b cuda.Backend) {
	t.Helper()
	prev, err := cuda.CurrentBackend()
	if err != nil {
		t.Fatal(err)
	}
	if err := cuda.SetBackend(b); err != nil {
		if b == cuda.GPU && os.Getenv("NUGO_REQUIRE_GPU") == "1" {
			t.Fatalf("NUGO_REQUIRE_GPU=1 but the GPU backend cannot be used: %v", err)
		}
		t.Skipf("SKIP: backend %s is not available here: %v", b, err)
	}
	t.Cleanup(func() {
		if err := cuda.SetBackend(prev); err != nil {
			t.Errorf("restoring backend %s: %v", prev, err)
		}
	})
}

// TestCUDATargetOnPTXSim runs the CUDA target through the compiler and the
// PTX interpreter: every kind of call gives exactly what the CPU target
// gives.
func TestCUDATargetOnPTXSim(t *testing.T) { testCompiledTarget(t, cuda.PTXSim) }

// TestCUDATargetOnGPU is the same on a real GPU, where there is one.
func TestCUDATargetOnGPU(t *testing.T) { testCompiledTarget(t, cuda.GPU) }

func testCompiledTarget(t *testing.T, backend cuda.Backend) {
	onBackend(t, backend)
	const n = 37
	a, b, c := ramp[float64](n, 1.5, 0), ramp[float64](n, 0.25, 3), ramp[float64](n, 0.01, 5)
	f32, g32, i32, i16 := ramp[float32](n, 0.5, 1), ramp[float32](n, 0.75, 2), ramp[int32](n, 1, 2), ramp[int16](n, 1, 4)
	gt2 := func(x []float64) []bool { // above2 over x, written out
		out := make([]bool, len(x))
		for i, v := range x {
			out[i] = v > 2
		}
		return out
	}
	// Half-precision operands: ordinary numbers, subnormals, overflow to
	// infinity, a NaN and both zeros among them.
	hsrc := ramp[float64](n, 0.37, -6)
	hsrc[3], hsrc[5], hsrc[7], hsrc[9], hsrc[11] = 1e-6, 70000, math.NaN(), math.Copysign(0, -1), -3e-7
	h, hb, hc := make([]cuda.Float16, n), make([]cuda.Float16, n), make([]cuda.Float16, n)
	for i := range h {
		h[i], hb[i], hc[i] = toHalf(hsrc[i]), cuda.F16(g32[i]), cuda.F16(-f32[i]/7)
	}
	type call func(tg Target) (any, error)
	tests := []struct {
		name string
		run  call
	}{
		{"New1", func(tg Target) (any, error) { return New1(negHalf, tg).Apply(a) }},
		{"New2 mixed types", func(tg Target) (any, error) { return New2(scaleBy, tg).Apply(f32, i32) }},
		{"New3 generic", func(tg Target) (any, error) { return New3(axpy[float64], tg).Apply(a, b, c) }},
		{"New4", func(tg Target) (any, error) { return New4(lerp4, tg).Apply(a, b, c, i16) }},
		{"New2 math", func(tg Target) (any, error) { return New2(hypot32, tg).Apply(f32, g32) }},
		{"math.Sqrt", func(tg Target) (any, error) { return New1(math.Sqrt, tg).Apply(a) }},
		{"bits.OnesCount64", func(tg Target) (any, error) {
			return New1(bits.OnesCount64, tg).Apply(ramp[uint64](n, 12345.5, 3))
		}},
		{"broadcast", func(tg Target) (any, error) {
			r, err := New2(addF64, tg).Call(Of(a[:12], 3, 4), Of(b[:4], 4))
			return r.Data, err
		}},
		{"broadcast scalar", func(tg Target) (any, error) {
			r, err := New3(axpy[float32], tg).Call(Scalar[float32](2), Slice(f32), Of(g32[:1], 1))
			return r.Data, err
		}},
		{"outer", func(tg Target) (any, error) {
			r, err := New2(maxI32, tg).Outer(Slice(i32[:5]), Slice(i32[3:9]))
			return r.Data, err
		}},
		{"Reduce", func(tg Target) (any, error) { return Reduce(New2(maxI32, tg), ramp[int32](3000, 1, 7)) }},
		{"ReduceAxis", func(tg Target) (any, error) {
			r, err := ReduceAxis(New2(addF64, tg), Of(a[:36], 3, 4, 3), 1)
			return r.Data, err
		}},
		{"AccumulateAxis", func(tg Target) (any, error) {
			r, err := AccumulateAxis(New2(hypot32, tg), Of(f32[:36], 4, 9), 0)
			return r.Data, err
		}},
		{"Accumulate", func(tg Target) (any, error) { return Accumulate(New2(maxI32, tg), i32) }},
		{"complex64 product", func(tg Target) (any, error) {
			x, y := make([]complex64, n), make([]complex64, n)
			for i := range x {
				x[i], y[i] = complex(f32[i], g32[i]), complex(g32[i], -f32[i]/3)
			}
			return New2(cmul64, tg).Apply(x, y)
		}},
		{"complex128 quotient", func(tg Target) (any, error) {
			x, y := make([]complex128, n), make([]complex128, n)
			for i := range x {
				x[i], y[i] = complex(a[i], b[i]), complex(c[i], a[i]-b[i])
			}
			return New3(cdivScaled, tg).Apply(x, y, c)
		}},
		{"complex Reduce", func(tg Target) (any, error) {
			x := make([]complex64, 40)
			for i := range x {
				x[i] = complex(float32(i%3)-1, 0.5)
			}
			return Reduce(New2(cmul64, tg), x)
		}},
		{"bool predicate", func(tg Target) (any, error) { return New1(above2, tg).Apply(a) }},
		{"bool operands", func(tg Target) (any, error) {
			return New3(pick, tg).Apply(gt2(b), f32, g32)
		}},
		{"bool broadcast", func(tg Target) (any, error) {
			r, err := New2(andB, tg).Call(Of(gt2(a[:12]), 3, 4), Scalar(true))
			return r.Data, err
		}},
		{"bool Reduce", func(tg Target) (any, error) {
			all, err := Reduce(New2(andB, tg), gt2(a))
			if err != nil {
				return nil, err
			}
			some, err := Reduce(New2(orB, tg), gt2(a))
			return []bool{all, some}, err
		}},
		{"bool Accumulate", func(tg Target) (any, error) { return Accumulate(New2(orB, tg), gt2(b)) }},
		{"float16 conversion", func(tg Target) (any, error) { return halfBits(New1(toHalf, tg).Apply(hsrc)) }},
		{"float16 mixed types", func(tg Target) (any, error) { return halfBits(New2(hscale, tg).Apply(h, f32)) }},
		{"float16 New3", func(tg Target) (any, error) { return halfBits(New3(hfma, tg).Apply(h, hb, hc)) }},
		{"float16 New4", func(tg Target) (any, error) { return New4(hlerp, tg).Apply(h, hb, hc, i16) }},
		{"float16 predicate", func(tg Target) (any, error) { return New1(hpos, tg).Apply(h) }},
		{"float16 broadcast", func(tg Target) (any, error) {
			r, err := New2(haddH, tg).Call(Of(h[:12], 3, 4), Of(hb[:4], 4))
			return halfBits(r.Data, err)
		}},
		{"float16 Reduce", func(tg Target) (any, error) { return halfBits(Reduce(New2(haddH, tg), h)) }},
		{"float16 Accumulate", func(tg Target) (any, error) { return halfBits(Accumulate(New2(haddH, tg), h)) }},
		{"float16 ReduceAxis", func(tg Target) (any, error) {
			r, err := ReduceAxis(New2(haddH, tg), Of(h[:36], 3, 4, 3), 1)
			return halfBits(r.Data, err)
		}},
		{"float16 AccumulateAxis", func(tg Target) (any, error) {
			r, err := AccumulateAxis(New2(haddH, tg), Of(h[:36], 4, 9), 0)
			return halfBits(r.Data, err)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := tc.run(CPU)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tc.run(CUDA)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("cuda target on %s: %v\nwant (cpu target) %v", backend, got, want)
			}
		})
	}
}

// TestDeviceOperandsOnPTXSim: device arrays stay on the device, and Auto
// runs a call with one on the CUDA target.
func TestDeviceOperandsOnPTXSim(t *testing.T) {
	onBackend(t, cuda.PTXSim)
	x := []float64{1, 2, 3, 4}
	d, err := cuda.ToDevice(x)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	out, err := cuda.NewDeviceArray[float64](4)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	if err := New1(negHalf).CallInto(Device(out), Device(d)); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, 4)
	if err := out.CopyToHost(got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != negHalf(x[i]) {
			t.Fatalf("out = %v, want negHalf of %v", got, x)
		}
	}
}

// TestAutoOnPTXSim: Auto stays on Parallel on the interpreter, and a
// closure gets ErrTargetUnavailable from the CUDA target there.
func TestAutoOnPTXSim(t *testing.T) {
	onBackend(t, cuda.PTXSim)
	if tg, err := New1(negHalf).cfg.resolve(false); err != nil || tg != Parallel {
		t.Errorf("Auto on ptxsim resolves to %q, %v; want parallel", tg, err)
	}
	k := 2.0
	_, err := New1(func(x float64) float64 { return x * k }, CUDA).Apply([]float64{1})
	if !errors.Is(err, ErrTargetUnavailable) {
		t.Errorf("closure on ptxsim: %v; want ErrTargetUnavailable", err)
	}
}

// TestBoolUfuncs: a predicate makes a []bool, which ufuncs of bools
// combine and reduce as NumPy's logical_and/logical_or do, on every target.
func TestBoolUfuncs(t *testing.T) {
	onBackend(t, cuda.PTXSim)
	x := []float64{1, 3, 2, 5, 2.5}
	for _, tg := range []Target{CPU, Parallel, CUDA} {
		t.Run(string(tg), func(t *testing.T) {
			p, err := New1(above2, tg).Apply(x)
			if want := []bool{false, true, false, true, true}; err != nil || fmt.Sprint(p) != fmt.Sprint(want) {
				t.Fatalf("above2 = %v, %v; want %v", p, err, want)
			}
			all, err1 := Reduce(New2(andB, tg), p)
			some, err2 := Reduce(New2(orB, tg), p)
			seen, err3 := Accumulate(New2(orB, tg), p)
			if err := errors.Join(err1, err2, err3); err != nil || all || !some || fmt.Sprint(seen) != "[false true true true true]" {
				t.Fatalf("all %v, any %v, accumulated or %v, %v", all, some, seen, err)
			}
			r, err := New3(pick, tg).Apply(p, []float32{1, 2, 3, 4, 5}, []float32{-1, -2, -3, -4, -5})
			if err != nil || fmt.Sprint(r) != "[-1 2 -3 4 5]" {
				t.Fatalf("pick = %v, %v", r, err)
			}
		})
	}
}

// TestHalfUfuncs: ufuncs of cuda.Float16 (Numba's float16) map, reduce and
// accumulate on every target with the host's half-precision arithmetic,
// bit for bit.
func TestHalfUfuncs(t *testing.T) {
	onBackend(t, cuda.PTXSim)
	x := []cuda.Float16{cuda.F16(1), cuda.F16(2.5), cuda.F16(-0.1), cuda.Float16FromBits(0x7bff), cuda.Float16FromBits(0x0001)}
	k := []float32{2, -1, 3, 2, 0.5}
	var want struct {
		scaled, acc []cuda.Float16
		sum         cuda.Float16
	}
	for i := range x {
		want.scaled = append(want.scaled, hscale(x[i], k[i]))
		if i == 0 {
			want.sum = x[0]
		} else {
			want.sum = haddH(want.sum, x[i])
		}
		want.acc = append(want.acc, want.sum)
	}
	for _, tg := range []Target{CPU, Parallel, CUDA} {
		t.Run(string(tg), func(t *testing.T) {
			scaled, err := New2(hscale, tg).Apply(x, k)
			if err != nil || fmt.Sprint(halfBits(scaled, nil)) != fmt.Sprint(halfBits(want.scaled, nil)) {
				t.Fatalf("hscale = %v, %v; want %v", scaled, err, want.scaled)
			}
			if !slices.ContainsFunc(scaled, func(h cuda.Float16) bool { return h.Bits() == 0x7c00 }) {
				t.Errorf("hscale = %v; want 65504×2 to overflow to +Inf", scaled)
			}
			sum, err1 := Reduce(New2(haddH, tg), x)
			acc, err2 := Accumulate(New2(haddH, tg), x)
			if err := errors.Join(err1, err2); err != nil || sum.Bits() != want.sum.Bits() || fmt.Sprint(halfBits(acc, nil)) != fmt.Sprint(halfBits(want.acc, nil)) {
				t.Fatalf("sum %v, running sums %v, %v; want %v, %v", sum, acc, err, want.sum, want.acc)
			}
			pos, err := New1(hpos, tg).Apply(x)
			if err != nil || fmt.Sprint(pos) != "[true true false true true]" {
				t.Fatalf("hpos = %v, %v", pos, err)
			}
		})
	}
}

// TestHalfDeviceOperandsOnPTXSim: Float16 device arrays stay on the device
// through a Float16 ufunc on the CUDA target.
func TestHalfDeviceOperandsOnPTXSim(t *testing.T) {
	onBackend(t, cuda.PTXSim)
	x := []cuda.Float16{cuda.F16(1), cuda.F16(-2.5), cuda.Float16FromBits(0x7bff), cuda.Float16FromBits(0x0001)}
	d, err := cuda.ToDevice(x)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	out, err := cuda.NewDeviceArray[cuda.Float16](len(x))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	if err := New2(haddH).CallInto(Device(out), Device(d), Device(d)); err != nil {
		t.Fatal(err)
	}
	got, err := out.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if want := haddH(x[i], x[i]); got[i].Bits() != want.Bits() {
			t.Errorf("x[%d]+x[%d] = %#04x, want %#04x", i, i, got[i].Bits(), want.Bits())
		}
	}
}
