package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is the number of worker goroutines Run uses when asked for 0:
// one per logical CPU that Go may use.
func Workers() int { return runtime.GOMAXPROCS(0) }

// Run calls body for every block index in [0, n), spread over up to workers
// goroutines (0 means Workers()). Blocks are handed out dynamically in small
// chunks, so grids whose blocks do uneven work still keep every worker busy.
// After the first error no further blocks are started; Run waits for the
// blocks already running and returns that error.
//
// newBody is called once per worker goroutine, so each worker can keep its
// own scratch state (reused block contexts) without locking.
func Run(n, workers int, newBody func() func(block int) error) error {
	if n <= 0 {
		return nil
	}
	if workers <= 0 {
		workers = Workers()
	}
	if workers > n {
		workers = n
	}
	chunk := n / (workers * 32)
	if chunk < 1 {
		chunk = 1
	}
	if chunk > 1024 {
		chunk = 1024
	}

	var (
		next     atomic.Int64
		stopped  atomic.Bool
		errOnce  sync.Once
		firstErr error
	)
	work := func() {
		body := newBody()
		for !stopped.Load() {
			start := int(next.Add(int64(chunk))) - chunk
			if start >= n {
				return
			}
			end := min(start+chunk, n)
			for b := start; b < end; b++ {
				if err := body(b); err != nil {
					errOnce.Do(func() { firstErr = err })
					stopped.Store(true)
					return
				}
				if stopped.Load() {
					return
				}
			}
		}
	}
	if workers == 1 {
		work()
		return firstErr
	}
	var wg sync.WaitGroup
	wg.Add(workers - 1)
	for range workers - 1 {
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	return firstErr
}
