package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// HuntcExitedDiv divides, in block-uniform code after a barrier, by a
// value that is zero in block zb only. In that block the threads below
// lo have returned before the barrier; with lo at the block's size none
// reaches the division, and the goroutine path runs without failing.
func HuntcExitedDiv(t cuda.Thread, a []int32, out []int32, zb, lo int) {
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	if t.BlockIdx().X == zb && tid < lo {
		out[i] = -1
		return
	}
	sh[tid] = a[i]
	t.SyncThreads()
	k := 100 / (t.BlockIdx().X - zb)
	out[i] = sh[(tid+1)%t.BlockDim().X] + int32(k)
}
