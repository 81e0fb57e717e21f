package cuda

import (
	"sync"
	"unsafe"
)

// Shuffleable is the set of types the warp shuffles (ShflSync and its
// variants) exchange and MatchAnySync and MatchAllSync compare. A 64-bit
// value is shuffled as its two 32-bit halves; a Float16 is shuffled in the
// low half of a 32-bit register, as CUDA's __shfl_sync on __half does, and
// matched by its 16 bits zero-extended to 32.
type Shuffleable interface {
	~int32 | ~uint32 | ~float32 | ~int64 | ~uint64 | ~float64 | ~int | ~uint | Float16
}

// The warp-level operations below work on the full warp (member mask
// 0xffffffff, as numba's cuda.shfl_sync(0xffffffff, ...)): every thread of
// the warp that has not returned from the kernel must reach the
// operation, or the others wait forever (on a GPU the result is undefined). A
// warp's threads are the block's threads with linear index
// x + y*BlockDim.X + z*BlockDim.X*BlockDim.Y from 32*w to 32*w+31. Lanes
// that do not take part (past the end of a block whose size is not a
// multiple of 32, or threads that have returned) are absent: reading an
// absent lane returns the reader's own value, and an absent lane's
// predicate is false for BallotSync and AnySync and does not count for
// AllSync, and an absent lane is never in a mask of MatchAnySync or
// MatchAllSync (its value does not count). The lane masks (LanemaskLt and
// the others) need no rendezvous: they depend on the lane only and include
// the bits of absent lanes. A warp whose threads wait partly in a warp
// operation and partly in SyncThreads is deadlocked: the ptxsim backend
// fails the launch with an error, the cpu backend hangs, as a GPU does.
//
// On the cpu backend the first warp operation in a block switches the
// block to goroutines, as SyncThreads does; each operation is a
// rendezvous of the warp's live threads.

// SyncWarp waits until every thread of the warp has reached it (CUDA's
// __syncwarp, PTX bar.warp.sync). Memory written before it by the warp's
// threads is visible to them after it.
func (t Thread) SyncWarp() { t.warpOp(opSync, 0, 0) }

// ShflSync returns v as held by lane srcLane of the warp (CUDA's
// __shfl_sync, PTX shfl.sync.idx); srcLane is taken modulo 32.
func ShflSync[T Shuffleable](t Thread, v T, srcLane int) T {
	return fromBits[T](t.warpOp(opIdx, toBits(v), srcLane))
}

// ShflDownSync returns v as held by the lane delta above the caller's
// (CUDA's __shfl_down_sync, PTX shfl.sync.down); a lane whose source would
// be past lane 31 gets its own v. Only delta's low 5 bits count.
func ShflDownSync[T Shuffleable](t Thread, v T, delta int) T {
	return fromBits[T](t.warpOp(opDown, toBits(v), delta))
}

// ShflUpSync returns v as held by the lane delta below the caller's (CUDA's
// __shfl_up_sync, PTX shfl.sync.up); a lane whose source would be below
// lane 0 gets its own v. Only delta's low 5 bits count.
func ShflUpSync[T Shuffleable](t Thread, v T, delta int) T {
	return fromBits[T](t.warpOp(opUp, toBits(v), delta))
}

// ShflXorSync returns v as held by lane LaneID() ^ laneMask (CUDA's
// __shfl_xor_sync, PTX shfl.sync.bfly): the exchange of a butterfly
// reduction. Only laneMask's low 5 bits count.
func ShflXorSync[T Shuffleable](t Thread, v T, laneMask int) T {
	return fromBits[T](t.warpOp(opXor, toBits(v), laneMask))
}

// AllSync reports whether pred is true in every thread of the warp (CUDA's
// __all_sync, PTX vote.sync.all).
func AllSync(t Thread, pred bool) bool { return t.warpOp(opAll, b2u(pred), 0) != 0 }

// AnySync reports whether pred is true in any thread of the warp (CUDA's
// __any_sync, PTX vote.sync.any).
func AnySync(t Thread, pred bool) bool { return t.warpOp(opAny, b2u(pred), 0) != 0 }

// BallotSync returns the mask of the warp's lanes in which pred is true:
// bit i is lane i's pred (CUDA's __ballot_sync, PTX vote.sync.ballot).
func BallotSync(t Thread, pred bool) uint32 { return uint32(t.warpOp(opBallot, b2u(pred), 0)) }

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
	return uint32(t.warpOp(opMatchAny, toBits(v), 0))
}

// MatchAllSync reports whether every live lane of the warp holds the same
// v (CUDA's __match_all_sync(0xffffffff, v, &pred), numba's
// cuda.match_all_sync, PTX match.all.sync): if so, mask is the warp's
// live lanes and all is true; else mask is 0 and all is false. Values are
// compared as bits, as for MatchAnySync. On a GPU it needs compute
// capability 7.0 (sm_70) or later.
func MatchAllSync[T Shuffleable](t Thread, v T) (mask uint32, all bool) {
	m := uint32(t.warpOp(opMatchAll, toBits(v), 0))
	return m, m != 0
}

