package vectorize

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// Top-level gufunc functions, which the compiled backends take (with
// movingAverage and sum of gufunc_test.go).

func dot[T cuda.Number](a, b []T, out *T) {
	var s T
	for i := range a {
		s += a[i] * b[i]
	}
	*out = s
}

// affine has four operands of mixed types.
func affine(x []float32, a float32, b int32, out []float32) {
	for i, v := range x {
		out[i] = a*v + float32(b)
	}
}

// extremes has two () outputs.
func extremes(x []int, lo, hi *int) {
	*lo, *hi = x[0], x[0]
	for _, v := range x[1:] {
		*lo, *hi = min(*lo, v), max(*hi, v)
	}
}

// convolve has two core dimensions, the window centred, zero outside x.
func convolve(x, w []float64, out []float64) {
	for i := range x {
		var s float64
		for j := range w {
			if k := i + j - len(w)/2; k >= 0 && k < len(x) {
				s += x[k] * w[j]
			}
		}
		out[i] = s
	}
}

// matmulOf is matmul for any element type: c = a·b.
func matmulOf[T cuda.Number](a, b, c cuda.Array2[T]) {
	m, n := a.Shape()
	_, p := b.Shape()
	for i := range m {
		for j := range p {
			var s T
			for k := range n {
				s += a.At(i, k) * b.At(k, j)
			}
			c.Set(i, j, s)
		}
	}
}

// scale multiplies a matrix by a number: a 2-D core and a () operand.
func scale(a cuda.Array2[float32], f float32, out cuda.Array2[float32]) {
	rows, cols := a.Shape()
	for i := range rows {
		for j := range cols {
			out.Set(i, j, f*a.At(i, j))
		}
	}
}

// outer makes a 2-D core of two 1-D ones.
func outer(x, y []int32, out cuda.Array2[int32]) {
	for i, u := range x {
		for j, v := range y {
			out.Set(i, j, u*v-int32(j))
		}
	}
}

// transpose writes a's transpose; its output's shape is its input's
// reversed.
func transpose(a, out cuda.Array2[int64]) {
	rows, cols := a.Shape()
	for i := range rows {
		for j := range cols {
			out.Set(j, i, a.At(i, j))
		}
	}
}

// shift3 adds d to a 3-D core, indexing it by At and Set.
func shift3(a cuda.Array3[float64], d float64, out cuda.Array3[float64]) {
	d0, d1, d2 := a.Shape()
	for i := range d0 {
		for j := range d1 {
			for k := range d2 {
				out.Set(i, j, k, a.At(i, j, k)+d*float64(k))
			}
		}
	}
}

// planeSums sums each plane of a 3-D core into a 1-D core.
func planeSums(a cuda.Array3[uint16], out []uint32) {
	d0, d1, d2 := a.Shape()
	for i := range d0 {
		var s uint32
		for j := range d1 {
			for k := range d2 {
				s += uint32(a.At(i, j, k))
			}
		}
		out[i] = s
	}
}

func warm(x []celsius, out []celsius) {
	for i, v := range x {
		out[i] = v + 1
	}
}

// TestGUOnPTXSim runs gufuncs' CUDA target through the compiler and the
// PTX interpreter: each call gives exactly what the CPU target gives.
func TestGUOnPTXSim(t *testing.T) { testCompiledGU(t, cuda.PTXSim) }

// TestGUOnGPU is the same on a real GPU, where there is one.
func TestGUOnGPU(t *testing.T) { testCompiledGU(t, cuda.GPU) }

