package vectorize_test

// An adversarial audit of the public API: nil functions, wrong operands and
// shapes, layouts with syntax errors, aliasing, empty arrays and panicking
// functions. Every call must return a clear error (or do what its
// documentation says), never let a panic escape and never half-write an
// output without saying so.

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/vectorize"
)

// robustTargets are the targets the audit runs on; the cuda target runs
// closures on the cpu backend only, which these tests select.
var robustTargets = []vectorize.Target{vectorize.CPU, vectorize.Parallel, vectorize.CUDA}

// onCPUBackend selects package cuda's cpu backend for the test.
func onCPUBackend(t *testing.T) {
	prev, err := cuda.CurrentBackend()
	if err != nil {
		prev = cuda.CPU
	}
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cuda.SetBackend(prev) })
}

// safeCall runs f and turns a panic into a test failure.
func safeCall(t *testing.T, what string, f func() error) (err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panicked: %v", what, r)
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// mustFail checks that err is not nil, wraps target (when not nil) and
// mentions every substring.
func mustFail(t *testing.T, what string, err, target error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one mentioning %q", what, subs)
		return
	}
	if target != nil && !errors.Is(err, target) {
		t.Errorf("%s: error %q does not wrap %v", what, err, target)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: error %q does not mention %q", what, err, s)
		}
	}
}

func addF64(x, y float64) float64 { return x + y }

func TestRobustUfuncCalls(t *testing.T) {
	onCPUBackend(t)
	for _, tg := range robustTargets {
		t.Run(string(tg), func(t *testing.T) {
			u := vectorize.New2(addF64, tg)
			neg := func(x float64) float64 { return -x }
			u1 := vectorize.New1(neg, tg)
			freed, err := cuda.ToDevice([]float64{1, 2})
			if err != nil {
				t.Fatal(err)
			}
			freed.Free()
			for _, c := range []struct {
				name   string
				f      func() error
				target error
				subs   []string
			}{
				{"Apply lengths", func() error { _, err := u.Apply(make([]float64, 3), make([]float64, 4)); return err }, vectorize.ErrShape, []string{"(3,)", "(4,)"}},
				{"Into short out", func() error { return u.Into(make([]float64, 2), make([]float64, 3), make([]float64, 3)) }, vectorize.ErrShape, []string{"output of shape (2,)"}},
				{"Into long out", func() error { return u.Into(make([]float64, 4), make([]float64, 3), make([]float64, 3)) }, vectorize.ErrShape, []string{"output of shape (4,)"}},
				{"Of wrong length", func() error {
					_, err := u.Call(vectorize.Of(make([]float64, 5), 2, 3), vectorize.Scalar(1.0))
					return err
				}, vectorize.ErrShape, []string{"5 elements", "(2, 3)"}},
				{"negative shape", func() error { _, err := u.Call(vectorize.Of([]float64{1}, -1, -1), vectorize.Scalar(1.0)); return err }, vectorize.ErrShape, []string{"negative"}},
				{"shape overflow", func() error {
					_, err := u.Call(vectorize.Of([]float64(nil), 1<<32, 1<<32), vectorize.Scalar(1.0))
					return err
				}, vectorize.ErrShape, []string{"too large"}},
				{"no broadcast", func() error {
					_, err := u.Call(vectorize.Of(make([]float64, 6), 2, 3), vectorize.Of(make([]float64, 4), 2, 2))
					return err
				}, vectorize.ErrShape, []string{"(2, 3)", "(2, 2)"}},
				{"nil operand", func() error { _, err := u.Call(nil, vectorize.Scalar(1.0)); return err }, nil, []string{"operand 1", "nil"}},
				{"nil device", func() error { _, err := u.Call(vectorize.Device[float64](nil), vectorize.Scalar(1.0)); return err }, nil, []string{"operand 1", "nil"}},
				{"nil output", func() error { return u.CallInto(nil, vectorize.Scalar(1.0), vectorize.Scalar(1.0)) }, nil, []string{"output", "nil"}},
				{"wrong output shape", func() error {
					return u1.CallInto(vectorize.Of(make([]float64, 6), 3, 2), vectorize.Of(make([]float64, 6), 2, 3))
				}, vectorize.ErrShape, []string{"(3, 2)", "(2, 3)"}},
			} {
				t.Run(c.name, func(t *testing.T) {
					mustFail(t, c.name, safeCall(t, c.name, c.f), c.target, c.subs...)
				})
			}
			// A freed device array: ErrFreed on the targets that take device
			// arrays, a clear refusal on the others.
			_, err = u.Call(vectorize.Device(freed), vectorize.Scalar(1.0))
			if tg == vectorize.CUDA {
				if !errors.Is(err, cuda.ErrFreed) {
					t.Errorf("freed device operand: %v, want ErrFreed", err)
				}
			} else {
				mustFail(t, "device operand", err, nil, "device array", string(tg))
			}
			// Empty arrays give empty results.
			if r, err := u.Apply(nil, nil); err != nil || len(r) != 0 {
				t.Errorf("Apply(nil, nil) = %v, %v", r, err)
			}
			if r, err := u.Call(vectorize.Of([]float64{}, 0, 3), vectorize.Scalar(1.0)); err != nil || r.Len() != 0 || len(r.Shape) != 2 {
				t.Errorf("Call on a 0×3 array = %+v, %v", r, err)
			}
		})
	}
}

