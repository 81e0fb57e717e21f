package cuda

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/compiler"
)

// Shuffleable is the set of types the warp shuffles (ShflSync and its
// variants) exchange and MatchAnySync and MatchAllSync compare. A 64-bit
// value is shuffled as its two 32-bit halves; a Float16 is shuffled in the
// low half of a 32-bit register, as CUDA's __shfl_sync on __half does, and
// matched by its 16 bits zero-extended to 32.
type Shuffleable interface {
	~int32 | ~uint32 | ~float32 | ~int64 | ~uint64 | ~float64 | ~int | ~uint | Float16
}

// The warp-level operations below come in two forms. The plain form
// (ShflSync, BallotSync, ...) works on the full warp: member mask
// 0xffffffff, as numba's cuda.shfl_sync(0xffffffff, ...). The Mask form
// (ShflSyncMask, BallotSyncMask, ..., t.SyncWarpMask) takes CUDA's member
// mask as the argument after t, as numba's mask argument: bit i names lane
// i, and only the lanes of the mask take part. Every lane named in the
// mask that has not returned from the kernel must reach a warp operation
// with the same mask (on a GPU the result is otherwise undefined); a lane
// outside it goes on without waiting. The caller's own lane must be in its
// mask: a lane that calls with a mask without its own bit is a
// *KernelError on the cpu and ptxsim backends and, in debug mode (Debug),
// on the GPU (CUDA leaves it undefined).
//
// A warp's threads are the block's threads with linear index
// x + y*BlockDim.X + z*BlockDim.X*BlockDim.Y from 32*w to 32*w+31. Lanes
// that do not take part (outside the mask, past the end of a block whose
// size is not a multiple of 32, or threads that have returned) are absent:
// reading an absent lane returns the reader's own value (on a GPU, reading
// a lane outside the mask is undefined), an absent lane's predicate is
// false for BallotSync and AnySync and does not count for AllSync and
// UniSync, and an absent lane is never in a mask of MatchAnySync or
// MatchAllSync (its value does not count). The lane masks (LanemaskLt and
// the others) need no rendezvous: they depend on the lane only and include
// the bits of absent lanes. A warp whose threads wait partly in a warp
// operation and partly in SyncThreads is deadlocked: the ptxsim backend
// fails the launch with an error, the cpu backend hangs, as a GPU does.
//
// On the cpu backend the first warp operation in a block switches the
// block to goroutines, as SyncThreads does; each operation is a
// rendezvous of the live threads of its mask.

// SyncWarp waits until every thread of the warp has reached it (CUDA's
// __syncwarp, PTX bar.warp.sync). Memory written before it by the warp's
// threads is visible to them after it.
func (t Thread) SyncWarp() { t.warpOp(opSync, fullMask, 0, 0) }

// SyncWarpMask waits until every live thread of the lanes in mask has
// reached a SyncWarpMask with the same mask (CUDA's __syncwarp(mask),
// numba's cuda.syncwarp(mask)); the caller's lane must be in mask.
func (t Thread) SyncWarpMask(mask uint32) { t.warpOp(opSync, mask, 0, 0) }

// fullMask is the member mask of the plain warp operations.
const fullMask = 0xffffffff

// ShflSync returns v as held by lane srcLane of the warp (CUDA's
// __shfl_sync, PTX shfl.sync.idx); srcLane is taken modulo 32.
func ShflSync[T Shuffleable](t Thread, v T, srcLane int) T {
	return fromBits[T](t.warpOp(opIdx, fullMask, toBits(v), srcLane))
}

// ShflSyncMask is ShflSync among the lanes of mask (CUDA's
// __shfl_sync(mask, v, srcLane), numba's cuda.shfl_sync): a source lane
// outside mask gives the caller its own v.
func ShflSyncMask[T Shuffleable](t Thread, mask uint32, v T, srcLane int) T {
	return fromBits[T](t.warpOp(opIdx, mask, toBits(v), srcLane))
}

// ShflDownSync returns v as held by the lane delta above the caller's
// (CUDA's __shfl_down_sync, PTX shfl.sync.down); a lane whose source would
// be past lane 31 gets its own v. Only delta's low 5 bits count.
func ShflDownSync[T Shuffleable](t Thread, v T, delta int) T {
	return fromBits[T](t.warpOp(opDown, fullMask, toBits(v), delta))
}

