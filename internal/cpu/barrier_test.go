package cpu

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nugo-dev/nugo/internal/cputime"
)

// TestBarrierWaitCount runs rounds of WaitCount in which every live thread
// brings a predicate that depends on its index and the round; each must get
// back the number of true predicates among the threads still running and
// that number of threads. Threads that leave (before the first round or
// between rounds) count for neither and block no one.
func TestBarrierWaitCount(t *testing.T) {
	const rounds = 40
	for _, tc := range []struct {
		name string
		n    int
		// exitAfter is the number of rounds thread i takes part in
		// before it leaves; rounds for a thread that stays.
		exitAfter func(i int) int
		pred      func(i, r int) bool
	}{
		{"all true", 37, stays, func(i, r int) bool { return true }},
		{"all false", 37, stays, func(i, r int) bool { return false }},
		{"even threads", 45, stays, func(i, r int) bool { return i%2 == 0 }},
		{"varies by round", 64, stays, func(i, r int) bool { return (i+r)%3 == 0 }},
		{"one thread", 1, stays, func(i, r int) bool { return r%2 == 0 }},
		{"some never arrive", 50, func(i int) int {
			if i%5 == 0 {
				return 0
			}
			return rounds
		}, func(i, r int) bool { return i%2 == 1 }},
		{"threads leave between rounds", 70, func(i int) int { return i % 13 * 3 }, func(i, r int) bool { return (i*7+r)%4 != 0 }},
		{"only the true ones stay", 33, func(i int) int {
			if i%3 == 0 {
				return rounds
			}
			return 1
		}, func(i, r int) bool { return i%3 == 0 || r == 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The expected result of each round, from the predicates of
			// the threads that take part in it.
			wantTrues, wantArrived := make([]int, rounds), make([]int, rounds)
			for i := range tc.n {
				for r := range min(tc.exitAfter(i), rounds) {
					wantArrived[r]++
					if tc.pred(i, r) {
						wantTrues[r]++
					}
				}
			}
			b := NewBarrier(tc.n)
			var wg sync.WaitGroup
			for i := range tc.n {
				wg.Go(func() {
					defer b.Leave()
					for r := range min(tc.exitAfter(i), rounds) {
						trues, arrived, ok := b.WaitCount(tc.pred(i, r))
						if !ok {
							t.Errorf("thread %d round %d: barrier broken", i, r)
							return
						}
						if trues != wantTrues[r] || arrived != wantArrived[r] {
							t.Errorf("thread %d round %d: got %d true of %d, want %d of %d",
								i, r, trues, arrived, wantTrues[r], wantArrived[r])
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

func stays(int) int { return 1 << 30 }

// Plain Waits between reducing rounds neither count nor disturb the next
// round's count, and a reducing round after a plain one starts from zero.
func TestBarrierWaitCountAfterWait(t *testing.T) {
	const n = 20
	b := NewBarrier(n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			defer b.Leave()
			for r := range 10 {
				if r%2 == 0 {
					if !b.Wait() {
						t.Error("barrier broken")
						return
					}
					continue
				}
				trues, arrived, ok := b.WaitCount(i < r)
				if !ok || trues != r || arrived != n {
					t.Errorf("thread %d round %d: got (%d, %d, %v), want (%d, %d, true)", i, r, trues, arrived, ok, r, n)
				}
			}
		})
	}
	wg.Wait()
}

func TestBarrierBreakWakesWaitCount(t *testing.T) {
	b := NewBarrier(3)
	res := make(chan bool, 2)
	for range 2 {
		go func() {
			_, _, ok := b.WaitCount(true)
			res <- ok
		}()
	}
	b.Break()
	if <-res || <-res {
		t.Fatal("WaitCount returned ok on a broken barrier")
	}
	if _, _, ok := b.WaitCount(true); ok {
		t.Fatal("WaitCount after Break returned ok")
	}
	b.Reset(1)
	if trues, arrived, ok := b.WaitCount(true); !ok || trues != 1 || arrived != 1 {
		t.Fatalf("WaitCount after Reset: (%d, %d, %v), want (1, 1, true)", trues, arrived, ok)
	}
}

// TestBarrierWaitLead: in every round exactly one of the threads that
// wait is told it arrived first, including rounds that a leaving thread
// releases and rounds of a single thread.
func TestBarrierWaitLead(t *testing.T) {
	cases := []struct {
		name    string
		threads int
		leave   int // threads that leave (before the first round) instead of waiting
	}{
		{"eight", 8, 0},
		{"one", 1, 0},
		{"released by leaving threads", 6, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const rounds = 50
			b := NewBarrier(c.threads)
			var leads [rounds]atomic.Int32
			var wg sync.WaitGroup
			for range c.threads - c.leave {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for r := range rounds {
						lead, ok := b.WaitLead()
						if !ok {
							t.Error("WaitLead returned false")
							return
						}
						if lead {
							leads[r].Add(1)
						}
					}
				}()
			}
			for range c.leave {
				b.Leave()
			}
			wg.Wait()
			for r := range leads {
				if n := leads[r].Load(); n != 1 {
					t.Fatalf("round %d had %d leads, want 1", r, n)
				}
			}
		})
	}
	b := NewBarrier(2)
	b.Break()
	if lead, ok := b.WaitLead(); lead || ok {
		t.Errorf("WaitLead on a broken barrier = %v, %v", lead, ok)
	}
}

// BenchmarkBarrier measures one round of a block of 128 goroutines, plain
// and reducing, so that adding the reduction can be seen not to slow the
// plain barrier down.
func BenchmarkBarrier(b *testing.B) {
	const n = 128
	for _, bc := range []struct {
		name string
		wait func(br *Barrier, i int) bool
	}{
		{"Wait", func(br *Barrier, i int) bool { return br.Wait() }},
		{"WaitCount", func(br *Barrier, i int) bool { _, _, ok := br.WaitCount(i%2 == 0); return ok }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			br := NewBarrier(n)
			rounds := b.N
			var wg sync.WaitGroup
			b.ResetTimer()
			cpu0 := cputime.Process()
			defer cputime.Report(b, cpu0)
			for i := range n {
				wg.Go(func() {
					defer br.Leave()
					for range rounds {
						if !bc.wait(br, i) {
							return
						}
					}
				})
			}
			wg.Wait()
		})
	}
}
