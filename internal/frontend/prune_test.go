package frontend_test

import (
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
)

// TestPruneFieldNamedLikeFunction: a field selected before a top-level
// function of the same name is called must not hide the function from
// pruning (it did: the selected name counted as already kept).
func TestPruneFieldNamedLikeFunction(t *testing.T) {
	src := `package p

import "github.com/nugo-dev/nugo/cuda"

type pair struct{ scale, off float32 }

func k(t cuda.Thread, a []float32) {
	p := pair{2, 1}
	if i := t.Grid1(); i < len(a) {
		a[i] = p.scale * scale(a[i])
	}
}

func scale(x float32) float32 { return x + 1 }
`
	if _, err := frontend.LoadSource("p.go", []byte(src), "k"); err != nil {
		t.Fatal(err)
	}
}