// ShflDownSyncMask is ShflDownSync among the lanes of mask (CUDA's
// __shfl_down_sync(mask, ...), numba's cuda.shfl_down_sync).
func ShflDownSyncMask[T Shuffleable](t Thread, mask uint32, v T, delta int) T {
	return fromBits[T](t.warpOp(opDown, mask, toBits(v), delta))
}

// ShflUpSync returns v as held by the lane delta below the caller's (CUDA's
// __shfl_up_sync, PTX shfl.sync.up); a lane whose source would be below
// lane 0 gets its own v. Only delta's low 5 bits count.
func ShflUpSync[T Shuffleable](t Thread, v T, delta int) T {
	return fromBits[T](t.warpOp(opUp, fullMask, toBits(v), delta))
}

// ShflUpSyncMask is ShflUpSync among the lanes of mask (CUDA's
// __shfl_up_sync(mask, ...), numba's cuda.shfl_up_sync).
func ShflUpSyncMask[T Shuffleable](t Thread, mask uint32, v T, delta int) T {
	return fromBits[T](t.warpOp(opUp, mask, toBits(v), delta))
}

// ShflXorSync returns v as held by lane LaneID() ^ laneMask (CUDA's
// __shfl_xor_sync, PTX shfl.sync.bfly): the exchange of a butterfly
// reduction. Only laneMask's low 5 bits count.
func ShflXorSync[T Shuffleable](t Thread, v T, laneMask int) T {
	return fromBits[T](t.warpOp(opXor, fullMask, toBits(v), laneMask))
}

// ShflXorSyncMask is ShflXorSync among the lanes of mask (CUDA's
// __shfl_xor_sync(mask, ...), numba's cuda.shfl_xor_sync).
func ShflXorSyncMask[T Shuffleable](t Thread, mask uint32, v T, laneMask int) T {
	return fromBits[T](t.warpOp(opXor, mask, toBits(v), laneMask))
}

// AllSync reports whether pred is true in every thread of the warp (CUDA's
// __all_sync, PTX vote.sync.all).
func AllSync(t Thread, pred bool) bool { return t.warpOp(opAll, fullMask, b2u(pred), 0) != 0 }

// AllSyncMask reports whether pred is true in every live lane of mask
// (CUDA's __all_sync(mask, pred), numba's cuda.all_sync).
func AllSyncMask(t Thread, mask uint32, pred bool) bool {
	return t.warpOp(opAll, mask, b2u(pred), 0) != 0
}

// AnySync reports whether pred is true in any thread of the warp (CUDA's
// __any_sync, PTX vote.sync.any).
func AnySync(t Thread, pred bool) bool { return t.warpOp(opAny, fullMask, b2u(pred), 0) != 0 }

// AnySyncMask reports whether pred is true in any live lane of mask
// (CUDA's __any_sync(mask, pred), numba's cuda.any_sync).
func AnySyncMask(t Thread, mask uint32, pred bool) bool {
	return t.warpOp(opAny, mask, b2u(pred), 0) != 0
}

// UniSync reports whether pred has the same value in every thread of the
// warp (CUDA's __uni_sync, numba's cuda.eq_sync, PTX vote.sync.uni).
func UniSync(t Thread, pred bool) bool { return t.warpOp(opUni, fullMask, b2u(pred), 0) != 0 }

// UniSyncMask reports whether pred has the same value in every live lane
// of mask (CUDA's __uni_sync(mask, pred), numba's cuda.eq_sync(mask, p)).
func UniSyncMask(t Thread, mask uint32, pred bool) bool {
	return t.warpOp(opUni, mask, b2u(pred), 0) != 0
}

// BallotSync returns the mask of the warp's lanes in which pred is true:
// bit i is lane i's pred (CUDA's __ballot_sync, PTX vote.sync.ballot).
func BallotSync(t Thread, pred bool) uint32 {
	return uint32(t.warpOp(opBallot, fullMask, b2u(pred), 0))
}

