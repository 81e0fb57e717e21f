package compiler

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

const halfAtomicSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func K(t cuda.Thread, h []cuda.Float16, old []cuda.Float16) {
	i := t.Grid1()
	sh := cuda.SharedArray[cuda.Float16](t, 4)
	old[0] = cuda.AtomicAdd(&h[0], h[i])
	old[1] = cuda.AtomicSub(&h[1], cuda.F16(0.5))
	old[2] = cuda.AtomicMax(&h[2], h[i])
	old[3] = cuda.AtomicMin(&sh[i%4], h[i])
	old[4] = cuda.AtomicExch(&h[3], h[i])
	old[5] = cuda.AtomicCAS(&sh[1], h[i], cuda.F16(2))
	old[6] = cuda.AtomicAdd(&sh[2], h[i])
}
`

// TestHalfAtomicLowering: the Float16 atomics lower to atom.add.noftz.f16
// and atom.cas.b16 (loops of it for Exch, Max and Min), on global and
// shared memory, and assemble for sm_70 and sm_90; before sm_70 each call
// is refused with its position and the architecture it needs.
func TestHalfAtomicLowering(t *testing.T) {
	for _, sm := range []int{53, 60, 61, 70, 75, 90} {
		m, err := compileSrc(t, halfAtomicSrc, "K", Target{SM: sm})
		if sm < minAtomicHalfSM {
			if err == nil {
				t.Fatalf("sm_%d: compiled, want an error", sm)
			}
			for _, want := range []string{
				"kernel.go:8:", "kernel.go:9:", "kernel.go:10:", "kernel.go:11:", "kernel.go:12:", "kernel.go:13:", "kernel.go:14:",
				"cuda.AtomicAdd on a Float16 needs compute capability 7.0 (sm_70)", "cuda.AtomicCAS on a Float16",
				"cuda.AtomicExch on a Float16", "cuda.AtomicMin on a Float16", "target is sm_" + strconv.Itoa(sm),
			} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("sm_%d: error %q lacks %q", sm, err, want)
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("sm_%d: %v", sm, err)
		}
		wants := map[string]int{
			"atom.global.add.noftz.f16": 2, "atom.shared.add.noftz.f16": 1,
			"atom.shared.cas.b16": 2,                   // CAS, and Min's loop
			"atom.global.cas.b16": 2,                   // Max's and Exch's loops
			"xor.b16":             1,                   // Sub negates
			"setp.gt.f16":         1, "setp.lt.f16": 1, // ordered: NaN stops the loop
			"ld.global.volatile.b16": 2, "ld.shared.volatile.b16": 1,
		}
		for want, n := range wants {
			if got := strings.Count(m.PTX, want); got != n {
				t.Errorf("sm_%d: %d %q, want %d", sm, got, want, n)
			}
		}
		if strings.Contains(m.PTX, "atom.global.add.f16") || strings.Contains(m.PTX, ".volatile.f16") {
			t.Errorf("sm_%d: an f16 atom without .noftz or an ld.f16", sm)
		}
		targets := []int{70, 90}
		if sm > 70 {
			targets = []int{sm}
		}
		ptxastest.Assemble(t, "K sm_"+strconv.Itoa(sm), m.PTX, targets...)
	}
}
