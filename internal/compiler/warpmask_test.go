package compiler

import (
	"strings"
	"testing"
)

const warpMaskSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func K(t cuda.Thread, in []int64, out []uint32) {
	i := t.Grid1()
	q := uint32(0xff) << (8 * (t.LaneID() / 8))
	v := cuda.ShflXorSyncMask(t, q, in[i], 1)
	t.SyncWarpMask(q)
	b := cuda.BallotSyncMask(t, 0xffff, v > 0)
	if cuda.UniSyncMask(t, 0xffffffff, v > 0) && cuda.UniSync(t, b != 0) {
		b++
	}
	m, _ := cuda.MatchAllSyncMask(t, q, v)
	out[i] = b ^ m
}
`

// TestWarpMaskLowering: the Mask forms pass their mask to the warp
// instruction (a register, or the constant written in hex); the full
// mask needs no check, and debug mode checks any other mask against the
// lane (%lanemask_eq) and fails with ErrWarpMask.
func TestWarpMaskLowering(t *testing.T) {
	for _, debug := range []bool{false, true} {
		m, err := compileSrc(t, warpMaskSrc, "K", Target{SM: 75, Debug: debug})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"shfl.sync.bfly.b32", "bar.warp.sync \t%r", ", 0xffff;", "vote.sync.uni.pred", "match.all.sync.b64"} {
			if !strings.Contains(m.PTX, want) {
				t.Errorf("debug=%v: PTX lacks %q", debug, want)
			}
		}
		checks := strings.Count(m.PTX, "%lanemask_eq")
		sites := 0
		for _, s := range m.Sites {
			if s.Kind == errKinds[ErrWarpMask] {
				sites++
			}
		}
		// Two 32-bit shuffles (the int64's halves) share one check: one
		// each for the shuffle, SyncWarpMask, the ballot and the match.
		if want := map[bool]int{false: 0, true: 4}[debug]; checks != want || sites != want {
			t.Errorf("debug=%v: %d lane checks and %d ErrWarpMask sites, want %d", debug, checks, sites, want)
		}
		assembleAll(t, "K", m)
	}
}

// TestWarpMaskRecord: the record of a failed lane check decodes to the
// message the cpu backend and ptxsim give.
func TestWarpMaskRecord(t *testing.T) {
	m := &Module{Sites: []Site{{Kind: errKinds[ErrWarpMask]}}}
	f, ok := m.DecodeRecord(EncodeRecord(ErrWarpMask, 0, false, [3]int{1, 0, 0}, [3]int{17, 0, 0}, 0xffff, 17))
	if !ok || f.Msg != "warp operation with member mask 0x0000ffff called by lane 17, which is not in the mask (CUDA leaves this undefined)" {
		t.Errorf("decoded %+v, %v", f, ok)
	}
}
