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
