// Package warpdemand holds kernels whose block loops TestDemandedThreads
// reads: which regions between two warp-shuffle trees visit only the
// threads the second tree reads (warp 0 here), and which must visit every
// thread because a skipped one could panic, write memory or leave a value
// later code reads.
package warpdemand

import "github.com/nugo-dev/nugo/cuda"

//go:generate go tool nugo gen

// Block is the block size the kernels are written for.
const Block = 256

// Bounded: the region between the trees reads ws under tid < 8 only; it
// visits warp 0.
func Bounded(t cuda.Thread, a, sums []float32) {
	ws := cuda.SharedArray[float32](t, Block/32)
	tid := t.ThreadIdx().X
	v := a[t.Grid1()]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid%32 == 0 {
		ws[tid/32] = v
	}
	t.SyncThreads()
	v = float32(tid%32) * 0
	if tid < Block/32 {
		v = ws[tid]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
}

// WideGuard: the guard tid < 64 admits threads the bound would skip, and
// its body indexes a (which may panic there): every thread.
func WideGuard(t cuda.Thread, a, sums []float32) {
	ws := cuda.SharedArray[float32](t, Block/32)
	tid := t.ThreadIdx().X
	v := a[t.Grid1()]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid%32 == 0 {
		ws[tid/32] = v
	}
	t.SyncThreads()
	v = 0
	if tid < 64 {
		v = a[tid]
	}
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
}

// Unguarded: an index outside any guard: every thread.
func Unguarded(t cuda.Thread, a, sums []float32) {
	tid := t.ThreadIdx().X
	v := a[t.Grid1()]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	t.SyncThreads()
	v = a[tid]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
}

// Divides: an integer division by a parameter, which may be zero: every
// thread.
func Divides(t cuda.Thread, a, sums []float32, k int) {
	tid := t.ThreadIdx().X
	v := a[t.Grid1()]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	t.SyncThreads()
	v = float32(tid / k)
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
}

// OtherValue: the region also sets u, which every thread reads later:
// every thread.
func OtherValue(t cuda.Thread, a, sums []float32) {
	tid := t.ThreadIdx().X
	v := a[t.Grid1()]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	t.SyncThreads()
	v = 1
	u := v * float32(tid)
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
	t.SyncThreads()
	a[t.Grid1()] = u
}

// LaneZero: after the tree lane 0 of each warp is read (every warp): the
// region computing the tree's input visits every thread.
func LaneZero(t cuda.Thread, a, sums []float32) {
	tid := t.ThreadIdx().X
	v := a[t.Grid1()]
	t.SyncThreads()
	v = v * 2
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid%32 == 0 {
		sums[t.Grid1()/32] = v
	}
}

// Stores: the region writes global memory outside the guard: every thread.
func Stores(t cuda.Thread, a, sums []float32) {
	tid := t.ThreadIdx().X
	v := a[t.Grid1()]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	t.SyncThreads()
	v = 0
	sums[0] = 1
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
}

// PositionValue: the region also sets u, a function of the thread's
// position that the region reading it recomputes: warp 0 only.
func PositionValue(t cuda.Thread, a, sums []float32) {
	tid := t.ThreadIdx().X
	v := a[t.Grid1()]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	t.SyncThreads()
	v = 1
	u := float32(tid)
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = v
	}
	t.SyncThreads()
	a[t.Grid1()] = u
}

// AllLanes: every lane of the tree's result is read afterwards, so each
// round computes every lane: the tree stays a loop.
func AllLanes(t cuda.Thread, a []float32) {
	v := a[t.Grid1()]
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	a[t.Grid1()] = v
}

// VarStart: a tree starting at a parameter's offset has no known list of
// operations: it stays a loop.
func VarStart(t cuda.Thread, a, sums []float32, start int) {
	v := a[t.Grid1()]
	for off := start; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	if t.ThreadIdx().X == 0 {
		sums[t.BlockIdx().X] = v
	}
}
