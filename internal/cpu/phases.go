package cpu

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// RunPhases runs n resumable tasks in lock-step phases on up to workers
// goroutines of its own (0 means Workers()), as the blocks of a
// cooperative launch run between grid barriers: in each phase the workers
// take the live tasks one at a time and call step for each, which runs
// that task's next phase and reports whether the task has finished; when
// every live task has run its phase, one worker calls between (if not
// nil), with no step running, and the tasks that have not finished run
// their next phase. Everything a phase writes happens before what the
// next phase reads. RunPhases returns when every task has finished.
//
// A step that calls runtime.Goexit ends its worker: its task counts as
// finished, the other workers go on with the phases (every task finishes
// if one is left), and RunPhases returns an error wrapping ErrGoexit that
// names the task. A panic out of step is not recovered.
func RunPhases(n, workers int, step func(task int) (finished bool), between func()) error {
	if n <= 0 {
		return nil
	}
	if workers <= 0 {
		workers = Workers()
	}
	workers = min(workers, n)
	ph := &phases{
		live:    make([]int, n),
		keep:    make([]bool, n),
		parties: workers,
		between: between,
	}
	ph.cond.L = &ph.mu
	for i := range ph.live {
		ph.live[i] = i
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			ph.work(step)
		}()
	}
	wg.Wait()
	return ph.goexit
}

// phases is what RunPhases's workers share. live and keep change only
// while every worker waits at the end of a phase (under mu), and are read
// and written at distinct positions during a phase.
type phases struct {
	live []int  // the tasks of this phase
	keep []bool // keep[k]: live[k] has not finished
	next atomic.Int64

	mu      sync.Mutex
	cond    sync.Cond
	parties int // workers still running
	waiting int // workers at the end of this phase
	gen     uint64
	done    bool
	between func()
	goexit  error // the first worker's runtime.Goexit
}

// work is one worker: it steps tasks until the phase has none left, waits
// for the other workers, and goes on with the next phase until none is
// left.
func (ph *phases) work(step func(int) bool) {
	returned, cur := false, -1
	defer func() {
		if returned {
			return
		}
		if r := recover(); r != nil {
			panic(r)
		}
		ph.leave(cur)
	}()
	for {
		for {
			k := int(ph.next.Add(1)) - 1
			if k >= len(ph.live) {
				break
			}
			cur = k
			ph.keep[k] = !step(ph.live[k])
			cur = -1
		}
		ph.mu.Lock()
		ph.waiting++
		if ph.waiting >= ph.parties {
			ph.endPhase()
		} else {
			for gen := ph.gen; gen == ph.gen; {
				ph.cond.Wait()
			}
		}
		done := ph.done
		ph.mu.Unlock()
		if done {
			returned = true
			return
		}
	}
}

// leave removes a worker that runtime.Goexit ended while it stepped
// position k of the phase (or none, -1): that task has finished, and the
// phase ends if the others were only waiting for this worker.
func (ph *phases) leave(k int) {
	ph.mu.Lock()
	defer ph.mu.Unlock()
	task := -1
	if k >= 0 {
		ph.keep[k] = false
		task = ph.live[k]
	}
	if ph.goexit == nil {
		ph.goexit = fmt.Errorf("block %d: %w", task, ErrGoexit)
	}
	ph.parties--
	if ph.parties > 0 && ph.waiting >= ph.parties {
		ph.endPhase()
	}
}

// endPhase, with mu held and every running worker at the end of the
// phase, keeps the unfinished tasks for the next phase, calls between,
// and releases the workers.
func (ph *phases) endPhase() {
	j := 0
	for k, t := range ph.live {
		if ph.keep[k] {
			ph.live[j] = t
			ph.keep[k] = false
			j++
		}
	}
	ph.live = ph.live[:j]
	ph.next.Store(0)
	if j == 0 {
		ph.done = true
	} else if ph.between != nil {
		ph.between()
	}
	ph.waiting = 0
	ph.gen++
	ph.cond.Broadcast()
}
