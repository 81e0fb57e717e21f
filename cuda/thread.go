package cuda

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/cpu"
)

// Thread is a kernel's view of the thread running it: its position in the
// block and the grid, and the operations that involve its block. Every
// kernel takes a Thread as its first parameter; nugo passes it, the caller
// of Launch never does. A Thread is only valid inside the kernel call it
// was passed to.
type Thread struct {
	b   *block
	tid uint64 // gx | y<<tidYShift | z<<tidZShift; see packTid
}

// A Thread's tid packs its x position in the grid (not in the block: the
// most used coordinate, Grid1, is then a mask of a register instead of a
// load of the block's base and an add in every thread of a row loop) with
// its y and z positions in the block. The limits every launch is checked
// against bound them: x < (2^31-1)*1024 < 2^48, y < 1024, z < 64. The
// last field stays a counter that the row loops and cpu.Invoker increase
// by one for the next thread of a row.
const (
	tidYShift = 48
	tidZShift = 58
	tidXMask  = 1<<tidYShift - 1
	tidYMask  = 1<<(tidZShift-tidYShift) - 1
)

// packTid returns the tid of the thread at x in the grid and y, z in its
// block.
func packTid(gx, y, z int) uint64 {
	return uint64(gx) | uint64(y)<<tidYShift | uint64(z)<<tidZShift
}

// ThreadIdx is the thread's position in its block (CUDA's threadIdx).
func (t Thread) ThreadIdx() Dim3 {
	return Dim3{int(t.tid&tidXMask) - t.b.base.X, int(t.tid >> tidYShift & tidYMask), int(t.tid >> tidZShift)}
}

// BlockIdx is the block's position in the grid (CUDA's blockIdx).
func (t Thread) BlockIdx() Dim3 { return t.b.idx }

// BlockDim is the shape of the block (CUDA's blockDim).
func (t Thread) BlockDim() Dim3 { return t.b.dim }

// GridDim is the shape of the grid in blocks (CUDA's gridDim).
func (t Thread) GridDim() Dim3 { return t.b.grid }

// Grid1 is the thread's absolute position in a 1-D grid:
// BlockIdx.X*BlockDim.X + ThreadIdx.X (numba's cuda.grid(1)).
func (t Thread) Grid1() int { return int(t.tid & tidXMask) }

// Grid2 is the thread's absolute position in a 2-D grid (cuda.grid(2)).
func (t Thread) Grid2() (x, y int) {
	return int(t.tid & tidXMask), t.b.base.Y + int(t.tid>>tidYShift&tidYMask)
}

// Grid3 is the thread's absolute position in a 3-D grid (cuda.grid(3)).
func (t Thread) Grid3() (x, y, z int) {
	return int(t.tid & tidXMask), t.b.base.Y + int(t.tid>>tidYShift&tidYMask),
		t.b.base.Z + int(t.tid>>tidZShift)
}

// GridSize1 is the number of threads in the grid along x:
// BlockDim.X*GridDim.X (numba's cuda.gridsize(1)); a grid-stride loop
// advances by it.
func (t Thread) GridSize1() int { return t.b.size.X }

// GridSize2 is the number of threads in the grid along x and y.
func (t Thread) GridSize2() (x, y int) { return t.b.size.X, t.b.size.Y }

// GridSize3 is the number of threads in the grid along x, y and z.
func (t Thread) GridSize3() (x, y, z int) { return t.b.size.X, t.b.size.Y, t.b.size.Z }

// LaneID is the thread's index within its warp, 0 to WarpSize-1.
func (t Thread) LaneID() int { return t.linear() % WarpSize }

// WarpSize is the number of threads in a warp, 32.
func (t Thread) WarpSize() int { return WarpSize }

// LanemaskLt is the mask of the warp's lanes below the caller's (PTX
// %lanemask_lt, numba's cuda.lanemask_lt()): bits 0 to LaneID()-1. With
// BallotSync it ranks a lane among those whose predicate holds:
// bits.OnesCount32(BallotSync(t, p) & t.LanemaskLt()). Like the other lane
// masks it depends on the lane only, so it needs no other thread and
// includes the bits of absent lanes; combine it with ActiveMask to keep
// only the live ones.
func (t Thread) LanemaskLt() uint32 { return maskLt(t.LaneID()) }

// LanemaskLe is the mask of the caller's lane and those below it (PTX
// %lanemask_le): bits 0 to LaneID().
func (t Thread) LanemaskLe() uint32 { return maskLe(t.LaneID()) }

// LanemaskEq is the mask of the caller's lane alone (PTX %lanemask_eq):
// bit LaneID().
func (t Thread) LanemaskEq() uint32 { return maskEq(t.LaneID()) }

// LanemaskGe is the mask of the caller's lane and those above it (PTX
// %lanemask_ge): bits LaneID() to 31.
func (t Thread) LanemaskGe() uint32 { return ^maskLt(t.LaneID()) }

// LanemaskGt is the mask of the warp's lanes above the caller's (PTX
// %lanemask_gt): bits LaneID()+1 to 31.
func (t Thread) LanemaskGt() uint32 { return ^maskLe(t.LaneID()) }

// maskLt, maskLe and maskEq are the lane masks of lane: the lanes below
// it, those up to it, and it alone.
func maskLt(lane int) uint32 { return 1<<lane - 1 }
func maskLe(lane int) uint32 { return 2<<lane - 1 }
func maskEq(lane int) uint32 { return 1 << lane }

