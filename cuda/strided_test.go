package cuda_test

// Strided device views (issue 21, item 12): NumPy-style slicing with steps
// (DeviceArray.Sub), transposes, element access from the host, Fill, 0-d
// arrays, copies of non-contiguous views, kernels given strided views for
// Array2/Array3 parameters, and SharedArray2/SharedArray3, on every
// backend.

import (
	"fmt"
	"slices"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
)

// refView is the reference for Sub: the elements NumPy's basic indexing
// selects from a row-major array of shape, as (shape, flat indices in
// row-major order).
func refView(shape []int, spans []refSpan) ([]int, []int) {
	var outShape []int
	var sel [][]int
	for k, n := range shape {
		s := refSpan{all: true, step: 1}
		if k < len(spans) {
			s = spans[k]
		}
		var idx []int
		switch {
		case s.index:
			idx = []int{s.lo}
		case s.all && s.step > 0:
			for i := 0; i < n; i += s.step {
				idx = append(idx, i)
			}
		case s.all:
			for i := n - 1; i >= 0; i += s.step {
				idx = append(idx, i)
			}
		case s.step > 0:
			for i := s.lo; i < s.hi; i += s.step {
				idx = append(idx, i)
			}
		default:
			for i := s.lo; i > s.hi; i += s.step {
				idx = append(idx, i)
			}
		}
		sel = append(sel, idx)
		if !s.index {
			outShape = append(outShape, len(idx))
		}
	}
	// Row-major walk over the selected indices.
	flat := []int{0}
	for k, idx := range sel {
		stride := 1
		for _, n := range shape[k+1:] {
			stride *= n
		}
		var next []int
		for _, f := range flat {
			for _, i := range idx {
				next = append(next, f+i*stride)
			}
		}
		flat = next
	}
	if outShape == nil {
		outShape = []int{}
	}
	return outShape, flat
}

// refSpan is a span as the reference reads it.
type refSpan struct {
	lo, hi, step int
	all, index   bool
}

func (r refSpan) span() Span {
	switch {
	case r.index:
		return Index(r.lo)
	case r.all:
		return Every(r.step)
	case r.step == 1:
		return Range(r.lo, r.hi)
	}
	return StepRange(r.lo, r.hi, r.step)
}