// BallotSyncMask is BallotSync among the lanes of mask (CUDA's
// __ballot_sync(mask, pred), numba's cuda.ballot_sync): the bits of lanes
// outside mask are 0. Each quarter of a warp can take its own ballot with
// BallotSyncMask(t, 0xff<<(8*(t.LaneID()/8)), pred).
func BallotSyncMask(t Thread, mask uint32, pred bool) uint32 {
	return uint32(t.warpOp(opBallot, mask, b2u(pred), 0))
}

// MatchAnySync returns the mask of the warp's live lanes whose v equals
// the caller's (CUDA's __match_any_sync(0xffffffff, v), numba's
// cuda.match_any_sync, PTX match.any.sync): bit i is set if lane i holds
// the same v. The caller's own bit is always set. Values are compared as
// bits, as PTX does: a float -0.0 does not match +0.0, and a NaN matches a
// NaN with the same bits. The same holds for Float16, which CUDA's
// __match_any_sync has no overload for: nugo matches its bit pattern, as
// __match_any_sync(mask, __half_as_ushort(h)) would. On a GPU it needs compute capability 7.0
// (sm_70) or later; compiling it for an older target is a *CompileError.
func MatchAnySync[T Shuffleable](t Thread, v T) uint32 {
	return uint32(t.warpOp(opMatchAny, fullMask, toBits(v), 0))
}

// MatchAnySyncMask is MatchAnySync among the lanes of mask (CUDA's
// __match_any_sync(mask, v)): only lanes of mask are compared.
func MatchAnySyncMask[T Shuffleable](t Thread, mask uint32, v T) uint32 {
	return uint32(t.warpOp(opMatchAny, mask, toBits(v), 0))
}

// MatchAllSync reports whether every live lane of the warp holds the same
// v (CUDA's __match_all_sync(0xffffffff, v, &pred), numba's
// cuda.match_all_sync, PTX match.all.sync): if so, mask is the warp's
// live lanes and all is true; else mask is 0 and all is false. Values are
// compared as bits, as for MatchAnySync. On a GPU it needs compute
// capability 7.0 (sm_70) or later.
func MatchAllSync[T Shuffleable](t Thread, v T) (mask uint32, all bool) {
	m := uint32(t.warpOp(opMatchAll, fullMask, toBits(v), 0))
	return m, m != 0
}

// MatchAllSyncMask is MatchAllSync among the lanes of mask (CUDA's
// __match_all_sync(mask, v, &pred)): if every live lane of mask holds the
// same v, the result is those lanes and true; else 0 and false.
func MatchAllSyncMask[T Shuffleable](t Thread, mask uint32, v T) (lanes uint32, all bool) {
	m := uint32(t.warpOp(opMatchAll, mask, toBits(v), 0))
	return m, m != 0
}

// ActiveMask returns the mask of the warp's lanes that execute it
// together (CUDA's __activemask, numba's cuda.activemask, PTX
// activemask): bit i is set if lane i takes part. On a GPU it waits for
// no one.
// Inside if t.LaneID()%2 == 0 of a full warp it is 0x55555555 on a GPU
// (as GPUs schedule such code; CUDA promises no particular reconvergence)
// and on ptxsim, which tracks which lanes of a warp run together: lanes
// part at a branch that some take and others do not, and join again where
// the two paths meet (the branch's immediate post-dominator). On the cpu backend, where each thread is a goroutine and no
// branch is seen, ActiveMask is the lanes that, in the same round of the
// warp's rendezvous, call ActiveMask from the same place in the program;
// it is the GPU's answer when the lanes that went elsewhere wait in
// another warp operation or have returned, but lanes that have not yet
// reached the same call are not waited for (see docs/backends.md).
func ActiveMask(t Thread) uint32 {
	var pc [1]uintptr
	runtime.Callers(2, pc[:])
	return uint32(t.warpOp(opActive, fullMask, 1, int(pc[0])))
}

// ThreadFence orders the calling thread's memory accesses: every write it
// made before the fence is visible to all threads of the device before any
// write it makes after it (CUDA's __threadfence, PTX membar.gl).
func ThreadFence() { fence() }