func (t Thread) linear() int {
	d := t.b.dim
	return int(t.tid&tidXMask) - t.b.base.X + d.X*(int(t.tid>>tidYShift&tidYMask)+d.Y*int(t.tid>>tidZShift))
}

// SyncThreads waits until every thread of the block has reached it (CUDA's
// __syncthreads). Writes to shared and global memory made before it are
// visible to the block's threads after it. Threads that have returned from
// the kernel no longer count, as on GPUs since compute capability 7.0.
func (t Thread) SyncThreads() {
	b := t.b
	if !b.concurrent {
		b.goConcurrent(t)
	}
	if !b.barrier.Wait() {
		panic(errBlockAborted)
	}
}

// SyncThreadsCount is SyncThreads that also returns how many of the
// block's threads passed pred true (CUDA's __syncthreads_count, numba's
// cuda.syncthreads_count, PTX bar.red.popc). Every thread gets the same
// count. Threads that have returned from the kernel neither count nor
// block, as for SyncThreads.
func (t Thread) SyncThreadsCount(pred bool) int {
	trues, _ := t.syncReduce(pred)
	return trues
}

// SyncThreadsAnd is SyncThreads that also reports whether every thread of
// the block passed pred true (CUDA's __syncthreads_and, numba's
// cuda.syncthreads_and, PTX bar.red.and). Threads that have returned from
// the kernel do not take part.
func (t Thread) SyncThreadsAnd(pred bool) bool {
	trues, arrived := t.syncReduce(pred)
	return trues == arrived
}

// SyncThreadsOr is SyncThreads that also reports whether any thread of the
// block passed pred true (CUDA's __syncthreads_or, numba's
// cuda.syncthreads_or, PTX bar.red.or). Threads that have returned from
// the kernel do not take part.
func (t Thread) SyncThreadsOr(pred bool) bool {
	trues, _ := t.syncReduce(pred)
	return trues > 0
}

// syncReduce waits at the block's barrier with pred and returns how many of
// the arriving threads passed true, and how many arrived.
func (t Thread) syncReduce(pred bool) (trues, arrived int) {
	b := t.b
	if !b.concurrent {
		b.goConcurrent(t)
	}
	trues, arrived, ok := b.barrier.WaitCount(pred)
	if !ok {
		panic(errBlockAborted)
	}
	return trues, arrived
}

// SharedArray returns the block's shared array of n elements of type T for
// this call site: every thread of the block that executes the same call gets
// the same memory, zeroed when the block starts. On a GPU it lives in the
// multiprocessor's fast shared memory, so n must be a constant there.
func SharedArray[T Element](t Thread, n int) []T {
	return sharedAt[T](t, n)
}

// SharedArray2 returns the block's rows×cols shared array for this call
// site, row-major, as Numba's cuda.shared.array((rows, cols), dtype):
// every thread of the block that executes the same call gets the same
// memory, zeroed when the block starts. On a GPU the dimensions must be
// constants, as SharedArray's size must.
func SharedArray2[T Element](t Thread, rows, cols int) Array2[T] {
	return rowMajor2(sharedAt[T](t, rows*cols), rows, cols)
}

// SharedArray3 returns the block's d0×d1×d2 shared array for this call
// site, row-major (see SharedArray2).
func SharedArray3[T Element](t Thread, d0, d1, d2 int) Array3[T] {
	return rowMajor3(sharedAt[T](t, d0*d1*d2), d0, d1, d2)
}

// sharedAt is the block's shared array of n elements for the call site of
// its caller's caller (SharedArray's, SharedArray2's or SharedArray3's).
func sharedAt[T Element](t Thread, n int) []T {
	var pc [1]uintptr
	runtime.Callers(3, pc[:])
	b := t.b
	b.sharedMu.Lock()
	defer b.sharedMu.Unlock()
	if s, ok := b.shared[pc[0]]; ok {
		if a, ok := s.([]T); ok && len(a) == n {
			return a
		}
	}
	a := make([]T, n)
	b.shared[pc[0]] = a
	return a
}

// DynamicSharedArray returns the block's dynamic shared memory, whose size
// in bytes is LaunchConfig.SharedMem, as a slice of T. Every call in a block
// returns the same memory; slices of different element types alias it.
func DynamicSharedArray[T Element](t Thread) []T {
	b := t.b
	var zero T
	n := b.launch.cfg.SharedMem / int(unsafe.Sizeof(zero))
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b.dynamic))), n)
}

// block is the state one CPU worker keeps for the block it is running;
// workers reuse it from block to block.
type block struct {
	idx, dim, grid Dim3
	base           Dim3 // idx * dim, the grid position of thread (0,0,0)
	size           Dim3 // grid size in threads
	launch         *hostLaunch

	sharedMu sync.Mutex
	shared   map[uintptr]any
	dynamic  []uint64

	// A block starts with its threads called one after another. The first
	// SyncThreads switches it to concurrent: the remaining threads become
	// coroutines of the worker (co) that meet at barrier.
	concurrent bool
	row        *Row // the worker's row of threads (its runner's), or nil
	barrier    *cpu.Barrier
	live       atomic.Int32 // threads not yet returned, once concurrent
	warps      []warp       // the rendezvous of each warp's threads (warp.go)
	co         *coPool
	errMu      sync.Mutex
	err        error
}

// errBlockAborted unwinds the threads of a block after one of them failed.
var errBlockAborted = &abortError{}

type abortError struct{}

func (*abortError) Error() string { return "block aborted" }