func TestDeviceArraySub(t *testing.T) {
	rng := func(lo, hi, step int) refSpan { return refSpan{lo: lo, hi: hi, step: step} }
	every := func(step int) refSpan { return refSpan{all: true, step: step} }
	idx := func(i int) refSpan { return refSpan{lo: i, index: true} }
	ok := []struct {
		shape []int
		spans []refSpan
	}{
		{[]int{10}, []refSpan{rng(2, 8, 1)}},
		{[]int{10}, []refSpan{rng(1, 9, 3)}},
		{[]int{10}, []refSpan{rng(9, 2, -2)}},
		{[]int{10}, []refSpan{rng(9, -1, -1)}},
		{[]int{10}, []refSpan{every(-1)}},
		{[]int{10}, []refSpan{every(4)}},
		{[]int{10}, []refSpan{every(-3)}},
		{[]int{10}, []refSpan{rng(4, 4, 1)}},   // empty
		{[]int{10}, []refSpan{rng(10, 10, 1)}}, // empty at the end
		{[]int{10}, []refSpan{rng(5, 5, -1)}},  // empty, negative step
		{[]int{10}, []refSpan{idx(7)}},         // 0-d
		{[]int{4, 5}, []refSpan{rng(1, 4, 2), every(-1)}},
		{[]int{4, 5}, []refSpan{every(-1), rng(4, 0, -2)}},
		{[]int{4, 5}, []refSpan{idx(2)}},
		{[]int{4, 5}, []refSpan{every(1), idx(3)}},
		{[]int{4, 5}, []refSpan{rng(0, 0, 1), every(2)}},
		{[]int{3, 4, 5}, []refSpan{every(-1), rng(1, 4, 2), rng(4, 0, -3)}},
		{[]int{3, 4, 5}, []refSpan{idx(1), every(-2)}},
		{[]int{3, 4, 5}, []refSpan{idx(2), idx(0), idx(4)}},
	}
	bad := []struct {
		shape []int
		spans []Span
		want  string
	}{
		{[]int{10}, []Span{Range(-1, 3)}, "dimension 0: the low bound -1 is negative"},
		{[]int{10}, []Span{Range(3, 11)}, "the high bound 11 is past the end (at most 10)"},
		{[]int{10}, []Span{Range(5, 3)}, "the low bound 5 is above the high one 3"},
		{[]int{10}, []Span{StepRange(0, 10, 0)}, "the step is 0"},
		{[]int{10}, []Span{Every(0)}, "the step is 0"},
		{[]int{10}, []Span{StepRange(10, 2, -1)}, "the start 10 is past the end (at most 9)"},
		{[]int{10}, []Span{StepRange(3, -2, -1)}, "the stop -2 is below -1"},
		{[]int{10}, []Span{StepRange(2, 5, -1)}, "the start 2 is below the stop 5"},
		{[]int{10}, []Span{Index(10)}, "index 10 is out of range for a dimension of 10"},
		{[]int{10}, []Span{Index(-1)}, "index -1 is out of range"},
		{[]int{4, 5}, []Span{All(), Range(0, 6)}, "Sub[:, 0:6] of a [4 5] array: dimension 1"},
		{[]int{4, 5}, []Span{All(), All(), All()}, "3 spans for a 2-D array"},
	}
	eachBackend(t, func(t *testing.T, _ string) {
		for _, tc := range ok {
			n := 1
			for _, x := range tc.shape {
				n *= x
			}
			host := make([]int32, n)
			for i := range host {
				host[i] = int32(i)
			}
			d := mustDevice(t, host, tc.shape...)
			spans := make([]Span, len(tc.spans))
			for i, s := range tc.spans {
				spans[i] = s.span()
			}
			name := fmt.Sprintf("%v%v", tc.shape, spans)
			var v *DeviceArray[int32]
			if err := call(t, name, func() (err error) { v, err = d.Sub(spans...); return err }); err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			wantShape, flat := refView(tc.shape, tc.spans)
			want := make([]int32, len(flat))
			for i, f := range flat {
				want[i] = host[f]
			}
			if !slices.Equal(v.Shape(), wantShape) || v.Len() != len(want) {
				t.Errorf("%s: shape %v (%d elements), want %v (%d)", name, v.Shape(), v.Len(), wantShape, len(want))
				continue
			}
			got, err := v.ToHost()
			if err != nil {
				t.Errorf("%s: ToHost: %v", name, err)
				continue
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: elements %v, want %v", name, got, want)
			}
			// A write through the view reaches exactly its elements.
			neg := make([]int32, len(want))
			for i := range neg {
				neg[i] = -want[i] - 1
			}
			if err := v.CopyFromHost(neg); err != nil {
				t.Errorf("%s: CopyFromHost: %v", name, err)
				continue
			}
			all := toHost(t, d)
			exp := slices.Clone(host)
			for i, f := range flat {
				exp[f] = neg[i]
			}
			if !slices.Equal(all, exp) {
				t.Errorf("%s: after writing the view, the array is %v, want %v", name, all, exp)
			}
		}
		for _, tc := range bad {
			n := 1
			for _, x := range tc.shape {
				n *= x
			}
			d := mustDevice(t, make([]int32, n), tc.shape...)
			var err error
			call(t, fmt.Sprint(tc.spans), func() error { _, err = d.Sub(tc.spans...); return nil })
			wantErr(t, fmt.Sprintf("Sub%v of %v", tc.spans, tc.shape), err, tc.want)
		}
	})
}

