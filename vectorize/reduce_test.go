package vectorize

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func addI(x, y int64) int64 { return x + y }
func maxI(x, y int64) int64 { return max(x, y) }

// refAxis folds x of shape along axis with f: the running folds
// (accumulate) and the final ones (reduce), from the multi-index.
func refAxis(f func(x, y int64) int64, x []int64, shape []int, axis int) (acc, red []int64) {
	outer, n, inner := size(shape[:axis]), shape[axis], size(shape[axis+1:])
	acc = make([]int64, len(x))
	red = make([]int64, outer*inner)
	for o := range outer {
		for i := range inner {
			var r int64
			for j := range n {
				p := (o*n+j)*inner + i
				if j == 0 {
					r = x[p]
				} else {
					r = f(r, x[p])
				}
				acc[p] = r
			}
			red[o*inner+i] = r
		}
	}
	return acc, red
}

func TestReduce(t *testing.T) {
	for _, tg := range targets {
		for _, n := range []int{1, 5, 1025, 100_003} {
			t.Run(fmt.Sprintf("%s/%d", tg, n), func(t *testing.T) {
				x := ramp[int64](n, 1, 3)
				for i := range x {
					x[i] -= 40
				}
				for _, f := range []func(x, y int64) int64{addI, maxI} {
					_, want := refAxis(f, x, []int{n}, 0)
					got, err := Reduce(New2(f, tg), x)
					if err != nil || got != want[0] {
						t.Fatalf("Reduce = %v, %v; want %v", got, err, want[0])
					}
					acc, err := Accumulate(New2(f, tg), x)
					wantAcc, _ := refAxis(f, x, []int{n}, 0)
					if err != nil || !slices.Equal(acc, wantAcc) {
						t.Fatalf("Accumulate = %v, %v", acc[:min(10, len(acc))], err)
					}
				}
			})
		}
	}
}

// TestReduceCPUIsLeftFold checks the CPU target's order on floats, whose
// sums depend on it.
func TestReduceCPUIsLeftFold(t *testing.T) {
	x := make([]float64, 200_000)
	for i := range x {
		x[i] = 1 / float64(i+1)
	}
	want := 0.0
	for _, v := range x {
		want += v
	}
	got, err := Reduce(New2(func(a, b float64) float64 { return a + b }, CPU), x)
	if err != nil || got != want {
		t.Fatalf("Reduce = %v, %v; want %v", got, err, want)
	}
}

func TestReduceAxis(t *testing.T) {
	shapes := [][]int{{3, 4, 5}, {2, 9000}, {9000, 3}, {7}, {1, 1, 1}}
	for _, tg := range targets {
		for _, shape := range shapes {
			x := ramp[int64](size(shape), 1, 1)
			for axis := -1; axis < len(shape); axis++ {
				t.Run(fmt.Sprintf("%s/%v/%d", tg, shape, axis), func(t *testing.T) {
					ax := axis
					if ax < 0 {
						ax += len(shape)
					}
					wantAcc, wantRed := refAxis(addI, x, shape, ax)
					u := New2(addI, tg)
					got, err := ReduceAxis(u, Of(x, shape...), axis)
					if err != nil {
						t.Fatal(err)
					}
					rest := slices.Delete(slices.Clone(shape), ax, ax+1)
					if !slices.Equal(got.Shape, rest) || !slices.Equal(got.Data, wantRed) {
						t.Fatalf("ReduceAxis = %v %v, want %v %v", got.Shape, got.Data[:min(8, len(got.Data))], rest, wantRed[:min(8, len(wantRed))])
					}
					acc, err := AccumulateAxis(u, Of(x, shape...), axis)
					if err != nil || !slices.Equal(acc.Shape, shape) || !slices.Equal(acc.Data, wantAcc) {
						t.Fatalf("AccumulateAxis: %v", err)
					}
				})
			}
		}
	}
}

