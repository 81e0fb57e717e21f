package vectorize

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// movingAverage is the tutorial's centred moving average, the window
// truncated at the ends.
func movingAverage(x []float64, width int64, out []float64) {
	w := int(width)
	for i := range x {
		lo, hi := max(0, i-w/2), min(len(x)-1, i+w/2)
		var s float64
		for j := lo; j <= hi; j++ {
			s += x[j]
		}
		out[i] = s / float64(hi-lo+1)
	}
}

func matmul(a, b, c cuda.Array2[float64]) {
	m, n := a.Shape()
	_, p := b.Shape()
	for i := range m {
		for j := range p {
			var s float64
			for k := range n {
				s += a.At(i, k) * b.At(k, j)
			}
			c.Set(i, j, s)
		}
	}
}

func sum(x []int32, out *int64) {
	*out = 0
	for _, v := range x {
		*out += int64(v)
	}
}

func sum3(x cuda.Array3[float32], out *float32) {
	*out = 0
	for _, v := range x.Data() {
		*out += v
	}
}

func TestMovingAverageTutorial(t *testing.T) {
	for _, tg := range targets {
		g, err := GU("(n),()->(n)", movingAverage, tg)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, 6)
		if err := g.Into([]float64{10, 20, 30, 40, 50, 60}, int64(3), out); err != nil {
			t.Fatal(err)
		}
		// The tutorial's result.
		if want := []float64{15, 20, 30, 40, 50, 55}; !slices.Equal(out, want) {
			t.Errorf("%s: moving average = %v, want %v", tg, out, want)
		}
		res, err := g.Apply([]float64{10, 20, 30, 40, 50, 60}, 3) // an untyped constant converts
		if err != nil || !slices.Equal(res[0].(Array[float64]).Data, out) {
			t.Errorf("%s: Apply = %v, %v", tg, res, err)
		}
	}
}

// TestGULoops checks loop dimensions and their broadcasting against
// direct calls of the function, row by row.
func TestGULoops(t *testing.T) {
	const rows, n = 300, 50
	x := ramp[float64](rows*n, 1, 0)
	widths := make([]int64, rows)
	for i := range widths {
		widths[i] = int64(i%7) + 1
	}
	for _, tg := range targets {
		g, err := GU("(n),()->(n)", movingAverage, tg)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(string(tg), func(t *testing.T) {
			// Rows of x with one width each.
			out := Zeros[float64](rows, n)
			if err := g.Into(Of(x, rows, n), widths, out); err != nil {
				t.Fatal(err)
			}
			want := make([]float64, n)
			for r := range rows {
				movingAverage(x[r*n:(r+1)*n], widths[r], want)
				if got := out.Data[r*n : (r+1)*n]; !slices.Equal(got, want) {
					t.Fatalf("row %d = %v, want %v", r, got[:5], want[:5])
				}
			}
			// One row of x broadcast against every width: loop shape (rows,).
			res, err := g.Apply(Of(x[:n], 1, n), widths)
			if err != nil {
				t.Fatal(err)
			}
			a := res[0].(Array[float64])
			if !slices.Equal(a.Shape, []int{rows, n}) {
				t.Fatalf("shape %v", a.Shape)
			}
			for r := range rows {
				movingAverage(x[:n], widths[r], want)
				if got := a.Data[r*n : (r+1)*n]; !slices.Equal(got, want) {
					t.Fatalf("broadcast row %d = %v, want %v", r, got[:5], want[:5])
				}
			}
		})
	}
}

func TestGUCores(t *testing.T) {
	for _, tg := range targets {
		t.Run(string(tg), func(t *testing.T) {
			mm, err := GU("(m,n),(n,p)->(m,p)", matmul, tg)
			if err != nil {
				t.Fatal(err)
			}
			a := Of(ramp[float64](2*3*4, 1, 0), 2, 3, 4) // two 3×4 matrices
			b := Of(ramp[float64](4*5, 1, 1), 4, 5)      // one 4×5, broadcast
			res, err := mm.Apply(a, b)
			if err != nil {
				t.Fatal(err)
			}
			c := res[0].(Array[float64])
			if !slices.Equal(c.Shape, []int{2, 3, 5}) {
				t.Fatalf("shape %v", c.Shape)
			}
			bb, _ := b.Array2()
			for k := range 2 {
				ak, _ := cuda.View2(a.Data[k*12:(k+1)*12], 3, 4)
				want := cuda.NewArray2[float64](3, 5)
				matmul(ak, bb, want)
				if got := c.Data[k*15 : (k+1)*15]; !slices.Equal(got, want.Data()) {
					t.Fatalf("matrix %d = %v, want %v", k, got, want.Data())
				}
			}

			s, err := GU("(n)->()", sum, tg)
			if err != nil {
				t.Fatal(err)
			}
			x := ramp[int32](4*6, 1, 2)
			res, err = s.Apply(Of(x, 4, 6))
			if err != nil {
				t.Fatal(err)
			}
			sums := res[0].(Array[int64])
			for r := range 4 {
				var want int64
				sum(x[r*6:(r+1)*6], &want)
				if sums.Data[r] != want || !slices.Equal(sums.Shape, []int{4}) {
					t.Fatalf("sum of row %d = %v (shape %v), want %d", r, sums.Data[r], sums.Shape, want)
				}
			}

			s3, err := GU("(a,b,c)->()", sum3, tg)
			if err != nil {
				t.Fatal(err)
			}
			cube := cuda.NewArray3[float32](2, 3, 4)
			for i := range cube.Data() {
				cube.Data()[i] = float32(i)
			}
			var total float32
			if err := s3.Into(cube, Of([]float32{0})); err != nil || total != 0 {
				t.Fatalf("Into a 0-d output: %v", err)
			}
			out := Of([]float32{0})
			if err := s3.Into(cube, out); err != nil || out.Data[0] != 276 {
				t.Fatalf("sum of 0..23 = %v, %v", out.Data, err)
			}
		})
	}
}