func TestRobustBadConstruction(t *testing.T) {
	onCPUBackend(t)
	var nilF func(float64, float64) float64
	var nilF1 func(float64) float64
	for _, c := range []struct {
		name string
		f    func() error
		subs []string
	}{
		{"New2 nil", func() error { _, err := vectorize.New2(nilF).Apply([]float64{1}, []float64{2}); return err }, []string{"nil"}},
		{"New1 nil", func() error { _, err := vectorize.New1(nilF1).Apply([]float64{1}); return err }, []string{"nil"}},
		{"Reduce nil", func() error { _, err := vectorize.Reduce(vectorize.New2(nilF), []float64{1, 2}); return err }, []string{"nil"}},
		{"Outer nil", func() error {
			_, err := vectorize.New2(nilF).Outer(vectorize.Scalar(1.0), vectorize.Scalar(1.0))
			return err
		}, []string{"nil"}},
		{"unknown target", func() error { _, err := vectorize.New2(addF64, vectorize.Target("tpu")).Apply(nil, nil); return err }, []string{"unknown target", "tpu"}},
		{"block 0", func() error { _, err := vectorize.New2(addF64, vectorize.BlockSize(0)).Apply(nil, nil); return err }, []string{"block size 0"}},
		{"block 2048", func() error { _, err := vectorize.New2(addF64, vectorize.BlockSize(2048)).Apply(nil, nil); return err }, []string{"block size 2048"}},
		{"nil option", func() error { _, err := vectorize.New2(addF64, nil).Apply([]float64{1}, []float64{2}); return err }, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := safeCall(t, c.name, c.f)
			if c.subs == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			mustFail(t, c.name, err, nil, c.subs...)
		})
	}
}

func TestRobustReductions(t *testing.T) {
	onCPUBackend(t)
	for _, tg := range robustTargets {
		t.Run(string(tg), func(t *testing.T) {
			u := vectorize.New2(addF64, tg)
			_, err := vectorize.Reduce(u, nil)
			mustFail(t, "Reduce empty", err, vectorize.ErrNoIdentity, "WithIdentity")
			_, err = vectorize.ReduceAxis(u, vectorize.Of([]float64{}, 3, 0), 1)
			mustFail(t, "ReduceAxis empty axis", err, vectorize.ErrNoIdentity)
			for _, axis := range []int{2, -3, 1 << 40} {
				_, err = vectorize.ReduceAxis(u, vectorize.Of(make([]float64, 6), 2, 3), axis)
				mustFail(t, "ReduceAxis axis", err, nil, fmt.Sprintf("axis %d is out of range", axis))
				_, err = vectorize.AccumulateAxis(u, vectorize.Of(make([]float64, 6), 2, 3), axis)
				mustFail(t, "AccumulateAxis axis", err, nil, fmt.Sprintf("axis %d is out of range", axis))
			}
			_, err = vectorize.ReduceAxis(u, vectorize.Scalar(1.0), 0)
			mustFail(t, "ReduceAxis 0-d", err, nil, "out of range")
			_, err = vectorize.ReduceAxis(u, nil, 0)
			mustFail(t, "ReduceAxis nil", err, nil, "nil")
			_, err = vectorize.ReduceAxis(u, vectorize.Of(make([]float64, 5), 2, 3), 0)
			mustFail(t, "ReduceAxis bad data", err, vectorize.ErrShape)
			if r, err := vectorize.Accumulate(u, nil); err != nil || len(r) != 0 {
				t.Errorf("Accumulate(nil) = %v, %v", r, err)
			}
			if r, err := vectorize.ReduceAxis(u, vectorize.Of([]float64{}, 0, 3), 1); err != nil || r.Len() != 0 {
				t.Errorf("ReduceAxis of 0×3 along 1 = %+v, %v", r, err)
			}
			if r, err := vectorize.Reduce(vectorize.New2(addF64, tg).WithIdentity(7), nil); err != nil || r != 7 {
				t.Errorf("Reduce(nil) with identity 7 = %v, %v", r, err)
			}
			_, err = u.Outer(nil, vectorize.Scalar(1.0))
			mustFail(t, "Outer nil", err, nil, "nil")
		})
	}
}