func TestIdentity(t *testing.T) {
	for _, tg := range targets {
		add := New2(addI, tg).WithIdentity(0)
		if id, ok := add.Identity(); !ok || id != 0 {
			t.Fatalf("Identity = %v, %v", id, ok)
		}
		got, err := Reduce(add, nil)
		if err != nil || got != 0 {
			t.Fatalf("%s: Reduce(empty) = %v, %v", tg, got, err)
		}
		mul := New2(func(x, y int64) int64 { return x * y }, tg).WithIdentity(1)
		r, err := ReduceAxis(mul, Zeros[int64](0, 3), 0)
		if err != nil || !slices.Equal(r.Data, []int64{1, 1, 1}) {
			t.Fatalf("%s: ReduceAxis(empty axis) = %v, %v", tg, r, err)
		}
		noID := New2(maxI, tg, Name("max"))
		if _, err := Reduce(noID, []int64{}); !errors.Is(err, ErrNoIdentity) || !strings.Contains(err.Error(), "max") {
			t.Fatalf("%s: Reduce(empty) without identity: %v", tg, err)
		}
		if _, err := ReduceAxis(noID, Zeros[int64](2, 0), 1); !errors.Is(err, ErrNoIdentity) {
			t.Fatalf("%s: ReduceAxis(empty) without identity: %v", tg, err)
		}
		// Reducing along a non-empty axis of an empty array is empty, not an error.
		if r, err := ReduceAxis(noID, Zeros[int64](0, 3), 1); err != nil || len(r.Data) != 0 || !slices.Equal(r.Shape, []int{0}) {
			t.Fatalf("%s: ReduceAxis of (0, 3) along 1 = %v, %v", tg, r, err)
		}
		if acc, err := Accumulate(noID, []int64{}); err != nil || len(acc) != 0 {
			t.Fatalf("%s: Accumulate(empty) = %v, %v", tg, acc, err)
		}
	}
}

func TestReduceErrors(t *testing.T) {
	add := New2(addI)
	if _, err := ReduceAxis(add, Zeros[int64](2, 3), 2); err == nil || !strings.Contains(err.Error(), "axis 2 is out of range") || !strings.Contains(err.Error(), "(2, 3)") {
		t.Errorf("axis 2 of (2, 3): %v", err)
	}
	if _, err := ReduceAxis(add, Zeros[int64](2, 3), -3); err == nil {
		t.Error("axis -3 of (2, 3): no error")
	}
	if _, err := AccumulateAxis(add, Scalar[int64](1), 0); err == nil {
		t.Error("axis 0 of a 0-d array: no error")
	}
	if _, err := ReduceAxis(add, Of(make([]int64, 5), 2, 3), 0); !errors.Is(err, ErrShape) {
		t.Errorf("5 elements for (2, 3): %v", err)
	}
	if _, err := Reduce(New2(func(x, y int64) int64 { return x / y }, Name("div")), []int64{1, 0}); err == nil || !strings.Contains(err.Error(), "div") {
		t.Errorf("panic in Reduce: %v", err)
	}
}

func TestOuter(t *testing.T) {
	f := func(x float32, y int32) float64 { return float64(x)*10 + float64(y) }
	for _, tg := range targets {
		t.Run(string(tg), func(t *testing.T) {
			a := Of([]float32{1, 2, 3, 4}, 2, 2)
			b := Slice([]int32{5, 6, 7})
			got, err := New2(f, tg).Outer(a, b)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Shape, []int{2, 2, 3}) {
				t.Fatalf("shape %v", got.Shape)
			}
			for i, x := range a.Data {
				for j, y := range b.Data {
					if g, w := got.Data[i*3+j], f(x, y); g != w {
						t.Fatalf("(%d, %d) = %v, want %v", i, j, g, w)
					}
				}
			}
			s, err := New2(f, tg).Outer(Scalar[float32](2), Scalar[int32](3))
			if err != nil || len(s.Shape) != 0 || s.Data[0] != 23 {
				t.Fatalf("outer of scalars = %v, %v", s, err)
			}
			if _, err := New2(f, tg).Outer(nil, b); err == nil {
				t.Fatal("nil operand: no error")
			}
		})
	}
}
