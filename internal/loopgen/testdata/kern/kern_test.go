package kern

import (
	"slices"
	"testing"

	"github.com/nugo-dev/nugo/internal/loopgen/testdata/kern/otherdir"
	vec "github.com/nugo-dev/nugo/vectorize"
)

func TestSquare(t *testing.T) {
	if _, err := vec.New1(Square).Apply([]float64{2}); err != nil {
		t.Fatal(err)
	}
}

// TestHeavier runs the generated fold and scan of Heavier: they compute
// what the same function without them (a closure) computes.
func TestHeavier(t *testing.T) {
	x := []other.Weight{3, 1, 4, 1, 5, 9, 2, 6}
	twin := vec.New2(func(a, b other.Weight) other.Weight { return Heavier(a, b) })
	for _, u := range []*vec.Ufunc2[other.Weight, other.Weight, other.Weight]{heavy, twin} {
		if got, err := vec.Reduce(u, x); err != nil || got != 9 {
			t.Errorf("Reduce = %v, %v; want 9", got, err)
		}
		want := []other.Weight{3, 3, 4, 4, 5, 9, 9, 9}
		if got, err := vec.Accumulate(u, x); err != nil || !slices.Equal(got, want) {
			t.Errorf("Accumulate = %v, %v; want %v", got, err, want)
		}
	}
}

// local is a type of the test files, which nugo gen cannot resolve.
type local int32

// TestSumInt32 accumulates through the scan generated for Sum[int32]; the
// instantiation on local gets none and computes the same.
func TestSumInt32(t *testing.T) {
	want := []int32{1, 3, 6, 10}
	if got, err := vec.Accumulate(vec.New2(Sum[int32]), []int32{1, 2, 3, 4}); err != nil || !slices.Equal(got, want) {
		t.Errorf("Accumulate = %v, %v; want %v", got, err, want)
	}
	if got, err := vec.Reduce(vec.New2(Sum[local]), []local{1, 2, 3, 4}); err != nil || got != 10 {
		t.Errorf("Reduce = %v, %v; want 10", got, err)
	}
}
