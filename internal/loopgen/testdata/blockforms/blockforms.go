// Package blockforms holds kernels whose block loops TestBlockLoopForms
// reads: which atomics become plain read-modify-writes and how a flat
// block's loops name the thread's position.
package blockforms

import "github.com/nugo-dev/nugo/cuda"

// Counts has atomics on a hoisted shared array (plain in the block loop),
// on global memory and through an alias of the shared array (both stay
// atomic).
func Counts(t cuda.Thread, a []uint8, counts []uint32, top []float32) {
	bins := cuda.SharedArray[uint32](t, 256)
	peak := cuda.SharedArray[float32](t, 1)
	alias := bins
	tid := t.ThreadIdx().X
	for i := t.Grid1(); i < len(a); i += t.GridSize1() {
		cuda.AtomicAdd(&bins[a[i]], 1)
		cuda.AtomicMax[float32](&peak[0], float32(a[i]))
	}
	if tid == 0 {
		cuda.AtomicOr(&alias[0], 0)
	}
	t.SyncThreads()
	for b := tid; b < len(bins); b += t.BlockDim().X {
		if n := bins[b]; n > 0 {
			cuda.AtomicAdd(&counts[b], n)
		}
	}
	if tid == 0 {
		top[t.BlockIdx().X] = peak[0]
	}
}

// Tile2 stages values in a SharedArray2, which the block loop hoists.
func Tile2(t cuda.Thread, out []float32) {
	tile := cuda.SharedArray2[float32](t, 2, 32)
	x := t.ThreadIdx().X
	tile.Set(0, x, float32(x))
	t.SyncThreads()
	out[t.Grid1()] = tile.At(0, 31-x)
}

// Views reads an Array2 through a variable (the block loop calls AtP, At
// through a pointer) and through a call's result (not addressable: At).
func Views(t cuda.Thread, m cuda.Array2[float32], data, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	x := t.ThreadIdx().X
	sh[x] = m.At(0, x) + cuda.MustView2(data, 2, 32).At(1, x)
	t.SyncThreads()
	out[t.Grid1()] = sh[63-x]
}
