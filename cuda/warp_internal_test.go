package cuda

import "testing"

// TestWarpShuffleOperands: lane operands count modulo 32, as in PTX.
func TestWarpShuffleOperands(t *testing.T) {
	w := &warp{}
	w.reset(32)
	done := make(chan [3]int, 32)
	for l := range 32 {
		go func() {
			a, _ := w.exchange(l, opIdx, uint64(l*10), l+33) // lane l+1
			w.exchange(l, opSync, 0, 0)
			d, _ := w.exchange(l, opDown, uint64(l*10), 32+2) // delta 2
			w.exchange(l, opSync, 0, 0)
			x, _ := w.exchange(l, opXor, uint64(l*10), 64+1) // lane l^1
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
