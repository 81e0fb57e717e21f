package cpu

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// checkNoLeak fails t if goroutines started during the test outlive it.
func checkNoLeak(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		for range 200 {
			if runtime.NumGoroutine() <= before {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Errorf("%d goroutines before, %d after: leaked", before, runtime.NumGoroutine())
	})
}

// Every task runs exactly its number of phases, a phase of one task never
// before the previous phase of every other live task has ended, and
// between runs once after every phase but the last, with no step running.
func TestRunPhasesLockStep(t *testing.T) {
	for _, tc := range []struct {
		n, workers, gomaxprocs int
		phases                 func(task int) int // phases of each task
	}{
		{0, 2, 2, func(int) int { return 1 }},
		{1, 1, 1, func(int) int { return 5 }},
		{7, 1, 1, func(i int) int { return 1 + i%3 }},
		{64, 0, 2, func(int) int { return 21 }},
		{64, 2, 1, func(i int) int { return 1 + i%5 }},
		{33, 4, 2, func(i int) int { return 10 - i%10 }},
		{5, 16, 2, func(i int) int { return 3 }}, // more workers than tasks
	} {
		t.Run(fmt.Sprintf("n=%d,workers=%d,procs=%d", tc.n, tc.workers, tc.gomaxprocs), func(t *testing.T) {
			checkNoLeak(t)
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tc.gomaxprocs))
			done := make([]int, tc.n) // phases each task has run
			maxPhases := 0
			for i := range tc.n {
				maxPhases = max(maxPhases, tc.phases(i))
			}
			var phase, betweens int
			var running atomic.Int32
			var errs atomic.Pointer[string]
			fail := func(format string, a ...any) {
				s := fmt.Sprintf(format, a...)
				errs.CompareAndSwap(nil, &s)
			}
			err := RunPhases(tc.n, tc.workers, func(task int) bool {
				running.Add(1)
				defer running.Add(-1)
				// Each step reads phase, written by between: the
				// phases' barrier orders them (the race detector
				// checks it).
				if done[task] != phase {
					fail("task %d runs its phase %d in phase %d", task, done[task], phase)
				}
				done[task]++
				return done[task] == tc.phases(task)
			}, func() {
				if r := running.Load(); r != 0 {
					fail("between with %d steps running", r)
				}
				for i := range tc.n {
					if want := min(phase+1, tc.phases(i)); done[i] != want {
						fail("after phase %d task %d has run %d phases, want %d", phase, i, done[i], want)
					}
				}
				betweens++
				phase++
			})
			if err != nil {
				t.Fatal(err)
			}
			if s := errs.Load(); s != nil {
				t.Fatal(*s)
			}
			for i := range tc.n {
				if done[i] != tc.phases(i) {
					t.Errorf("task %d ran %d phases, want %d", i, done[i], tc.phases(i))
				}
			}
			if want := max(maxPhases-1, 0); betweens != want {
				t.Errorf("between ran %d times, want %d", betweens, want)
			}
		})
	}
}

// A step that calls runtime.Goexit ends its worker only: its task counts
// as finished, the other workers run every other task to its end, and
// RunPhases reports ErrGoexit for that task. With one worker nothing is
// left to run the rest, and RunPhases still returns.
func TestRunPhasesGoexit(t *testing.T) {
	for _, tc := range []struct {
		workers  int
		finished int // tasks that run all their phases
	}{
		{1, 0},
		{2, 7},
		{4, 7},
	} {
		t.Run(fmt.Sprintf("workers=%d", tc.workers), func(t *testing.T) {
			checkNoLeak(t)
			const n, phases = 8, 4
			var ran [n]atomic.Int32
			var finished atomic.Int32
			err := RunPhases(n, tc.workers, func(task int) bool {
				if ran[task].Add(1) == 2 && task == 3 {
					runtime.Goexit()
				}
				if ran[task].Load() == phases {
					finished.Add(1)
					return true
				}
				return false
			}, nil)
			if !errors.Is(err, ErrGoexit) || !strings.Contains(err.Error(), "block 3") {
				t.Fatalf("RunPhases returned %v; want ErrGoexit for block 3", err)
			}
			if tc.workers == 1 {
				if f := finished.Load(); f != 0 {
					t.Errorf("with its one worker ended, %d tasks finished", f)
				}
				return
			}
			if f := finished.Load(); int(f) != tc.finished {
				t.Errorf("%d tasks finished, want %d", f, tc.finished)
			}
			if r := ran[3].Load(); r != 2 {
				t.Errorf("task 3 ran %d phases after its Goexit, want 2", r)
			}
		})
	}
}