func TestRobustPanickingFunction(t *testing.T) {
	onCPUBackend(t)
	for _, tg := range robustTargets {
		t.Run(string(tg), func(t *testing.T) {
			boom := func(x, y float64) float64 {
				if x == 3 {
					panic(fmt.Sprintf("x=%v", x))
				}
				return x + y
			}
			u := vectorize.New2(boom, tg)
			a := []float64{1, 2, 3, 4}
			out := []float64{9, 9, 9, 9}
			err := safeCall(t, "Into", func() error { return u.Into(out, a, a) })
			mustFail(t, "Into", err, nil, "x=3", "partially written")
			_, err = safeCall2(t, func() (any, error) { return u.Apply(a, a) })
			mustFail(t, "Apply", err, nil, "x=3")
			_, err = safeCall2(t, func() (any, error) { return vectorize.Reduce(u, []float64{1, 2, 3}) })
			mustFail(t, "Reduce", err, nil, "x=3")
			g, err := vectorize.GU("(),()->()", func(x, y float64, out *float64) {
				if x == 3 {
					panic(errors.New("gu x=3"))
				}
				*out = x + y
			}, tg)
			if err != nil {
				t.Fatal(err)
			}
			out = []float64{9, 9, 9, 9}
			err = safeCall(t, "GU Into", func() error { return g.Into(a, a, out) })
			mustFail(t, "GU Into", err, nil, "gu x=3", "partially written")
		})
	}
}

func safeCall2(t *testing.T, f func() (any, error)) (any, error) {
	t.Helper()
	var r any
	err := safeCall(t, "call", func() error {
		var err error
		r, err = f()
		return err
	})
	return r, err
}

