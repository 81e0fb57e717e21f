package kern

import (
	"testing"

	vec "github.com/nugo-dev/nugo/vectorize"
)

func TestSquare(t *testing.T) {
	if _, err := vec.New1(Square).Apply([]float64{2}); err != nil {
		t.Fatal(err)
	}
}
