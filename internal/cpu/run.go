package cpu

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// ErrGoexit reports a block whose body ended its goroutine with
// runtime.Goexit instead of returning.
var ErrGoexit = errors.New("runtime.Goexit called")

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
// own scratch state (reused block contexts) without locking. The workers are
// goroutines of Run's own, never the caller's, so a body that calls
// runtime.Goexit ends only its worker: Run stops as for an error and
// returns one wrapping ErrGoexit that names the block.
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
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err })
		stopped.Store(true)
	}
	work := func() {
		body := newBody()
		cur, returned := -1, false
		defer func() {
			if returned {
				return
			}
			if r := recover(); r != nil {
				panic(r)
			}
			fail(fmt.Errorf("block %d: %w", cur, ErrGoexit))
		}()
		for !stopped.Load() {
			start := int(next.Add(int64(chunk))) - chunk
			if start >= n {
				break
			}
			end := min(start+chunk, n)
			for cur = start; cur < end; cur++ {
				if err := body(cur); err != nil {
					fail(err)
					returned = true
					return
				}
				if stopped.Load() {
					returned = true
					return
				}
			}
		}
		returned = true
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
	return firstErr
}
