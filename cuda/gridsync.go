package cuda

import (
	"errors"
	"fmt"

	"github.com/nugo-dev/nugo/internal/compiler"
)

// HostCooperativeThreads is the most threads a cooperative launch may have
// on the cpu and ptxsim backends: there every thread of a cooperative grid
// runs at once (on the cpu backend each block on a goroutine of its own,
// each thread too for a kernel without a block loop), and a cap keeps a
// mistaken grid from taking the machine's memory. MaxCooperativeBlocks
// reports it in blocks: HostCooperativeThreads / threads per block.
const HostCooperativeThreads = 1 << 16

// ErrNotCooperative is matched (errors.Is) by the error of a launch, on
// the gpu and ptxsim backends, of a kernel that calls SyncGrid without
// LaunchConfig.Cooperative. (The cpu backend runs the kernel and reports
// the first thread that reaches SyncGrid as a *KernelError.)
var ErrNotCooperative = errors.New("the kernel calls t.SyncGrid, so it must be launched cooperatively")

// notCooperativeMsg is the cpu backend's KernelError message for a SyncGrid
// in a launch that is not cooperative.
const notCooperativeMsg = "t.SyncGrid in a launch that is not cooperative; launch with LaunchWith and LaunchConfig{Cooperative: true}, with a grid of at most MaxCooperativeBlocks blocks"

// fixCooperative is what a non-cooperative launch of a grid-syncing kernel
// should do instead.
const fixCooperative = "launch it with LaunchWith and LaunchConfig{Cooperative: true}, with a grid of at most MaxCooperativeBlocks(block, sharedMem) blocks"

// SyncGrid waits until every thread of the grid has reached it (Numba's
// cuda.cg.this_grid().sync(), CUDA's cooperative_groups grid sync). Writes
// to global memory made before it are visible to every thread of the grid
// after it. It needs a cooperative launch (LaunchConfig.Cooperative), whose
// blocks are all resident at once; otherwise the launch fails: before
// running on the gpu and ptxsim backends, which know from the compiled
// kernel that it syncs the grid, and with a *KernelError on the cpu
// backend.
//
// Threads that have returned from the kernel no longer count, as for
// SyncThreads, but only while their block has a thread left: a block all
// of whose threads have returned never arrives, and the rest of the grid
// waits for it. On a GPU the kernel then hangs until the watchdog, if any,
// ends it (CUDA calls it undefined behaviour). The cpu and ptxsim backends
// report it instead, as a *KernelError from a waiting block whose message
// names the block that returned ("block (1,0,0) returned before
// t.SyncGrid, ...") at the SyncGrid line the others wait at; so does a
// kernel compiled in debug mode (Debug, NUGO_DEBUG=1) on the GPU, whose
// returns then count each block's returned threads (non-debug kernels pay
// nothing). A block that returns after the last SyncGrid it reaches is
// fine. In debug mode a failed check also ends the grid's wait on every
// backend, so that the launch reports it even when it ended a whole block.
func (t Thread) SyncGrid() {
	b := t.b
	g := b.launch.grid
	if g == nil {
		panic(notCooperativeMsg)
	}
	if !b.concurrent {
		b.goConcurrent(t)
	}
	// As on a GPU: the block meets, one of its threads waits for the
	// other blocks, the block meets again. The grid's barrier has one
	// party per block, which leaves when the block's last thread returns.
	lead, ok := b.barrier.WaitLead()
	if !ok {
		panic(errBlockAborted)
	}
	if lead && !g.Wait() {
		b.abort() // the block's other threads, waiting for this one, unwind
		panic(b.launch.gridBroken())
	}
	if !b.barrier.Wait() {
		panic(errBlockAborted)
	}
}

// gridBroken is what a block panics with when the grid's barrier broke:
// GridExitMsg, naming the block, when a block returned before a grid
// barrier the others wait at, else errBlockAborted (another block failed,
// and the launch reports that).
func (l *hostLaunch) gridBroken() any {
	if e := l.exited.Load(); e != nil {
		return fmt.Sprintf(compiler.GridExitMsg, e.X, e.Y, e.Z)
	}
	return errBlockAborted
}