func TestRobustGUfunc(t *testing.T) {
	onCPUBackend(t)
	sum := func(x []float64, out *float64) {
		for _, v := range x {
			*out += v
		}
	}
	for _, c := range []struct {
		name   string
		layout string
		fn     any
		subs   []string
	}{
		{"no arrow", "(n)(n)", sum, []string{`no "->"`}},
		{"two arrows", "(n)->()->()", sum, []string{`more than one "->"`}},
		{"unclosed", "(n->()", sum, []string{"inputs"}},
		{"bad name", "(1n)->()", sum, []string{"1n"}},
		{"repeat", "(n,n)->()", sum, []string{"n"}},
		{"no inputs", "->()", sum, []string{"no inputs"}},
		{"no outputs", "(n)->", sum, []string{"no outputs"}},
		{"empty", "", sum, []string{`no "->"`}},
		{"four dims", "(a,b,c,d)->()", func(x []float64, out *float64) {}, []string{"parameter 1"}},
		{"too many params", "(n)->()", func(x []float64, out *float64, z int) {}, []string{"2 operands", "3 parameters"}},
		{"returns", "(n)->()", func(x []float64, out *float64) int { return 0 }, []string{"returns values"}},
		{"variadic", "(n)->()", func(x []float64, out ...float64) {}, []string{"variadic"}},
		{"not a func", "(n)->()", 42, []string{"not a func"}},
		{"nil", "(n)->()", nil, []string{"not a func"}},
		{"nil func", "(n)->()", (func([]float64, *float64))(nil), []string{"nil"}},
		{"output by value", "(n)->()", func(x []float64, out float64) {}, []string{"output 1", "pointer"}},
		{"slice for scalar", "()->()", func(x []float64, out *float64) {}, []string{"input 1", "number"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var g *vectorize.GUfunc
			err := safeCall(t, "GU", func() error {
				var err error
				g, err = vectorize.GU(c.layout, c.fn)
				return err
			})
			mustFail(t, "GU", err, nil, c.subs...)
			if g != nil {
				t.Errorf("GU returned a gufunc with the error")
			}
		})
	}
	for _, tg := range robustTargets {
		t.Run(string(tg), func(t *testing.T) {
			g, err := vectorize.GU("(n)->()", sum, tg)
			if err != nil {
				t.Fatal(err)
			}
			dot, err := vectorize.GU("(n),(n)->()", func(a, b []float64, out *float64) {}, tg)
			if err != nil {
				t.Fatal(err)
			}
			out := []float64{5, 5}
			for _, c := range []struct {
				name   string
				f      func() error
				target error
				subs   []string
			}{
				{"Into no args", func() error { return g.Into() }, nil, []string{"got 0 arguments"}},
				{"Into one arg", func() error { return g.Into([]float64{1}) }, nil, []string{"got 1 arguments"}},
				{"Apply too many", func() error { _, err := g.Apply([]float64{1}, []float64{2}); return err }, nil, []string{"got 2 inputs"}},
				{"nil arg", func() error { _, err := g.Apply(nil); return err }, nil, []string{"argument 1", "got nil"}},
				{"wrong elem", func() error { _, err := g.Apply([]float32{1}); return err }, nil, []string{"[]float32"}},
				{"string", func() error { _, err := g.Apply("x"); return err }, nil, []string{"got string"}},
				{"core mismatch", func() error { _, err := dot.Apply([]float64{1, 2}, []float64{1, 2, 3}); return err }, vectorize.ErrShape, []string{"n"}},
				{"output loop shape", func() error { return g.Into(vectorize.Of(make([]float64, 6), 3, 2), out) }, vectorize.ErrShape, nil},
				{"bad Of", func() error { _, err := g.Apply(vectorize.Of(make([]float64, 5), 2, 3)); return err }, vectorize.ErrShape, []string{"5 elements"}},
				{"overflow Of", func() error { _, err := g.Apply(vectorize.Of([]float64(nil), 1<<32, 1<<32)); return err }, vectorize.ErrShape, nil},
				{"scalar for core", func() error { _, err := g.Apply(3.0); return err }, nil, []string{"got float64"}},
				{"nil device", func() error { _, err := g.Apply((*cuda.DeviceArray[float64])(nil)); return err }, nil, []string{"nil device array"}},
			} {
				t.Run(c.name, func(t *testing.T) {
					mustFail(t, c.name, safeCall(t, c.name, c.f), c.target, c.subs...)
				})
			}
			if out[0] != 5 || out[1] != 5 {
				t.Errorf("refused calls wrote the output: %v", out)
			}
		})
	}
}

func TestRobustOutputAliasing(t *testing.T) {
	onCPUBackend(t)
	for _, tg := range robustTargets {
		t.Run(string(tg), func(t *testing.T) {
			u := vectorize.New2(addF64, tg)
			// The output is one of the operands: documented to work.
			a := []float64{1, 2, 3, 4}
			if err := u.Into(a, a, a); err != nil {
				t.Fatal(err)
			}
			if a[0] != 2 || a[3] != 8 {
				t.Fatalf("Into(a, a, a) gave %v", a)
			}
			// The output overlaps the operands shifted by one: the result is
			// the one computed from the operands as they were (NumPy's
			// rule), never a mix of old and new values.
			x := make([]float64, 1<<14)
			for i := range x {
				x[i] = float64(i)
			}
			n := len(x)
			if err := u.Into(x[1:], x[:n-1], x[:n-1]); err != nil {
				t.Fatal(err)
			}
			for i := 1; i < n; i++ {
				if x[i] != float64(2*(i-1)) {
					t.Fatalf("Into(x[1:], x[:n-1], x[:n-1]) gave x[%d] = %v, want %d", i, x[i], 2*(i-1))
				}
			}
			// A broadcast operand inside the output: read before any write.
			y := []float64{1, 1, 1, 1}
			if err := u.CallInto(vectorize.Slice(y), vectorize.Slice(y), vectorize.Of(y[:1])); err != nil {
				t.Fatal(err)
			}
			if y[0] != 2 || y[3] != 2 {
				t.Fatalf("y += y[0] gave %v, want all 2", y)
			}
		})
	}
}

