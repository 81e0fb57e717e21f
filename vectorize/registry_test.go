package vectorize

import (
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// Functions with compiled loops, registered as `nugo gen` writes them, plus
// a count of the elements each loop computed: the proof that a call went
// through the loop and not the func-value path. Only the tests of this
// file use them, one test at a time.

func loopF1(x float64) float64    { return x*0.5 - 1 }
func loopF2(x, y float32) float32 { return x*y - x }
func loopF3(a, b, c int64) int64  { return a*b - c }
func loopF4(a float64, b float32, c int32, d uint8) float64 {
	return a + float64(b)*float64(c) - float64(d)
}

var looped [5]atomic.Int64 // looped[k]: elements computed by loopFk's loop

func init() {
	RegisterLoop1(loopF1, func(out []float64, a []float64) {
		looped[1].Add(int64(len(out)))
		a = a[:len(out)]
		for i := range out {
			out[i] = loopF1(a[i])
		}
	})
	RegisterLoop2(loopF2, func(out []float32, a []float32, b []float32) {
		looped[2].Add(int64(len(out)))
		a, b = a[:len(out)], b[:len(out)]
		for i := range out {
			out[i] = loopF2(a[i], b[i])
		}
	})
	RegisterLoop3(loopF3, func(out []int64, a []int64, b []int64, c []int64) {
		looped[3].Add(int64(len(out)))
		a, b, c = a[:len(out)], b[:len(out)], c[:len(out)]
		for i := range out {
			out[i] = loopF3(a[i], b[i], c[i])
		}
	})
	RegisterLoop4(loopF4, func(out []float64, a []float64, b []float32, c []int32, d []uint8) {
		looped[4].Add(int64(len(out)))
		a, b, c, d = a[:len(out)], b[:len(out)], c[:len(out)], d[:len(out)]
		for i := range out {
			out[i] = loopF4(a[i], b[i], c[i], d[i])
		}
	})
}

// loopSizes are the sizes around the Parallel target's chunking: empty,
// one element (always contiguous), below the parallel threshold, a chunk
// and one either side, several chunks and a partial one.
var loopSizes = []int{0, 1, 2, parallelMin - 1, parallelChunk - 1, parallelChunk, parallelChunk + 1, 3*parallelChunk + 5}

// loopLayouts are the ways checkLayouts lays out the output and the first
// operand x; the other operands are always contiguous.
var loopLayouts = []string{"contiguous", "in place", "overlap", "broadcast"}

// checkLayouts checks that into(true, ...), the ufunc of a function with a
// compiled loop, computes what into(false, ...), the same function without
// one, computes, for each of loopLayouts, and that the loop ran exactly on
// the calls where every operand is contiguous. into makes the operands
// after x, as long as out.
func checkLayouts[R cuda.Number](t *testing.T, arity, n int, count *atomic.Int64, into func(looped bool, out, x []R) error) {
	t.Helper()
	for _, layout := range loopLayouts {
		if layout == "broadcast" && arity == 1 {
			continue // a unary ufunc's output has its operand's shape
		}
		x := ramp[R](n, 0.25, 3)
		var out, arg []R
		wantLooped := int64(n)
		switch layout {
		case "contiguous":
			out, arg = make([]R, n), x
		case "in place": // the output is x itself
			out = slices.Clone(x)
			arg = out
		case "overlap": // the output and x overlap, one element apart
			buf := make([]R, n+1)
			copy(buf[1:], x)
			out, arg = buf[:n], buf[1:]
		case "broadcast": // x is one element, broadcast over the output
			x = []R{3}
			out, arg = make([]R, n), x
			if n != 1 {
				wantLooped = 0
			}
		}
		want := make([]R, n)
		if err := into(false, want, x); err != nil {
			t.Fatalf("%s, n=%d, without a loop: %v", layout, n, err)
		}
		count.Store(0)
		if err := into(true, out, arg); err != nil {
			t.Fatalf("%s, n=%d: %v", layout, n, err)
		}
		for i := range out {
			if out[i] != want[i] {
				t.Fatalf("%s, n=%d: element %d = %v, want %v (as without a loop)", layout, n, i, out[i], want[i])
			}
		}
		if got := count.Load(); got != wantLooped {
			t.Errorf("%s, n=%d: the compiled loop computed %d elements, want %d", layout, n, got, wantLooped)
		}
	}
}

func TestRegisteredLoop(t *testing.T) {
	// The twins are the same functions as closures, which have no
	// compiled loop: the func-value path, named as the originals so that
	// errors compare equal.
	type check func(t *testing.T, tg Target, n int)
	cases := []struct {
		arity int
		check check
	}{
		{1, func(t *testing.T, tg Target, n int) {
			u, twin := New1(loopF1, tg), New1(func(x float64) float64 { return loopF1(x) }, tg)
			checkLayouts(t, 1, n, &looped[1], func(l bool, out, x []float64) error {
				if l {
					return u.Into(out, x)
				}
				return twin.Into(out, x)
			})
		}},
		{2, func(t *testing.T, tg Target, n int) {
			u, twin := New2(loopF2, tg), New2(func(x, y float32) float32 { return loopF2(x, y) }, tg)
			checkLayouts(t, 2, n, &looped[2], func(l bool, out, x []float32) error {
				y := ramp[float32](len(out), 0.5, 1)
				if l {
					return u.Into(out, x, y)
				}
				return twin.Into(out, x, y)
			})
		}},
		{3, func(t *testing.T, tg Target, n int) {
			u, twin := New3(loopF3, tg), New3(func(a, b, c int64) int64 { return loopF3(a, b, c) }, tg)
			checkLayouts(t, 3, n, &looped[3], func(l bool, out, x []int64) error {
				b, c := ramp[int64](len(out), 1, 5), ramp[int64](len(out), 3, 11)
				if l {
					return u.Into(out, x, b, c)
				}
				return twin.Into(out, x, b, c)
			})
		}},
		{4, func(t *testing.T, tg Target, n int) {
			u := New4(loopF4, tg)
			twin := New4(func(a float64, b float32, c int32, d uint8) float64 { return loopF4(a, b, c, d) }, tg)
			checkLayouts(t, 4, n, &looped[4], func(l bool, out, x []float64) error {
				m := len(out)
				b, c, d := ramp[float32](m, 0.125, 2), ramp[int32](m, 1, 7), ramp[uint8](m, 1, 13)
				if l {
					return u.Into(out, x, b, c, d)
				}
				return twin.Into(out, x, b, c, d)
			})
		}},
	}
	for _, c := range cases {
		for _, tg := range []Target{CPU, Parallel} {
			for _, n := range loopSizes {
				c.check(t, tg, n)
			}
		}
	}
}

// TestRegisteredLoopRows checks N-d calls: a compiled loop runs each row
// along which every operand is contiguous, even when an operand is
// broadcast along the rows, and none when an operand is broadcast along
// the last dimension.
func TestRegisteredLoopRows(t *testing.T) {
	const rows, cols = 5, parallelChunk/2 + 3 // rows span chunk boundaries
	x := ramp[float32](rows*cols, 0.25, 0)
	twin := New2(func(x, y float32) float32 { return loopF2(x, y) })
	cases := []struct {
		name       string
		b          Array[float32]
		wantLooped int64
	}{
		{"row broadcast over rows", Of(ramp[float32](cols, 1, 4), cols), rows * cols},
		{"column broadcast along rows", Of(ramp[float32](rows, 1, 4), rows, 1), 0},
		{"same shape", Of(ramp[float32](rows*cols, 1, 4), rows, cols), rows * cols},
	}
	for _, tg := range []Target{CPU, Parallel} {
		u := New2(loopF2, tg)
		for _, c := range cases {
			want, err := twin.Call(Of(x, rows, cols), c.b)
			if err != nil {
				t.Fatal(err)
			}
			looped[2].Store(0)
			got, err := u.Call(Of(x, rows, cols), c.b)
			if err != nil {
				t.Fatalf("%s, %s: %v", tg, c.name, err)
			}
			if !slices.Equal(got.Data, want.Data) || !slices.Equal(got.Shape, want.Shape) {
				t.Errorf("%s, %s: results differ from the function's without a loop", tg, c.name)
			}
			if n := looped[2].Load(); n != c.wantLooped {
				t.Errorf("%s, %s: the compiled loop computed %d elements, want %d", tg, c.name, n, c.wantLooped)
			}
		}
	}
}

func loopCheckedSqrt(x float64) float64 {
	if x < 0 {
		panic("negative operand")
	}
	return math.Sqrt(x)
}

var loopedSqrt atomic.Int64

func init() {
	RegisterLoop1(loopCheckedSqrt, func(out []float64, a []float64) {
		loopedSqrt.Add(1)
		a = a[:len(out)]
		for i := range out {
			out[i] = loopCheckedSqrt(a[i])
		}
	})
}

// TestRegisteredLoopPanic checks that a panic of the function inside its
// compiled loop is the error the func-value path gives: it names the
// function and says the outputs may be partially written. Neither path
// names the element (the loop cannot know it).
func TestRegisteredLoopPanic(t *testing.T) {
	for _, tg := range []Target{CPU, Parallel} {
		for _, n := range []int{3, 3*parallelChunk + 5} {
			x := ramp[float64](n, 1, 0)
			x[n-2] = -1 // in the last chunk
			twin := New1(func(x float64) float64 { return loopCheckedSqrt(x) }, tg, Name("loopCheckedSqrt"))
			want := twin.Into(make([]float64, n), x)
			loopedSqrt.Store(0)
			err := New1(loopCheckedSqrt, tg).Into(make([]float64, n), x)
			if err == nil || want == nil {
				t.Fatalf("%s, n=%d: errors %v and %v (without a loop); want both", tg, n, err, want)
			}
			if err.Error() != want.Error() {
				t.Errorf("%s, n=%d: error %q, want %q as without a loop", tg, n, err, want)
			}
			if pe := (*panicError)(nil); !errors.As(err, &pe) {
				t.Errorf("%s, n=%d: error %v does not wrap the panic", tg, n, err)
			}
			if loopedSqrt.Load() == 0 {
				t.Errorf("%s, n=%d: the compiled loop did not run", tg, n)
			}
		}
	}
}

func loopReplaced(x int32) int32 { return x + 1 }

type loopInt int64

func loopGeneric[T int64 | loopInt | float64](x T) T { return x * 3 }

// TestRegisterLoopRules checks replacement, and that nil functions, nil
// loops and closures are ignored.
func TestRegisterLoopRules(t *testing.T) {
	var first, second, closure atomic.Int64
	loop := func(count *atomic.Int64) func(out, a []int32) {
		return func(out, a []int32) {
			count.Add(int64(len(out)))
			for i := range out {
				out[i] = loopReplaced(a[i])
			}
		}
	}
	u := New1(loopReplaced, CPU)
	x := []int32{1, 2, 3}
	call := func(step string, u *Ufunc1[int32, int32]) {
		t.Helper()
		got, err := u.Apply(x)
		if err != nil || !slices.Equal(got, []int32{2, 3, 4}) {
			t.Fatalf("%s: %v, %v", step, got, err)
		}
	}
	call("no loop", u)

	RegisterLoop1(loopReplaced, loop(&first))
	call("first loop", u)
	RegisterLoop1(loopReplaced, loop(&second))
	call("second loop", u)
	if first.Load() != 3 || second.Load() != 3 {
		t.Fatalf("first loop computed %d elements, second %d; want 3 each (the second replaces the first)", first.Load(), second.Load())
	}

	RegisterLoop1(loopReplaced, nil) // ignored: the second loop stays
	RegisterLoop1[int32, int32](nil, loop(&first))
	RegisterLoop2[int32, int32, int32](nil, nil)
	call("after nil registrations", u)
	if first.Load() != 3 || second.Load() != 6 {
		t.Fatalf("after nil registrations: first loop computed %d elements, second %d; want 3, 6", first.Load(), second.Load())
	}

	// A loop registered for a closure would serve every closure of the
	// same literal, whatever they capture: it is refused.
	inc := func(d int32) func(int32) int32 { return func(x int32) int32 { return x + d } }
	RegisterLoop1(inc(1), loop(&closure))
	got, err := New1(inc(1), CPU).Apply(x)
	if err != nil || !slices.Equal(got, []int32{2, 3, 4}) || closure.Load() != 0 {
		t.Fatalf("closure: %v, %v; its loop computed %d elements, want 0", got, err, closure.Load())
	}
	got, err = New1(inc(10), CPU).Apply(x)
	if err != nil || !slices.Equal(got, []int32{11, 12, 13}) || closure.Load() != 0 {
		t.Fatalf("another closure of the literal: %v, %v; want [11 12 13] without the loop", got, err)
	}

	// Each instantiation of a generic function has its own loop, even
	// when its type arguments have one shape (int64, loopInt).
	var generic atomic.Int64
	RegisterLoop1(loopGeneric[int64], func(out, a []int64) {
		generic.Add(int64(len(out)))
		for i := range out {
			out[i] = loopGeneric(a[i])
		}
	})
	if got, err := New1(loopGeneric[int64], CPU).Apply([]int64{1, 2}); err != nil || !slices.Equal(got, []int64{3, 6}) || generic.Load() != 2 {
		t.Fatalf("loopGeneric[int64]: %v, %v; its loop computed %d elements, want 2", got, err, generic.Load())
	}
	if got, err := New1(loopGeneric[loopInt], CPU).Apply([]loopInt{1, 2}); err != nil || !slices.Equal(got, []loopInt{3, 6}) || generic.Load() != 2 {
		t.Fatalf("loopGeneric[loopInt]: %v, %v; the loop of loopGeneric[int64] computed %d elements, want 2 (none for this one)", got, err, generic.Load())
	}
}

func loopRaced(x float64) float64 { return x * 2 }

// TestRegisterLoopConcurrent registers loops while other goroutines call
// the function's ufunc; run with -race.
func TestRegisterLoopConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	u := New1(loopRaced, Parallel)
	x := ramp[float64](parallelMin+7, 1, 0)
	for range 4 {
		wg.Go(func() {
			out := make([]float64, len(x))
			for range 20 {
				if err := u.Into(out, x); err != nil {
					t.Error(err)
					return
				}
				for i, v := range out {
					if v != x[i]*2 {
						t.Errorf("element %d = %v, want %v", i, v, x[i]*2)
						return
					}
				}
			}
		})
	}
	for range 20 {
		RegisterLoop1(loopRaced, func(out, a []float64) {
			for i := range out {
				out[i] = loopRaced(a[i])
			}
		})
	}
	wg.Wait()
}
