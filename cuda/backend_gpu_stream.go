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
// A callback (AddCallback) takes over the host-side work queued before it,
// finishing it when the stream reaches the callback's event.
type gpuStream struct {
	be  *gpuBackend
	dev *gpuDevice
	h   driver.Stream

	mu      sync.Mutex
	pending []finisher
	kernel  *gpuKernel // the last kernel launched on the stream since its last Synchronize (or callback)
	err     error      // the first error callbacks met since the last Synchronize
	// gate is closed when the latest callback has returned (nil: none was
	// added). Everything that queues work on the stream waits for it first
	// (holdForCallbacks): CUDA would block later work on the device, but
	// a callback here is a goroutine, which the GPU cannot wait for.
	gate chan struct{}
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
	s := &gpuStream{be: g.top, dev: d, h: h}
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
				if copyBack && !failed && !t.noOut {
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

// releaseCounter queues, for the next Synchronize, the release of a grid
// barrier's counter (none when 0).
func (s *gpuStream) releaseCounter(counter driver.DevicePtr) {
	if counter != 0 {
		s.defer_(func(api driver.API, _ bool) error { return api.MemFree(counter) })
	}
}

// synchronize waits for the stream's callbacks and the stream, then runs
// the finishers queued since, and returns the first error.
func (s *gpuStream) synchronize() error {
	s.holdForCallbacks()
	s.mu.Lock()
	pend, kernel := s.pending, s.kernel
	s.pending, s.kernel = nil, nil
	s.mu.Unlock()
	err := s.dev.do(func(api driver.API) error { return finish(api, awaiting(kernel, api.StreamSynchronize(s.h)), pend) })
	s.be.flushPrintf()
	s.mu.Lock()
	if s.err != nil {
		err = s.err // met by a callback's wait, before this one's
	}
	s.err = nil
	idle := len(s.pending) == 0 && gateOpen(s.gate)
	s.mu.Unlock()
	if idle {
		s.be.mu.Lock()
		delete(s.be.busy, s)
		s.be.mu.Unlock()
	}
	return err
}

// finish runs the finishers of work the stream has passed, which failed
// if waitErr is not nil, and returns the first error.
func finish(api driver.API, waitErr error, pend []finisher) error {
	first := waitErr
	for _, f := range pend {
		if err := f(api, waitErr != nil); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func gateOpen(gate chan struct{}) bool {
	if gate == nil {
		return true
	}
	select {
	case <-gate:
		return true
	default:
		return false
	}
}

// holdForCallbacks waits until the stream's latest callback has returned:
// every call that queues work on the stream makes it first.
func (s *gpuStream) holdForCallbacks() {
	s.mu.Lock()
	gate := s.gate
	s.mu.Unlock()
	if gate != nil {
		<-gate
	}
}

// done asks the driver whether the stream's work has completed, once no
// callback is pending. A sticky error (a kernel fault) counts as done:
// synchronize, which Query calls next, reports it, blamed on the kernel.
func (s *gpuStream) done() (bool, error) {
	s.mu.Lock()
	open := gateOpen(s.gate)
	s.mu.Unlock()
	if !open {
		return false, nil
	}
	var done bool
	err := s.dev.do(func(api driver.API) error {
		d, err := api.StreamQuery(s.h)
		if err != nil && driver.Code(err).Sticky() {
			done = true
			return nil
		}
		done = d
		return err
	})
	return done, err
}

// waitEvent queues cuStreamWaitEvent; an event never recorded needs no call
// (CUDA would treat it as no wait).
func (s *gpuStream) waitEvent(ei eventImpl) error {
	e, ok := ei.(*gpuEvent)
	if !ok || e.dev.be != s.be {
		return errors.New("event does not belong to this GPU backend")
	}
	s.holdForCallbacks()
	if !e.recorded.Load() {
		return nil
	}
	return s.dev.do(func(api driver.API) error { return api.StreamWaitEvent(s.h, e.h) })
}

// addCallback records an event for fn and starts a goroutine that waits
// for it, finishes the work queued before it, and runs fn. The new gate
// is set before the event is recorded, so that no work queued after the
// event escapes it.
func (s *gpuStream) addCallback(fn func(error)) error {
	gate := make(chan struct{})
	s.mu.Lock()
	prev := s.gate
	s.gate = gate
	s.mu.Unlock()
	if prev != nil {
		<-prev // callbacks run in order, each after the one before has returned
	}
	var ev driver.Event
	err := s.dev.do(func(api driver.API) error {
		var err error
		if ev, err = api.EventCreate(driver.EventDisableTiming); err != nil {
			return err
		}
		if err = api.EventRecord(ev, s.h); err != nil {
			_ = api.EventDestroy(ev)
		}
		return err
	})
	if err != nil {
		close(gate)
		return err
	}
	s.mu.Lock()
	pend, kernel := s.pending, s.kernel
	s.pending, s.kernel = nil, nil
	s.mu.Unlock()
	s.be.mu.Lock()
	s.be.busy[s] = struct{}{} // the nil stream's operations wait for fn too
	s.be.mu.Unlock()
	go s.runCallback(ev, pend, kernel, fn, gate)
	return nil
}

func (s *gpuStream) runCallback(ev driver.Event, pend []finisher, kernel *gpuKernel, fn func(error), gate chan struct{}) {
	defer close(gate)
	err := s.dev.do(func(api driver.API) error {
		werr := awaiting(kernel, api.EventSynchronize(ev))
		err := finish(api, werr, pend)
		if derr := api.EventDestroy(ev); err == nil {
			err = derr
		}
		return err
	})
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	err = s.err
	s.mu.Unlock()
	if perr := callback(fn, err); perr != nil {
		s.mu.Lock()
		s.err = withPanic(s.err, perr)
		s.mu.Unlock()
	}
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
	if !ok || e.dev.be != g.top {
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
	err := e.dev.do(func(api driver.API) error { return api.EventSynchronize(e.h) })
	e.dev.be.flushPrintf()
	return err
}

func (e *gpuEvent) query() (bool, error) {
	if !e.recorded.Load() {
		return false, errors.New("event was never recorded")
	}
	var done bool
	err := e.dev.do(func(api driver.API) error {
		var err error
		done, err = api.EventQuery(e.h)
		return err
	})
	return done, err
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
