package cpu

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func TestRunVisitsEveryBlockOnce(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 4}, {1, 4}, {7, 1}, {1000, 2}, {100003, 3}} {
		t.Run(fmt.Sprintf("n=%d,workers=%d", tc.n, tc.workers), func(t *testing.T) {
			seen := make([]atomic.Int32, tc.n)
			err := Run(tc.n, tc.workers, func() func(int) error {
				return func(b int) error { seen[b].Add(1); return nil }
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("block %d ran %d times", i, c)
				}
			}
		})
	}
}

func TestRunStopsAfterError(t *testing.T) {
	boom := errors.New("boom")
	var ran atomic.Int64
	err := Run(1_000_000, 2, func() func(int) error {
		return func(b int) error {
			ran.Add(1)
			if b == 10 {
				return boom
			}
			return nil
		}
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Run returned %v, want %v", err, boom)
	}
	if n := ran.Load(); n > 100_000 {
		t.Errorf("%d blocks ran after the error; Run should stop early", n)
	}
}

func TestBarrierReleasesOnlyWhenAllLiveThreadsArrive(t *testing.T) {
	const n = 64
	b := NewBarrier(n)
	var phase [3]atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer b.Leave()
			for p := range phase {
				phase[p].Add(1)
				if !b.Wait() {
					t.Error("barrier broken")
					return
				}
				// Everyone must have finished phase p before anyone passes.
				if got := phase[p].Load(); got < int32(n-exited(p)) {
					t.Errorf("thread %d passed phase %d after only %d arrivals", i, p, got)
				}
				if p == 1 && i%2 == 1 {
					return // odd threads exit early: the others must not deadlock
				}
			}
		}()
	}
	wg.Wait()
}

// exited is how many threads of TestBarrierReleasesOnlyWhenAllLiveThreadsArrive
// have left before phase p.
func exited(p int) int {
	if p == 2 {
		return 32
	}
	return 0
}

func TestBarrierBreakWakesWaiters(t *testing.T) {
	b := NewBarrier(3)
	res := make(chan bool, 2)
	for range 2 {
		go func() { res <- b.Wait() }()
	}
	b.Break()
	if <-res || <-res {
		t.Fatal("Wait returned true on a broken barrier")
	}
	if b.Wait() {
		t.Fatal("Wait after Break returned true")
	}
	b.Reset(1)
	if !b.Wait() {
		t.Fatal("Wait after Reset failed")
	}
}

// A body that calls runtime.Goexit ends only its worker: Run returns an
// error wrapping ErrGoexit that names the block, from a goroutine that is
// not the caller's.
func TestRunReportsGoexit(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			err = Run(16, workers, func() func(int) error {
				return func(b int) error {
					if b == 5 {
						runtime.Goexit()
					}
					return nil
				}
			})
		}()
		<-done
		if !errors.Is(err, ErrGoexit) || !strings.Contains(err.Error(), "block 5") {
			t.Errorf("%d workers: %v; want ErrGoexit naming block 5", workers, err)
		}
	}
}