func TestDeviceArrayTransposeAtSetFill(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ string) {
		host := make([]float64, 12)
		for i := range host {
			host[i] = float64(i)
		}
		d := mustDevice(t, host, 3, 4)
		tr := d.T()
		if !slices.Equal(tr.Shape(), []int{4, 3}) || !slices.Equal(tr.Strides(), []int{1, 4}) || tr.Contiguous() {
			t.Fatalf("T of 3×4: shape %v strides %v contiguous %v", tr.Shape(), tr.Strides(), tr.Contiguous())
		}
		if got, want := toHost(t, tr), []float64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}; !slices.Equal(got, want) {
			t.Errorf("T of 3×4 to host: %v, want %v", got, want)
		}
		if tt := tr.T(); !tt.Contiguous() || !slices.Equal(toHost(t, tt), host) {
			t.Errorf("T of T is not the array: contiguous %v", tt.Contiguous())
		}
		if v, err := tr.At(3, 1); err != nil || v != 7 {
			t.Errorf("T.At(3, 1) = %v, %v; want 7", v, err)
		}
		if err := tr.Set(-1, 2, 0); err != nil {
			t.Fatal(err)
		}
		if v, err := d.At(0, 2); err != nil || v != -1 {
			t.Errorf("after T.Set(-1, 2, 0), At(0, 2) = %v, %v; want -1", v, err)
		}
		wantErr(t, "At out of range", func() error { _, err := d.At(3, 0); return err }(), "At[3 0]: index 3 is out of range for dimension 0 of shape [3 4]")
		wantErr(t, "At with too few indices", func() error { _, err := d.At(1); return err }(), "1 indices for a 2-D array")
		wantErr(t, "Set out of range", d.Set(1, 0, -1), "index -1 is out of range for dimension 1")
		p, err := d.Transpose(1, 0)
		if err != nil || !slices.Equal(toHost(t, p), toHost(t, tr)) {
			t.Errorf("Transpose(1, 0) differs from T: %v", err)
		}
		_, err = d.Transpose(0, 0)
		wantErr(t, "Transpose(0, 0)", err, "not a permutation")

		// Fill: contiguous (byte patterns and others), strided.
		for _, v := range []float64{0, 2.5, -1} {
			if err := d.Fill(v); err != nil {
				t.Fatal(err)
			}
			for i, x := range toHost(t, d) {
				if x != v {
					t.Fatalf("Fill(%v): element %d is %v", v, i, x)
				}
			}
		}
		col, err := d.Sub(All(), Index(1))
		if err != nil {
			t.Fatal(err)
		}
		if err := col.Fill(7); err != nil {
			t.Fatal(err)
		}
		want := []float64{-1, 7, -1, -1, -1, 7, -1, -1, -1, 7, -1, -1}
		if got := toHost(t, d); !slices.Equal(got, want) {
			t.Errorf("Fill(7) of column 1: %v, want %v", got, want)
		}
		b := mustDevice(t, make([]uint8, 7))
		if err := b.Fill(0xab); err != nil {
			t.Fatal(err)
		}
		if got := toHost(t, b); !slices.Equal(got, slices.Repeat([]uint8{0xab}, 7)) {
			t.Errorf("Fill(0xab) of bytes: %v", got)
		}
		h := mustDevice(t, make([]int16, 5))
		if err := h.Fill(-3); err != nil {
			t.Fatal(err)
		}
		if got := toHost(t, h); !slices.Equal(got, slices.Repeat([]int16{-3}, 5)) {
			t.Errorf("Fill(-3) of int16: %v", got)
		}

		// 0-d arrays.
		s, err := ToDeviceScalar(3.5)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Free()
		if len(s.Shape()) != 0 || s.Len() != 1 {
			t.Errorf("ToDeviceScalar: shape %v, %d elements", s.Shape(), s.Len())
		}
		if v, err := s.At(); err != nil || v != 3.5 {
			t.Errorf("0-d At() = %v, %v", v, err)
		}
		if err := s.Set(4.5); err != nil {
			t.Fatal(err)
		}
		if got := toHost(t, s); !slices.Equal(got, []float64{4.5}) {
			t.Errorf("0-d after Set(4.5): %v", got)
		}

		// Empty slices are empty arrays, on views too.
		for _, r := range [][2]int{{0, 0}, {5, 5}, {12, 12}} {
			e, err := d.Slice(r[0], r[1])
			if err != nil || e.Len() != 0 || len(toHost(t, e)) != 0 {
				t.Errorf("Slice(%d, %d): %v, %d elements", r[0], r[1], err, e.Len())
			}
		}
		row, _ := d.Sub(Index(2), Every(-1))
		if e, err := row.Slice(2, 2); err != nil || e.Len() != 0 {
			t.Errorf("Slice(2, 2) of a reversed row: %v", err)
		}
		if e, err := row.Slice(1, 3); err != nil || !slices.Equal(toHost(t, e), []float64{-1, 7}) {
			t.Errorf("Slice(1, 3) of a reversed row: %v, %v", err, toHost(t, e))
		}
		_, err = tr.Reshape(12)
		wantErr(t, "Reshape of a transpose", err, "not contiguous")
		_, err = tr.Slice(0, 2)
		wantErr(t, "Slice of a 2-D transpose", err, "not contiguous")

		// Copies of a strided view on a stream: ready once the stream is
		// synchronized.
		st, err := NewStream()
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, 12)
		if err := tr.CopyToHostAsync(got, st); err != nil {
			t.Fatal(err)
		}
		if err := st.Synchronize(); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, toHost(t, tr)) {
			t.Errorf("CopyToHostAsync of a transpose: %v", got)
		}
		back := slices.Clone(got)
		for i := range back {
			back[i] += 100
		}
		if err := tr.CopyFromHostAsync(back, st); err != nil {
			t.Fatal(err)
		}
		if err := st.Synchronize(); err != nil {
			t.Fatal(err)
		}
		if got := toHost(t, tr); !slices.Equal(got, back) {
			t.Errorf("CopyFromHostAsync into a transpose: %v, want %v", got, back)
		}

		// CopyFrom between a strided view and a contiguous array.
		dst := mustDevice(t, make([]float64, 12), 4, 3)
		if err := dst.CopyFrom(tr); err != nil {
			t.Fatal(err)
		}
		if got := toHost(t, dst); !slices.Equal(got, toHost(t, tr)) {
			t.Errorf("CopyFrom of a transpose: %v", got)
		}
	})
}

