package cuda

import (
	"errors"
	"fmt"
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
	synchronize() error
}

// NewStream makes a stream on the current backend.
func NewStream() (*Stream, error) {
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("NewStream: %w", err)
	}
	impl, err := be.newStream()
	if err != nil {
		return nil, fmt.Errorf("NewStream: %w", err)
	}
	return &Stream{be: be, impl: impl}, nil
}

// Synchronize waits until all work queued on the stream has finished and
// returns the first error that work met since the last Synchronize.
func (s *Stream) Synchronize() error {
	if s == nil || s.impl == nil {
		return Synchronize()
	}
	return s.impl.synchronize()
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
	// elapsedSince is the time from start's completion to this event's.
	elapsedSince(start eventImpl) (time.Duration, error)
}

// NewEvent makes an event on the current backend.
func NewEvent() (*Event, error) {
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("NewEvent: %w", err)
	}
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
	if s != nil && s.be != e.be {
		return errors.New("Record: event and stream belong to different backends")
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

// ElapsedTime is the time between the completion of start and of end,
// waiting for both. Both must have been recorded.
func ElapsedTime(start, end *Event) (time.Duration, error) {
	if start == nil || end == nil || start.impl == nil || end.impl == nil {
		return 0, errors.New("ElapsedTime: events must be made by NewEvent")
	}
	if start.be != end.be {
		return 0, errors.New("ElapsedTime: events belong to different backends")
	}
	return end.impl.elapsedSince(start.impl)
}
