package cuda

import (
	"fmt"
	"math/bits"

	"github.com/nugo-dev/nugo/internal/compiler"
)

// Warp operations for block loops (BlockLoop): each function below is one
// warp operation of a whole block at once, called between the loops over
// the block's threads that gather its operands and read its results.

// ShuffleKind is which lane a shuffle reads, as ShflSync, ShflDownSync,
// ShflUpSync and ShflXorSync choose it.
type ShuffleKind int

// The shuffles' ways of choosing the source lane from the argument.
const (
	ShuffleIdx  ShuffleKind = iota // lane arg (ShflSync)
	ShuffleDown                    // lane + arg (ShflDownSync)
	ShuffleUp                      // lane - arg (ShflUpSync)
	ShuffleXor                     // lane ^ arg (ShflXorSync)
)

// The Block* functions below are the warp operations of a whole block at
// once, for block loops: element i of each slice belongs to the thread of
// linear index i, all slices have the block's length, and exited (nil when
// no thread has returned) marks the threads that have returned from the
// kernel, which are absent from their warp as for the goroutine path: a
// read of an absent lane returns the reader's own value, an absent lane's
// predicate is false. Results for exited threads are unspecified.

// BlockShuffle stores into out[i] the value v of the lane that thread i's
// shuffle of kind kind with argument arg[i] reads (only arg's low 5 bits
// count, as for PTX's shfl.sync).
func BlockShuffle[T Shuffleable](kind ShuffleKind, out, v []T, arg []int, exited []bool) {
	n := len(v)
	out, arg = out[:n], arg[:n]
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		for i := base; i < end; i++ {
			src := shuffleSource(kind, i-base, arg[i]&(WarpSize-1))
			j := base + src
			if src < 0 || j >= end || exited != nil && exited[j] {
				j = i
			}
			out[i] = v[j]
		}
	}
}

// shuffleSource is the lane that lane reads in a shuffle of kind with
// operand a (its low 5 bits, as PTX's shfl.sync takes), or -1 when it is
// outside the warp and the lane keeps its own value.
func shuffleSource(kind ShuffleKind, lane, a int) int {
	switch kind {
	case ShuffleIdx:
		return a
	case ShuffleDown:
		if s := lane + a; s < WarpSize {
			return s
		}
	case ShuffleUp:
		if s := lane - a; s >= 0 {
			return s
		}
	case ShuffleXor:
		return lane ^ a
	}
	return -1
}

// BlockShuffleConst is BlockShuffle with the same argument arg for every
// thread.
func BlockShuffleConst[T Shuffleable](kind ShuffleKind, out, v []T, arg int, exited []bool) {
	n := len(v)
	out = out[:n]
	a := arg & (WarpSize - 1)
	if exited == nil && (kind == ShuffleDown || kind == ShuffleUp) {
		// Whole runs of lanes: two copies per warp.
		for base := 0; base < n; base += WarpSize {
			end := min(base+WarpSize, n)
			if a >= end-base {
				copy(out[base:end], v[base:end])
				continue
			}
			if kind == ShuffleDown {
				copy(out[base:end-a], v[base+a:end])
				copy(out[end-a:end], v[end-a:end])
			} else {
				copy(out[base+a:end], v[base:end-a])
				copy(out[base:base+a], v[base:base+a])
			}
		}
		return
	}
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		for i := base; i < end; i++ {
			src := shuffleSource(kind, i-base, a)
			j := base + src
			if src < 0 || j >= end || exited != nil && exited[j] {
				j = i
			}
			out[i] = v[j]
		}
	}
}

// ballots returns the ballot of the warp starting at base.
func ballots(pred []bool, exited []bool, base, end int) (ballot, present uint32) {
	for i := base; i < end; i++ {
		if exited != nil && exited[i] {
			continue
		}
		present |= 1 << (i - base)
		if pred[i] {
			ballot |= 1 << (i - base)
		}
	}
	return ballot, present
}

// BlockBallot stores into out[i] the ballot of thread i's warp: bit l set
// when lane l is present and its pred is true (BallotSync; ActiveMask is
// the ballot of all-true predicates).
func BlockBallot(out []uint32, pred []bool, exited []bool) {
	n := len(pred)
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		ballot, _ := ballots(pred, exited, base, end)
		for i := base; i < end; i++ {
			out[i] = ballot
		}
	}
}

// BlockAny stores into out[i] whether any present lane of thread i's warp
// has pred true (AnySync).
func BlockAny(out []bool, pred []bool, exited []bool) {
	n := len(pred)
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		ballot, _ := ballots(pred, exited, base, end)
		for i := base; i < end; i++ {
			out[i] = ballot != 0
		}
	}
}

