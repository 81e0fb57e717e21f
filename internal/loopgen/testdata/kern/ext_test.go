package kern_test

import (
	"testing"

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
