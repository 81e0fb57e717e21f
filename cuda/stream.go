package cuda

import (
	"errors"
	"fmt"
	"runtime/debug"
	"time"
)

// Stream is a queue of device work: copies and launches on one stream run
// in the order they were queued; work on different streams may overlap.
// A nil *Stream is the default stream, on which every operation is
// synchronous and waits first for the work queued on all other streams (as
// CUDA's legacy default stream does).
type Stream struct {
	be   backend
	impl streamImpl
}

// streamImpl is a backend's stream.
type streamImpl interface {
	// synchronize waits for the stream's work (callbacks included), finishes
	// it on the host, and returns and clears the stream's first error.
	synchronize() error
	// done says, without waiting, whether all queued work (callbacks
	// included) has completed; it neither finishes that work on the host
	// nor clears the stream's error (Query does both through synchronize).
	done() (bool, error)
	// waitEvent makes work queued after it wait for e's latest record.
	waitEvent(e eventImpl) error
	// addCallback queues fn (see AddCallback).
	addCallback(fn func(error)) error
}

// NewStream makes a stream on the current backend.
func NewStream() (*Stream, error) {
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("NewStream: %w", err)
	}
	return newStream(be)
}

// newStream makes a stream on be's device.
func newStream(be backend) (*Stream, error) {
	be = be.bound()
	impl, err := be.newStream()
	if err != nil {
		return nil, fmt.Errorf("NewStream: %w", err)
	}
	return &Stream{be: be, impl: impl}, nil
}

// Synchronize waits until all work queued on the stream has finished,
// callbacks (AddCallback) included, and returns the first error that work
// met since the last Synchronize (or Query that reported the stream done).
func (s *Stream) Synchronize() error {
	if s == nil || s.impl == nil {
		return Synchronize()
	}
	return s.impl.synchronize()
}

// Query reports, without waiting, whether all work queued on the stream
// has completed: copies, launches, recorded events, waits and callbacks
// (Numba's stream and event query; CUDA's cuStreamQuery, whose
// CUDA_ERROR_NOT_READY is the answer false here, not an error).
//
// A Query that returns true has done what Synchronize does, without
// having had to wait: the results of queued copies and launches into host
// memory are in place, and the stream's first error since the last
// Synchronize (a failed kernel, a panicking callback) is returned and
// cleared, so that it is reported once, by whichever of Query and
// Synchronize sees the stream finished first. A Query that returns false
// reports no error of the stream's work yet, only failures to ask (a GPU
// whose context a kernel fault has lost).
//
// The nil (default) stream runs every operation synchronously, so nothing
// queued on it is ever pending: its Query returns true, nil.
func (s *Stream) Query() (done bool, err error) {
	if s == nil {
		return true, nil
	}
	if s.impl == nil {
		return false, errors.New("Query: stream was not made by NewStream")
	}
	if done, err = s.impl.done(); err != nil || !done {
		return done, err
	}
	return true, s.impl.synchronize()
}

// WaitEvent makes the work queued on the stream after this call wait until
// the work before e's most recent Record (made before this call) has
// completed, without blocking the host: a dependency from one stream to
// another (Numba's event.wait(stream); CUDA's cuStreamWaitEvent). A later
// Record of e does not change what the stream waits for. Waiting on an
// event that was never recorded is no wait at all, as in CUDA.
//
// On the nil (default) stream WaitEvent only checks e: the default
// stream's operations already wait for all work on other streams.
func (s *Stream) WaitEvent(e *Event) error {
	if e == nil || e.impl == nil {
		return errors.New("WaitEvent: event was not made by NewEvent")
	}
	if s == nil {
		if _, err := current(); err != nil {
			return fmt.Errorf("WaitEvent: %w", err)
		}
		return nil
	}
	if s.impl == nil {
		return errors.New("WaitEvent: stream was not made by NewStream")
	}
	if s.be.root() != e.be.root() {
		return errors.New("WaitEvent: event and stream belong to different backends")
	}
	if err := s.impl.waitEvent(e.impl); err != nil {
		return fmt.Errorf("WaitEvent: %w", err)
	}
	return nil
}

// AddCallback queues fn on the stream (Numba's stream.add_callback; CUDA's
// cuStreamAddCallback, without a C callback into Go): fn runs on a
// goroutine of nugo's once all work queued on the stream before it has
// completed, with the stream's first error since the last Synchronize
// (nil if its work so far succeeded), and work queued on the stream after
// it does not start before fn returns. Callbacks on one stream run one at
// a time, in the order they were added. Synchronize and Query wait for
// queued callbacks: after Synchronize returns no callback of the stream is
// running or pending, and no goroutine of the stream is left.
//
// How later work is held back differs, not what it guarantees: the cpu
// and ptxsim backends run fn in the stream's queue; the GPU backend
// records an event, waits for it on a goroutine and runs fn there, and
// holds the stream's later work on the host, so that a launch, copy,
// Record, WaitEvent or AddCallback on that stream waits in the call until
// fn has returned (other streams and the host's other goroutines go on).
//
// A panic in fn is recovered: it becomes the stream's error, a
// *CallbackPanicError with the panic's value and stack, passed to later
// callbacks and returned by the next Synchronize or Query (joined to an
// earlier error, if there was one, so that it is never lost).
//
// As in CUDA, fn must not use its own stream — queue work on it or wait
// for it (the stream's Synchronize, or Synchronize): the work it would wait
// for includes fn itself, so the call would never return. Other streams
// and host code are fine.
//
// On the nil (default) stream, which runs synchronously, AddCallback waits
// for the work on all streams (as Synchronize does), then calls fn on the
// calling goroutine with Synchronize's error; it returns the
// *CallbackPanicError if fn panics.
func (s *Stream) AddCallback(fn func(err error)) error {
	if fn == nil {
		return errors.New("AddCallback: fn is nil")
	}
	if s == nil {
		return callback(fn, Synchronize())
	}
	if s.impl == nil {
		return errors.New("AddCallback: stream was not made by NewStream")
	}
	if err := s.impl.addCallback(fn); err != nil {
		return fmt.Errorf("AddCallback: %w", err)
	}
	return nil
}

