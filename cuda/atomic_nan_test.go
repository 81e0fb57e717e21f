package cuda_test

import (
	"math"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
)

// nanOf converts x to T (float32, float64 or Float16), and nanBits gives a
// T's bits, so that -0 differs from +0 and a NaN equals a NaN.
func nanOf[T cuda.AtomicElement](x float64) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(x)
	case *float64:
		*p = x
	case *cuda.Float16:
		*p = cuda.F16(float32(x))
	}
	return v
}

func nanBits[T cuda.AtomicElement](v T) uint64 {
	switch x := any(v).(type) {
	case float32:
		if x != x {
			return 1 // every NaN alike
		}
		return uint64(math.Float32bits(x))
	case float64:
		if x != x {
			return 1
		}
		return math.Float64bits(x)
	case cuda.Float16:
		if !cuda.HEq(x, x) {
			return 1
		}
		return uint64(x.Bits())
	}
	panic("nanBits: not a float")
}

// nanMax and nanMin are Numba's nanmax and nanmin on float64: a NaN is a
// missing value, and of -0 and +0 the old one stays.
func nanMax(old, val float64) float64 {
	if math.IsNaN(val) || !(val > old || math.IsNaN(old)) {
		return old
	}
	return val
}

func nanMin(old, val float64) float64 {
	if math.IsNaN(val) || !(val < old || math.IsNaN(old)) {
		return old
	}
	return val
}

// nanCases are (stored, given) pairs: NaN stored, NaN given, both, ±0,
// ±Inf and plain numbers.
var nanCases = []struct {
	name        string
	stored, val float64
}{
	{"NaN stored", math.NaN(), 2},
	{"NaN stored, -Inf given", math.NaN(), math.Inf(-1)},
	{"NaN given", 2, math.NaN()},
	{"both NaN", math.NaN(), math.NaN()},
	{"-0 stored, +0 given", math.Copysign(0, -1), 0},
	{"+0 stored, -0 given", 0, math.Copysign(0, -1)},
	{"+Inf stored", math.Inf(1), 1},
	{"-Inf stored", math.Inf(-1), 1},
	{"+Inf given", 1, math.Inf(1)},
	{"-Inf given", 1, math.Inf(-1)},
	{"greater given", 2, 3},
	{"less given", 3, -2},
	{"equal given", 3, 3},
}

// testAtomicNan runs each, an instantiation of testkernels.AtomicNanEach
// (taken in non-generic code: in generic code it would be a closure,
// which is no kernel), on every case.
func testAtomicNan[T cuda.AtomicElement](t *testing.T, typ string, each func(cuda.Thread, []T, []T, []T, []T, []T, []T, []T)) {
	t.Run(typ, func(t *testing.T) {
		n := len(nanCases)
		mx, mn, y := make([]T, n), make([]T, n), make([]T, n)
		oldMx, oldMn, shMx, shMn := make([]T, n), make([]T, n), make([]T, n), make([]T, n)
		for i, c := range nanCases {
			mx[i], mn[i], shMx[i], shMn[i] = nanOf[T](c.stored), nanOf[T](c.stored), nanOf[T](c.stored), nanOf[T](c.stored)
			y[i] = nanOf[T](c.val)
		}
		if err := cuda.Jit(each).Launch(cuda.Dim1(1), cuda.Dim1(n), mx, mn, y, oldMx, oldMn, shMx, shMn); err != nil {
			t.Fatal(err)
		}
		for i, c := range nanCases {
			wantMx, wantMn, old := nanBits(nanOf[T](nanMax(c.stored, c.val))), nanBits(nanOf[T](nanMin(c.stored, c.val))), nanBits(nanOf[T](c.stored))
			for _, r := range []struct {
				what      string
				got, want uint64
			}{
				{"global NanMax", nanBits(mx[i]), wantMx},
				{"global NanMin", nanBits(mn[i]), wantMn},
				{"NanMax's old value", nanBits(oldMx[i]), old},
				{"NanMin's old value", nanBits(oldMn[i]), old},
				{"shared NanMax", nanBits(shMx[i]), wantMx},
				{"shared NanMin", nanBits(shMn[i]), wantMn},
			} {
				if r.got != r.want {
					t.Errorf("%s (%v, %v): %s has bits %#x, want %#x", c.name, c.stored, c.val, r.what, r.got, r.want)
				}
			}
		}
	})
}

