package compiler

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
)

// stridedSrc holds kernels of strided Array2/Array3 views and of
// SharedArray2/SharedArray3 (issue 21, item 12).
const stridedSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func strided(t cuda.Thread, a cuda.Array2[float32], b cuda.Array3[int64]) {
	i := t.Grid1()
	s0, s1 := a.Strides()
	a.Set(i, 1, a.T().At(1, i)+float32(s0+s1+a.Offset()+a.Len()))
	b.Set(0, i, 2, int64(b.Len()))
}

func shared2(t cuda.Thread, out []float64) {
	s := cuda.SharedArray2[float64](t, 8, 3)
	c := cuda.SharedArray3[int32](t, 2, 3, 4)
	i := t.ThreadIdx().X
	s.Set(i%8, i%3, 1)
	c.Set(1, 2, i%4, 2)
	t.SyncThreads()
	out[i] = s.At(i%8, 0) + float64(c.At(1, 2, 3))
}

// writeThroughT writes a through its transpose: a is not read-only, so its
// loads must not go through the non-coherent cache.
func writeThroughT(t cuda.Thread, a cuda.Array2[float32]) {
	i := t.Grid1()
	a.T().Set(0, i, a.At(i, 0)+1)
}

// readThroughT only reads a, through its transpose: a is read-only.
func readThroughT(t cuda.Thread, a cuda.Array2[float32], out []float32) {
	i := t.Grid1()
	out[i] = a.T().At(0, i)
}

func sharedVar(t cuda.Thread, n int, out []float64) {
	s := cuda.SharedArray2[float64](t, n, 3)
	out[0] = s.At(0, 0)
}

func sharedNeg(t cuda.Thread, out []float64) {
	s := cuda.SharedArray2[float64](t, 4, -3)
	out[0] = s.At(0, 0)
}

func sharedHuge(t cuda.Thread, out []float64) {
	s := cuda.SharedArray3[float64](t, 64, 64, 64)
	out[0] = s.At(0, 0, 0)
}
`

func TestStridedArrayLowering(t *testing.T) {
	m, err := compileSrc(t, stridedSrc, "strided", Target{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	// Element addresses go through the strides (mad with the stride
	// parameters), and debug mode checks the indices against the shape.
	for _, want := range []string{"mad.lo.s64", "ld.param.u64"} {
		if !strings.Contains(m.PTX, want) {
			t.Errorf("PTX lacks %q", want)
		}
	}
	if got := len(m.Params); got != 2 || len(m.Params[0].PTX) != 8 || len(m.Params[1].PTX) != 10 {
		t.Errorf("params %+v: want 8 PTX parameters for the Array2, 10 for the Array3", m.Params)
	}
	assembleAll(t, "strided", m)

	m, err = compileSrc(t, stridedSrc, "shared2", Target{})
	if err != nil {
		t.Fatal(err)
	}
	if want := 8*3*8 + 2*3*4*4 + 8; m.SharedBytes < want-8 || !strings.Contains(m.PTX, ".shared .align 16 .b8") {
		t.Errorf("SharedBytes = %d, want the two arrays (%d bytes before padding)", m.SharedBytes, want-8)
	}
	assembleAll(t, "shared2", m)

	for _, tc := range []struct {
		kernel string
		nc     int
	}{{"writeThroughT", 0}, {"readThroughT", 1}} {
		m, err = compileSrc(t, stridedSrc, tc.kernel, Target{})
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(m.PTX, "ld.global.nc"); n != tc.nc {
			t.Errorf("%s: %d non-coherent loads, want %d\n%s", tc.kernel, n, tc.nc, m.PTX)
		}
	}

	for _, tc := range []struct{ kernel, want string }{
		{"sharedVar", "the dimensions of cuda.SharedArray2 must be constants"},
		{"sharedNeg", "cuda.SharedArray2 dimensions must be positive, got -3"},
		{"sharedHuge", "exceeds the 48 KiB of static shared memory"},
	} {
		_, err := compileSrc(t, stridedSrc, tc.kernel, Target{})
		var fe *frontend.Error
		if !errors.As(err, &fe) || len(fe.Diags) == 0 || !strings.Contains(fe.Diags[0].Msg, tc.want) {
			t.Errorf("%s: got %v, want a positioned error with %q", tc.kernel, err, tc.want)
		}
	}
}
