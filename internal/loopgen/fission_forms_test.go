package loopgen

import (
	"bytes"
	"testing"
)

const blockFormsDir = "testdata/blockforms"

// TestBlockLoopForms checks, on the generated text, that atomics on a
// hoisted shared array become plain read-modify-writes while those on
// global memory or through an alias stay atomic, and that a flat block's
// loops use the loop index for the thread's x index and Grid1 (and the
// other blocks' loops the position they carry), and that a
// shared array of constant size used only by indexing is held as a
// pointer to an array, that a SharedArray2 is hoisted too, and that
// Array2's At and Set on variables are called through a pointer (AtP,
// SetP).
func TestBlockLoopForms(t *testing.T) {
	res, err := Generate(blockFormsDir)
	if err != nil {
		t.Fatal(err)
	}
	src := res.Source
	for _, c := range []struct {
		text string
		want bool
	}{
		{"cuda.BlockAtomicAdd(&bins[a[i]], 1)", true},
		{"cuda.BlockAtomicMax[float32](&peak[0],", true},
		{"cuda.AtomicAdd(&bins[", false},
		{"cuda.AtomicAdd(&counts[b], n)", true},
		{"cuda.BlockAtomicAdd(&counts[", false},
		{"cuda.AtomicOr(&alias[0], 0)", true},
		{"cuda.BlockAtomicOr(", false},
		{"FlatThread(nugoTi)", true},
		{"tid := nugoTi", true},
		{"i := (nugoX0 + nugoTi)", true},
		{"tid := nugoTx", true}, // the loops for blocks of 2 or 3 dimensions carry the position
		{"for nugoTx := 0; nugoTx < nugoDim.X; nugoTx, nugoTi = nugoTx+1, nugoTi+1 {", true},
		{"t := nugoB.ThreadAt(nugoTi, nugoTx, nugoTy, nugoTz)", true},
		{"peak := (*[1]float32)(cuda.BlockShared(", true},
		{"bins := cuda.BlockShared(", true}, // aliased: stays a slice
		{"tile := cuda.BlockShared2(&", true},
		{"cuda.SharedArray2", false},
		{"tile.SetP(0, x, float32(x))", true}, // Array2 methods on variables through a pointer
		{"tile.AtP(0, 31-x)", true},
		{"m.AtP(0, x)", true},
		{"cuda.MustView2(data, 2, 32).At(1, x)", true}, // not addressable
		{".Set(", false},
	} {
		if got := bytes.Contains(src, []byte(c.text)); got != c.want {
			t.Errorf("generated file contains %q: %v, want %v", c.text, got, c.want)
		}
	}
	checkCommitted(t, blockFormsDir, src)
}