// testAtomicNanContended runs all, an instantiation of
// testkernels.AtomicNanAll, to make n threads hit the same elements: every fifth value a
// NaN, the rest integers from -1000 to 1000 (exact in a Float16), so the
// nanmax and nanmin of all of them are known whatever the order.
func testAtomicNanContended[T cuda.AtomicElement](t *testing.T, typ string, all func(cuda.Thread, []T, []T, []T)) {
	t.Run(typ, func(t *testing.T) {
		const n = 64 * 256
		y := make([]T, n)
		wantMx, wantMn := math.NaN(), math.NaN()
		for i := range y {
			v := float64((i*7919)%2001 - 1000)
			if i%5 == 0 {
				v = math.NaN()
			}
			y[i] = nanOf[T](v)
			wantMx, wantMn = nanMax(wantMx, v), nanMin(wantMn, v)
		}
		acc := []T{nanOf[T](math.NaN()), nanOf[T](math.NaN()), nanOf[T](math.NaN()), nanOf[T](math.NaN())}
		init := []T{nanOf[T](math.NaN()), nanOf[T](math.NaN())}
		if err := cuda.Jit(all).Launch(cuda.Dim1(64), cuda.Dim1(256), y, init, acc); err != nil {
			t.Fatal(err)
		}
		for i, want := range []float64{wantMx, wantMn, wantMx, wantMn} {
			if nanBits(acc[i]) != nanBits(nanOf[T](want)) {
				t.Errorf("acc[%d] = %v, want %v", i, acc[i], want)
			}
		}
	})
}

// TestAtomicNanMaxMin: AtomicNanMax and AtomicNanMin follow Numba's nanmax
// and nanmin (a stored NaN is replaced, a NaN given ignored, the old value
// returned) for float32, float64 and Float16, on global and shared memory,
// one thread an element and many threads on one element, on the CPU, on
// ptxsim and on the simulated GPU.
func TestAtomicNanMaxMin(t *testing.T) {
	for _, b := range []struct {
		name  string
		setup func(t *testing.T)
	}{
		{"cpu", func(t *testing.T) { onBackend(t, cuda.CPU) }},
		{"ptxsim", func(t *testing.T) { onBackend(t, cuda.PTXSim) }},
		{"gpu-sim", func(t *testing.T) { simGPU(t) }},
	} {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			t.Run("cases", func(t *testing.T) {
				testAtomicNan(t, "float32", testkernels.AtomicNanEach[float32])
				testAtomicNan(t, "float64", testkernels.AtomicNanEach[float64])
				testAtomicNan(t, "Float16", testkernels.AtomicNanEach[cuda.Float16])
			})
			t.Run("contended", func(t *testing.T) {
				testAtomicNanContended(t, "float32", testkernels.AtomicNanAll[float32])
				testAtomicNanContended(t, "float64", testkernels.AtomicNanAll[float64])
				testAtomicNanContended(t, "Float16", testkernels.AtomicNanAll[cuda.Float16])
			})
		})
	}
}

// TestAtomicNanOnIntegers: on integers AtomicNanMax and AtomicNanMin are
// AtomicMax and AtomicMin.
func TestAtomicNanOnIntegers(t *testing.T) {
	tests := []struct {
		stored, val, wantMax, wantMin int64
	}{
		{-3, -5, -3, -5},
		{2, 7, 7, 2},
		{4, 4, 4, 4},
	}
	for _, tc := range tests {
		x, y := tc.stored, tc.stored
		if old := cuda.AtomicNanMax(&x, tc.val); old != tc.stored || x != tc.wantMax {
			t.Errorf("NanMax(%d, %d): old %d, stored %d; want %d, %d", tc.stored, tc.val, old, x, tc.stored, tc.wantMax)
		}
		if old := cuda.AtomicNanMin(&y, tc.val); old != tc.stored || y != tc.wantMin {
			t.Errorf("NanMin(%d, %d): old %d, stored %d; want %d, %d", tc.stored, tc.val, old, y, tc.stored, tc.wantMin)
		}
		u := uint32(tc.stored) // unsigned: -3 is a large number
		if old := cuda.AtomicNanMax(&u, uint32(tc.val)); old != uint32(tc.stored) || u != max(uint32(tc.stored), uint32(tc.val)) {
			t.Errorf("uint32 NanMax(%d, %d): old %d, stored %d", uint32(tc.stored), uint32(tc.val), old, u)
		}
	}
}
