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
	return RunSpans(n, workers, func() func(*Span) error {
		body := newBody()
		return func(s *Span) error { return s.Each(body) }
	})
}

// A Span is a run of consecutive blocks, [Lo, Hi), that RunSpans hands a
// body at once.
type Span struct {
	Lo, Hi int
	// Cur is the block the body is running, which the body keeps
	// current, so that a runtime.Goexit names its block.
	Cur int
	// Stopped becomes true after any body's error; a body should then
	// stop soon, at the end of the block it is running.
	Stopped *atomic.Bool
}

// Each calls body for the span's blocks in order, keeping Cur current,
// until body fails (Each returns its error) or, after a block, the run
// has stopped.
func (s *Span) Each(body func(block int) error) error {
	for s.Cur = s.Lo; s.Cur < s.Hi; s.Cur++ {
		if err := body(s.Cur); err != nil {
			return err
		}
		if s.Stopped.Load() {
			return nil
		}
	}
	return nil
}

// RunSpans is Run for a body that takes a run of consecutive blocks at a
// time (a Span), so that it can step from one block to the next without
// returning: the CPU backend's row loops run on from a block's last row
// to the next block's first. Spans are handed out dynamically, as Run's
// chunks are.
func RunSpans(n, workers int, newBody func() func(*Span) error) error {
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
		span, returned := &Span{Cur: -1, Stopped: &stopped}, false
		defer func() {
			if returned {
				return
			}
			if r := recover(); r != nil {
				panic(r)
			}
			fail(fmt.Errorf("block %d: %w", span.Cur, ErrGoexit))
		}()
		for !stopped.Load() {
			start := int(next.Add(int64(chunk))) - chunk
			if start >= n {
				break
			}
			span.Lo, span.Hi, span.Cur = start, min(start+chunk, n), start
			if err := body(span); err != nil {
				fail(err)
				returned = true
				return
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
