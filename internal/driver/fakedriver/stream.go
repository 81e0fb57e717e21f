package fakedriver

import (
	"github.com/nugo-dev/nugo/internal/driver"
)

// StreamCreate implements driver.API.
func (f *Fake) StreamCreate(flags driver.StreamFlags) (driver.Stream, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuStreamCreate"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return 0, err
	}
	if flags&^driver.StreamNonBlocking != 0 {
		return 0, invalid(call, "unknown flags %#x", uint32(flags))
	}
	s := driver.Stream(f.handle())
	f.streams[s] = dev
	return s, nil
}

// StreamDestroy implements driver.API.
func (f *Fake) StreamDestroy(s driver.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuStreamDestroy"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	if _, ok := f.streams[s]; !ok {
		return driver.NewError(call, driver.ErrorInvalidHandle)
	}
	delete(f.streams, s)
	return nil
}

// StreamSynchronize implements driver.API.
func (f *Fake) StreamSynchronize(s driver.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuStreamSynchronize"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	return f.stream(call, s)
}

// StreamQuery implements driver.API. Work completes at once in the fake (or
// here, with Config.Sim), so a stream is always done; inject ErrorNotReady on cuStreamQuery to model
// pending work (it is reported as done=false, not as an error).
func (f *Fake) StreamQuery(s driver.Stream) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuStreamQuery"
	if _, err := f.enter(call, true, true); err != nil {
		if driver.Code(err) == driver.ErrorNotReady {
			return false, nil
		}
		return false, err
	}
	return true, f.stream(call, s)
}

// StreamWaitEvent implements driver.API. Work completes in order at once in
// the fake, so there is nothing to wait for; the handles are checked as the
// driver checks them, and the wait is counted (Count) for tests of who
// waits on what. An event never recorded is accepted, as in CUDA.
func (f *Fake) StreamWaitEvent(s driver.Stream, e driver.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuStreamWaitEvent"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	if err := f.stream(call, s); err != nil {
		return err
	}
	_, err := f.event(call, e)
	return err
}

// EventCreate implements driver.API.
func (f *Fake) EventCreate(flags driver.EventFlags) (driver.Event, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuEventCreate"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return 0, err
	}
	if flags&^(driver.EventBlockingSync|driver.EventDisableTiming) != 0 {
		return 0, invalid(call, "unknown flags %#x", uint32(flags))
	}
	e := driver.Event(f.handle())
	f.events[e] = &event{dev: dev, flags: flags}
	return e, nil
}

func (f *Fake) event(call string, e driver.Event) (*event, error) {
	ev, ok := f.events[e]
	if !ok {
		return nil, driver.NewError(call, driver.ErrorInvalidHandle)
	}
	return ev, nil
}

// EventRecord implements driver.API: the event takes the fake clock's time,
// which each launch advances by Config.LaunchTimeMS.
func (f *Fake) EventRecord(e driver.Event, s driver.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuEventRecord"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	ev, err := f.event(call, e)
	if err != nil {
		return err
	}
	if err := f.stream(call, s); err != nil {
		return err
	}
	ev.recorded, ev.atMS = true, f.clockMS
	return nil
}

// EventSynchronize implements driver.API.
func (f *Fake) EventSynchronize(e driver.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuEventSynchronize"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	_, err := f.event(call, e)
	return err
}

// EventQuery implements driver.API. Work completes at once in the fake (or
// here, with Config.Sim); inject
// ErrorNotReady on cuEventQuery to model pending work (done=false, no error).
func (f *Fake) EventQuery(e driver.Event) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuEventQuery"
	if _, err := f.enter(call, true, true); err != nil {
		if driver.Code(err) == driver.ErrorNotReady {
			return false, nil
		}
		return false, err
	}
	_, err := f.event(call, e)
	return err == nil, err
}

// EventElapsedTime implements driver.API. As in CUDA, both events must have
// been recorded and created with timing enabled.
func (f *Fake) EventElapsedTime(start, end driver.Event) (float32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuEventElapsedTime"
	if _, err := f.enter(call, true, true); err != nil {
		return 0, err
	}
	a, err := f.event(call, start)
	if err != nil {
		return 0, err
	}
	b, err := f.event(call, end)
	if err != nil {
		return 0, err
	}
	if !a.recorded || !b.recorded || a.flags&driver.EventDisableTiming != 0 || b.flags&driver.EventDisableTiming != 0 {
		return 0, driver.NewError(call, driver.ErrorInvalidHandle)
	}
	return float32(b.atMS - a.atMS), nil
}

// EventDestroy implements driver.API.
func (f *Fake) EventDestroy(e driver.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuEventDestroy"
	if _, err := f.enter(call, true, true); err != nil {
		return err
	}
	if _, err := f.event(call, e); err != nil {
		return err
	}
	delete(f.events, e)
	return nil
}
