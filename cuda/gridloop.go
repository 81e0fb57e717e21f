package cuda

// Grid barriers in block loops.
//
// A cooperative launch on the cpu backend runs every block at once, each
// on a worker goroutine of its own (all blocks must be resident, as on a
// GPU). A kernel that calls SyncGrid in block-uniform control flow gets a
// block loop from nugo gen like a kernel that calls SyncThreads: the
// stretches between barriers, grid ones included, run as loops over the
// block's threads. At each SyncGrid the block loop calls Block.SyncGrid,
// which meets the grid's barrier (one party per block) on behalf of the
// block: the grid's phases run block by block in parallel, and each
// block's state (its shared arrays, the per-thread arrays of values live
// across the barrier, which of its threads have returned) stays where the
// block loop keeps it, in its worker. The barrier is a mutex and condition
// variable, so everything written before it happens before what is read
// after it, for the race detector too.

// SyncGrid is a block loop's t.SyncGrid(): every thread of the block that
// has not returned (exited, nil when none has, marks those that have)
// reaches it together, and the block waits at the grid's barrier for the
// other blocks. It returns false, without waiting, when every thread of
// the block has returned: the block has left the kernel, and the block
// loop returns (the launch then reports the waiting blocks' error, as for
// a block whose threads return on the goroutine path). It panics, for the
// first thread of the block that has not returned, with the messages of
// Thread.SyncGrid: in a launch that is not cooperative, and when a block
// returned before a grid barrier that this one waits at (GridExitMsg); a
// broken barrier (another block failed) unwinds the block without an
// error of its own.
func (bl *Block) SyncGrid(exited []bool) bool {
	first := 0
	if exited != nil {
		first = -1
		for i, e := range exited[:bl.n] {
			if !e {
				first = i
				break
			}
		}
	}
	if first < 0 || bl.n == 0 {
		return false
	}
	bl.Thread(first) // the thread a failure is reported for
	b := bl.b
	g := b.launch.grid
	if g == nil {
		panic(notCooperativeMsg)
	}
	if !g.Wait() {
		panic(b.launch.gridBroken())
	}
	return true
}
