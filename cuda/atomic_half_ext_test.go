package cuda_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/corpus"
)

// TestHalfAtomicsNeedSM70: through the public API, a kernel with Float16
// atomics compiled for a GPU older than sm_70 is a *CompileError at the
// call that names sm_70; from sm_70 on its PTX has the 16-bit atomics.
func TestHalfAtomicsNeedSM70(t *testing.T) {
	for _, name := range []string{"atomics/half_add", "atomics/half_compare", "atomics/half_shared"} {
		c, ok := corpus.Lookup(name)
		if !ok {
			t.Fatalf("corpus case %s is missing", name)
		}
		for _, sm := range []int{53, 60, 61} {
			_, err := cuda.Jit(c.Kernel).PTX(sm)
			var ce *cuda.CompileError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), "on a Float16 needs compute capability 7.0 (sm_70)") || !strings.Contains(err.Error(), "atomics.go:") {
				t.Errorf("%s for sm_%d: got %v, want a *CompileError at the call that names sm_70", name, sm, err)
			}
		}
		for _, sm := range []int{70, 90} {
			if ptx, err := cuda.Jit(c.Kernel).PTX(sm); err != nil || !strings.Contains(ptx, ".b16") || !strings.Contains(ptx, "atom.") {
				t.Errorf("%s for sm_%d: %v; want PTX with 16-bit atomics", name, sm, err)
			}
		}
	}
}
