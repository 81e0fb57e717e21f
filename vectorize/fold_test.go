package vectorize

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// Functions with compiled folds and scans, registered as `nugo gen` writes
// them, plus counts of the calls of f each made: the proof that a
// reduction went through them. foldSum also has an element loop, which
// reductions along non-contiguous axes use; foldSkew has none. Only the
// tests of this file use them, one test at a time.

// foldSum is a float sum: its result depends on the order of the calls.
func foldSum(x, y float64) float64 { return x + y }

// foldSkew is neither associative nor commutative, so that any change of
// order or of argument order changes its integer results.
func foldSkew(x, y int64) int64 { return x*3 - y }

// foldGeneric is generic: nugo gen registers each instantiation the
// package names with concrete types, and each is its own function.
func foldGeneric[T cuda.Number](x, y T) T { return x + y }

var folded, scanned, rowLooped [3]atomic.Int64 // [0]: foldSum, [1]: foldSkew, [2]: foldGeneric[float32]

func init() {
	registerCounted(foldSum, 0)
	registerCounted(foldSkew, 1)
	registerCounted(foldGeneric[float32], 2)
	RegisterLoop2(foldSum, func(out []float64, a []float64, b []float64) {
		rowLooped[0].Add(int64(len(out)))
		a, b = a[:len(out)], b[:len(out)]
		for i := range out {
			out[i] = foldSum(a[i], b[i])
		}
	})
}

// registerCounted registers for f the fold and scan nugo gen writes,
// counting in folded[k] and scanned[k] the elements each one is given.
func registerCounted[T cuda.Number](f func(T, T) T, k int) {
	RegisterFold(f, func(acc T, x []T) T {
		folded[k].Add(int64(len(x)))
		for _, v := range x {
			acc = f(acc, v)
		}
		return acc
	})
	RegisterScan(f, func(acc T, x []T, out []T) T {
		scanned[k].Add(int64(len(out)))
		x = x[:len(out)]
		for i, v := range x {
			acc = f(acc, v)
			out[i] = acc
		}
		return acc
	})
}

// foldSizes are the sizes around Reduce's chunking on the Parallel target
// (parallelMin, parts of parallelMin/2 elements) and the Parallel target's
// chunks.
var foldSizes = []int{0, 1, 2, 3, parallelMin - 1, parallelMin, parallelMin + 1,
	5*parallelMin/2 + 1, parallelChunk + 1, 3*parallelChunk + 5}

// wobble is n floats of many magnitudes, whose sums round differently in
// any other order.
func wobble(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Sin(float64(i)) * math.Pow(10, float64(i%9-4))
	}
	return x
}

// skewed is n integers for foldSkew.
func skewed(n int) []int64 {
	x := ramp[int64](n, 1, 5)
	for i := range x {
		x[i] -= 48
	}
	return x
}

// same reports whether a and b hold the same values, floats compared bit
// for bit.
func same[T cuda.Number](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameBits(a[i], b[i]) {
			return false
		}
	}
	return true
}

func sameBits[T cuda.Number](a, b T) bool {
	switch x := any(a).(type) {
	case float64:
		return math.Float64bits(x) == math.Float64bits(any(b).(float64))
	case float32:
		return math.Float32bits(x) == math.Float32bits(any(b).(float32))
	}
	return a == b
}

// foldCase is a function with compiled folds and scans, its twin (the
// same function as a closure, which has none), its identity and its
// counters.
type foldCase[T cuda.Number] struct {
	name       string
	f, twin    func(x, y T) T
	id         T
	input      func(n int) []T
	fold, scan *atomic.Int64
	loop       *atomic.Int64 // nil: f has no element loop
}

func (c foldCase[T]) ufuncs(tg Target) (u, twin *Ufunc2[T, T, T]) {
	return New2(c.f, tg).WithIdentity(c.id), New2(c.twin, tg, Name(c.name)).WithIdentity(c.id)
}