func testCompiledGU(t *testing.T, backend cuda.Backend) {
	onBackend(t, backend)
	const rows, n = 6, 9
	x := ramp[float64](rows*n, 1.5, 0)
	widths := ramp[int64](rows, 1, 1)
	f32, g32 := ramp[float32](rows*n, 0.5, 1), ramp[float32](3*n, 0.25, 2)
	ints := ramp[int](rows*n, 3, 5)
	for i := range ints {
		ints[i] -= 100 // negative values too
	}
	i64 := ramp[int64](rows*n, 7, 3)
	for i := range i64 {
		i64[i] = i64[i]%23 - 11
	}
	cz, mask := cramp(rows*n), bramp(rows, n)
	cz64 := make([]complex64, len(cz))
	for i, v := range cz {
		cz64[i] = complex64(v)
	}
	var last *GUfunc // the gufunc of the latest call
	apply := func(layout string, fn any, inputs ...any) func(tg Target) (any, error) {
		return func(tg Target) (any, error) {
			g, err := GU(layout, fn, tg)
			if err != nil {
				return nil, err
			}
			last = g
			return g.Apply(inputs...)
		}
	}
	tests := []struct {
		name string
		run  func(tg Target) (any, error)
	}{
		{"tutorial moving average", func(tg Target) (any, error) {
			out := make([]float64, 6)
			last = mustGU(t, "(n),()->(n)", movingAverage, tg)
			return out, last.Into([]float64{10, 20, 30, 40, 50, 60}, int64(3), out)
		}},
		{"moving average per row", apply("(n),()->(n)", movingAverage, Of(x, rows, n), widths)},
		{"moving average, one row broadcast", apply("(n),()->(n)", movingAverage, Of(x[:n], 1, n), widths)},
		{"moving average, 2-D loop broadcast", apply("(n),()->(n)", movingAverage, Of(x[:2*n], 2, 1, n), Of(widths[:3], 3))},
		{"moving average, scalar width", apply("(n),()->(n)", movingAverage, Of(x, 3, 2, n), 4)},
		{"dot float64", apply("(n),(n)->()", dot[float64], Of(x, rows, n), x[:n])},
		{"dot float32 loop broadcast", apply("(n),(n)->()", dot[float32], Of(f32[:2*n], 2, 1, n), Of(g32, 3, n))},
		{"dot int", apply("(n),(n)->()", dot[int], Of(ints, rows, n), Of(ints[n:3*n], 2, 1, n))},
		{"dot 0-d loop", apply("(n),(n)->()", dot[float64], x[:n], x[n:2*n])},
		{"sum int32 to int64", apply("(n)->()", sum, Of(ramp[int32](rows*n, 1e6, 3), rows, n))},
		{"four operands", apply("(n),(),()->(n)", affine, Of(f32, 3, 2, n), Of([]float32{1.5, -2}, 2), int32(7))},
		{"two outputs", apply("(n)->(),()", extremes, Of(ints, rows, n))},
		{"two core dimensions", apply("(n),(m)->(n)", convolve, Of(x, 2, 3, n), []float64{0.25, 0.5, 0.25})},
		{"same function, other names", apply("(k),(w)->(k)", convolve, Of(x[:2*n], 2, n), []float64{1, -1})},
		{"in place", func(tg Target) (any, error) {
			y := Of(slices.Clone(x), rows, n) // the output is the input
			last = mustGU(t, "(n),()->(n)", movingAverage, tg)
			return y, last.Into(y, widths, y)
		}},
		{"empty cores", apply("(n),()->(n)", movingAverage, Of([]float64{}, 3, 0), widths[:3])},
		{"matmul float64 one pair", apply("(m,n),(n,p)->(m,p)", matmul, Of(x[:12], 3, 4), Of(x[12:32], 4, 5))},
		{"matmul float64 loop of 3", apply("(m,n),(n,p)->(m,p)", matmulOf[float64], Of(x[:36], 3, 3, 4), Of(x[30:50], 4, 5))},
		{"matmul float32 broadcast 2x3", apply("(m,n),(n,p)->(m,p)", matmulOf[float32], Of(f32[:24], 2, 1, 3, 4), Of(f32[:48], 3, 4, 4))},
		{"matmul int64 loop of 2", apply("(m,n),(n,p)->(m,p)", matmulOf[int64], Of(i64[:24], 2, 3, 4), Of(i64[14:54], 2, 4, 5))},
		{"matmul into a view", func(tg Target) (any, error) {
			out := cuda.NewArray2[float64](3, 5) // Into a cuda.Array2 output
			last = mustGU(t, "(m,n),(n,p)->(m,p)", matmul, tg)
			return out.Data(), last.Into(Of(x[:12], 3, 4), Of(x[20:40], 4, 5), out)
		}},
		{"scale matrices", apply("(m,n),()->(m,n)", scale, Of(f32[:24], 2, 3, 4), Of([]float32{0.5, -3}, 2))},
		{"outer product", apply("(n),(m)->(n,m)", outer, Of(ramp[int32](12, -2, 3), 3, 4), Of(ramp[int32](5, 3, -1), 5))},
		{"transpose", apply("(m,n)->(n,m)", transpose, Of(i64[:30], 5, 2, 3))},
		{"3-D core and ()", apply("(a,b,c),()->(a,b,c)", shift3, Of(x[:48], 2, 2, 3, 4), []float64{1, -0.5})},
		{"3-D core to 1-D", apply("(a,b,c)->(a)", planeSums, Of(ramp[uint16](2*24, 7, 1), 2, 4, 3, 2))},
		{"3-D core to ()", apply("(a,b,c)->()", sum3, Of(f32[:24], 3, 2, 2, 2))},
		{"empty 2-D cores", apply("(m,n),(n,p)->(m,p)", matmul, Of([]float64{}, 2, 0, 3), Of(x[:6], 3, 2))},
		{"complex128 sum of squares", apply("(n)->()", sumSquares, Of(cz, rows, n))},
		{"complex64 norm", apply("(n)->()", norm64, Of(cz64, rows, n))},
		{"bool any", apply("(n)->()", anyTrue, Of(mask, rows, n))},
		{"complex scalar and bool mask", apply("(n),(),(n)->(n)", rotate, Of(cz, rows, n), Of([]complex128{0.5 - 2i, 1i}, 2, 1), Of(mask[:2*n], 2, 1, n))},
		{"int scalar for complex", apply("(n),(),(n)->(n)", rotate, Of(cz, rows, n), -3, mask[n:2*n])},
		{"complex64 2-D core", apply("(m,n)->(n,m)", conjT, Of(cz64[:24], 2, 3, 4))},
		{"bool 2-D core", apply("(m,n)->(m,n)", negate, Of(mask[:24], 2, 3, 4))},
		{"float16 sum", apply("(n)->()", hsumGU, Of(hramp(rows*n), rows, n))},
		{"float16 scalar", apply("(n),()->(n)", hscaleGU, Of(hramp(rows*n), rows, n), cuda.F16(-3))},
		{"float16 2-D core", apply("(m,n)->(n,m)", htransposeGU, Of(hramp(24), 2, 3, 4))},
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
			if last.compiledK.k == nil {
				t.Fatal("the cuda target did not run the generated kernel")
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("cuda target on %s: %v\nwant (cpu target) %v\nkernel:\n%s", backend, got, want, last.source())
			}
		})
	}
}

