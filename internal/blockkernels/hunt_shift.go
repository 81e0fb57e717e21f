package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// HuntShift sums 8 rounds (jammed, its rounds written out) of values that
// depend on the thread's whole position: its x, y and z in the block, its
// lane and its grid position, which the jammed copies compute from their
// group's first thread (cuda.Thread.Shift) when the group lies in one row
// of the block (hunt_jam_test.go).
func HuntShift(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx()
	lin := (tid.Z*d.Y+tid.Y)*d.X + tid.X
	n := d.X * d.Y * d.Z
	g := t.BlockIdx().X*n + lin
	var x float32
	if g < len(a) {
		x = a[g]
	}
	sh[lin] = x
	t.SyncThreads()
	gx, gy, gz := t.Grid3()
	lane, g1 := t.LaneID(), t.Grid1()
	s := float32(gx*7+gy*3+gz) + float32(g1%5)
	for p := 0; p < 8; p++ {
		s += sh[(lin+p*(tid.Y+1))%n] * float32(lane+p+tid.Z)
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = s
	}
}