// check1D checks Reduce and Accumulate of every size of foldSizes on the
// CPU and Parallel targets: the results are those of the twin, bit for
// bit, and the compiled fold and scan made every call of f (n-1 of them:
// Reduce's chunks fold len-1 elements each onto their first, and the fold
// of the chunks' results one per chunk but the first).
func (c foldCase[T]) check1D(t *testing.T) {
	for _, tg := range []Target{CPU, Parallel} {
		u, twin := c.ufuncs(tg)
		for _, n := range foldSizes {
			x := c.input(n)
			calls := int64(max(n-1, 0))

			want, err := Reduce(twin, x)
			if err != nil {
				t.Fatalf("%s, %s, n=%d: Reduce without a fold: %v", c.name, tg, n, err)
			}
			c.fold.Store(0)
			got, err := Reduce(u, x)
			if err != nil || !sameBits(got, want) {
				t.Errorf("%s, %s, n=%d: Reduce = %v, %v; want %v as without a fold", c.name, tg, n, got, err, want)
			}
			if k := c.fold.Load(); k != calls {
				t.Errorf("%s, %s, n=%d: Reduce's fold made %d calls, want %d", c.name, tg, n, k, calls)
			}

			wantAcc, err := Accumulate(twin, x)
			if err != nil {
				t.Fatalf("%s, %s, n=%d: Accumulate without a scan: %v", c.name, tg, n, err)
			}
			c.scan.Store(0)
			acc, err := Accumulate(u, x)
			if err != nil || !same(acc, wantAcc) {
				t.Errorf("%s, %s, n=%d: Accumulate differs from the result without a scan (%v)", c.name, tg, n, err)
			}
			if k := c.scan.Load(); k != calls {
				t.Errorf("%s, %s, n=%d: Accumulate's scan made %d calls, want %d", c.name, tg, n, k, calls)
			}
		}
	}
}

// checkAxes checks ReduceAxis and AccumulateAxis along each axis of
// several shapes against the twin, bit for bit, and which compiled code
// ran: the fold or scan along axes after which every dimension has size
// 1, the element loop (if f has one) along the others.
func (c foldCase[T]) checkAxes(t *testing.T) {
	const wide = 4096 + 3 // rows wider than sweep's pieces
	shapes := [][]int{{7}, {1}, {5, 9}, {3, 1, 6}, {2, 3, 4}, {4, 6, 1}, {3, wide}, {parallelChunk + 3, 2}, {0, 4}}
	for _, tg := range []Target{CPU, Parallel} {
		u, twin := c.ufuncs(tg)
		for _, shape := range shapes {
			x := Of(c.input(size(shape)), shape...)
			for axis := range shape {
				outer, n, inner := size(shape[:axis]), shape[axis], size(shape[axis+1:])
				name := fmt.Sprintf("%s, %s, shape %v, axis %d", c.name, tg, shape, axis)
				var wantFold, wantScan, wantLoop int64
				if outer*inner > 0 && n > 0 {
					if inner == 1 {
						wantFold, wantScan = int64(outer*(n-1)), int64(outer*(n-1))
					} else if c.loop != nil {
						wantLoop = int64(outer * (n - 1) * inner)
					}
				}
				c.fold.Store(0)
				c.scan.Store(0)
				if c.loop != nil {
					c.loop.Store(0)
				}

				want, err := ReduceAxis(twin, x, axis)
				if err != nil {
					t.Fatalf("%s: ReduceAxis without compiled code: %v", name, err)
				}
				got, err := ReduceAxis(u, x, axis)
				if err != nil || !same(got.Data, want.Data) || !slices.Equal(got.Shape, want.Shape) {
					t.Errorf("%s: ReduceAxis differs from the result without compiled code (%v)", name, err)
				}
				wantAcc, err := AccumulateAxis(twin, x, axis)
				if err != nil {
					t.Fatalf("%s: AccumulateAxis without compiled code: %v", name, err)
				}
				acc, err := AccumulateAxis(u, x, axis)
				if err != nil || !same(acc.Data, wantAcc.Data) || !slices.Equal(acc.Shape, wantAcc.Shape) {
					t.Errorf("%s: AccumulateAxis differs from the result without compiled code (%v)", name, err)
				}

				if k := c.fold.Load(); k != wantFold {
					t.Errorf("%s: the fold made %d calls, want %d", name, k, wantFold)
				}
				if k := c.scan.Load(); k != wantScan {
					t.Errorf("%s: the scan made %d calls, want %d", name, k, wantScan)
				}
				if c.loop != nil {
					// ReduceAxis and AccumulateAxis each.
					if k := c.loop.Load(); k != 2*wantLoop {
						t.Errorf("%s: the element loop made %d calls, want %d", name, k, 2*wantLoop)
					}
				}
			}
		}
	}
}

var (
	sumCase = foldCase[float64]{
		name: "foldSum", f: foldSum, twin: func(x, y float64) float64 { return foldSum(x, y) },
		input: wobble, fold: &folded[0], scan: &scanned[0], loop: &rowLooped[0],
	}
	skewCase = foldCase[int64]{
		name: "foldSkew", f: foldSkew, twin: func(x, y int64) int64 { return foldSkew(x, y) },
		input: skewed, fold: &folded[1], scan: &scanned[1],
	}
)

