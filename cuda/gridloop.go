package cuda

import (
	"iter"

	"github.com/nugo-dev/nugo/internal/cpu"
)

// Grid barriers in block loops: grid phases on the worker pool.
//
// A kernel that calls SyncGrid in block-uniform control flow gets a block
// loop from nugo gen like a kernel that calls SyncThreads: the stretches
// between barriers, grid ones included, run as loops over the block's
// threads, and at each SyncGrid the block loop calls Block.SyncGrid. A
// cooperative launch of such a kernel runs its grid phase by phase
// (cpu.RunPhases): each block's block loop is a coroutine (iter.Pull),
// and GOMAXPROCS workers take the blocks one at a time and resume each
// until it reaches the next SyncGrid (Block.SyncGrid switches back to the
// worker) or returns; when every block has, the next phase starts. So a
// grid barrier costs each block two coroutine switches and the pool one
// barrier of its workers, where a goroutine per block parked and woke at
// every barrier. Each block's state (its shared arrays, the per-thread
// arrays of values live across the barrier, which of its threads have
// returned) stays where the block loop keeps it, on its coroutine's stack
// and in its own BlockLoop, from one phase to the next, whichever worker
// resumes it. The pool's barrier is a mutex and condition variable, so
// everything written in a phase happens before what is read in the next,
// for the race detector too.
//
// Between phases the launch looks at what the phase did: a block that
// failed (a thread's panic, runtime.Goexit), or a block that returned
// while others wait at a grid barrier it never reached, ends the grid: the
// waiting blocks resume into a panic, as at a broken barrier, and unwind
// (those a returned block left waiting report GridExitMsg, naming it).
//
// Unlike a goroutine per block, the blocks of a phase do not all run at
// once: a block that spins on a flag another block of the grid is to set
// without a grid barrier in between hangs if no worker is left to run the
// other block, as threads of a block loop do within their block.

// gridPhases is a phased launch's blocks.
type gridPhases struct {
	blocks []phaseBlock // by linear block index, x fastest
	// broken is set between phases when a block failed, or returned while
	// others wait at a grid barrier: the waiting blocks unwind.
	broken bool
	// cause is the failure that broke the grid, if one did: the launch's
	// error, before those of the blocks that unwound.
	cause error
}

// phaseBlock is one block of a phased launch: its block loop running as a
// coroutine.
type phaseBlock struct {
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool
	err   error // the block's failure, once its coroutine has returned
	done  bool  // the coroutine has returned
}

// runPhases runs a cooperative launch of a kernel with a block loop phase
// by phase on the worker pool, and returns the first block's error.
func (l *hostLaunch) runPhases() error {
	n := l.cfg.Grid.Size()
	p := &gridPhases{blocks: make([]phaseBlock, n)}
	l.phases = p
	runners := make([]runner, n)
	body := func(i int) func(func(struct{}) bool) {
		return func(yield func(struct{}) bool) {
			pb := &p.blocks[i]
			pb.yield = yield
			r := &runners[i]
			r.init(l)
			pb.err = r.run(i)
		}
	}
	defer p.stopAll()
	err := cpu.RunPhases(n, 0, func(i int) bool {
		pb := &p.blocks[i]
		if pb.next == nil {
			// Made by the worker that first runs the block, so that the
			// workers share the making.
			pb.next, pb.stop = iter.Pull(body(i))
		}
		_, waiting := pb.next()
		pb.done = !waiting
		return pb.done
	}, func() {
		if p.broken {
			return
		}
		for i := range p.blocks {
			if e := p.blocks[i].err; e != nil {
				p.broken, p.cause = true, e
				return
			}
		}
		// Another phase, so some block waits at a grid barrier: one
		// that has returned never reaches it.
		p.broken = l.exited.Load() != nil || l.goexit.Load() != nil
	})
	if err != nil {
		return err
	}
	if p.cause != nil {
		return p.cause
	}
	for i := range p.blocks {
		if e := p.blocks[i].err; e != nil {
			return e
		}
	}
	return nil
}

// stopAll ends, on a goroutine of its own (a block's thread could call
// runtime.Goexit), the coroutines of blocks left waiting because every
// worker ended with runtime.Goexit: they unwind as at a broken barrier.
func (p *gridPhases) stopAll() {
	left := false
	for i := range p.blocks {
		left = left || p.blocks[i].next != nil && !p.blocks[i].done
	}
	if !left {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.broken = true
		for i := range p.blocks {
			if pb := &p.blocks[i]; pb.next != nil && !pb.done {
				pb.stop()
			}
		}
	}()
	<-done
}

// SyncGrid is a block loop's t.SyncGrid(): every thread of the block that
// has not returned (exited, nil when none has, marks those that have)
// reaches it together, and the block waits for the other blocks of the
// grid: its coroutine switches back to the worker, and the next phase
// resumes it. It returns false, without waiting, when every thread of the
// block has returned: the block has left the kernel, and the block loop
// returns (a block still waiting then reports GridExitMsg, as for a block
// whose threads return on the goroutine path). It panics, for the first
// thread of the block that has not returned, with the messages of
// Thread.SyncGrid: in a launch that is not cooperative, and when a block
// returned before a grid barrier that this one waits at (GridExitMsg);
// when another block failed, the block unwinds without an error of its
// own.
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
	p := b.launch.phases
	if p == nil {
		panic(notCooperativeMsg)
	}
	g := b.grid
	pb := &p.blocks[b.idx.X+g.X*(b.idx.Y+g.Y*b.idx.Z)]
	if !pb.yield(struct{}{}) || p.broken {
		panic(b.launch.gridBroken())
	}
	return true
}
