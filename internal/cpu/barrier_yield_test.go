package cpu

import (
	"iter"
	"testing"

	"github.com/nugo-dev/nugo/internal/cputime"
)

// coroutines runs body(b, i) for i in [0, n) as coroutines of the calling
// goroutine, each resumed in turn (rounds) until all have returned, on a
// barrier of NewYieldBarrier whose waiters yield to the driver; it returns
// the number of rounds.
func coroutines(n int, body func(b *Barrier, i int)) int {
	var cur func(struct{}) bool
	b := NewYieldBarrier(n, func() bool { return cur(struct{}{}) })
	type co struct {
		next  func() (struct{}, bool)
		stop  func()
		yield func(struct{}) bool
	}
	cos := make([]*co, n)
	for i := range cos {
		c := &co{}
		c.next, c.stop = iter.Pull(func(yield func(struct{}) bool) {
			c.yield = yield
			cur = yield
			body(b, i)
		})
		cos[i] = c
		defer c.stop()
	}
	rounds := 0
	for live := n; live > 0; rounds++ {
		live = 0
		for i, c := range cos {
			if c == nil {
				continue
			}
			cur = c.yield
			if _, ok := c.next(); ok {
				live++
			} else {
				cos[i] = nil // body returned
			}
		}
	}
	return rounds
}

// In a barrier of NewYieldBarrier, waiters yield instead of parking: coroutines
// of one goroutine meet at it with the same results as goroutines, threads
// that leave count for nothing, and a waiter whose yield gives up fails.
func TestBarrierYield(t *testing.T) {
	const rounds = 12
	for _, tc := range []struct {
		name      string
		n         int
		exitAfter func(i int) int
		pred      func(i, r int) bool
	}{
		{"all stay", 40, stays, func(i, r int) bool { return (i+r)%3 == 0 }},
		{"one thread", 1, stays, func(i, r int) bool { return r%2 == 0 }},
		{"threads leave between rounds", 33, func(i int) int { return i % 7 * 2 }, func(i, r int) bool { return i%2 == 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantTrues, wantArrived := make([]int, rounds), make([]int, rounds)
			for i := range tc.n {
				for r := range min(tc.exitAfter(i), rounds) {
					wantArrived[r]++
					if tc.pred(i, r) {
						wantTrues[r]++
					}
				}
			}
			leads := make([]int, rounds)
			coroutines(tc.n, func(b *Barrier, i int) {
				defer b.Leave()
				for r := range min(tc.exitAfter(i), rounds) {
					switch r % 3 {
					case 0:
						trues, arrived, ok := b.WaitCount(tc.pred(i, r))
						if !ok || trues != wantTrues[r] || arrived != wantArrived[r] {
							t.Errorf("thread %d round %d: got (%d, %d, %v), want (%d, %d, true)", i, r, trues, arrived, ok, wantTrues[r], wantArrived[r])
						}
					case 1:
						if !b.Wait() {
							t.Errorf("thread %d round %d: Wait failed", i, r)
						}
					case 2:
						lead, ok := b.WaitLead()
						if !ok {
							t.Errorf("thread %d round %d: WaitLead failed", i, r)
						}
						if lead {
							leads[r]++
						}
					}
				}
			})
			for r := 2; r < rounds; r += 3 {
				if wantArrived[r] > 0 && leads[r] != 1 {
					t.Errorf("round %d had %d leads, want 1", r, leads[r])
				}
			}
		})
	}
}

// A waiter whose yield returns false gives up: each form of wait fails.
func TestBarrierYieldGivesUp(t *testing.T) {
	for _, tc := range []struct {
		name string
		wait func(b *Barrier) bool
	}{
		{"Wait", (*Barrier).Wait},
		{"WaitLead", func(b *Barrier) bool { _, ok := b.WaitLead(); return ok }},
		{"WaitCount", func(b *Barrier) bool { _, _, ok := b.WaitCount(true); return ok }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			yields := 0
			b := NewYieldBarrier(2, func() bool { yields++; return false })
			if tc.wait(b) {
				t.Error("wait succeeded with the other thread absent and yield giving up")
			}
			if yields != 1 {
				t.Errorf("yield called %d times, want 1", yields)
			}
		})
	}
}

// BenchmarkBarrierCoroutines is BenchmarkBarrier's round with the block's
// 128 threads as coroutines of one goroutine, each yielding to the driver
// when it waits (the cpu backend's goroutine path since issue 18).
func BenchmarkBarrierCoroutines(b *testing.B) {
	const n = 128
	for _, bc := range []struct {
		name string
		wait func(br *Barrier, i int) bool
	}{
		{"Wait", func(br *Barrier, i int) bool { return br.Wait() }},
		{"WaitCount", func(br *Barrier, i int) bool { _, _, ok := br.WaitCount(i%2 == 0); return ok }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rounds := b.N
			b.ResetTimer()
			cpu0 := cputime.Process()
			defer cputime.Report(b, cpu0)
			coroutines(n, func(br *Barrier, i int) {
				defer br.Leave()
				for range rounds {
					if !bc.wait(br, i) {
						b.Error("barrier broken")
						return
					}
				}
			})
		})
	}
}