// ThreadFenceBlock is ThreadFence for the threads of the caller's block
// only (CUDA's __threadfence_block, numba's cuda.threadfence_block, PTX
// membar.cta): the cheapest fence, enough when only the block reads what
// the thread wrote.
func ThreadFenceBlock() { fence() }

// ThreadFenceSystem is ThreadFence for every observer of the memory: the
// device's threads, the host and other devices (CUDA's
// __threadfence_system, numba's cuda.threadfence_system, PTX membar.sys),
// for writes to mapped host memory that the host polls.
func ThreadFenceSystem() { fence() }

// fence is every ThreadFence* on the cpu backend, where all threads share
// one memory: a lock and unlock order the accesses around them in Go's
// memory model, which is at least as strong as any of the scopes.
func fence() {
	threadFence.Lock()
	threadFence.Unlock()
}

var threadFence sync.Mutex

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func toBits[T Shuffleable](v T) uint64 {
	switch unsafe.Sizeof(v) {
	case 2:
		return uint64(*(*uint16)(unsafe.Pointer(&v)))
	case 4:
		return uint64(*(*uint32)(unsafe.Pointer(&v)))
	}
	return *(*uint64)(unsafe.Pointer(&v))
}

func fromBits[T Shuffleable](b uint64) T {
	var v T
	switch unsafe.Sizeof(v) {
	case 2:
		*(*uint16)(unsafe.Pointer(&v)) = uint16(b)
	case 4:
		*(*uint32)(unsafe.Pointer(&v)) = uint32(b)
	default:
		*(*uint64)(unsafe.Pointer(&v)) = b
	}
	return v
}

// warpOpKind is what a thread asks of its warp.
type warpOpKind uint8

const (
	opSync warpOpKind = iota
	opIdx
	opDown
	opUp
	opXor
	opAll
	opAny
	opUni
	opBallot
	opMatchAny
	opMatchAll
	opActive // ActiveMask: arg is the call site
)

// warpOp runs one warp-level operation among the lanes of mask: it makes
// the block concurrent (as SyncThreads does) and meets the other live
// threads of the mask.
func (t Thread) warpOp(op warpOpKind, mask uint32, v uint64, arg int) uint64 {
	b := t.b
	lin := t.linear()
	lane := lin % WarpSize
	if mask&(1<<lane) == 0 {
		panic(fmt.Sprintf(compiler.WarpMaskMsg, uint64(mask), lane))
	}
	if !b.concurrent {
		b.goConcurrent(t)
	}
	r, ok := b.warps[lin/WarpSize].exchange(lane, op, mask, v, arg)
	if !ok {
		panic(errBlockAborted)
	}
	return r
}

// warp is the rendezvous of the live threads of one warp of a concurrent
// block. Each arriving thread deposits its operation, mask and value; an
// arrival that completes a mask (every live lane of it present) computes
// the results of the lanes that can go and releases them. A lane reads
// its result before it can arrive again, so one set of slots suffices.
// The block's threads are coroutines of one goroutine (coro.go), one
// running at a time, so the warp takes no lock: a lane that must wait
// calls yield, which lets the others run, and looks again.
type warp struct {
	live    uint32 // lanes whose threads have not returned
	present uint32 // lanes waiting in an operation
	broken  bool
	op      [WarpSize]warpOpKind
	mask    [WarpSize]uint32
	arg     [WarpSize]int
	val     [WarpSize]uint64
	out     [WarpSize]uint64
	// events counts arrivals, leaves and aborts, for coPool's deadlock
	// check.
	events uint64
	// yield lets the block's other threads run (coPool.wait); false: the
	// waiting lane gives up, as in a broken warp.
	yield func() bool
}

// reset prepares the warp for a block in which the lanes of live are
// live threads, whose waits call yield.
func (w *warp) reset(live uint32, yield func() bool) {
	w.live, w.present, w.broken, w.yield = live, 0, false, yield
}

