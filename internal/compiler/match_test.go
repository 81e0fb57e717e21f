package compiler

import (
	"strconv"
	"strings"
	"testing"
)

const matchSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func K(t cuda.Thread, f []float32, a []uint64, out []uint32) {
	i := t.Grid1()
	m := cuda.MatchAnySync(t, f[i])
	n, ok := cuda.MatchAllSync(t, a[i])
	if ok {
		m ^= t.LanemaskLt() ^ t.LanemaskGe()
	}
	out[i] = m ^ n ^ t.LanemaskEq() ^ t.LanemaskLe() ^ t.LanemaskGt() ^ anyOf(t, int32(i))
}

func anyOf(t cuda.Thread, v int32) uint32 { return cuda.MatchAnySync(t, v) }
`

// TestMatchLowering: MatchAnySync and MatchAllSync lower to match.sync of
// the value's width (in a device function too), the lane masks to their
// special registers; a target before sm_70 is refused at each call with
// the position and the architecture it needs.
func TestMatchLowering(t *testing.T) {
	for _, sm := range []int{50, 61, 70, 75, 80, 90} {
		m, err := compileSrc(t, matchSrc, "K", Target{SM: sm})
		if sm < 70 {
			if err == nil {
				t.Fatalf("sm_%d: compiled, want an error", sm)
			}
			for _, want := range []string{"kernel.go:7:", "kernel.go:8:", "kernel.go:15:", "cuda.MatchAnySync needs compute capability 7.0 (sm_70)", "cuda.MatchAllSync needs", "target is sm_" + strconv.Itoa(sm)} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("sm_%d: error %q lacks %q", sm, err, want)
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("sm_%d: %v", sm, err)
		}
		for _, want := range []string{
			"match.any.sync.b32", "match.all.sync.b64", "|%p", ", 0xffffffff;",
			"%lanemask_lt", "%lanemask_le", "%lanemask_eq", "%lanemask_ge", "%lanemask_gt",
		} {
			if !strings.Contains(m.PTX, want) {
				t.Errorf("sm_%d: PTX lacks %q", sm, want)
			}
		}
		if n := strings.Count(m.PTX, "match.any.sync.b32"); n != 2 {
			t.Errorf("sm_%d: %d match.any.sync.b32, want 2 (float32 and int32)", sm, n)
		}
		assembleAll(t, "K", m)
	}
}

const halfWarpSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func K(t cuda.Thread, h []cuda.Float16, out []cuda.Float16, m []uint32) {
	i := t.Grid1()
	out[i] = cuda.ShflDownSync(t, cuda.ShflXorSync(t, h[i], 3), 1)
	if len(m) > 0 {
		m[i] = cuda.MatchAnySync(t, h[i])
	}
}
`

// TestHalfWarpLowering: a Float16 is shuffled zero-extended in a 32-bit
// register and truncated back, and matched as its bits zero-extended to
// 32; shuffles need no half arithmetic (sm_50 compiles), matches sm_70.
func TestHalfWarpLowering(t *testing.T) {
	for _, sm := range []int{50, 70, 90} {
		m, err := compileSrc(t, halfWarpSrc, "K", Target{SM: sm})
		if sm < 70 {
			if err == nil || !strings.Contains(err.Error(), "cuda.MatchAnySync needs compute capability 7.0") {
				t.Errorf("sm_%d: err %v, want the MatchAnySync error", sm, err)
			}
			noMatch := strings.Replace(halfWarpSrc, "cuda.MatchAnySync(t, h[i])", "0", 1)
			m, err := compileSrc(t, noMatch, "K", Target{SM: sm})
			if err != nil {
				t.Fatalf("sm_%d: shuffles alone: %v", sm, err)
			}
			assembleAll(t, "K", m)
			continue
		}
		if err != nil {
			t.Fatalf("sm_%d: %v", sm, err)
		}
		wants := map[string]int{"cvt.u32.u16": 3, "cvt.u16.u32": 2, "shfl.sync.bfly.b32": 1, "shfl.sync.down.b32": 1, "match.any.sync.b32": 1}
		for want, n := range wants {
			if got := strings.Count(m.PTX, want); got != n {
				t.Errorf("sm_%d: %d %q, want %d", sm, got, want, n)
			}
		}
		assembleAll(t, "K", m)
	}
}
