package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// Kernels whose jammed loops read through views (loopgen's jamViews,
// hunt_views_test.go): indexes that step by 2 and by -1 with the round,
// loops of step 2 and of <=, an index from a variable set before the loop,
// a slice parameter read at the thread's offset, an index of another
// integer type (no view), and one read past the end in some threads.

// HuntViewSteps reads, in a loop of step 2 up to 14 inclusive, sh at
// 2p+base, at 15-p (descending: no view), at an int32 index (no view),
// and a[off+p+tid%3] of a slice parameter.
func HuntViewSteps(t cuda.Thread, a []float32, out []float32, off int) {
	sh := cuda.SharedArray[float32](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx().Y*d.X + t.ThreadIdx().X
	n := d.X * d.Y
	g := t.BlockIdx().X*n + tid
	var x float32
	if g < len(a) {
		x = a[g]
	}
	sh[tid] = x
	t.SyncThreads()
	base := tid % 7
	s := float32(tid)
	for p := 0; p <= 14; p += 2 {
		s += sh[2*p+base]*float32(p+1) - sh[15-p] + a[off+p+tid%3] + sh[int32(p)+int32(base)]
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = s
	}
}

// HuntViewPast reads sh[lim+p] where lim comes from a parameter slice: in
// some threads the span runs past the shared array, which must fail the
// launch naming the first such thread, as the goroutine path does.
func HuntViewPast(t cuda.Thread, a []int32, lim []int) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx().Y*d.X + t.ThreadIdx().X
	n := d.X * d.Y
	g := t.BlockIdx().X*n + tid
	sh[tid] = int32(g)
	t.SyncThreads()
	o := lim[g]
	var s int32
	for p := 0; p < 6; p++ {
		s += sh[o+p] * int32(p+1)
	}
	t.SyncThreads()
	a[g] = s
}