// TestGUDeviceOnPTXSim: device arrays stay on the device, and a call with
// one runs on the CUDA target, compiled, with the Auto target.
func TestGUDeviceOnPTXSim(t *testing.T) {
	onBackend(t, cuda.PTXSim)
	x := ramp[float64](4*10, 1, 0)
	dout, err := cuda.NewDeviceArray[float64](4, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer dout.Free()
	widths := []int64{1, 3, 5, 7}
	if err := mustGU(t, "(n),()->(n)", movingAverage).Into(Of(x, 4, 10), widths, dout); err != nil {
		t.Fatal(err)
	}
	got, err := dout.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, 40)
	for r, w := range widths {
		movingAverage(x[r*10:(r+1)*10], w, want[r*10:(r+1)*10])
	}
	if !slices.Equal(got, want) {
		t.Fatalf("device moving average = %v\nwant %v", got, want)
	}

	dx, err := cuda.ToDevice(x)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Free()
	out := Of([]float64{0}) // a 0-d host output: one loop index
	if err := mustGU(t, "(n),(n)->()", dot[float64]).Into(dx, dx, out); err != nil {
		t.Fatal(err)
	}
	var total float64
	dot(x, x, &total)
	if out.Data[0] != total {
		t.Fatalf("dot of a device array with itself = %v, want %v", out.Data[0], total)
	}

	// 2-D cores: two 4×5 by 5×2 products of device arrays, into a device
	// array.
	da, err := cuda.NewDeviceArray[float64](2, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer da.Free()
	if err := da.CopyFromHost(x); err != nil {
		t.Fatal(err)
	}
	db, err := cuda.ToDevice2(cuda.MustView2(x[:10], 5, 2))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Free()
	dc, err := cuda.NewDeviceArray[float64](2, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Free()
	if err := mustGU(t, "(m,n),(n,p)->(m,p)", matmul).Into(da, db, dc); err != nil {
		t.Fatal(err)
	}
	got, err = dc.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	outs, err := mustGU(t, "(m,n),(n,p)->(m,p)", matmul, CPU).Apply(Of(x, 2, 4, 5), Of(x[:10], 5, 2))
	if err != nil {
		t.Fatal(err)
	}
	if w := outs[0].(Array[float64]).Data; !slices.Equal(got, w) {
		t.Fatalf("device matmul = %v\nwant %v", got, w)
	}
}

// TestGUUnsupportedOnPTXSim: what the compiled gufunc kernels do not take
// is an error wrapping ErrTargetUnavailable that says what, Auto runs it
// on the Parallel target, and a function that breaks the kernel rules is
// a *cuda.CompileError.
func TestGUUnsupportedOnPTXSim(t *testing.T) {
	onBackend(t, cuda.PTXSim)
	k := 2.0
	scaled := func(x []float64, out []float64) {
		for i, v := range x {
			out[i] = v * k
		}
	}
	a := Of(ramp[float64](12, 1, 0), 3, 4)
	tests := []struct {
		name, layout string
		fn           any
		args         []any
		want         string
	}{
		{"closure", "(n)->(n)", scaled, []any{a, Zeros[float64](3, 4)}, "closure"},
		{"named element type", "(n)->(n)", warm, []any{[]celsius{1, 3, 2}, make([]celsius, 3)}, `input 1 \(n\) has type \[\]vectorize\.celsius; .* not named types`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := mustGU(t, tc.layout, tc.fn, CUDA).Into(tc.args...)
			if !errors.Is(err, ErrTargetUnavailable) || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Fatalf("cuda target: %v\nwant ErrTargetUnavailable matching %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), "on the ptxsim backend") {
				t.Errorf("the error does not name the backend: %v", err)
			}
			g := mustGU(t, tc.layout, tc.fn)
			if tg, err := g.cfg.resolve(false); err != nil || tg != Parallel {
				t.Errorf("Auto resolves to %q, %v; want parallel", tg, err)
			}
			if err := g.Into(tc.args...); err != nil {
				t.Errorf("Auto: %v", err)
			}
		})
	}
	_, err := mustGU(t, "(n)->()", printSum, CUDA).Apply([]float64{1, 2})
	var ce *cuda.CompileError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "fmt") {
		t.Fatalf("a function that calls fmt: %v; want a *cuda.CompileError about fmt", err)
	}
}

