package cuda

import "iter"

// The cpu backend's goroutine path, for kernels that block loops cannot
// take: once a block's first thread reaches SyncThreads (a reducing
// SyncThreads, a warp operation or SyncGrid), that thread keeps running on
// the worker's goroutine and the block's remaining threads run as
// coroutines (iter.Pull) which the worker drives. Only one of a block's
// threads runs at a time, so the block needs no parking and no wake-ups:
// a thread that must wait (at the block's barrier, in a warp operation)
// switches back to the worker, and the worker, when its own thread must
// wait, resumes each unfinished coroutine in turn (one round) and looks
// again. A barrier costs a round trip of coroutine switches per thread,
// where parking goroutines cost a scheduler wake-up each. A round that
// changes nothing (no thread arrives, leaves or returns) would repeat
// forever: the worker's thread fails with deadlockMsg instead. The
// coroutines are kept from block to block and stopped when the launch
// ends.
//
// A thread that waits on something outside the block (the grid's barrier
// in SyncGrid) blocks the worker, with its block's other threads waiting
// anyway. A thread that spins on memory another thread of its block is to
// write, without a barrier, never lets that thread run: it hangs, as it
// does before the block's first barrier, while threads run one after
// another in row loops.

// coPool is one worker's coroutines, reused from block to block.
type coPool struct {
	all    []*coThread
	active []*coThread // the current block's, in thread order
	cur    *coThread   // the coroutine running; nil: the worker's thread
	block  *block      // the worker's block
	// finished counts the threads that finished, for events.
	finished uint64
}

// coThread is a coroutine that runs the threads it is handed, one after
// another.
type coThread struct {
	next    func() (struct{}, bool)
	stop    func()
	yield   func(struct{}) bool
	t       Thread // the thread to run, or running
	busy    bool   // t has not finished
	stopped bool   // stop was called: finish t and end
}

// deadlockMsg is the KernelError message of a thread that waits for the
// block's other threads when none of them can go on: every one has
// returned or waits (at SyncThreads, in a warp operation) for another
// that waits elsewhere. A GPU would hang.
const deadlockMsg = "deadlock: the block's threads wait for each other at different barriers or warp operations (or have returned), so none can go on"

// start makes threads first to total-1 (linear indices) of block b the
// pool's active coroutines; they start at the worker's next round.
func (p *coPool) start(b *block, first, total int) {
	n := total - first
	for len(p.all) < n {
		p.all = append(p.all, p.newThread())
	}
	p.active = p.all[:n]
	d := b.dim
	for i, c := range p.active {
		lin := first + i
		x, y, z := lin%d.X, lin/d.X%d.Y, lin/(d.X*d.Y)
		c.t, c.busy = Thread{b, packTid(b.base.X+x, y, z)}, true
	}
}

func (p *coPool) newThread() *coThread {
	c := &coThread{}
	c.next, c.stop = iter.Pull(func(yield func(struct{}) bool) {
		c.yield = yield
		for {
			if b := c.t.b; !c.stopped && !b.failed() {
				b.runThread(c.t)
			}
			c.busy = false
			c.t = Thread{}
			p.finished++
			if c.stopped || !yield(struct{}{}) {
				return
			}
		}
	})
	return c
}

// wait is the yield of the block's barrier and warps: a coroutine switches
// back to the worker, the worker's thread runs a round of the others (and
// fails the thread with deadlockMsg if that changed nothing). It is false
// when the coroutine was stopped (the launch is ending).
func (p *coPool) wait() bool {
	if c := p.cur; c != nil {
		if !c.yield(struct{}{}) {
			c.stopped = true
			return false
		}
		return true
	}
	// A round in which no coroutine finished, arrived, left or broke
	// anything leaves every waiter, this one included, where it was:
	// the next would too.
	before := p.events()
	if !p.round() || p.events() == before {
		panic(deadlockMsg)
	}
	return true
}

// events sums what has happened in the block that can let a waiter go on:
// arrivals at, and leaves and breaks of, its barrier and warps, and
// threads finished.
func (p *coPool) events() uint64 {
	b := p.block
	n := b.barrier.Events() + p.finished
	for i := range b.warps {
		n += b.warps[i].events
	}
	return n
}

// round resumes, in thread order, every active coroutine whose thread has
// not finished, each until it waits or returns. It is false if there was
// none.
func (p *coPool) round() bool {
	ran := false
	for _, c := range p.active {
		if !c.busy {
			continue
		}
		ran = true
		p.cur = c
		if _, ok := c.next(); !ok && c.busy {
			// Ended: stopped, or its thread called runtime.Goexit
			// (which next passed on, so this is not reached then).
			c.busy = false
			p.finished++
		}
		p.cur = nil
	}
	return ran
}

// drain runs the active coroutines until every thread has finished. If a
// round changes nothing, those left wait for each other: the first fails
// with deadlockMsg, which unwinds the rest.
func (p *coPool) drain() {
	for {
		before := p.events()
		if !p.round() {
			break
		}
		if p.events() == before {
			for _, c := range p.active {
				if c.busy {
					p.block.fail(c.t.ThreadIdx(), deadlockMsg)
					break
				}
			}
		}
	}
	p.active = nil
}

// stopAll ends the pool's coroutines. A coroutine in the middle of a thread
// (its worker ended with runtime.Goexit) unwinds the thread first.
func (p *coPool) stopAll() {
	for _, c := range p.all {
		c.stop()
	}
	p.all, p.active = nil, nil
}

// failed reports whether a thread of the block has failed.
func (b *block) failed() bool {
	b.errMu.Lock()
	defer b.errMu.Unlock()
	return b.err != nil
}
