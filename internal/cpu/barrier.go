package cpu

import "sync"

// Barrier is a reusable barrier for the threads of one block, with the
// semantics of PTX's bar.sync on sm_70 and later: it releases when every
// thread that has not yet exited has arrived. A thread that returns from the
// kernel calls Leave, so threads that exit early never deadlock the others.
//
// WaitCount is the reducing form (bar.red): besides waiting, it counts the
// true predicates of the threads that arrive, for CUDA's
// __syncthreads_count, _and and _or.
//
// Break releases all waiters with a false result; a block uses it when one
// of its threads fails, so the rest can unwind instead of waiting forever.
// A waiter whose round was released before the break returns true: it
// passed the barrier, and its next wait fails.
type Barrier struct {
	mu      sync.Mutex
	cond    sync.Cond
	parties int
	waiting int
	gen     uint64
	broken  bool

	// trues and counted accumulate this generation's WaitCount calls;
	// release moves them to lastTrues and lastCounted, where the waiters
	// of the generation just released read them. The next generation
	// cannot release, and so cannot overwrite them, before every one of
	// those waiters has woken and arrived again (or left).
	trues, counted         int
	lastTrues, lastCounted int

	// yield, in a barrier of NewYieldBarrier, replaces parking on cond
	// and the lock; see there.
	yield func() bool
	// events counts arrivals, leaves and breaks (Events).
	events uint64
}

// Events returns how many arrivals, leaves and breaks the barrier has
// seen: a driver of coroutines that finds it unchanged after resuming
// every waiter knows that none of them can go on.
func (b *Barrier) Events() uint64 {
	b.lock()
	defer b.unlock()
	return b.events
}

// NewBarrier returns a barrier for parties threads.
func NewBarrier(parties int) *Barrier {
	b := &Barrier{parties: parties}
	b.cond.L = &b.mu
	return b
}

// NewYieldBarrier returns a barrier for parties threads that run as
// coroutines of one goroutine, one at a time: a waiter calls yield, until
// its round is released or the barrier broken, instead of parking its
// goroutine. yield must let the other threads run (or, called by a
// coroutine, switch back to the one that drives them) and return; it
// returns false to make the waiter give up, whose wait then fails as at a
// broken barrier. The barrier takes no lock: its methods must never run
// at the same time, as coroutines' never do.
func NewYieldBarrier(parties int, yield func() bool) *Barrier {
	return &Barrier{parties: parties, yield: yield}
}

func (b *Barrier) lock() {
	if b.yield == nil {
		b.mu.Lock()
	}
}

func (b *Barrier) unlock() {
	if b.yield == nil {
		b.mu.Unlock()
	}
}

// park waits, with the lock held, for a release or break: on cond, or
// through yield. It is false if yield gave up.
func (b *Barrier) park() bool {
	if b.yield == nil {
		b.cond.Wait()
		return true
	}
	return b.yield()
}

// Reset prepares the barrier for a new block of parties threads.
func (b *Barrier) Reset(parties int) {
	b.lock()
	b.parties, b.waiting, b.broken = parties, 0, false
	b.trues, b.counted = 0, 0
	b.gen++
	b.unlock()
}

// Wait blocks until all live threads have arrived. It returns false if the
// barrier was broken, in which case the caller must stop running.
func (b *Barrier) Wait() bool {
	b.lock()
	defer b.unlock()
	if b.broken {
		return false
	}
	b.waiting++
	b.events++
	if b.waiting >= b.parties {
		b.release()
		return true
	}
	gen := b.gen
	for gen == b.gen && !b.broken {
		if !b.park() {
			return false
		}
	}
	return gen != b.gen // released before the break, if any
}

// WaitLead is Wait that also reports whether the caller was the first of
// this round to arrive: one waiter of every round that releases, which a
// block uses to elect the thread that acts for it (the grid barrier's
// arrival, SyncGrid).
func (b *Barrier) WaitLead() (lead, ok bool) {
	b.lock()
	defer b.unlock()
	if b.broken {
		return false, false
	}
	lead = b.waiting == 0
	b.waiting++
	b.events++
	if b.waiting >= b.parties {
		b.release()
		return lead, true
	}
	gen := b.gen
	for gen == b.gen && !b.broken {
		if !b.park() {
			return lead, false
		}
	}
	return lead, gen != b.gen
}

// WaitCount is Wait for a thread that brings a predicate: it blocks until
// all live threads have arrived and returns how many of the threads that
// arrived through WaitCount in this round passed true, and how many
// arrived through WaitCount. Threads that left (returned from the kernel)
// count for neither. ok is false if the barrier was broken, in which case
// the caller must stop running.
func (b *Barrier) WaitCount(pred bool) (trues, arrived int, ok bool) {
	b.lock()
	defer b.unlock()
	if b.broken {
		return 0, 0, false
	}
	b.counted++
	if pred {
		b.trues++
	}
	b.waiting++
	b.events++
	if b.waiting >= b.parties {
		b.release()
		return b.lastTrues, b.lastCounted, true
	}
	gen := b.gen
	for gen == b.gen && !b.broken {
		if !b.park() {
			return 0, 0, false
		}
	}
	if gen == b.gen {
		return 0, 0, false
	}
	return b.lastTrues, b.lastCounted, true
}

// Leave removes an exiting thread from the barrier, releasing the others if
// they were only waiting for it.
func (b *Barrier) Leave() {
	b.lock()
	defer b.unlock()
	b.parties--
	b.events++
	if b.waiting > 0 && b.waiting >= b.parties {
		b.release()
	}
}

// Break wakes every waiter with a false result and makes later waits fail
// at once.
func (b *Barrier) Break() {
	b.lock()
	b.broken = true
	b.events++
	if b.yield == nil {
		b.cond.Broadcast()
	}
	b.unlock()
}

func (b *Barrier) release() {
	if b.counted > 0 {
		// Only a reducing round pays for publishing its result; the
		// waiters of a plain Wait never read it.
		b.lastTrues, b.lastCounted = b.trues, b.counted
		b.trues, b.counted = 0, 0
	}
	b.waiting = 0
	b.gen++
	if b.yield == nil {
		b.cond.Broadcast()
	}
}