func TestRobustGUOutputAliasing(t *testing.T) {
	onCPUBackend(t)
	// out[i] = x[i] + x[i-1] (x[-1] = 0): each result reads two inputs, so
	// an output that overlaps the input shifted must see the input as it
	// was.
	pairs := func(x []float64, out []float64) {
		prev := 0.0
		for i, v := range x {
			out[i] = v + prev
			prev = v
		}
	}
	for _, tg := range robustTargets {
		t.Run(string(tg), func(t *testing.T) {
			g, err := vectorize.GU("(n)->(n)", pairs, tg)
			if err != nil {
				t.Fatal(err)
			}
			// Rows of a 4×3 array; the output is the input one row on.
			x := make([]float64, 15)
			for i := range x {
				x[i] = float64(i)
			}
			in, out := vectorize.Of(x[:12], 4, 3), vectorize.Of(x[3:], 4, 3)
			want := make([]float64, 12)
			for r := range 4 {
				pairs(append([]float64(nil), x[3*r:3*r+3]...), want[3*r:3*r+3])
			}
			if err := g.Into(in, out); err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				if x[3+i] != w {
					t.Fatalf("Into(x[:12], x[3:]) gave %v, want %v in x[3:]", x[3:], want)
				}
			}
			// The output is the input itself: each core is read before it
			// is written, by the function itself.
			y := []float64{1, 2, 3}
			if err := g.Into(y, y); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRobustZeros(t *testing.T) {
	for _, shape := range [][]int{{-1}, {2, -3}, {1 << 32, 1 << 32}} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), "vectorize.Zeros") {
					t.Errorf("Zeros(%v): panic %v, want one naming vectorize.Zeros", shape, r)
				}
			}()
			z := vectorize.Zeros[float64](shape...)
			t.Errorf("Zeros(%v) = %d elements of shape %v", shape, len(z.Data), z.Shape)
		}()
	}
	if z := vectorize.Zeros[float64](1<<32, 0, 1<<32); len(z.Data) != 0 || len(z.Shape) != 3 {
		t.Errorf("Zeros of an empty shape: %+v", z)
	}
}

// Outputs larger than the machine's memory (but within int) are an error,
// not the Go runtime's fatal out of memory, for ufuncs, reductions and
// gufuncs alike; so is Zeros's panic.
func TestRobustOutputTooLargeForMemory(t *testing.T) {
	onCPUBackend(t)
	const n = 1 << 21 // n×n float64 is 32 TiB
	col, row := vectorize.Of(make([]float64, n), n, 1), vectorize.Of(make([]float64, n), 1, n)
	add := vectorize.New2(func(a, b float64) float64 { return a + b }, vectorize.CPU)
	gu, err := vectorize.GU("(),()->()", func(a, b float64, out *float64) { *out = a + b }, vectorize.CPU)
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		name string
		call func() error
	}{
		{"Call", func() error { _, err := add.Call(col, row); return err }},
		{"Outer", func() error {
			_, err := add.Outer(vectorize.Slice(make([]float64, n)), vectorize.Of(make([]float64, n), n))
			return err
		}},
		{"GU Apply", func() error { _, err := gu.Apply(col, row); return err }},
	}
	for _, c := range calls {
		if err := c.call(); err == nil || !strings.Contains(err.Error(), "out of memory") {
			t.Errorf("%s: %v; want an out of memory error", c.name, err)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "out of memory") {
			t.Errorf("Zeros: panic %v, want one saying out of memory", r)
		}
	}()
	vectorize.Zeros[float64](n, n)
}
