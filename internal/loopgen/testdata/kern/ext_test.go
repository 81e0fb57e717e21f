package kern_test

import (
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/loopgen/testdata/kern"
	"github.com/nugo-dev/nugo/vectorize"
)

// TestSum reduces through the fold generated for Sum[float32], which this
// file spells with the package's name.
func TestSum(t *testing.T) {
	if got, err := vectorize.Reduce(vectorize.New2(kern.Sum[float32]), []float32{1, 2, 3.5}); err != nil || got != 6.5 {
		t.Fatalf("Reduce = %v, %v; want 6.5", got, err)
	}
}

func TestCube(t *testing.T) {
	if _, err := vectorize.New1(kern.Cube).Apply([]float32{2}); err != nil {
		t.Fatal(err)
	}
}

// TestHalfSum reduces and accumulates cuda.Float16 through the fold and
// scan generated for HalfSum.
func TestHalfSum(t *testing.T) {
	x := []cuda.Float16{cuda.F16(1), cuda.F16(2), cuda.F16(0.5)}
	if got, err := vectorize.Reduce(vectorize.New2(kern.HalfSum), x); err != nil || got.Bits() != cuda.F16(3.5).Bits() {
		t.Fatalf("Reduce = %v, %v; want 3.5", got, err)
	}
	got, err := vectorize.Accumulate(vectorize.New2(kern.HalfSum), x)
	if err != nil || len(got) != 3 || got[2].Bits() != cuda.F16(3.5).Bits() || got[1].Bits() != cuda.F16(3).Bits() {
		t.Fatalf("Accumulate = %v, %v; want [1 3 3.5]", got, err)
	}
}