// stridedBackends are the backends that run kernels.
var stridedBackends = []struct {
	name  string
	setup func(t *testing.T)
}{
	{"cpu", func(t *testing.T) { onBackend(t, CPU) }},
	{"ptxsim", func(t *testing.T) { onBackend(t, PTXSim) }},
	{"gpu-sim", func(t *testing.T) { simGPU(t) }},
}

func TestStridedViewKernels(t *testing.T) {
	for _, b := range stridedBackends {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			const rows, cols = 6, 7
			host := make([]float32, rows*cols)
			for i := range host {
				host[i] = float32(i)
			}

			// Scale2 on a stepped, reversed view: rows 1, 3, 5, columns
			// from the last down by 2.
			d := mustDevice(t, host, rows, cols)
			v, err := d.Sub(StepRange(1, rows, 2), Every(-2))
			if err != nil {
				t.Fatal(err)
			}
			if err := Jit(testkernels.Scale2).Launch(Dim2(1, 1), Dim2(8, 8), v, float32(10)); err != nil {
				t.Fatalf("Scale2 on %v strides %v: %v", v.Shape(), v.Strides(), err)
			}
			want := slices.Clone(host)
			for i := 1; i < rows; i += 2 {
				for j := cols - 1; j >= 0; j -= 2 {
					want[i*cols+j] *= 10
				}
			}
			if got := toHost(t, d); !slices.Equal(got, want) {
				t.Errorf("Scale2 through a [1:6:2, ::-2] view:\n got %v\nwant %v", got, want)
			}

			// Copy2 from a transposed device view and a transposed host
			// array.
			h64 := make([]float64, rows*cols)
			for i := range h64 {
				h64[i] = float64(i)
			}
			src := mustDevice(t, h64, rows, cols)
			dst := mustDevice(t, make([]float64, rows*cols), cols, rows)
			if err := Jit(testkernels.Copy2).Launch(Dim2(1, 1), Dim2(8, 8), dst, src.T()); err != nil {
				t.Fatal(err)
			}
			wantT := make([]float64, rows*cols)
			for i := 0; i < rows; i++ {
				for j := 0; j < cols; j++ {
					wantT[j*rows+i] = h64[i*cols+j]
				}
			}
			if got := toHost(t, dst); !slices.Equal(got, wantT) {
				t.Errorf("Copy2 from src.T():\n got %v\nwant %v", got, wantT)
			}
			hostDst := NewArray2[float64](cols, rows)
			if err := Jit(testkernels.Copy2).Launch(Dim2(1, 1), Dim2(8, 8), hostDst, MustView2(h64, rows, cols).T()); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(hostDst.Data(), wantT) {
				t.Errorf("Copy2 from a host Array2's T():\n got %v\nwant %v", hostDst.Data(), wantT)
			}

			// TransposeInKernel: T() called in the kernel.
			i32 := make([]int32, rows*cols)
			for i := range i32 {
				i32[i] = int32(i)
			}
			s32 := mustDevice(t, i32, rows, cols)
			d32 := mustDevice(t, make([]int32, rows*cols), cols, rows)
			if err := Jit(testkernels.TransposeInKernel).Launch(Dim2(1, 1), Dim2(8, 8), d32, s32); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < rows; i++ {
				for j := 0; j < cols; j++ {
					if got, _ := d32.At(j, i); got != i32[i*cols+j] {
						t.Fatalf("TransposeInKernel: (%d, %d) = %d, want %d", j, i, got, i32[i*cols+j])
					}
				}
			}

			// Index3 on a permuted, stepped 3-D view.
			base := mustDevice(t, make([]int32, 4*5*6), 4, 5, 6)
			p, err := base.Transpose(2, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			p, err = p.Sub(Every(-2), All(), StepRange(1, 5, 3))
			if err != nil {
				t.Fatal(err)
			}
			info := make([]int64, 5)
			if err := Jit(testkernels.Index3).Launch(Dim1(1), Dim1(64), p, info); err != nil {
				t.Fatal(err)
			}
			d0, d1, d2 := 3, 4, 2 // (6 by -2, 4, 5 from 1 by 3)
			if !slices.Equal(p.Shape(), []int{d0, d1, d2}) {
				t.Fatalf("view shape %v", p.Shape())
			}
			// The first element, base (0, 1, 5), is 4 past the lowest,
			// base (0, 1, 1).
			if info[0] != int64(d0*d1*d2) || info[1] != -2 || info[2] != 30 || info[3] != 18 || info[4] != 4 {
				t.Errorf("Index3 saw Len %d, strides (%d, %d, %d), offset %d; want %d, (-2, 30, 18), 4", info[0], info[1], info[2], info[3], info[4], d0*d1*d2)
			}
			all := toHost(t, base)
			for x := 0; x < d0; x++ {
				for y := 0; y < d1; y++ {
					for z := 0; z < d2; z++ {
						// View (x, y, z) is base (y, 1+3z, 5-2x).
						if got, want := all[(y*5+1+3*z)*6+5-2*x], int32(x*100+y*10+z); got != want {
							t.Errorf("Index3: view (%d,%d,%d) = %d, want %d", x, y, z, got, want)
						}
					}
				}
			}
			// The elements outside the view are untouched.
			nonZero := 0
			for _, x := range all {
				if x != 0 {
					nonZero++
				}
			}
			if nonZero != d0*d1*d2-1 { // (0,0,0) writes 0
				t.Errorf("Index3 wrote %d elements, want %d", nonZero, d0*d1*d2-1)
			}

			// A 0-d array goes to a slice parameter as one element.
			z, err := ToDeviceScalar[float32](3)
			if err != nil {
				t.Fatal(err)
			}
			defer z.Free()
			if err := Jit(testkernels.Scale).Launch(Dim1(1), Dim1(32), z, float32(2)); err != nil {
				t.Fatal(err)
			}
			if got, err := z.At(); err != nil || got != 6 {
				t.Errorf("Scale of a 0-d array: %v, %v; want 6", got, err)
			}

			// A strided view for a slice parameter is refused.
			err = Jit(testkernels.Scale).Launch(Dim1(1), Dim1(32), v, float32(1))
			wantErr(t, "strided view for a slice parameter", err, "strided device array view")
		})
	}
}

