package kern_test

import (
	"testing"

	"github.com/nugo-dev/nugo/internal/loopgen/testdata/kern"
	"github.com/nugo-dev/nugo/vectorize"
)

func TestCube(t *testing.T) {
	if _, err := vectorize.New1(kern.Cube).Apply([]float32{2}); err != nil {
		t.Fatal(err)
	}
}
