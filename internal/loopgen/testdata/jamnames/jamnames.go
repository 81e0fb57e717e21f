// Package jamnames holds a kernel whose jammed and interchanged regions
// have several variables of one name (an inner k := k * 2), for
// TestJamNamesStable: their copies' names must not depend on map order.
package jamnames

import "github.com/nugo-dev/nugo/cuda"

// Shadow jams a region declaring k from an earlier region's k, and
// interchanges a loop whose variable is named like a position variable.
func Shadow(t cuda.Thread, a, out []int32) {
	sh := cuda.SharedArray[int32](t, 128)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	g := t.Grid1()
	k := int32(tid%5 + 1)
	if g < len(a) {
		sh[tid] = a[g]
	}
	t.SyncThreads()
	{
		k := k * 2
		s := k
		for p := 0; p < 8; p++ {
			s += sh[(tid+p)%n] * k
		}
		s++
		t.SyncThreads()
		r := s
		for tid := 0; tid < 32; tid++ {
			r += sh[(tid+g)%n]
		}
		t.SyncThreads()
		if g < len(out) {
			out[g] = s + r + k
		}
	}
}