// ActiveMask returns the mask of the warp's lanes that execute it
// together (CUDA's __activemask, PTX activemask): bit i is set if lane i
// takes part. As for the other warp operations, every live thread of the
// warp must call it; the result is then the warp's live lanes.
func ActiveMask(t Thread) uint32 { return uint32(t.warpOp(opBallot, 1, 0)) }

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
	opBallot
	opMatchAny
	opMatchAll
)

// warpOp runs one warp-level operation: it makes the block concurrent
// (as SyncThreads does) and meets the other live threads of the warp.
func (t Thread) warpOp(op warpOpKind, v uint64, arg int) uint64 {
	b := t.b
	if !b.concurrent {
		b.goConcurrent(t)
	}
	lin := t.linear()
	r, ok := b.warps[lin/WarpSize].exchange(lin%WarpSize, op, v, arg)
	if !ok {
		panic(errBlockAborted)
	}
	return r
}

// warp is the rendezvous of the live threads of one warp of a concurrent
// block. Each arriving thread deposits its operation and value; the last
// to arrive computes every lane's result and releases them. A lane reads
// its result before it can arrive again, so one set of slots suffices.
type warp struct {
	mu      sync.Mutex
	cond    sync.Cond
	parties int // live threads of the warp
	waiting int
	gen     uint64
	broken  bool
	present uint32 // lanes that have arrived in this generation
	op      [WarpSize]warpOpKind
	arg     [WarpSize]int
	val     [WarpSize]uint64
	out     [WarpSize]uint64
}

// reset prepares the warp for a block in which parties of its threads are
// live.
func (w *warp) reset(parties int) {
	w.mu.Lock()
	if w.cond.L == nil {
		w.cond.L = &w.mu
	}
	w.parties, w.waiting, w.broken, w.present = parties, 0, false, 0
	w.gen++
	w.mu.Unlock()
}

// exchange is lane's part in a warp operation; ok is false if the block
// was aborted.
func (w *warp) exchange(lane int, op warpOpKind, v uint64, arg int) (r uint64, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.broken {
		return 0, false
	}
	w.op[lane], w.arg[lane], w.val[lane] = op, arg, v
	w.present |= 1 << lane
	w.waiting++
	if w.waiting >= w.parties {
		w.release()
		return w.out[lane], true
	}
	gen := w.gen
	for gen == w.gen && !w.broken {
		w.cond.Wait()
	}
	return w.out[lane], !w.broken
}

// leave removes a returning thread from the warp.
func (w *warp) leave() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.parties--
	if w.waiting > 0 && w.waiting >= w.parties {
		w.release()
	}
}

// abort wakes every waiter with a failure.
func (w *warp) abort() {
	w.mu.Lock()
	w.broken = true
	w.cond.Broadcast()
	w.mu.Unlock()
}

// release computes the results of the lanes present and wakes them.
func (w *warp) release() {
	var ballot uint64
	for l := range WarpSize {
		if w.present&(1<<l) != 0 && w.val[l] != 0 {
			ballot |= 1 << l
		}
	}
	for l := range WarpSize {
		if w.present&(1<<l) == 0 {
			continue
		}
		// As PTX's shfl.sync, only the low 5 bits of the lane
		// operand count.
		src, arg := -1, w.arg[l]&(WarpSize-1)
		switch w.op[l] {
		case opIdx:
			src = arg
		case opDown:
			if s := l + arg; s < WarpSize {
				src = s
			}
		case opUp:
			if s := l - arg; s >= 0 {
				src = s
			}
		case opXor:
			src = l ^ arg
		case opAll:
			w.out[l] = b2u(ballot == uint64(w.present))
			continue
		case opAny:
			w.out[l] = b2u(ballot != 0)
			continue
		case opBallot:
			w.out[l] = ballot
			continue
		case opMatchAny:
			w.out[l] = uint64(w.matching(l))
			continue
		case opMatchAll:
			w.out[l] = 0
			if m := w.matching(l); m == w.present {
				w.out[l] = uint64(m)
			}
			continue
		default:
			w.out[l] = 0
			continue
		}
		if src < 0 || w.present&(1<<src) == 0 {
			src = l
		}
		w.out[l] = w.val[src]
	}
	w.waiting, w.present = 0, 0
	w.gen++
	w.cond.Broadcast()
}

// matching is the mask of the present lanes whose value has the same bits
// as lane l's.
func (w *warp) matching(l int) uint32 {
	var m uint32
	for j := range WarpSize {
		if w.present&(1<<j) != 0 && w.val[j] == w.val[l] {
			m |= 1 << j
		}
	}
	return m
}
