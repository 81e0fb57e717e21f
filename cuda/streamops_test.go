package cuda_test

// Stream.Query, Event.Query, Stream.WaitEvent and Stream.AddCallback on
// every backend: cpu and ptxsim (host streams), the GPU backend over the
// recording fake driver (kernels played by hooks) and over the simulated
// GPU (kernels run by ptxsim), and a real GPU where there is one. A stream
// is held busy by a callback that waits on a channel, so that "not done
// yet" is a state the test controls, not a race it hopes to win.

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// streamBackend is a backend for the stream operation tests: setup selects
// it and returns its fake driver (nil for cpu, ptxsim and a real GPU).
type streamBackend struct {
	name  string
	host  bool // cpu or ptxsim: streams are host queues
	setup func(t *testing.T) *fakedriver.Fake
}

var streamBackends = []streamBackend{
	{"cpu", true, func(t *testing.T) *fakedriver.Fake { onBackend(t, CPU); return nil }},
	{"ptxsim", true, func(t *testing.T) *fakedriver.Fake { onBackend(t, PTXSim); return nil }},
	{"gpu-fake", false, func(t *testing.T) *fakedriver.Fake {
		f := fakeGPU(t, fakedriver.Config{})
		f.OnLaunch = func(f *fakedriver.Fake, l fakedriver.Launch) error {
			if l.Function == "OutOfRange" {
				return recordHook(f, l)
			}
			return scaleHook(f, l)
		}
		return f
	}},
	{"gpu-sim", false, simGPU},
}

// eachStreamBackend runs body on every backend, checking that no goroutine
// of the test outlives it.
func eachStreamBackend(t *testing.T, body func(t *testing.T, b streamBackend, f *fakedriver.Fake)) {
	for _, b := range streamBackends {
		t.Run(b.name, func(t *testing.T) {
			noLeak(t)
			body(t, b, b.setup(t))
		})
	}
}

// busy holds a stream with a callback that waits until release is called.
type busy struct {
	release func()
	ran     chan error // the error the callback was given
}

func holdStream(t *testing.T, s *Stream) *busy {
	t.Helper()
	gate := make(chan struct{})
	b := &busy{ran: make(chan error, 1)}
	b.release = sync.OnceFunc(func() { close(gate) })
	t.Cleanup(b.release) // a failing test must not leave the stream held
	if err := s.AddCallback(func(err error) { <-gate; b.ran <- err }); err != nil {
		t.Fatal(err)
	}
	return b
}

// waitDone polls q until it reports done, failing after a generous bound so
// that a broken Query fails the test instead of hanging it.
func waitDone(t *testing.T, what string, q func() (bool, error)) error {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		done, err := q()
		if done || err != nil {
			if !done {
				t.Fatalf("%s: error %v with done = false", what, err)
			}
			return err
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never reported done", what)
		}
		time.Sleep(time.Millisecond)
	}
}

var scale = Jit(testkernels.Scale)

func launchScale(s *Stream, d any, f float32) error {
	return scale.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(32), Stream: s}, d, f)
}

func TestStreamQuery(t *testing.T) { eachStreamBackend(t, streamQuery) }