// exchange is lane's part in a warp operation; ok is false if the block
// was aborted.
func (w *warp) exchange(lane int, op warpOpKind, mask uint32, v uint64, arg int) (r uint64, ok bool) {
	if w.broken {
		return 0, false
	}
	bit := uint32(1) << lane
	w.op[lane], w.mask[lane], w.arg[lane], w.val[lane] = op, mask, arg, v
	w.present |= bit
	w.events++
	w.releaseArrival(lane)
	for w.present&bit != 0 && !w.broken {
		if !w.yield() {
			return 0, false
		}
	}
	return w.out[lane], !w.broken
}

// leave removes a returning thread from the warp.
func (w *warp) leave(lane int) {
	w.live &^= 1 << lane
	w.events++
	w.release()
}

// abort makes every waiter, and every later arrival, fail.
func (w *warp) abort() {
	w.broken = true
	w.events++
}

// release computes the results of the waiting lanes that can go and wakes
// them: the lanes whose mask's live lanes all wait in a warp operation with
// the same mask (CUDA requires them to call one with the same mask; a lane
// waiting with another mask has yet to get there). Their partners can then
// go too, so a lane never reads the value of one that stays. The waiting
// lanes fall into groups by mask, each of which goes or stays as a whole.
func (w *warp) release() {
	done := uint32(0)
	for rest := w.present; rest != 0; rest &^= done {
		l := bits.TrailingZeros32(rest)
		done = w.group(w.mask[l])
		w.releaseGroup(w.mask[l], done)
	}
}

// releaseArrival is release after lane arrived: only the lanes waiting with
// its mask can have become free to go.
func (w *warp) releaseArrival(lane int) {
	m := w.mask[lane]
	w.releaseGroup(m, w.group(m))
}

// group is the mask of the waiting lanes whose mask is m.
func (w *warp) group(m uint32) uint32 {
	var g uint32
	for rest := w.present & m; rest != 0; rest &= rest - 1 {
		if j := bits.TrailingZeros32(rest); w.mask[j] == m {
			g |= 1 << j
		}
	}
	return g
}

// releaseGroup releases the lanes of group, those waiting with mask m, if
// every live lane of m is among them.
func (w *warp) releaseGroup(m, group uint32) {
	if group == 0 || m&w.live&^group != 0 {
		return
	}
	var ballot uint32
	for rest := group; rest != 0; rest &= rest - 1 {
		if j := bits.TrailingZeros32(rest); w.val[j] != 0 {
			ballot |= 1 << j
		}
	}
	for rest := group; rest != 0; rest &= rest - 1 {
		l := bits.TrailingZeros32(rest)
		w.out[l] = w.result(l, group, ballot)
	}
	w.present &^= group
}

// result is lane l's result of its operation among the lanes of part,
// whose lanes with a nonzero value are those of ballot.
func (w *warp) result(l int, part, ballot uint32) uint64 {
	switch w.op[l] {
	case opIdx, opDown, opUp, opXor:
		// As PTX's shfl.sync, only the low 5 bits of the lane operand
		// count; a lane outside the warp or the part reads its own value.
		kind := [...]ShuffleKind{opIdx: ShuffleIdx, opDown: ShuffleDown, opUp: ShuffleUp, opXor: ShuffleXor}[w.op[l]]
		src := shuffleSource(kind, l, w.arg[l]&(WarpSize-1))
		if src < 0 || part&(1<<src) == 0 {
			src = l
		}
		return w.val[src]
	case opAll:
		return b2u(ballot == part)
	case opAny:
		return b2u(ballot != 0)
	case opUni:
		return b2u(ballot == 0 || ballot == part)
	case opBallot:
		return uint64(ballot)
	case opMatchAny:
		return uint64(w.matching(l, part))
	case opMatchAll:
		if m := w.matching(l, part); m == part {
			return uint64(m)
		}
		return 0
	case opActive:
		var m uint32
		for j := range WarpSize {
			if part&(1<<j) != 0 && w.op[j] == opActive && w.arg[j] == w.arg[l] {
				m |= 1 << j
			}
		}
		return uint64(m)
	default:
		return 0
	}
}

// matching is the mask of the lanes of part whose value has the same bits
// as lane l's.
func (w *warp) matching(l int, part uint32) uint32 {
	var m uint32
	for j := range WarpSize {
		if part&(1<<j) != 0 && w.val[j] == w.val[l] {
			m |= 1 << j
		}
	}
	return m
}