// MaxCooperativeBlocks is the most blocks of the given shape, each with
// sharedMem bytes of dynamic shared memory, that a cooperative launch of
// the kernel may have (Numba's kernel.max_cooperative_grid_blocks): on the
// GPU, the blocks that can be resident on the selected device at once, the
// occupancy calculator's blocks per multiprocessor times the
// multiprocessors (cuOccupancyMaxActiveBlocksPerMultiprocessor); on the
// cpu and ptxsim backends HostCooperativeThreads / block.Size(). It is an
// error where cooperative launches are impossible (a GPU without the
// COOPERATIVE_LAUNCH attribute) and for a bad block shape. A kernel with
// func parameters is compiled for the functions a launch passes, which
// change its registers and so its limit: pass the same functions in funcs,
// one per func parameter in order, as for PTX.
func (k *Kernel) MaxCooperativeBlocks(block Dim3, sharedMem int, funcs ...any) (int, error) {
	if err := k.usable(); err != nil {
		return 0, fmt.Errorf("MaxCooperativeBlocks: %w", err)
	}
	be, err := current()
	if err != nil {
		return 0, fmt.Errorf("MaxCooperativeBlocks %s: %w", k.name, err)
	}
	lim := be.limits()
	if err := lim.checkShape(Dim1(1), block); err != nil {
		return 0, fmt.Errorf("MaxCooperativeBlocks %s: %w", k.name, err)
	}
	if sharedMem < 0 || sharedMem > lim.MaxSharedMemory {
		return 0, fmt.Errorf("MaxCooperativeBlocks %s: dynamic shared memory of %d bytes; it must be between 0 and %d", k.name, sharedMem, lim.MaxSharedMemory)
	}
	var args []boundArg
	if k.hasFuncParams() || len(funcs) > 0 {
		if args, err = k.bindFuncs("MaxCooperativeBlocks", funcs); err != nil {
			return 0, fmt.Errorf("MaxCooperativeBlocks: %w", err)
		}
	}
	n, _, err := be.cooperativeBlocks(nil, k, block, sharedMem, args)
	if err != nil {
		return 0, fmt.Errorf("MaxCooperativeBlocks %s: %w", k.name, err)
	}
	return n, nil
}

// checkCooperative refuses a cooperative launch whose grid has more blocks
// than can be resident at once, with the figures.
func checkCooperative(be backend, k *Kernel, cfg LaunchConfig, bound []boundArg) error {
	limit, where, err := be.cooperativeBlocks(cfg.Stream, k, cfg.Block, cfg.SharedMem, bound)
	if err != nil {
		return fmt.Errorf("cooperative launch: %w", err)
	}
	if n := cfg.Grid.Size(); n > limit {
		return fmt.Errorf("cooperative grid %v has %d blocks; at most %d blocks of %d threads with %d bytes of dynamic shared memory can be resident at once %s; launch at most MaxCooperativeBlocks blocks and let a grid-stride loop cover the rest",
			cfg.Grid, n, limit, cfg.Block.Size(), cfg.SharedMem, where)
	}
	return nil
}

// cooperativeBlocks is the host backends' cooperative limit: every thread
// runs at once, up to HostCooperativeThreads.
func (h *hostBackend) cooperativeBlocks(_ *Stream, _ *Kernel, block Dim3, _ int, _ []boundArg) (int, string, error) {
	return HostCooperativeThreads / block.Size(), fmt.Sprintf("on the %s backend (HostCooperativeThreads = %d threads)", h.kind(), HostCooperativeThreads), nil
}

// launchChecker is implemented by executors that check a launch against
// the compiled kernel before it is queued.
type launchChecker interface {
	check(k *Kernel, cfg LaunchConfig, bound []boundArg) error
}

// check refuses, before anything runs, a launch of a grid-syncing kernel
// that is not cooperative.
func (e ptxsimExecutor) check(k *Kernel, cfg LaunchConfig, bound []boundArg) error {
	gk, err := e.compile(k, bound)
	if err != nil {
		return err
	}
	if gk.Mod.UsesGridSync && !cfg.Cooperative {
		return fmt.Errorf("%w; %s", ErrNotCooperative, fixCooperative)
	}
	return nil
}

// abort stops the block's other threads after one of them met a broken
// barrier or failed: those waiting at the block's barrier or in a warp
// operation unwind.
func (b *block) abort() {
	if b.concurrent {
		b.barrier.Break()
		for i := range b.warps {
			b.warps[i].abort()
		}
	}
}
