package cuda

import (
	"errors"
	"fmt"
)

// hostForAllBlock is the block size ForAll uses on the host backends (cpu
// and ptxsim), where no occupancy is to be had: large enough that handing
// out blocks costs little next to running their threads.
const hostForAllBlock = 256

// ForAll runs the kernel over n threads in one dimension and lets nugo
// choose the launch shape, as Numba's kernel.forall(n): on the GPU the
// block size is the one the CUDA occupancy calculator suggests for this
// kernel on its device (cuOccupancyMaxPotentialBlockSize), elsewhere 256,
// and the grid is as many blocks as cover n. As with forall, the kernel
// must treat t.Grid1() as the task index and do nothing for indexes at or
// past n, since the last block may run past it. n == 0 runs nothing and
// returns nil.
func (k *Kernel) ForAll(n int, args ...any) error {
	return k.ForAllWith(n, LaunchConfig{}, args...)
}

// ForAllWith is ForAll with a launch configuration: its Stream and
// SharedMem are used as by LaunchWith, and a non-zero Block.X fixes the
// threads per block (Numba's tpb) instead of the occupancy calculator's
// choice. Grid must be left zero, and Block one-dimensional.
func (k *Kernel) ForAllWith(n int, cfg LaunchConfig, args ...any) error {
	return k.launch(cfg, args, func(be backend, cfg *LaunchConfig, bound []boundArg) error {
		if n < 0 {
			return fmt.Errorf("ForAll over %d threads; the count must not be negative", n)
		}
		if cfg.Grid != (Dim3{}) {
			return fmt.Errorf("ForAll chooses the grid, but the configuration gives grid %v; leave Grid zero, or call LaunchWith", cfg.Grid)
		}
		if cfg.Block.Y > 1 || cfg.Block.Z > 1 || cfg.Block.X < 0 || cfg.Block.Y < 0 || cfg.Block.Z < 0 {
			return fmt.Errorf("ForAll runs one-dimensional blocks, but the configuration gives block %v; give only Block.X (or none)", cfg.Block)
		}
		if n == 0 {
			return nil // Grid stays zero: nothing runs, nothing to choose
		}
		block := cfg.Block.X
		if block == 0 {
			var err error
			if block, err = be.forAllBlock(cfg.Stream, k, cfg.SharedMem, bound); err != nil {
				return err
			}
		}
		if m := k.opts.MaxThreads; m > 0 && cfg.Block.X == 0 && block > m {
			block = m // the occupancy choice, within the LaunchBounds
		}
		cfg.Grid, cfg.Block = Dim1((n-1)/block+1), Dim1(block)
		return nil
	})
}

// forAllBlock is ForAll's block size on the host backends.
func (h *hostBackend) forAllBlock(*Stream, *Kernel, int, []boundArg) (int, error) {
	return hostForAllBlock, nil
}

// errNoBlockFits reports an occupancy calculation that found no block size.
var errNoBlockFits = errors.New("no block size fits")