func streamQuery(t *testing.T, b streamBackend, f *fakedriver.Fake) {
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	if done, err := s.Query(); !done || err != nil {
		t.Fatalf("Query of a new stream = %v, %v; want true, nil", done, err)
	}
	d, err := ToDeviceAsync([]float32{1, 2, 3}, s)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	if err := launchScale(s, d, 2); err != nil {
		t.Fatal(err)
	}
	out := make([]float32, 3)
	if err := d.CopyToHostAsync(out, s); err != nil {
		t.Fatal(err)
	}
	ev, _ := NewEvent()
	if err := ev.Record(s); err != nil {
		t.Fatal(err)
	}
	hold := holdStream(t, s)
	var after *Event
	if b.host {
		// On host streams a record queued behind the callback is
		// pending until the callback returns. (On the GPU the Record
		// call itself would wait for the callback.)
		after, _ = NewEvent()
		if err := after.Record(s); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		if done, err := s.Query(); done || err != nil {
			t.Fatalf("Query while a callback holds the stream = %v, %v; want false, nil", done, err)
		}
		if after != nil {
			if done, err := after.Query(); done || err != nil {
				t.Fatalf("Event.Query behind a held callback = %v, %v; want false, nil", done, err)
			}
		}
	}
	// The record before the callback completes on its own.
	if err := waitDone(t, "Event.Query before the callback", ev.Query); err != nil {
		t.Fatal(err)
	}
	hold.release()
	if err := waitDone(t, "Stream.Query", s.Query); err != nil {
		t.Fatal(err)
	}
	// A Query that said done has finished the work on the host: the
	// async copy's values are in out without a Synchronize.
	if want := []float32{2, 4, 6}; !equal(out, want) {
		t.Fatalf("out after Query reported done = %v, want %v", out, want)
	}
	if err := <-hold.ran; err != nil {
		t.Fatalf("the callback was given %v", err)
	}
	if after != nil {
		if done, err := after.Query(); !done || err != nil {
			t.Fatalf("Event.Query after the stream finished = %v, %v", done, err)
		}
	}
	never, _ := NewEvent()
	if _, err := never.Query(); err == nil || !strings.Contains(err.Error(), "never recorded") {
		t.Fatalf("Query of an event never recorded = %v, want an error", err)
	}
	if _, err := (&Event{}).Query(); err == nil {
		t.Fatal("Query of a zero Event succeeded")
	}
	if _, err := (&Stream{}).Query(); err == nil {
		t.Fatal("Query of a zero Stream succeeded")
	}
	var def *Stream
	if done, err := def.Query(); !done || err != nil {
		t.Fatalf("Query of the default stream = %v, %v; want true, nil", done, err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}

// A failed kernel's error is reported once: by the Query that sees the
// stream done, or by Synchronize, whichever comes first; callbacks are
// given it, and a panicking callback's error joins it.
func TestStreamErrorsReachQueryAndCallbacks(t *testing.T) { eachStreamBackend(t, streamErrors) }

func streamErrors(t *testing.T, b streamBackend, f *fakedriver.Fake) {
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	bad := Jit(testkernels.OutOfRange, Debug)
	badLaunch := func() {
		t.Helper()
		if err := bad.LaunchWith(LaunchConfig{Grid: Dim1(4), Block: Dim1(256), Stream: s}, make([]int32, 1000)); err != nil {
			t.Fatalf("queuing: %v", err)
		}
	}
	var got []error
	var mu sync.Mutex
	collect := func(err error) { mu.Lock(); got = append(got, err); mu.Unlock() }

	// Query reports it, once.
	if err := s.AddCallback(collect); err != nil {
		t.Fatal(err)
	}
	badLaunch()
	if err := s.AddCallback(collect); err != nil {
		t.Fatal(err)
	}
	var ke *KernelError
	if err := waitDone(t, "Query", s.Query); !errors.As(err, &ke) {
		t.Fatalf("Query of a failed stream = %v, want the *KernelError", err)
	}
	if done, err := s.Query(); !done || err != nil {
		t.Fatalf("Query again = %v, %v; the error was reported twice", done, err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatalf("Synchronize after Query reported the error: %v", err)
	}
	if len(got) != 2 || got[0] != nil || !errors.As(got[1], &ke) {
		t.Fatalf("callbacks were given %v; want nil, then the kernel error", got)
	}

	// A panicking callback: the next callback and Synchronize see it,
	// joined to the kernel's error that came first.
	got = nil
	badLaunch()
	if err := s.AddCallback(func(error) { panic("boom") }); err != nil {
		t.Fatal(err)
	}
	if err := s.AddCallback(collect); err != nil {
		t.Fatal(err)
	}
	err = s.Synchronize()
	var pe *CallbackPanicError
	if !errors.As(err, &pe) || pe.Value != "boom" || len(pe.Stack) == 0 || !errors.As(err, &ke) {
		t.Fatalf("Synchronize after a panicking callback = %v; want the kernel error and the *CallbackPanicError", err)
	}
	if len(got) != 1 || !errors.As(got[0], &pe) {
		t.Fatalf("the callback after the panic was given %v", got)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatalf("the panic was reported twice: %v", err)
	}
	// Alone, the panic is the stream's error.
	if err := s.AddCallback(func(error) { panic(errors.New("bang")) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); !errors.As(err, &pe) || !strings.Contains(err.Error(), "callback panicked: bang") {
		t.Fatalf("Synchronize = %v, want the panic", err)
	}
	// The stream works on.
	d, err := ToDevice([]float32{1})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	if err := launchScale(s, d, 4); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if h, _ := d.ToHost(); h[0] != 4 {
		t.Fatalf("after the failures the stream computed %v, want 4", h)
	}
}

// Callbacks run in order, after the work before them (whose results are in
// place), and work queued after a callback does not start before it
// returns.
func TestStreamCallbacksOrderAndBlock(t *testing.T) { eachStreamBackend(t, streamCallbacks) }

func streamCallbacks(t *testing.T, b streamBackend, f *fakedriver.Fake) {
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	d, err := ToDevice([]float32{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	var order []string
	out := make([]float32, 2)
	if err := launchScale(s, d, 3); err != nil {
		t.Fatal(err)
	}
	if err := d.CopyToHostAsync(out, s); err != nil {
		t.Fatal(err)
	}
	// Callbacks run one at a time, so order needs no lock of its own;
	// the race detector checks that claim.
	if err := s.AddCallback(func(err error) {
		order = append(order, "first")
		if !equal(out, []float32{3, 6}) {
			order = append(order, "copy not done")
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddCallback(func(error) { order = append(order, "second") }); err != nil {
		t.Fatal(err)
	}

	// Later work waits for a held callback.
	hold := holdStream(t, s)
	launches := 0
	if f != nil {
		launches = len(f.Launches())
	}
	queued := make(chan error, 1)
	go func() { queued <- launchScale(s, d, 5) }()
	// Give a broken hold the chance to show (the test passes whatever
	// the timing).
	time.Sleep(20 * time.Millisecond)
	if f != nil && len(f.Launches()) != launches {
		t.Fatal("a launch queued after a held callback reached the driver before the callback returned")
	}
	if done, err := s.Query(); done || err != nil {
		t.Fatalf("Query while held = %v, %v", done, err)
	}
	hold.release()
	if err := <-queued; err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"first", "second"}; strings.Join(order, ",") != strings.Join(want, ",") {
		t.Fatalf("callbacks ran as %v, want %v", order, want)
	}
	if h, _ := d.ToHost(); !equal(h, []float32{15, 30}) {
		t.Fatalf("d = %v, want [15 30]", h)
	}

	// The default stream runs the callback at once, after all streams.
	ran := false
	var def *Stream
	if err := def.AddCallback(func(err error) { ran = err == nil }); err != nil || !ran {
		t.Fatalf("AddCallback on the default stream = %v, ran %v", err, ran)
	}
	if err := def.AddCallback(func(error) { panic("x") }); !errors.As(err, new(*CallbackPanicError)) {
		t.Fatalf("a panicking callback on the default stream = %v", err)
	}
	if err := s.AddCallback(nil); err == nil {
		t.Fatal("AddCallback(nil) succeeded")
	}
	if err := (&Stream{}).AddCallback(func(error) {}); err == nil {
		t.Fatal("AddCallback on a zero Stream succeeded")
	}
}

// Work on a second stream after WaitEvent sees what the first stream wrote
// before the event's record. On host streams the first stream is held
// until the second has queued its copy, so without the wait the copy would
// read the old values; a simulated or faked GPU runs work in issue order,
// where only the driver call can be checked.
func TestStreamWaitEvent(t *testing.T) { eachStreamBackend(t, streamWaitEvent) }

func streamWaitEvent(t *testing.T, b streamBackend, f *fakedriver.Fake) {
	s1, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := NewStream()
	d, err := ToDevice([]float32{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	var hold *busy
	if b.host {
		hold = holdStream(t, s1)
	}
	if err := launchScale(s1, d, 10); err != nil {
		t.Fatal(err)
	}
	e, _ := NewEvent()
	if err := e.Record(s1); err != nil {
		t.Fatal(err)
	}
	if err := e.Record(s1); err != nil { // the latest record is the one waited for
		t.Fatal(err)
	}
	waits := 0
	if f != nil {
		waits = f.Count("cuStreamWaitEvent")
	}
	if err := s2.WaitEvent(e); err != nil {
		t.Fatal(err)
	}
	if f != nil && f.Count("cuStreamWaitEvent") != waits+1 {
		t.Fatalf("cuStreamWaitEvent called %d times, want once", f.Count("cuStreamWaitEvent")-waits)
	}
	out := make([]float32, 4)
	if err := d.CopyToHostAsync(out, s2); err != nil {
		t.Fatal(err)
	}
	if hold != nil {
		if done, err := s2.Query(); done || err != nil {
			t.Fatalf("the waiting stream's Query = %v, %v; want false while the first is held", done, err)
		}
		hold.release()
	}
	if err := s2.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if want := []float32{10, 20, 30, 40}; !equal(out, want) {
		t.Fatalf("second stream read %v, want %v", out, want)
	}

	// An event never recorded is no wait; nor is one on the default
	// stream.
	never, _ := NewEvent()
	if err := s2.WaitEvent(never); err != nil {
		t.Fatalf("WaitEvent on an event never recorded: %v", err)
	}
	if f != nil && f.Count("cuStreamWaitEvent") != waits+1 {
		t.Fatal("WaitEvent on an event never recorded called the driver")
	}
	if err := launchScale(s2, d, 0.5); err != nil {
		t.Fatal(err)
	}
	if err := d.CopyToHostAsync(out, s2); err != nil {
		t.Fatal(err)
	}
	if err := s2.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if want := []float32{5, 10, 15, 20}; !equal(out, want) {
		t.Fatalf("work after a wait on an unrecorded event: %v, want %v", out, want)
	}
	var def *Stream
	if err := def.WaitEvent(e); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s *Stream
		e *Event
	}{{s2, nil}, {s2, &Event{}}, {&Stream{}, e}, {def, nil}} {
		if err := c.s.WaitEvent(c.e); err == nil {
			t.Errorf("WaitEvent(%v) on %v succeeded", c.e, c.s)
		}
	}
}

// On a real GPU, Query, WaitEvent and callbacks with the driver's own
// asynchrony.
func TestGPUStreamOps(t *testing.T) {
	realGPU(t)
	for _, c := range []struct {
		name string
		body func(*testing.T, streamBackend, *fakedriver.Fake)
	}{{"Query", streamQuery}, {"Errors", streamErrors}, {"Callbacks", streamCallbacks}, {"WaitEvent", streamWaitEvent}} {
		t.Run(c.name, func(t *testing.T) {
			noLeak(t)
			c.body(t, streamBackend{name: "gpu"}, nil)
		})
	}
}

// Driver failures of the new calls, and the not-ready answers, over the
// recording fake.
func TestGPUStreamOpsDriverFailures(t *testing.T) {
	f := fakeGPU(t, fakedriver.Config{})
	noLeak(t)
	s, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	e, _ := NewEvent()
	if err := e.Record(s); err != nil {
		t.Fatal(err)
	}
	f.Inject(fakedriver.Fault{Call: "cuStreamQuery", Code: driver.ErrorNotReady})
	if done, err := s.Query(); done || err != nil {
		t.Fatalf("Query with CUDA_ERROR_NOT_READY = %v, %v; want false, nil", done, err)
	}
	f.Inject(fakedriver.Fault{Call: "cuEventQuery", Code: driver.ErrorNotReady})
	if done, err := e.Query(); done || err != nil {
		t.Fatalf("Event.Query with CUDA_ERROR_NOT_READY = %v, %v; want false, nil", done, err)
	}
	f.Inject(fakedriver.Fault{Call: "cuStreamQuery", Code: driver.ErrorInvalidHandle})
	_, err = s.Query()
	wantDriverError(t, err, "cuStreamQuery", driver.ErrorInvalidHandle)
	f.Inject(fakedriver.Fault{Call: "cuEventQuery", Code: driver.ErrorInvalidHandle})
	_, err = e.Query()
	wantDriverError(t, err, "cuEventQuery", driver.ErrorInvalidHandle)
	f.Inject(fakedriver.Fault{Call: "cuStreamWaitEvent", Code: driver.ErrorInvalidHandle})
	wantDriverError(t, s.WaitEvent(e), "cuStreamWaitEvent", driver.ErrorInvalidHandle)
	for _, call := range []string{"cuEventCreate", "cuEventRecord"} {
		f.Inject(fakedriver.Fault{Call: call, Code: driver.ErrorOutOfMemory})
		wantDriverError(t, s.AddCallback(func(error) { t.Errorf("a callback that failed to queue ran") }), call, driver.ErrorOutOfMemory)
	}
	if l := f.Live(); l.Events != 1 {
		t.Fatalf("live %+v: a failed AddCallback left its event", l)
	}
	// A failed AddCallback holds nothing back.
	d, err := ToDeviceAsync([]float32{1}, s)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	// The callback's wait meets the stream's failure and passes it on.
	f.Inject(fakedriver.Fault{Call: "cuEventSynchronize", Code: driver.ErrorUnknown})
	var got error
	if err := s.AddCallback(func(err error) { got = err }); err != nil {
		t.Fatal(err)
	}
	err = s.Synchronize()
	wantDriverError(t, err, "cuEventSynchronize", driver.ErrorUnknown)
	wantDriverError(t, got, "cuEventSynchronize", driver.ErrorUnknown)
	if l := f.Live(); l.Events != 1 {
		t.Fatalf("live %+v: the callback's event was not destroyed", l)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}