func TestRegisteredFold(t *testing.T) {
	sumCase.check1D(t)
	skewCase.check1D(t)
}

func TestRegisteredFoldAxes(t *testing.T) {
	sumCase.checkAxes(t)
	skewCase.checkAxes(t)
}

// TestRegisteredFoldOrder checks the compiled fold against the strict
// left fold on the CPU target and against the chunked fold on the
// Parallel target, written out here: its float sum differs from the
// strict one, so the test can tell the two orders apart.
func TestRegisteredFoldOrder(t *testing.T) {
	x := wobble(3*parallelMin + 11)
	left := x[0]
	for _, v := range x[1:] {
		left += v
	}
	parts := min(len(x)/(parallelMin/2), 4*workers())
	chunked := 0.0
	for i := range parts {
		c := x[i*len(x)/parts : (i+1)*len(x)/parts]
		s := c[0]
		for _, v := range c[1:] {
			s += v
		}
		if i == 0 {
			chunked = s
		} else {
			chunked += s
		}
	}
	for _, c := range []struct {
		tg   Target
		want float64
	}{{CPU, left}, {Parallel, chunked}} {
		got, err := Reduce(New2(foldSum, c.tg), x)
		if err != nil || math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("%s: Reduce = %v, %v; want %v", c.tg, got, err, c.want)
		}
	}
	if parts > 1 && left == chunked {
		t.Logf("the chunked and the strict sums happen to be equal; the test tells less")
	}
}

func foldDiv(x, y int64) int64 { return x / y }

func init() {
	RegisterFold(foldDiv, func(acc int64, x []int64) int64 {
		for _, v := range x {
			acc = foldDiv(acc, v)
		}
		return acc
	})
	RegisterScan(foldDiv, func(acc int64, x []int64, out []int64) int64 {
		x = x[:len(out)]
		for i, v := range x {
			acc = foldDiv(acc, v)
			out[i] = acc
		}
		return acc
	})
}

// TestRegisteredFoldPanic checks that a panic of the function inside a
// compiled fold or scan is the error the func-value path gives.
func TestRegisteredFoldPanic(t *testing.T) {
	for _, tg := range []Target{CPU, Parallel} {
		for _, n := range []int{3, 3*parallelMin + 5} {
			x := make([]int64, n)
			for i := range x {
				x[i] = 1
			}
			x[n-2] = 0
			u, twin := New2(foldDiv, tg), New2(func(x, y int64) int64 { return foldDiv(x, y) }, tg, Name("foldDiv"))
			calls := []struct {
				name string
				call func(u *Ufunc2[int64, int64, int64]) error
			}{
				{"Reduce", func(u *Ufunc2[int64, int64, int64]) error { _, err := Reduce(u, x); return err }},
				{"Accumulate", func(u *Ufunc2[int64, int64, int64]) error { _, err := Accumulate(u, x); return err }},
			}
			for _, c := range calls {
				err, want := c.call(u), c.call(twin)
				if err == nil || want == nil {
					t.Fatalf("%s, %s, n=%d: errors %v and %v (without compiled code); want both", c.name, tg, n, err, want)
				}
				if err.Error() != want.Error() {
					t.Errorf("%s, %s, n=%d: error %q, want %q as without compiled code", c.name, tg, n, err, want)
				}
				if pe := (*panicError)(nil); !errors.As(err, &pe) {
					t.Errorf("%s, %s, n=%d: error %v does not wrap the panic", c.name, tg, n, err)
				}
			}
		}
	}
}

func foldReplaced(x, y int32) int32 { return x + y }

