package cuda

import (
	"iter"
	"testing"
)

// lanes drives a warp's lanes as the cpu backend drives a block's
// threads: each lane a coroutine (iter.Pull) of the test's goroutine, a
// lane that must wait in the warp switching back to the driver, which
// resumes the unfinished lanes round after round.
type lanes struct {
	w   *warp
	cur *lane // the lane running
	all [WarpSize]*lane
}

type lane struct {
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool
	done  bool
}

// newLanes returns a driver of a warp whose lanes in live are live.
func newLanes(t *testing.T, live uint32) *lanes {
	d := &lanes{w: &warp{}}
	d.w.reset(live, func() bool { return d.cur.yield(struct{}{}) })
	t.Cleanup(func() {
		for _, l := range d.all {
			if l != nil {
				l.stop()
			}
		}
	})
	return d
}

// start makes lane l run body the next time the driver runs.
func (d *lanes) start(l int, body func()) {
	c := &lane{}
	c.next, c.stop = iter.Pull(func(yield func(struct{}) bool) {
		c.yield = yield
		body()
	})
	d.all[l] = c
}

// run resumes every started, unfinished lane, round after round, until
// all have finished; it fails t if in a round no lane finishes and nothing
// changes in the warp (the lanes wait for each other, or for lanes not
// started).
func (d *lanes) run(t *testing.T) {
	t.Helper()
	for {
		ran, finished, before := false, false, d.w.events
		for _, c := range d.all {
			if c == nil || c.done {
				continue
			}
			ran = true
			d.cur = c
			if _, ok := c.next(); !ok {
				c.done, finished = true, true
			}
			d.cur = nil
		}
		if !ran {
			return
		}
		if !finished && d.w.events == before {
			t.Fatal("a round of the lanes changed nothing: they wait for each other")
		}
	}
}

// TestWarpShuffleOperands: lane operands count modulo 32, as in PTX.
func TestWarpShuffleOperands(t *testing.T) {
	d := newLanes(t, fullMask)
	var got [WarpSize][3]uint64
	for l := range WarpSize {
		d.start(l, func() {
			w := d.w
			got[l][0], _ = w.exchange(l, opIdx, fullMask, uint64(l*10), l+33) // lane l+1
			w.exchange(l, opSync, fullMask, 0, 0)
			got[l][1], _ = w.exchange(l, opDown, fullMask, uint64(l*10), 32+2) // delta 2
			w.exchange(l, opSync, fullMask, 0, 0)
			got[l][2], _ = w.exchange(l, opXor, fullMask, uint64(l*10), 64+1) // lane l^1
		})
	}
	d.run(t)
	for l, r := range got {
		wantD := l * 10
		if l+2 < 32 {
			wantD = (l + 2) * 10
		}
		if want := [3]uint64{uint64((l + 1) % 32 * 10), uint64(wantD), uint64((l ^ 1) * 10)}; r != want {
			t.Errorf("lane %d: idx, down, xor %v, want %v", l, r, want)
		}
	}
}

// TestWarpMaskRendezvous: lanes wait only for the live lanes of their
// member mask. Three quarters of the warp take a ballot each over their
// own quarter while the last quarter's lanes, live, have not arrived: the
// three complete; the last quarter's ballot completes when its lanes come.
// A shuffle from a lane outside the mask reads the caller's own value.
func TestWarpMaskRendezvous(t *testing.T) {
	d := newLanes(t, fullMask)
	var ballot, shfl [WarpSize]uint64
	quarter := func(l int) func() {
		return func() {
			m := uint32(0xff) << (8 * (l / 8))
			ballot[l], _ = d.w.exchange(l, opBallot, m, b2u(l%3 == 0), 0)
			shfl[l], _ = d.w.exchange(l, opIdx, m, uint64(l), 31) // lane 31: outside all masks but the last
		}
	}
	for l := range 24 {
		d.start(l, quarter(l))
	}
	d.run(t)
	for l := range 24 {
		checkQuarter(t, l, uint32(ballot[l]), int(shfl[l]))
	}
	for l := 24; l < 32; l++ {
		d.start(l, quarter(l))
	}
	d.run(t)
	for l := 24; l < 32; l++ {
		checkQuarter(t, l, uint32(ballot[l]), int(shfl[l]))
	}
}

func checkQuarter(t *testing.T, l int, ballot uint32, shfl int) {
	t.Helper()
	var want uint32
	for j := l / 8 * 8; j < l/8*8+8; j++ {
		if j%3 == 0 {
			want |= 1 << j
		}
	}
	wantShfl := l
	if l >= 24 {
		wantShfl = 31
	}
	if ballot != want || shfl != wantShfl {
		t.Errorf("lane %d: ballot %#x, shuffle %d; want %#x, %d", l, ballot, shfl, want, wantShfl)
	}
}

// TestWarpSameMask: a full-warp operation does not complete with lanes
// that wait in an operation with another mask; they join it later. Lanes
// 0-7 wait in UniSync of true while lanes 8-31 first take a ballot of
// false among themselves, then call UniSync of true: every lane's UniSync
// is true.
func TestWarpSameMask(t *testing.T) {
	d := newLanes(t, fullMask)
	var got [WarpSize]uint64
	for l := range 8 {
		d.start(l, func() { got[l], _ = d.w.exchange(l, opUni, fullMask, 1, 0) })
	}
	for l := 8; l < 32; l++ {
		d.start(l, func() {
			d.w.exchange(l, opBallot, 0xffffff00, 0, 0)
			got[l], _ = d.w.exchange(l, opUni, fullMask, 1, 0)
		})
	}
	d.run(t)
	for l, r := range got {
		if r != 1 {
			t.Fatalf("lane %d: UniSync of true in every lane gave %d", l, r)
		}
	}
}

// TestWarpLeaveAndAbort: a lane that returns no longer counts, so the
// others' operation completes without it; after an abort, waiting lanes
// and later arrivals fail.
func TestWarpLeaveAndAbort(t *testing.T) {
	d := newLanes(t, 0b111)
	var got [3]uint64
	var oks [3]bool
	for l := range 2 {
		d.start(l, func() { got[l], oks[l] = d.w.exchange(l, opBallot, 0b111, 1, 0) })
	}
	d.start(2, func() { d.w.leave(2) })
	d.run(t)
	for l := range 2 {
		if !oks[l] || got[l] != 0b011 {
			t.Errorf("lane %d: ballot %#b, ok %v; want 0b11 without the lane that left", l, got[l], oks[l])
		}
	}

	d = newLanes(t, 0b11)
	d.start(0, func() { _, oks[0] = d.w.exchange(0, opSync, 0b11, 0, 0) })
	d.start(1, func() {
		d.w.abort()
		_, oks[1] = d.w.exchange(1, opSync, 0b11, 0, 0)
	})
	d.run(t)
	if oks[0] || oks[1] {
		t.Errorf("after an abort: waiting lane ok %v, arriving lane ok %v; want both false", oks[0], oks[1])
	}
}