func TestSharedArray2And3(t *testing.T) {
	for _, b := range stridedBackends {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			const rows, cols = 20, 35
			in := NewArray2[float32](rows, cols)
			for i := range in.Data() {
				in.Data()[i] = float32(i)
			}
			out := NewArray2[float32](cols, rows)
			if err := Jit(testkernels.SharedTile2).Launch(Dim2((cols+15)/16, (rows+15)/16), Dim2(16, 16), in, out); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < rows; i++ {
				for j := 0; j < cols; j++ {
					if out.At(j, i) != in.At(i, j) {
						t.Fatalf("SharedTile2: out(%d, %d) = %v, want %v", j, i, out.At(j, i), in.At(i, j))
					}
				}
			}
			res := make([]int64, 3*4)
			if err := Jit(testkernels.SharedCube3).Launch(Dim1(3), Dim1(64), res); err != nil {
				t.Fatal(err)
			}
			for blk := 0; blk < 3; blk++ {
				want := []int64{int64(63*64/2 + 64*blk), 2, 4, 8}
				if got := res[blk*4 : blk*4+4]; !slices.Equal(got, want) {
					t.Errorf("SharedCube3 block %d: %v, want %v", blk, got, want)
				}
			}
		})
	}
}

// TestFillUsesMemset: on the GPU, Fill of a contiguous array whose value
// is a repeated 1-, 2- or 4-byte pattern is one cuMemsetD8/D16/D32; other
// values and strided views are written by a copy.
func TestFillUsesMemset(t *testing.T) {
	f := simGPU(t)
	count := func(call string) int {
		n := 0
		for _, c := range f.Calls() {
			if c == call {
				n++
			}
		}
		return n
	}
	check := func(what string, fill func() error, call string, read func() bool) {
		t.Helper()
		before := count(call)
		if err := fill(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if call != "" && count(call) != before+1 {
			t.Errorf("%s: %d %s calls, want 1", what, count(call)-before, call)
		}
		if !read() {
			t.Errorf("%s: wrong contents", what)
		}
	}
	u8 := mustDevice(t, make([]uint8, 5))
	check("Fill uint8", func() error { return u8.Fill(7) }, "cuMemsetD8", func() bool { return slices.Equal(toHost(t, u8), slices.Repeat([]uint8{7}, 5)) })
	i16 := mustDevice(t, make([]int16, 5))
	check("Fill int16", func() error { return i16.Fill(-2) }, "cuMemsetD16", func() bool { return slices.Equal(toHost(t, i16), slices.Repeat([]int16{-2}, 5)) })
	f32 := mustDevice(t, make([]float32, 5))
	check("Fill float32", func() error { return f32.Fill(1.5) }, "cuMemsetD32", func() bool { return slices.Equal(toHost(t, f32), slices.Repeat([]float32{1.5}, 5)) })
	f64 := mustDevice(t, make([]float64, 6))
	check("Fill float64 0", func() error { return f64.Fill(0) }, "cuMemsetD8", func() bool { return slices.Equal(toHost(t, f64), make([]float64, 6)) })
	before := count("cuMemsetD32") + count("cuMemsetD16") + count("cuMemsetD8")
	check("Fill float64 1.5", func() error { return f64.Fill(1.5) }, "", func() bool { return slices.Equal(toHost(t, f64), slices.Repeat([]float64{1.5}, 6)) })
	odd, err := f32.Sub(Every(2))
	if err != nil {
		t.Fatal(err)
	}
	check("Fill of a strided view", func() error { return odd.Fill(4) }, "", func() bool { return slices.Equal(toHost(t, f32), []float32{4, 1.5, 4, 1.5, 4}) })
	if n := count("cuMemsetD32") + count("cuMemsetD16") + count("cuMemsetD8"); n != before {
		t.Errorf("%d memsets for values without a short pattern and strided views, want none", n-before)
	}
}

// TestHostArraySub: Sub and T of host Array2/Array3 values, against
// explicit indexing, and their errors.
func TestHostArraySub(t *testing.T) {
	data := make([]int, 6*7)
	for i := range data {
		data[i] = i
	}
	a := MustView2(data, 6, 7)
	tests := []struct {
		rows, cols Span
		ri, ci     []int // the rows and columns selected
	}{
		{All(), All(), []int{0, 1, 2, 3, 4, 5}, []int{0, 1, 2, 3, 4, 5, 6}},
		{StepRange(1, 6, 2), Every(-3), []int{1, 3, 5}, []int{6, 3, 0}},
		{StepRange(5, -1, -1), Range(2, 4), []int{5, 4, 3, 2, 1, 0}, []int{2, 3}},
		{Range(3, 3), All(), nil, []int{0, 1, 2, 3, 4, 5, 6}},
	}
	for _, tc := range tests {
		v, err := a.Sub(tc.rows, tc.cols)
		if err != nil {
			t.Errorf("Sub(%v, %v): %v", tc.rows, tc.cols, err)
			continue
		}
		if r, c := v.Shape(); r != len(tc.ri) || c != len(tc.ci) {
			t.Errorf("Sub(%v, %v): shape (%d, %d), want (%d, %d)", tc.rows, tc.cols, r, c, len(tc.ri), len(tc.ci))
			continue
		}
		for i, ri := range tc.ri {
			for j, cj := range tc.ci {
				if got := v.At(i, j); got != data[ri*7+cj] {
					t.Errorf("Sub(%v, %v).At(%d, %d) = %d, want %d", tc.rows, tc.cols, i, j, got, data[ri*7+cj])
				}
				if got := v.T().At(j, i); got != data[ri*7+cj] {
					t.Errorf("Sub(%v, %v).T().At(%d, %d) = %d, want %d", tc.rows, tc.cols, j, i, got, data[ri*7+cj])
				}
			}
		}
		// Data is the memory from the lowest element to the highest.
		if v.Len() > 0 {
			lo, hi := len(data), -1
			for _, ri := range tc.ri {
				for _, cj := range tc.ci {
					lo, hi = min(lo, ri*7+cj), max(hi, ri*7+cj)
				}
			}
			if d := v.Data(); len(d) != hi-lo+1 || d[0] != lo {
				t.Errorf("Sub(%v, %v).Data() covers %d elements from %d, want %d from %d", tc.rows, tc.cols, len(d), d[0], hi-lo+1, lo)
			}
		}
	}
	if a.T().Contiguous() || !a.Contiguous() || !a.T().T().Contiguous() {
		t.Errorf("Contiguous: a %v, a.T() %v, a.T().T() %v", a.Contiguous(), a.T().Contiguous(), a.T().T().Contiguous())
	}
	_, err := a.Sub(Index(1), All())
	wantErr(t, "Sub with an Index", err, "an Index span would drop the dimension; use Range(1, 2)")
	_, err = a.Sub(All(), Range(0, 8))
	wantErr(t, "Sub past the end", err, "dimension 1: the high bound 8 is past the end (at most 7)")
	b := MustView3(data, 2, 3, 7)
	v, err := b.Sub(Every(-1), Range(1, 3), StepRange(6, 0, -3))
	if err != nil {
		t.Fatal(err)
	}
	if d0, d1, d2 := v.Shape(); d0 != 2 || d1 != 2 || d2 != 2 || v.At(0, 1, 1) != b.At(1, 2, 3) || v.T().At(1, 0, 1) != b.At(0, 1, 3) {
		t.Errorf("3-D Sub: shape (%d, %d, %d), At(0, 1, 1) = %d, T().At(1, 0, 1) = %d", d0, d1, d2, v.At(0, 1, 1), v.T().At(1, 0, 1))
	}
}
