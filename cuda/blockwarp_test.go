package cuda

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// groupMasks returns per-thread member masks for n threads: each warp cut
// into groups of consecutive lanes at random, each lane's mask its group.
func groupMasks(rng *rand.Rand, n int) []uint32 {
	masks := make([]uint32, n)
	for base := 0; base < n; base += WarpSize {
		var group uint32
		start := base
		for i := base; i < min(base+WarpSize, n); i++ {
			group |= 1 << (i - base)
			if i+1 == min(base+WarpSize, n) || rng.IntN(5) == 0 {
				for j := start; j <= i; j++ {
					masks[j] = group
				}
				group, start = 0, i+1
			}
		}
	}
	return masks
}

// reference returns what the goroutine path's warp rendezvous gives
// thread i for operation op with the operands of every thread: the
// lanes of its mask that are live take part.
func reference(op warpOpKind, i int, vals []uint64, args []int, masks []uint32, exited []bool) uint64 {
	n := len(vals)
	base := i / WarpSize * WarpSize
	var w warp
	var live uint32
	for j := base; j < min(base+WarpSize, n); j++ {
		if exited[j] {
			continue
		}
		l := j - base
		live |= 1 << l
		w.op[l], w.val[l], w.arg[l] = op, vals[j], args[j]
		w.mask[l] = fullMask
		if masks != nil {
			w.mask[l] = masks[j]
		}
	}
	part := w.mask[i-base] & live
	var ballot uint32
	for rest := part; rest != 0; rest &= rest - 1 {
		if j := bits.TrailingZeros32(rest); w.val[j] != 0 {
			ballot |= 1 << j
		}
	}
	return w.result(i-base, part, ballot)
}

// TestBlockMaskOpsMatchWarp checks the block loops' warp operations with
// member masks against the goroutine path's rendezvous (warp.result), over
// random masks, partial warps and threads that have returned.
func TestBlockMaskOpsMatchWarp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{32, 48, 96, 200} {
		for trial := range 20 {
			t.Run(fmt.Sprintf("%d/%d", n, trial), func(t *testing.T) {
				b := &Block{b: &block{}, n: n, flat: true}
				var masks []uint32
				if trial%4 != 0 {
					masks = groupMasks(rng, n)
				}
				exited := make([]bool, n)
				vals, args := make([]uint64, n), make([]int, n)
				v, pred := make([]int32, n), make([]bool, n)
				for i := range n {
					exited[i] = trial%3 == 1 && rng.IntN(4) == 0
					v[i] = int32(rng.IntN(3)) // few values: matches
					pred[i] = rng.IntN(2) == 0
					args[i] = rng.IntN(70) - 3
					vals[i] = uint64(uint32(v[i]))
				}
				predVals := make([]uint64, n)
				for i := range n {
					predVals[i] = b2u(pred[i])
				}
				check := func(name string, op warpOpKind, in []uint64, got func(i int) uint64) {
					for i := range n {
						if exited[i] {
							continue
						}
						if want := reference(op, i, in, args, masks, exited); got(i) != want {
							t.Fatalf("%s: thread %d gets %#x, want %#x (mask %v)", name, i, got(i), want, masks != nil)
						}
					}
				}
				out := make([]int32, n)
				for _, k := range []struct {
					kind ShuffleKind
					op   warpOpKind
				}{{ShuffleIdx, opIdx}, {ShuffleDown, opDown}, {ShuffleUp, opUp}, {ShuffleXor, opXor}} {
					BlockShuffleMask(b, k.kind, out, v, masks, args, 0, exited)
					check(fmt.Sprint("shuffle ", k.kind), k.op, vals, func(i int) uint64 { return uint64(uint32(out[i])) })
				}
				ballot := make([]uint32, n)
				BlockBallotMask(b, ballot, pred, masks, exited)
				check("ballot", opBallot, predVals, func(i int) uint64 { return uint64(ballot[i]) })
				votes := make([]bool, n)
				for _, k := range []struct {
					kind VoteKind
					op   warpOpKind
				}{{VoteAll, opAll}, {VoteAny, opAny}, {VoteUni, opUni}} {
					BlockVoteMask(b, k.kind, votes, pred, masks, exited)
					check(fmt.Sprint("vote ", k.kind), k.op, predVals, func(i int) uint64 { return b2u(votes[i]) })
				}
				match := make([]uint32, n)
				BlockMatch(b, false, match, v, masks, exited)
				check("match any", opMatchAny, vals, func(i int) uint64 { return uint64(match[i]) })
				BlockMatch(b, true, match, v, masks, exited)
				check("match all", opMatchAll, vals, func(i int) uint64 { return uint64(match[i]) })
				BlockSyncWarpMask(b, masks, exited) // consistent masks: no failure
			})
		}
	}
}

// TestBlockMaskFailures: a thread whose mask lacks its own lane, or names
// a lane calling with another mask, fails with a message that says so,
// and the Block records that thread, as the goroutine path names it.
func TestBlockMaskFailures(t *testing.T) {
	cases := []struct {
		name   string
		masks  func() []uint32
		thread int
		want   string
	}{
		{"outside", func() []uint32 {
			m := make([]uint32, 64)
			for i := range m {
				m[i] = 0xffff
			}
			return m
		}, 16, "which is not in the mask"},
		{"second warp", func() []uint32 {
			m := make([]uint32, 64)
			for i := range m {
				m[i] = fullMask
			}
			m[40] = 1
			return m
		}, 40, "which is not in the mask"},
		{"other mask", func() []uint32 {
			m := make([]uint32, 64)
			for i := range m {
				m[i] = fullMask
			}
			m[3] = 0xf
			return m
		}, 0, "calls it with mask"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := &Block{b: &block{}, n: 64, flat: true}
			msg := func() (msg string) {
				defer func() { msg = fmt.Sprint(recover()) }()
				BlockBallotMask(b, make([]uint32, 64), make([]bool, 64), c.masks(), nil)
				return "no failure"
			}()
			if !strings.Contains(msg, c.want) || b.cur != c.thread {
				t.Errorf("got %q naming thread %d, want %q naming thread %d", msg, b.cur, c.want, c.thread)
			}
		})
	}
}