// CallbackPanicError reports a stream callback (AddCallback) that
// panicked: the stream's next Synchronize or Query returns it.
type CallbackPanicError struct {
	Value any    // what the callback panicked with
	Stack []byte // the callback's goroutine stack at the panic
}

// Error says that a callback panicked, and with what.
func (e *CallbackPanicError) Error() string {
	return fmt.Sprintf("stream callback panicked: %v", e.Value)
}

// callback runs fn with err, turning a panic into a *CallbackPanicError.
func callback(fn func(error), err error) (perr error) {
	defer func() {
		if r := recover(); r != nil {
			perr = &CallbackPanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	fn(err)
	return nil
}

// withPanic adds a callback's panic to a stream's first error: unlike the
// errors of later work, which the first error stands for, a panic is kept.
func withPanic(first, panicErr error) error {
	if first == nil {
		return panicErr
	}
	return errors.Join(first, panicErr)
}

// Synchronize waits until all work on all streams of the current backend
// has finished, and returns the first error met.
func Synchronize() error {
	be, err := current()
	if err != nil {
		return err
	}
	return be.synchronize()
}

// Event marks a point in a stream's work; it completes when the stream
// reaches it, and records the time at which it did.
type Event struct {
	be   backend
	impl eventImpl
}

// eventImpl is a backend's event.
type eventImpl interface {
	synchronize() error
	// query says, without waiting, whether the latest record has completed.
	query() (bool, error)
	// elapsedSince is the time from start's completion to this event's.
	elapsedSince(start eventImpl) (time.Duration, error)
}

// NewEvent makes an event on the current backend.
func NewEvent() (*Event, error) {
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("NewEvent: %w", err)
	}
	return newEvent(be)
}

// newEvent makes an event on be's device.
func newEvent(be backend) (*Event, error) {
	be = be.bound()
	impl, err := be.newEvent()
	if err != nil {
		return nil, fmt.Errorf("NewEvent: %w", err)
	}
	return &Event{be: be, impl: impl}, nil
}

// Record queues the event on stream s (nil: the default stream). Recording
// again moves the event to the new point.
func (e *Event) Record(s *Stream) error {
	if e == nil || e.impl == nil {
		return errors.New("Record: event was not made by NewEvent")
	}
	if s != nil && s.be.root() != e.be.root() {
		return errors.New("Record: event and stream belong to different backends")
	}
	if s != nil && !sameDevice(s.be, e.be) {
		return fmt.Errorf("Record: the event is on %s, the stream on %s", e.be.deviceName(), s.be.deviceName())
	}
	return e.be.record(e.impl, s)
}

// Synchronize waits until the event has completed.
func (e *Event) Synchronize() error {
	if e == nil || e.impl == nil {
		return errors.New("Synchronize: event was not made by NewEvent")
	}
	return e.impl.synchronize()
}

// Query reports, without waiting, whether the work before the event's most
// recent Record has completed (Numba's event.query(); CUDA's cuEventQuery,
// whose CUDA_ERROR_NOT_READY is the answer false here). Like Synchronize,
// it fails for an event that was never recorded. It reports completion
// only: the error of failed work on the event's stream is the stream's
// (Stream.Synchronize, Stream.Query, callbacks), except that a GPU whose
// context a kernel fault has lost fails every call.
func (e *Event) Query() (bool, error) {
	if e == nil || e.impl == nil {
		return false, errors.New("Query: event was not made by NewEvent")
	}
	done, err := e.impl.query()
	if err != nil {
		return false, fmt.Errorf("Query: %w", err)
	}
	return done, nil
}

// ElapsedTime is the time between the completion of start and of end,
// waiting for both. Both must have been recorded.
func ElapsedTime(start, end *Event) (time.Duration, error) {
	if start == nil || end == nil || start.impl == nil || end.impl == nil {
		return 0, errors.New("ElapsedTime: events must be made by NewEvent")
	}
	if start.be.root() != end.be.root() {
		return 0, errors.New("ElapsedTime: events belong to different backends")
	}
	if !sameDevice(start.be, end.be) {
		return 0, fmt.Errorf("ElapsedTime: start is on %s, end on %s", start.be.deviceName(), end.be.deviceName())
	}
	return end.impl.elapsedSince(start.impl)
}
