package cuda

import (
	"errors"
	"fmt"
	"time"
)

// GridFor returns the grid of blocks of the given size that covers size
// threads in each dimension, rounding up: what Numba programs write as
// (n + tpb - 1) // tpb. The kernel checks its bounds (t.Grid1() < n), since
// the last blocks may reach past the data. A dimension of size 0 gives a
// grid of 0 there, which Launch refuses with the figures.
//
//	block := cuda.Dim2(16, 16)
//	err := k.Launch(cuda.GridFor(cuda.Dim2(cols, rows), block), block, a)
func GridFor(size, block Dim3) Dim3 {
	cover := func(n, b int) int {
		if b <= 0 || n <= 0 {
			return 0
		}
		return (n + b - 1) / b
	}
	return Dim3{cover(size.X, block.X), cover(size.Y, block.Y), cover(size.Z, block.Z)}
}

// Time runs queue, which queues work on stream s (nil: the default stream),
// between two events recorded on s, waits for s, and returns the device
// time between the events: the time the device spent on that work, not
// the time the host waited. The error is queue's, the stream's, or the
// events'.
//
//	elapsed, err := cuda.Time(s, func() error { return k.LaunchWith(cfg, d) })
func Time(s *Stream, queue func() error) (time.Duration, error) {
	start, err := NewEvent()
	if err != nil {
		return 0, fmt.Errorf("Time: %w", err)
	}
	end, err := NewEvent()
	if err != nil {
		return 0, fmt.Errorf("Time: %w", err)
	}
	if err := start.Record(s); err != nil {
		return 0, fmt.Errorf("Time: %w", err)
	}
	qerr := queue()
	if err := errors.Join(qerr, end.Record(s), s.Synchronize()); err != nil {
		return 0, err
	}
	return ElapsedTime(start, end)
}

// Must returns v, or panics with err when it is not nil. It is for
// examples, tests and programs whose only answer to an error is to stop
// (as regexp.MustCompile): d := cuda.Must(cuda.ToDevice(x)). nugo's own
// functions return errors and never panic; a program that can recover
// should check them.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Check panics with err when it is not nil: Must for calls that return
// only an error, as cuda.Check(k.Launch(grid, block, x)). The same advice
// applies.
func Check(err error) {
	if err != nil {
		panic(err)
	}
}