func TestGUDevice(t *testing.T) {
	if !cudaBackendRuns() {
		return // TestCUDATargetUnavailable checks the error
	}
	x := ramp[float64](4*10, 1, 0)
	dx, err := cuda.ToDevice(x)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Free()
	dout, err := cuda.NewDeviceArray[float64](40)
	if err != nil {
		t.Fatal(err)
	}
	defer dout.Free()
	g, err := GU("(n),()->(n)", movingAverage)
	if err != nil {
		t.Fatal(err)
	}
	// A 1-D device array of 40 is one row of 40; the output stays on the device.
	if err := g.Into(dx, int64(5), dout); err != nil {
		t.Fatal(err)
	}
	got, err := dout.ToHost()
	want := make([]float64, 40)
	movingAverage(x, 5, want)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("device moving average = %v, %v", got[:5], err)
	}
	if err := mustGU(t, "(n),()->(n)", movingAverage, Parallel).Into(dx, int64(5), dout); err == nil {
		t.Fatal("device array on the parallel target: no error")
	}
}

func mustGU(t *testing.T, layout string, fn any, opts ...Option) *GUfunc {
	t.Helper()
	g, err := GU(layout, fn, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestBadLayouts(t *testing.T) {
	cases := []struct{ layout, want string }{
		{"", `no "->"`},
		{"(n)", `no "->"`},
		{"(n)->", "no outputs"},
		{"->(n)", "no inputs"},
		{"(n),->(n)", "another operand"},
		{"(n,)->(n)", `"" is not a dimension name`},
		{"(1n)->(n)", `"1n" is not a dimension name`},
		{"(n)->(n)->(n)", `more than one "->"`},
		{"(n,n)->(n)", "appears twice"},
		{"(n)(m)->(n)", "another operand"},
		{"(n->(n)", "missing ')'"},
		{"n->(n)", "expected '('"},
		{"(n", "no \"->\""},
	}
	for _, c := range cases {
		_, err := GU(c.layout, movingAverage)
		if !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), fmt.Sprintf("%q", c.layout)) {
			t.Errorf("GU(%q): %v; want an ErrLayout saying %s", c.layout, err, c.want)
		}
	}
	if _, err := GU(" ( n ) , ( ) -> ( n ) ", movingAverage); err != nil {
		t.Errorf("spaces: %v", err)
	}
}

func TestLayoutNotMatchingFunc(t *testing.T) {
	cases := []struct {
		name, layout string
		fn           any
		want         string
	}{
		{"too few parameters", "(n),(),()->(n)", movingAverage, "4 operands (3 inputs, 1 outputs) but the function"},
		{"too many parameters", "(n)->(n)", movingAverage, "2 operands"},
		{"returns", "(n)->(n)", func(x, y []float64) int { return 0 }, "returns values"},
		{"variadic", "(n)->(n)", func(x []float64, y ...float64) {}, "variadic"},
		{"not a func", "(n)->(n)", 42, "not a func"},
		{"slice for ()", "(n),(n)->(n)", movingAverage, "parameter 2 has type int64, but input 2 (n) takes a slice"},
		{"number for (n)", "(),()->(n)", movingAverage, "parameter 1 has type []float64, but input 1 () takes a number"},
		{"() output not a pointer", "(n)->()", func(x []int32, s int64) {}, "output 1 () is written through a pointer"},
		{"Array2 for (n)", "(m,n)->()", func(x []float64, s *float64) {}, "takes a cuda.Array2"},
		{"Array3 for (m,n)", "(m,n)->()", sum3, "takes a cuda.Array2"},
		{"Array2 for (a,b,c)", "(a,b,c),(m,n)->(m,n)", matmul, "takes a cuda.Array3"},
		{"rank 4", "(a,b,c,d)->()", func(x []float64, s *float64) {}, "4 core dimensions"},
		{"string", "()->()", func(s string, o *float64) {}, "takes a number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := GU(c.layout, c.fn)
			if !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("GU(%q, %T): %v; want an ErrLayout saying %q", c.layout, c.fn, err, c.want)
			}
		})
	}
	if _, err := GU("(n)->(n)", (func([]float64, []float64))(nil)); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("nil func: %v", err)
	}
}