// printSum breaks the kernel rules: it calls fmt.
func printSum(x []float64, out *float64) {
	*out = x[0] + x[1]
	fmt.Println(*out)
}

// TestGUKernelPTX compiles generated gufunc kernels as the compiled
// backends do: the function's body is in the module, the entry has PTX
// parameters for the slices and numbers only, and ptxas accepts the
// module.
func TestGUKernelPTX(t *testing.T) {
	tests := []struct {
		name, layout string
		fn           any
		want         string
		params       int // 3 per slice, 1 per int
	}{
		{"moving average", "(n),()->(n)", movingAverage, `div\.rn\.f64`, 3*3 + 1 + 3*2 + 2},
		{"dot float32", "(n),(n)->()", dot[float32], `(mul|fma)\.rn\.f32`, 3*3 + 1 + 3*2 + 2},
		{"two outputs", "(n)->(),()", extremes, `(min|max)\.s64`, 3*3 + 1 + 3*2 + 1},
		{"matmul", "(m,n),(n,p)->(m,p)", matmul, `(mul|fma)\.rn\.f64`, 3*3 + 1 + 3*2 + 6},
		{"3-D core and ()", "(a,b,c),()->(a,b,c)", shift3, `add\.rn\.f64`, 3*3 + 1 + 3*2 + 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGU(t, tc.layout, tc.fn, CUDA)
			c, err := g.compiled()
			if err != nil {
				t.Fatal(err)
			}
			if c.k.Name() != guKernelName {
				t.Errorf("kernel name %q, want %s", c.k.Name(), guKernelName)
			}
			for _, sm := range []int{75, 90} {
				ptx, err := c.k.PTX(sm, c.fn.Interface())
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

// TestGUCompiledKernelOnCPU runs the generated kernel's Go value, which
// the compiled backends never call, on the cpu backend: it computes what
// the source does.
func TestGUCompiledKernelOnCPU(t *testing.T) {
	onBackend(t, cuda.CPU)
	launch := func(g *GUfunc, args ...any) {
		t.Helper()
		bound := make([]guArg, len(args))
		for k, a := range args {
			b, err := g.bind(k, a)
			if err != nil {
				t.Fatal(err)
			}
			bound[k] = b
		}
		loop, err := g.shapes(bound, len(bound))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.launchCompiled(bound, newGUPlan(bound, loop), size(loop)); err != nil {
			t.Fatal(err)
		}
	}

	// 2-D cores: two products of a 2×3 by a 3×2 matrix.
	a, b := ramp[float64](12, 0.5, 1), ramp[float64](6, 2, 3)
	prod := Zeros[float64](2, 2, 2)
	launch(mustGU(t, "(m,n),(n,p)->(m,p)", matmul, CUDA), Of(a, 2, 2, 3), Of(b, 3, 2), prod)
	bm, _ := cuda.View2(b, 3, 2)
	for l := range 2 {
		am, _ := cuda.View2(a[l*6:(l+1)*6], 2, 3)
		want := cuda.NewArray2[float64](2, 2)
		matmul(am, bm, want)
		if got := prod.Data[l*4 : (l+1)*4]; !slices.Equal(got, want.Data()) {
			t.Fatalf("product %d = %v, want %v", l, got, want.Data())
		}
	}

	g := mustGU(t, "(n),()->(n)", movingAverage, CUDA)
	x := ramp[float64](3*5, 1, 0)
	out := Zeros[float64](3, 2, 5)
	launch(g, Of(x, 3, 1, 5), []int64{2, 4}, out)
	want := make([]float64, 5)
	for r := range 3 {
		for c, w := range []int64{2, 4} {
			movingAverage(x[r*5:(r+1)*5], w, want)
			if got := out.Data[(r*2+c)*5 : (r*2+c+1)*5]; !slices.Equal(got, want) {
				t.Fatalf("loop index (%d, %d) = %v, want %v", r, c, got, want)
			}
		}
	}
}

// TestGUSource: the generated kernel passes each kind of operand as its
// parameter type says, and depends on the function's type only.
func TestGUSource(t *testing.T) {
	tests := []struct {
		layout string
		fn     any
		want   []string
	}{
		{"(n)->()", sum, []string{
			"func guKernel(t cuda.Thread, f func([]int32, *int64), a0 []int32, a1 []int64, loops int, shape, strides []int, n0 int)",
			"f(a0[o0:o0+n0:o0+n0], &a1[o1])",
		}},
		{"(n),(),()->(n)", affine, []string{
			"f func([]float32, float32, int32, []float32), a0 []float32, a1 []float32, a2 []int32, a3 []float32",
			"n0 int, n3 int)",
			"f(a0[o0:o0+n0:o0+n0], a1[o1], a2[o2], a3[o3:o3+n3:o3+n3])",
		}},
		{"(m,n),(n,p)->(m,p)", matmul, []string{
			"f func(cuda.Array2[float64], cuda.Array2[float64], cuda.Array2[float64]), a0 []float64, a1 []float64, a2 []float64",
			"n0_0, n0_1 int, n1_0, n1_1 int, n2_0, n2_1 int)",
			"len2 := n2_0 * n2_1",
			"f(cuda.MustView2(a0[o0:o0+len0:o0+len0], n0_0, n0_1), cuda.MustView2(a1[o1:o1+len1:o1+len1], n1_0, n1_1), cuda.MustView2(a2[o2:o2+len2:o2+len2], n2_0, n2_1))",
		}},
		{"(a,b,c),()->(a,b,c)", shift3, []string{
			"n0_0, n0_1, n0_2 int, n2_0, n2_1, n2_2 int)",
			"f(cuda.MustView3(a0[o0:o0+len0:o0+len0], n0_0, n0_1, n0_2), a1[o1], cuda.MustView3(a2[o2:o2+len2:o2+len2], n2_0, n2_1, n2_2))",
		}},
	}
	for _, tc := range tests {
		src := mustGU(t, tc.layout, tc.fn).source()
		for _, w := range tc.want {
			if !strings.Contains(src, w) {
				t.Errorf("%s: the source lacks %q:\n%s", tc.layout, w, src)
			}
		}
	}
	a, b := mustGU(t, "(n),(m)->(n)", convolve).source(), mustGU(t, "(k),(w)->(k)", convolve).source()
	if a != b {
		t.Errorf("the source depends on the layout's names:\n%s\n%s", a, b)
	}
}