// TestRegisterFoldRules checks replacement, that nil functions, nil folds
// and closures are ignored, and that a function's folds, scans and
// element loops do not replace one another.
func TestRegisterFoldRules(t *testing.T) {
	var first, second, closure, scans, loops atomic.Int64
	fold := func(count *atomic.Int64) func(acc int32, x []int32) int32 {
		return func(acc int32, x []int32) int32 {
			count.Add(int64(len(x)))
			for _, v := range x {
				acc = foldReplaced(acc, v)
			}
			return acc
		}
	}
	x := []int32{1, 2, 3, 4}
	u := New2(foldReplaced, CPU)
	reduce := func(step string, u *Ufunc2[int32, int32, int32], want int32) {
		t.Helper()
		if got, err := Reduce(u, x); err != nil || got != want {
			t.Fatalf("%s: Reduce = %v, %v; want %v", step, got, err, want)
		}
	}
	reduce("no fold", u, 10)

	RegisterFold(foldReplaced, fold(&first))
	reduce("first fold", u, 10)
	RegisterFold(foldReplaced, fold(&second))
	reduce("second fold", u, 10)
	if first.Load() != 3 || second.Load() != 3 {
		t.Fatalf("first fold made %d calls, second %d; want 3 each (the second replaces the first)", first.Load(), second.Load())
	}

	RegisterFold(foldReplaced, nil) // ignored: the second fold stays
	RegisterFold[int32](nil, fold(&first))
	RegisterScan[int32](nil, nil)
	RegisterScan(foldReplaced, nil)
	reduce("after nil registrations", u, 10)
	if first.Load() != 3 || second.Load() != 6 {
		t.Fatalf("after nil registrations: first fold made %d calls, second %d; want 3, 6", first.Load(), second.Load())
	}

	// A scan and an element loop of the same function are kept apart
	// from its fold.
	RegisterScan(foldReplaced, func(acc int32, x, out []int32) int32 {
		scans.Add(int64(len(out)))
		for i, v := range x[:len(out)] {
			acc = foldReplaced(acc, v)
			out[i] = acc
		}
		return acc
	})
	RegisterLoop2(foldReplaced, func(out, a, b []int32) {
		loops.Add(int64(len(out)))
		for i := range out {
			out[i] = foldReplaced(a[i], b[i])
		}
	})
	reduce("with a scan and a loop", u, 10)
	if got, err := Accumulate(u, x); err != nil || !slices.Equal(got, []int32{1, 3, 6, 10}) {
		t.Fatalf("Accumulate = %v, %v", got, err)
	}
	if second.Load() != 9 || scans.Load() != 3 || loops.Load() != 0 {
		t.Fatalf("the fold made %d calls (want 9), the scan %d (want 3), the element loop %d (want 0)", second.Load(), scans.Load(), loops.Load())
	}

	// A fold registered for a closure would serve every closure of the
	// same literal, whatever they capture: it is refused.
	skew := func(d int32) func(x, y int32) int32 { return func(x, y int32) int32 { return x + y + d } }
	RegisterFold(skew(1), fold(&closure))
	for _, d := range []int32{1, 10} {
		got, err := Reduce(New2(skew(d), CPU), x)
		if want := 10 + 3*d; err != nil || got != want || closure.Load() != 0 {
			t.Fatalf("closure +%d: Reduce = %v, %v, want %v; the fold registered for a closure made %d calls, want 0", d, got, err, want, closure.Load())
		}
	}
}

// foldSumPlain is foldSum without compiled code: a top-level function,
// which the CUDA target takes on every backend.
func foldSumPlain(x, y float64) float64 { return x + y }

// TestCUDATargetUsesNoFold checks what RegisterFold and RegisterScan
// promise: the CUDA target uses neither, so Reduce folds the kernel's
// per-chunk results by calling f, as it would without compiled code.
func TestCUDATargetUsesNoFold(t *testing.T) {
	x := wobble(5000)
	u, twin := New2(foldSum, CUDA), New2(foldSumPlain, CUDA)
	folds, scans := folded[0].Load(), scanned[0].Load()
	got, err := Reduce(u, x)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Reduce(twin, x)
	if err != nil {
		t.Fatal(err)
	}
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("Reduce = %v, want %v as without compiled code", got, want)
	}
	if _, err := Accumulate(u, x); err != nil {
		t.Fatal(err)
	}
	if k, s := folded[0].Load()-folds, scanned[0].Load()-scans; k != 0 || s != 0 {
		t.Errorf("on the CUDA target the compiled fold made %d calls and the scan %d; want none", k, s)
	}
}

// TestGenericInstantiationFold: a fold registered for one instantiation of
// a generic function serves the ufuncs made of that instantiation, and not
// those of another.
func TestGenericInstantiationFold(t *testing.T) {
	before := folded[2].Load()
	if got, err := Reduce(New2(foldGeneric[float32]), []float32{1, 2, 3}); err != nil || got != 6 {
		t.Fatalf("Reduce(foldGeneric[float32]) = %v, %v; want 6", got, err)
	}
	if n := folded[2].Load() - before; n != 2 {
		t.Errorf("the registered fold got %d elements, want 2 (the first one is the initial value)", n)
	}
	before = folded[2].Load()
	if got, err := Reduce(New2(foldGeneric[float64]), []float64{1, 2, 3}); err != nil || got != 6 {
		t.Fatalf("Reduce(foldGeneric[float64]) = %v, %v; want 6", got, err)
	}
	if n := folded[2].Load() - before; n != 0 {
		t.Errorf("foldGeneric[float64] went through foldGeneric[float32]'s fold (%d elements)", n)
	}
}
