package cpu

import "sync"

// Barrier is a reusable barrier for the threads of one block, with the
// semantics of PTX's bar.sync on sm_70 and later: it releases when every
// thread that has not yet exited has arrived. A thread that returns from the
// kernel calls Leave, so threads that exit early never deadlock the others.
//
// Break releases all waiters with a false result; a block uses it when one
// of its threads fails, so the rest can unwind instead of waiting forever.
type Barrier struct {
	mu      sync.Mutex
	cond    sync.Cond
	parties int
	waiting int
	gen     uint64
	broken  bool
}

// NewBarrier returns a barrier for parties threads.
func NewBarrier(parties int) *Barrier {
	b := &Barrier{parties: parties}
	b.cond.L = &b.mu
	return b
}

// Reset prepares the barrier for a new block of parties threads.
func (b *Barrier) Reset(parties int) {
	b.mu.Lock()
	b.parties, b.waiting, b.broken = parties, 0, false
	b.gen++
	b.mu.Unlock()
}

// Wait blocks until all live threads have arrived. It returns false if the
// barrier was broken, in which case the caller must stop running.
func (b *Barrier) Wait() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.broken {
		return false
	}
	b.waiting++
	if b.waiting >= b.parties {
		b.release()
		return true
	}
	gen := b.gen
	for gen == b.gen && !b.broken {
		b.cond.Wait()
	}
	return !b.broken
}

// Leave removes an exiting thread from the barrier, releasing the others if
// they were only waiting for it.
func (b *Barrier) Leave() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.parties--
	if b.waiting > 0 && b.waiting >= b.parties {
		b.release()
	}
}

// Break wakes every waiter with a false result and makes later waits fail
// at once.
func (b *Barrier) Break() {
	b.mu.Lock()
	b.broken = true
	b.cond.Broadcast()
	b.mu.Unlock()
}

func (b *Barrier) release() {
	b.waiting = 0
	b.gen++
	b.cond.Broadcast()
}
