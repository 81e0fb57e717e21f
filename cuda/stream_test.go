package cuda

import (
	"strings"
	"testing"
	"time"
)

func TestStreamRunsInOrderAndOverlaps(t *testing.T) {
	before := goroutines()
	s1, err := NewStream()
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := NewStream()
	a := make([]float64, 4096)
	b := make([]float64, 4096)
	da, err := ToDeviceAsync(a, s1)
	if err != nil {
		t.Fatal(err)
	}
	db, _ := ToDeviceAsync(b, s2)
	for range 10 {
		if err := Jit(increment).LaunchWith(LaunchConfig{Grid: Dim1(16), Block: Dim1(256), Stream: s1}, da); err != nil {
			t.Fatal(err)
		}
		if err := Jit(increment).LaunchWith(LaunchConfig{Grid: Dim1(16), Block: Dim1(256), Stream: s2}, db); err != nil {
			t.Fatal(err)
		}
	}
	if err := da.CopyToHostAsync(a, s1); err != nil {
		t.Fatal(err)
	}
	if err := db.CopyToHostAsync(b, s2); err != nil {
		t.Fatal(err)
	}
	if err := s1.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if err := s2.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if a[4095] != 10 || b[0] != 10 {
		t.Fatalf("a[4095] = %v, b[0] = %v; want 10", a[4095], b[0])
	}
	if err := da.CopyFromHostAsync(b, s1); err != nil {
		t.Fatal(err)
	}
	if err := Synchronize(); err != nil {
		t.Fatal(err)
	}
	checkNoLeak(t, before)
}

func TestAsyncLaunchErrorReportedBySynchronize(t *testing.T) {
	s, _ := NewStream()
	bad := Jit(func(t Thread, d []int32) { d[t.Grid1()+1] = 1 })
	if err := bad.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(4), Stream: s}, make([]int32, 4)); err != nil {
		t.Fatalf("queuing failed: %v", err)
	}
	err := s.Synchronize()
	if err == nil || !strings.Contains(err.Error(), "launch TestAsyncLaunchErrorReportedBySynchronize") || !strings.Contains(err.Error(), "index out of range") {
		t.Fatalf("Synchronize: %v", err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatalf("the error was reported twice: %v", err)
	}
	// Launch-time validation is still synchronous on a stream.
	if err := bad.LaunchWith(LaunchConfig{Grid: Dim1(0), Block: Dim1(4), Stream: s}, make([]int32, 4)); err == nil {
		t.Fatal("a bad shape was queued")
	}
	if err := bad.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(4), Stream: &Stream{}}, make([]int32, 4)); err == nil {
		t.Fatal("a stream not made by NewStream was accepted")
	}
}

func TestEventsTimeStreamWork(t *testing.T) {
	s, _ := NewStream()
	start, err := NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	end, _ := NewEvent()
	if err := end.Synchronize(); err == nil {
		t.Fatal("Synchronize of an unrecorded event succeeded")
	}
	if _, err := ElapsedTime(start, end); err == nil {
		t.Fatal("ElapsedTime of unrecorded events succeeded")
	}
	sleepy := Jit(func(t Thread, d []int64) {
		deadline := time.Now().Add(20 * time.Millisecond)
		for time.Now().Before(deadline) {
		}
		d[0] = 1
	})
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := sleepy.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(1), Stream: s}, make([]int64, 1)); err != nil {
		t.Fatal(err)
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := end.Synchronize(); err != nil {
		t.Fatal(err)
	}
	dt, err := ElapsedTime(start, end)
	if err != nil {
		t.Fatal(err)
	}
	// The kernel spins for 20 ms between the events; the events must see
	// at least that (an upper bound would depend on the machine's load).
	if dt < 20*time.Millisecond {
		t.Fatalf("ElapsedTime = %v, want at least 20ms", dt)
	}
	if err := start.Record(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ElapsedTime(nil, end); err == nil {
		t.Fatal("ElapsedTime(nil, end) succeeded")
	}
	if err := (&Event{}).Record(nil); err == nil {
		t.Fatal("recording a zero Event succeeded")
	}
}

// A Record that fails (here: the default stream reports another stream's
// failure before it queues anything) leaves the event at its previous
// record, so that waiting for the event does not hang on a record that
// will never complete.
func TestFailedRecordKeepsThePreviousOne(t *testing.T) {
	s, _ := NewStream()
	e, _ := NewEvent()
	if err := e.Record(s); err != nil {
		t.Fatal(err)
	}
	bad := Jit(func(t Thread, d []int32) { d[t.Grid1()+1] = 1 })
	if err := bad.LaunchWith(LaunchConfig{Grid: Dim1(1), Block: Dim1(4), Stream: s}, make([]int32, 4)); err != nil {
		t.Fatal(err)
	}
	if err := e.Record(nil); err == nil {
		t.Fatal("Record on the default stream did not report the stream's failure")
	}
	if done, err := e.Query(); !done || err != nil { // asked first: it cannot hang
		t.Fatalf("Query = %v, %v; want the earlier record, done", done, err)
	}
	if err := e.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatalf("the failure was reported twice: %v", err)
	}
}