// BlockAll stores into out[i] whether every present lane of thread i's
// warp has pred true (AllSync).
func BlockAll(out []bool, pred []bool, exited []bool) {
	n := len(pred)
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		ballot, present := ballots(pred, exited, base, end)
		for i := base; i < end; i++ {
			out[i] = ballot == present
		}
	}
}

// VoteKind is which vote BlockVoteMask takes.
type VoteKind int

// The votes of AllSync, AnySync and UniSync and their Mask forms.
const (
	VoteAll VoteKind = iota // every lane of the mask present has pred true
	VoteAny                 // some lane of the mask present has pred true
	VoteUni                 // pred is the same in every lane of the mask present
)

// The functions below take the warp operations' Mask forms (and those
// without one: a nil mask is the full warp's for every thread). mask[i] is
// thread i's member mask. Lanes of thread i's warp outside its mask, or
// whose threads have returned, are absent from its operation, as on the
// goroutine path: a read of an absent lane returns the reader's own value,
// an absent lane's predicate and value do not count. A thread whose mask
// lacks its own lane fails the launch (ErrWarpMask) naming that thread, as
// on the goroutine path; so does a thread whose mask names a lane calling
// with another mask, which waits forever on the goroutine path and on a
// GPU. b records the failing thread.

// memberMask returns thread i's member mask: mask[i], or the full warp's
// for a nil mask (an operation without one).
func memberMask(mask []uint32, i int) uint32 {
	if mask == nil {
		return fullMask
	}
	return mask[i]
}

// warpParts returns, for the warp of threads [base, end), each present
// lane's part: the lanes of its mask that are present. It panics as the
// goroutine path does for a mask without the caller's lane.
func warpParts(b *Block, mask []uint32, exited []bool, base, end int) (part [WarpSize]uint32) {
	var live uint32
	for i := base; i < end; i++ {
		if exited == nil || !exited[i] {
			live |= 1 << (i - base)
		}
	}
	for i := base; i < end; i++ {
		l := i - base
		if live&(1<<l) == 0 {
			continue
		}
		m := memberMask(mask, i)
		if m&(1<<l) == 0 {
			b.Thread(i)
			panic(fmt.Sprintf(compiler.WarpMaskMsg, uint64(m), l))
		}
		part[l] = m & live
	}
	if mask == nil {
		return part
	}
	for i := base; i < end; i++ {
		l := i - base
		// Only the lanes of the part: set bits, not all 32.
		for rest := part[l]; rest != 0; rest &= rest - 1 {
			if j := bits.TrailingZeros32(rest); mask[base+j] != mask[i] {
				b.Thread(i)
				panic(fmt.Sprintf("warp operation with member mask %#08x called by lane %d while lane %d of that mask calls it with mask %#08x: lanes of a mask must pass the same mask (this waits forever on the goroutine path and on a GPU)", uint64(mask[i]), l, j, uint64(mask[base+j])))
			}
		}
	}
	return part
}

// BlockShuffleMask stores into out[i] the value v of the lane that thread
// i's shuffle of kind kind with argument arg[i] reads among the lanes of
// mask[i] (ShflSyncMask and the other Mask forms); a nil arg is uniform
// argument a for every thread.
func BlockShuffleMask[T Shuffleable](b *Block, kind ShuffleKind, out, v []T, mask []uint32, arg []int, a int, exited []bool) {
	n := len(v)
	out = out[:n]
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		part := warpParts(b, mask, exited, base, end)
		for i := base; i < end; i++ {
			l := i - base
			if part[l] == 0 {
				continue // returned
			}
			x := a
			if arg != nil {
				x = arg[i]
			}
			src := shuffleSource(kind, l, x&(WarpSize-1))
			j := i
			if src >= 0 && part[l]&(1<<src) != 0 {
				j = base + src
			}
			out[i] = v[j]
		}
	}
}

// BlockBallotMask stores into out[i] the ballot of thread i among the
// lanes of mask[i] (BallotSyncMask): bit l set when lane l is in the mask,
// present, and its pred is true.
func BlockBallotMask(b *Block, out []uint32, pred []bool, mask []uint32, exited []bool) {
	n := len(pred)
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		part := warpParts(b, mask, exited, base, end)
		ballot, _ := ballots(pred, exited, base, end)
		for i := base; i < end; i++ {
			out[i] = ballot & part[i-base]
		}
	}
}

