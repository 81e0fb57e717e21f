package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nugo-dev/nugo/internal/driver"
)

// gpuStream is a CUDA stream with the host-side work that completes at its
// next Synchronize: copies out of staging buffers, frees, debug record checks.
type gpuStream struct {
	be  *gpuBackend
	dev *gpuDevice
	h   driver.Stream

	mu      sync.Mutex
	pending []finisher
	kernel  *gpuKernel // the last kernel launched on the stream since its last Synchronize
}

// finisher completes queued work after the stream has synchronized; failed
// says whether the stream's work failed (its results are not to be used).
type finisher func(api driver.API, failed bool) error

func (g *gpuBackend) newStream() (streamImpl, error) {
	d := g.current()
	var h driver.Stream
	err := d.do(func(api driver.API) error {
		var err error
		h, err = api.StreamCreate(driver.StreamDefault)
		return err
	})
	if err != nil {
		return nil, err
	}
	s := &gpuStream{be: g, dev: d, h: h}
	runtime.AddCleanup(s, destroyStream, streamHandle{d, h})
	return s, nil
}

type streamHandle struct {
	dev *gpuDevice
	h   driver.Stream
}

func destroyStream(s streamHandle) {
	_ = s.dev.do(func(api driver.API) error { return api.StreamDestroy(s.h) })
}

// defer_ queues f for the next Synchronize and marks the stream busy, so
// that the nil stream's operations finish it first.
func (s *gpuStream) defer_(f finisher) {
	s.mu.Lock()
	s.pending = append(s.pending, f)
	s.mu.Unlock()
	s.be.mu.Lock()
	s.be.busy[s] = struct{}{}
	s.be.mu.Unlock()
}

// releaseTemps queues, for the next Synchronize, the copy of each staging
// buffer into its host slice (when copyBack and the stream's work succeeded)
// and the release of the staging buffers and the temporary device memory.
func (s *gpuStream) releaseTemps(temps []hostTemp, copyBack bool) {
	for _, t := range temps {
		s.defer_(func(api driver.API, failed bool) error {
			var err error
			switch {
			case t.pinned:
				runtime.KeepAlive(t.host) // the copies went straight to and from it
			case t.staging != nil:
				if copyBack && !failed {
					copy(t.host, pinnedBytes(t.staging, len(t.host)))
				}
				err = api.MemFreeHost(t.staging)
			}
			if ferr := api.MemFree(t.alloc); err == nil {
				err = ferr
			}
			return err
		})
	}
}

// synchronize waits for the stream, then runs the finishers queued before
// the wait, and returns the first error.
func (s *gpuStream) synchronize() error {
	s.mu.Lock()
	pend, kernel := s.pending, s.kernel
	s.pending, s.kernel = nil, nil
	s.mu.Unlock()
	err := s.dev.do(func(api driver.API) error {
		serr := awaiting(kernel, api.StreamSynchronize(s.h))
		first := serr
		for _, f := range pend {
			if err := f(api, serr != nil); err != nil && first == nil {
				first = err
			}
		}
		return first
	})
	s.mu.Lock()
	idle := len(s.pending) == 0
	s.mu.Unlock()
	if idle {
		s.be.mu.Lock()
		delete(s.be.busy, s)
		s.be.mu.Unlock()
	}
	return err
}

// launched notes kernel as the last launched on the stream, the one a
// fault reported by the next Synchronize is blamed on.
func (s *gpuStream) launched(kernel *gpuKernel) {
	s.mu.Lock()
	s.kernel = kernel
	s.mu.Unlock()
}

// gpuEvent is a CUDA event with timing.
type gpuEvent struct {
	dev      *gpuDevice
	h        driver.Event
	recorded atomic.Bool
}

func (g *gpuBackend) newEvent() (eventImpl, error) {
	d := g.current()
	var h driver.Event
	err := d.do(func(api driver.API) error {
		var err error
		h, err = api.EventCreate(driver.EventDefault)
		return err
	})
	if err != nil {
		return nil, err
	}
	e := &gpuEvent{dev: d, h: h}
	runtime.AddCleanup(e, destroyEvent, eventHandle{d, h})
	return e, nil
}

type eventHandle struct {
	dev *gpuDevice
	h   driver.Event
}

func destroyEvent(e eventHandle) {
	_ = e.dev.do(func(api driver.API) error { return api.EventDestroy(e.h) })
}

func (g *gpuBackend) record(ei eventImpl, s *Stream) error {
	e, ok := ei.(*gpuEvent)
	if !ok || e.dev.be != g {
		return errors.New("event does not belong to this GPU backend")
	}
	var h driver.Stream
	if s != nil {
		gs, err := g.gpuStreamOn(s, e.dev)
		if err != nil {
			return err
		}
		h = gs.h
	}
	err := e.dev.do(func(api driver.API) error { return api.EventRecord(e.h, h) })
	if err != nil {
		return err
	}
	e.recorded.Store(true)
	return nil
}

func (e *gpuEvent) synchronize() error {
	if !e.recorded.Load() {
		return errors.New("event was never recorded")
	}
	return e.dev.do(func(api driver.API) error { return api.EventSynchronize(e.h) })
}

func (e *gpuEvent) elapsedSince(start eventImpl) (time.Duration, error) {
	s, ok := start.(*gpuEvent)
	if !ok || s.dev != e.dev {
		return 0, errors.New("events belong to different backends or devices")
	}
	if err := s.synchronize(); err != nil {
		return 0, fmt.Errorf("start %w", err)
	}
	if err := e.synchronize(); err != nil {
		return 0, fmt.Errorf("end %w", err)
	}
	var ms float32
	err := e.dev.do(func(api driver.API) error {
		var err error
		ms, err = api.EventElapsedTime(s.h, e.h)
		return err
	})
	if err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}
