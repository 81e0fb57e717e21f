package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// Kernels that stress unroll-and-jam and loop interchange (hunt_jam_test.go):
// blocks of one and two dimensions whose sizes are not multiples of the jam
// factor, loops of 8, 16, 17 and 32 rounds, sums of several types, and a
// value computed after the jammed loop. Each stages the block's elements in
// shared memory, then sums a per-thread window of them.

// HuntMax is the largest block the hunt kernels take.
const HuntMax = 128

// HuntJam8 sums 8 rounds (jammed) and computes s again after the loop.
func HuntJam8[T Number](t cuda.Thread, a, out []T) {
	sh := cuda.SharedArray[T](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx().Y*d.X + t.ThreadIdx().X
	n := d.X * d.Y
	g := t.BlockIdx().X*n + tid
	var x T
	if g < len(a) {
		x = a[g]
	}
	sh[tid] = x
	t.SyncThreads()
	s := T(tid % 3)
	k := tid%5 + 1
	for p := 0; p < 8; p++ {
		s += sh[(tid+p*k)%n] * T(p+1)
	}
	s = s*T(2) - T(k)
	t.SyncThreads()
	if g < len(out) {
		out[g] = s
	}
}

// HuntSwap16 sums 16 rounds, which the block loop runs written out.
func HuntSwap16[T Number](t cuda.Thread, a, out []T) {
	sh := cuda.SharedArray[T](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx().Y*d.X + t.ThreadIdx().X
	n := d.X * d.Y
	g := t.BlockIdx().X*n + tid
	var x T
	if g < len(a) {
		x = a[g]
	}
	sh[tid] = x
	t.SyncThreads()
	s := sh[tid]
	for p := 0; p < 16; p++ {
		s += sh[(tid*7+p)%n] * T(p+1)
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = s
	}
}

// HuntSwap17 sums 17 rounds: interchanged, a pass of 16 and one of 1.
func HuntSwap17[T Number](t cuda.Thread, a, out []T) {
	sh := cuda.SharedArray[T](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx().Y*d.X + t.ThreadIdx().X
	n := d.X * d.Y
	g := t.BlockIdx().X*n + tid
	var x T
	if g < len(a) {
		x = a[g]
	}
	sh[tid] = x
	t.SyncThreads()
	s := sh[tid]
	for p := 0; p < 17; p++ {
		s += sh[(tid*7+p)%n] * T(p+1)
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = s
	}
}

// HuntSwap32 sums 32 rounds (two passes) into two sums, one of them
// starting from a value the thread computed before the loop.
func HuntSwap32[T Number](t cuda.Thread, a, out []T) {
	sh := cuda.SharedArray[T](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx().Y*d.X + t.ThreadIdx().X
	n := d.X * d.Y
	g := t.BlockIdx().X*n + tid
	var x T
	if g < len(a) {
		x = a[g]
	}
	sh[tid] = x
	t.SyncThreads()
	s := sh[tid]
	var c T
	for p := 0; p < 32; p++ {
		c += sh[(tid+p)%n]
		s = s*T(1) + c
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = s + c
	}
}

// HuntSwapFail is HuntSwap32 with a per-thread offset into sh, so that a
// thread can index past sh in any round of either pass.
func HuntSwapFail(t cuda.Thread, a []int32, off []int) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx().Y*d.X + t.ThreadIdx().X
	n := d.X * d.Y
	g := t.BlockIdx().X*n + tid
	sh[tid] = int32(g)
	t.SyncThreads()
	var s int32
	o := off[g]
	for p := 0; p < 32; p++ {
		s += sh[o+p]
	}
	t.SyncThreads()
	a[g] = s
}

// HuntInstances are the instantiations the hunt tests launch.
var HuntInstances = []any{
	HuntJam8[int32], HuntJam8[float32], HuntJam8[float64],
	HuntSwap16[int32], HuntSwap16[float64],
	HuntSwap17[int32], HuntSwap17[float32], HuntSwap17[float64],
	HuntSwap32[int32], HuntSwap32[float32], HuntSwap32[float64],
}

// HuntJamFail is HuntSwapFail with 8 rounds (jammed).
func HuntJamFail(t cuda.Thread, a []int32, off []int) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx().Y*d.X + t.ThreadIdx().X
	n := d.X * d.Y
	g := t.BlockIdx().X*n + tid
	sh[tid] = int32(g)
	t.SyncThreads()
	var s int32
	o := off[g]
	for p := 0; p < 8; p++ {
		s += sh[o+p]
	}
	t.SyncThreads()
	a[g] = s
}

// HuntSwapFail17 is HuntSwapFail with 17 rounds (interchanged, one round
// of each thread a pass).
func HuntSwapFail17(t cuda.Thread, a []int32, off []int) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	d := t.BlockDim()
	tid := t.ThreadIdx().Y*d.X + t.ThreadIdx().X
	n := d.X * d.Y
	g := t.BlockIdx().X*n + tid
	sh[tid] = int32(g)
	t.SyncThreads()
	var s int32
	o := off[g]
	for p := 0; p < 17; p++ {
		s += sh[o+p]
	}
	t.SyncThreads()
	a[g] = s
}
