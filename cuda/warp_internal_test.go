package cuda

import "testing"

// TestWarpShuffleOperands: lane operands count modulo 32, as in PTX.
func TestWarpShuffleOperands(t *testing.T) {
	w := &warp{}
	w.reset(fullMask, nil)
	done := make(chan [3]int, 32)
	for l := range 32 {
		go func() {
			a, _ := w.exchange(l, opIdx, fullMask, uint64(l*10), l+33) // lane l+1
			w.exchange(l, opSync, fullMask, 0, 0)
			d, _ := w.exchange(l, opDown, fullMask, uint64(l*10), 32+2) // delta 2
			w.exchange(l, opSync, fullMask, 0, 0)
			x, _ := w.exchange(l, opXor, fullMask, uint64(l*10), 64+1) // lane l^1
			done <- [3]int{int(a), int(d), int(x) + l<<16}
		}()
	}
	for range 32 {
		r := <-done
		l := r[2] >> 16
		x := r[2] & 0xffff
		wantD := l * 10
		if l+2 < 32 {
			wantD = (l + 2) * 10
		}
		if r[0] != (l+1)%32*10 || r[1] != wantD || x != (l^1)*10 {
			t.Errorf("lane %d: idx %d down %d xor %d, want %d %d %d", l, r[0], r[1], x, (l+1)%32*10, wantD, (l^1)*10)
		}
	}
}

// TestWarpMaskRendezvous: lanes wait only for the live lanes of their
// member mask. Three quarters of the warp take a ballot each over their
// own quarter while the last quarter's lanes, live, have not arrived: the
// three complete; the last quarter's ballot completes when its lanes come.
// A shuffle from a lane outside the mask reads the caller's own value.
func TestWarpMaskRendezvous(t *testing.T) {
	w := &warp{}
	w.reset(fullMask, nil)
	type res struct{ lane, ballot, shfl int }
	done := make(chan res, 32)
	quarter := func(l int) {
		m := uint32(0xff) << (8 * (l / 8))
		b, _ := w.exchange(l, opBallot, m, b2u(l%3 == 0), 0)
		s, _ := w.exchange(l, opIdx, m, uint64(l), 31) // lane 31: outside all masks but the last
		done <- res{l, int(b), int(s)}
	}
	for l := range 24 {
		go quarter(l)
	}
	for range 24 {
		r := <-done
		checkQuarter(t, r.lane, uint32(r.ballot), r.shfl)
	}
	for l := 24; l < 32; l++ {
		go quarter(l)
	}
	for range 8 {
		r := <-done
		checkQuarter(t, r.lane, uint32(r.ballot), r.shfl)
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
	w := &warp{}
	w.reset(fullMask, nil)
	done := make(chan uint64, 32)
	for l := range 8 {
		go func() {
			r, _ := w.exchange(l, opUni, fullMask, 1, 0)
			done <- r
		}()
	}
	for l := 8; l < 32; l++ {
		go func() {
			w.exchange(l, opBallot, 0xffffff00, 0, 0)
			r, _ := w.exchange(l, opUni, fullMask, 1, 0)
			done <- r
		}()
	}
	for range 32 {
		if r := <-done; r != 1 {
			t.Fatalf("UniSync of true in every lane gave %d", r)
		}
	}
}