// BlockVoteMask stores into out[i] thread i's vote of kind kind among the
// lanes of mask[i] (AllSyncMask, AnySyncMask, UniSyncMask, and UniSync with
// a nil mask).
func BlockVoteMask(b *Block, kind VoteKind, out []bool, pred []bool, mask []uint32, exited []bool) {
	n := len(pred)
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		part := warpParts(b, mask, exited, base, end)
		all, _ := ballots(pred, exited, base, end)
		for i := base; i < end; i++ {
			p := part[i-base]
			ballot := all & p
			switch kind {
			case VoteAll:
				out[i] = ballot == p
			case VoteAny:
				out[i] = ballot != 0
			default:
				out[i] = ballot == 0 || ballot == p
			}
		}
	}
}

// BlockMatch stores into out[i] the lanes of mask[i] present whose v has
// the same bits as thread i's (MatchAnySync, MatchAnySyncMask), or, when
// all is true, those lanes if they are all of them and else 0
// (MatchAllSync, MatchAllSyncMask; see BlockMatchAllResult).
func BlockMatch[T Shuffleable](b *Block, all bool, out []uint32, v []T, mask []uint32, exited []bool) {
	n := len(v)
	out = out[:n]
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		part := warpParts(b, mask, exited, base, end)
		for i := base; i < end; i++ {
			p := part[i-base]
			if p == 0 {
				continue // returned
			}
			bits := toBits(v[i])
			var m uint32
			for j := range WarpSize {
				if p&(1<<j) != 0 && toBits(v[base+j]) == bits {
					m |= 1 << j
				}
			}
			if all && m != p {
				m = 0
			}
			out[i] = m
		}
	}
}

// BlockMatchAllResult returns MatchAllSync's two results from the lanes
// BlockMatch stored for a thread.
func BlockMatchAllResult(lanes uint32) (uint32, bool) { return lanes, lanes != 0 }

// BlockSyncWarpMask checks the masks of a SyncWarpMask that every live
// thread of the block reaches: a block loop runs the block's threads in
// one order, so nothing else is left to wait for.
func BlockSyncWarpMask(b *Block, mask []uint32, exited []bool) {
	n := len(mask)
	for base := 0; base < n; base += WarpSize {
		warpParts(b, mask, exited, base, min(base+WarpSize, n))
	}
}

// BlockBranch marks in off the threads that do not run one side of an if
// whose condition differs from thread to thread, for block loops: thread
// i runs the side when cond[i] equals taken and outer (the exited flags,
// or the off flags of an enclosing side; nil: none) does not mark it.
// The side's regions skip the threads off marks and its warp operations
// take them as absent. It reports whether any thread runs the side.
// cond[i] is not read for a thread outer marks.
func BlockBranch(off, cond, outer []bool, taken bool) bool {
	n := len(off)
	cond = cond[:n]
	any := false
	for i := range off {
		o := outer != nil && outer[i] || cond[i] != taken
		off[i] = o
		any = any || !o
	}
	return any
}

// BlockBranchCheck checks, before a warp operation inside one side of an
// if whose condition differs from thread to thread, that no lane of a
// participating thread's member mask (mask[i], nil for the full warp)
// belongs to a live thread (not marked in exited, nil: none returned) on
// the other side (marked in off). On the goroutine path such a lane would
// be paired with the operation at whatever warp operation it reaches
// next; on a GPU the result is undefined. The block loop fails the launch
// instead, naming the thread. A thread whose mask lacks its own lane is
// left to the operation, which fails with ErrWarpMask.
func BlockBranchCheck(b *Block, mask []uint32, off, exited []bool) {
	n := len(off)
	for base := 0; base < n; base += WarpSize {
		end := min(base+WarpSize, n)
		var away uint32 // live lanes not on this side
		for i := base; i < end; i++ {
			if off[i] && (exited == nil || !exited[i]) {
				away |= 1 << (i - base)
			}
		}
		if away == 0 {
			continue
		}
		for i := base; i < end; i++ {
			if off[i] {
				continue
			}
			m := memberMask(mask, i)
			if m&(1<<(i-base)) == 0 {
				return // ErrWarpMask, from the operation
			}
		}
		for i := base; i < end; i++ {
			if off[i] {
				continue
			}
			m := memberMask(mask, i)
			if m&away != 0 {
				b.Thread(i)
				panic(fmt.Sprintf("warp operation with member mask %#08x by lane %d under a condition that lane %d of the mask, which has not returned, did not take: the lanes of a warp operation's mask must reach it together (on the goroutine path it would meet whatever warp operation that lane reaches next; on a GPU the result is undefined)", uint64(m), i-base, bits.TrailingZeros32(m&away)))
			}
		}
	}
}