func TestGUCallErrors(t *testing.T) {
	g := mustGU(t, "(n),()->(n)", movingAverage, Name("mavg"))
	mm := mustGU(t, "(m,n),(n,p)->(m,p)", matmul)
	x := []float64{1, 2, 3, 4, 5, 6}
	cases := []struct {
		name  string
		call  func() error
		shape bool
		want  []string
	}{
		{"core dimension mismatch", func() error { return g.Into(x, int64(3), make([]float64, 5)) }, true,
			[]string{"mavg", "core dimension n is 6 in argument 1 (shape (6,)) but 5 in argument 3 (shape (5,))"}},
		{"inner dimension mismatch", func() error { _, err := mm.Apply(Zeros[float64](2, 3), Zeros[float64](4, 2)); return err }, true,
			[]string{"core dimension n is 3 in argument 1", "4 in argument 2"}},
		{"loop dimensions", func() error { _, err := g.Apply(Zeros[float64](3, 6), []int64{1, 2}); return err }, true,
			[]string{"loop dimensions", "(3,)", "(2,)"}},
		{"output loop dimensions", func() error { return g.Into(Zeros[float64](3, 6), int64(1), Zeros[float64](2, 6)) }, true,
			[]string{"output 1 has loop dimensions (2,)", "(3,)"}},
		{"argument count", func() error { return g.Into(x, int64(3)) }, false, []string{"got 2 arguments", "2 inputs and 1 outputs"}},
		{"Apply argument count", func() error { _, err := g.Apply(x); return err }, false, []string{"got 1 inputs"}},
		{"element type", func() error { return g.Into([]float32{1}, int64(3), x) }, false,
			[]string{"argument 1 (input 1 (n))", "got []float32", "[]float64"}},
		{"lossy scalar", func() error { return g.Into(x, 3.5, x) }, false, []string{"3.5", "int64"}},
		{"negative to unsigned", func() error {
			u := mustGU(t, "()->()", func(a uint8, o *float64) {})
			return u.Into(-1, Of([]float64{0}))
		}, false, []string{"-1", "uint8"}},
		{"scalar for (n)", func() error { return g.Into(1.0, int64(3), x) }, false, []string{"got float64"}},
		{"nil", func() error { return g.Into(nil, int64(3), x) }, false, []string{"got nil"}},
		{"too few dimensions", func() error { _, err := mm.Apply(Zeros[float64](3), Zeros[float64](3, 2)); return err }, true,
			[]string{"fewer than the 2 core dimensions"}},
		{"data length", func() error { return g.Into(Of(x, 2, 2), int64(3), x) }, true, []string{"6 elements for shape (2, 2)"}},
		{"output dimension not in inputs", func() error {
			_, err := mustGU(t, "()->(n)", func(a float64, o []float64) {}).Apply(1.0)
			return err
		}, false, []string{"core dimension n of output 1 occurs in no input"}},
		{"panic", func() error {
			bad := mustGU(t, "(n),()->(n)", func(x []float64, i int64, o []float64) { o[i] = x[i] }, Name("bad"))
			return bad.Into(x, int64(10), x)
		}, false, []string{"bad", "panicked", "index out of range"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrShape) != c.shape {
				t.Errorf("errors.Is(err, ErrShape) = %v: %v", !c.shape, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestGUPanicsAreErrors(t *testing.T) {
	for _, tg := range targets {
		bad := mustGU(t, "(n),()->(n)", func(x []float64, i int64, o []float64) { o[i] = x[i] }, Name("bad"), tg)
		err := bad.Into(Zeros[float64](100, 4), []int64{10}, Zeros[float64](100, 4))
		if err == nil || !strings.Contains(err.Error(), "bad") || !strings.Contains(err.Error(), "index out of range") {
			t.Errorf("%s: %v", tg, err)
		}
	}
}

func TestApply1(t *testing.T) {
	mavg, err := GU("(n),()->(n)", func(x []float64, w int64, out []float64) {
		for i := range x {
			out[i] = x[i] * float64(w)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Apply1[float64](mavg, Of([]float64{1, 2, 3, 4}, 2, 2), int64(2))
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{2, 4, 6, 8}; !slices.Equal(got.Data, want) || !slices.Equal(got.Shape, []int{2, 2}) {
		t.Errorf("Apply1 = %v %v, want %v [2 2]", got.Data, got.Shape, want)
	}
	if _, err := Apply1[float32](mavg, []float64{1}, int64(2)); err == nil || !strings.Contains(err.Error(), "not a vectorize.Array[float32]") {
		t.Errorf("Apply1 with the wrong element type: %v", err)
	}
	two, err := GU("(n)->(),()", func(x []float64, lo, hi *float64) {})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply1[float64](two, []float64{1}); err == nil || !strings.Contains(err.Error(), "2 outputs") {
		t.Errorf("Apply1 of a two-output gufunc: %v", err)
	}
}
