package corpus

import "github.com/nugo-dev/nugo/cuda"

// Shared memory with SyncThreads.

func sharedReverse(t cuda.Thread, a []float64) {
	sh := cuda.SharedArray[float64](t, 128)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	if i < len(a) {
		sh[tid] = a[i]
	}
	t.SyncThreads()
	j := t.BlockIdx().X*128 + 127 - tid
	if i < len(a) && j < len(a) {
		a[i] = sh[127-tid]
	}
}

// sharedReduce sums each block's values with a tree reduction.
func sharedReduce(t cuda.Thread, a []int64, sums []int64) {
	sh := cuda.SharedArray[int64](t, 128)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = 0
	if i < len(a) {
		sh[tid] = a[i] % 1000003
	}
	t.SyncThreads()
	for s := 64; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.SyncThreads()
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = sh[0]
	}
}

func sharedTwoArrays(t cuda.Thread, a []int32, out []int32) {
	x := cuda.SharedArray[int32](t, 128)
	y := cuda.SharedArray[int16](t, 128)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	x[tid], y[tid] = int32(tid), int16(-tid)
	if i < len(a) {
		x[tid] += a[i]
	}
	t.SyncThreads()
	if i < len(out) {
		out[i] = x[(tid+1)%128] + int32(y[(tid+5)%128])
	}
}

func sharedDynamic(t cuda.Thread, a []float32, out []float32) {
	sh := cuda.DynamicSharedArray[float32](t)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	if tid < len(sh) {
		sh[tid] = 0
		if i < len(a) {
			sh[tid] = a[i] * 2
		}
	}
	t.SyncThreads()
	if i < len(out) {
		out[i] = sh[(tid+1)%len(sh)] + float32(len(sh))
	}
}

// sharedMovingAverage is the tutorial's 1-D stencil with a halo.
func sharedMovingAverage(t cuda.Thread, a, out []float64) {
	const r = 3
	sh := cuda.SharedArray[float64](t, 128+2*r)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	if i < len(a) {
		sh[tid+r] = a[i]
	} else {
		sh[tid+r] = 0
	}
	if tid < r {
		if i-r >= 0 {
			sh[tid] = a[i-r]
		} else {
			sh[tid] = 0
		}
		if i+128 < len(a) {
			sh[tid+128+r] = a[i+128]
		} else {
			sh[tid+128+r] = 0
		}
	}
	t.SyncThreads()
	if i < len(out) {
		var s float64
		for k := -r; k <= r; k++ {
			s += sh[tid+r+k]
		}
		out[i] = s / (2*r + 1)
	}
}

// sharedHistogram counts values per bin in shared memory that it never
// clears: shared arrays start zeroed, as Go memory does, in every block.
// The 37 bins of bytes and the 3-byte tail are not whole 16-byte units.
func sharedHistogram(t cuda.Thread, a []uint8, counts []uint32) {
	bins := cuda.SharedArray[uint32](t, 37)
	low := cuda.SharedArray[uint8](t, 37)
	i, tid := t.Grid1(), t.ThreadIdx().X
	if i < len(a) {
		cuda.AtomicAdd(&bins[int(a[i])%37], 1)
	}
	t.SyncThreads()
	if tid < 37 {
		low[tid] += uint8(bins[tid]) // += : what was there must be 0
	}
	t.SyncThreads()
	if tid < 37 {
		cuda.AtomicAdd(&counts[tid], bins[tid]+uint32(low[(tid+1)%37])<<16)
	}
}

// sharedDynamicZeroed reads dynamic shared memory it has not written:
// zero, whatever its size.
func sharedDynamicZeroed(t cuda.Thread, out []uint8) {
	sh := cuda.DynamicSharedArray[uint8](t)
	t.SyncThreads()
	if i := t.Grid1(); i < len(out) {
		out[i] = sh[t.ThreadIdx().X%len(sh)] + uint8(len(sh))
	}
}

var sharedCases = []Case{
	{Name: "shared/array2_3", Kernel: sharedArrays2And3, Grid: cuda.Dim1(3), Block: cuda.Dim2(8, 4), Args: func() []any {
		return []any{cycleI64(3 * 32), zeros[int64](3 * 32)}
	}},
	c1("shared/reverse", sharedReverse, func() []any { return []any{iotaF64(n1)} }),
	c1("shared/reduce", sharedReduce, func() []any { return []any{cycleI64(n1), zeros[int64](3)} }),
	c1("shared/two_arrays", sharedTwoArrays, func() []any { return []any{cycleOf[int32](n1), zeros[int32](n1)} }),
	{Name: "shared/dynamic", Kernel: sharedDynamic, Grid: grid1(n1, 128), Block: cuda.Dim1(128), SharedMem: 128 * 4, Args: func() []any {
		return []any{cycleF32(n1), zeros[float32](n1)}
	}},
	c1("shared/moving_average", sharedMovingAverage, func() []any { return []any{iotaF64(n1), zeros[float64](n1)} }),
	c1("shared/histogram_zeroed", sharedHistogram, func() []any { return []any{cycleOf[uint8](n1), zeros[uint32](37)} }),
	{Name: "shared/dynamic_zeroed", Kernel: sharedDynamicZeroed, Grid: grid1(n1, 128), Block: cuda.Dim1(128), SharedMem: 131, Args: func() []any {
		return []any{zeros[uint8](n1)}
	}},
}

// sharedArrays2And3 stages a block's 4×8 inputs in a SharedArray2, reads
// them back transposed (its T()), and sums rows of a SharedArray3 holding
// the same values: Numba's cuda.shared.array with a tuple shape.
func sharedArrays2And3(t cuda.Thread, in, out []int64) {
	tile := cuda.SharedArray2[int64](t, 4, 8)
	cube := cuda.SharedArray3[int64](t, 2, 2, 8)
	x, y := t.ThreadIdx().X, t.ThreadIdx().Y
	g := t.BlockIdx().X*32 + y*8 + x
	tile.Set(y, x, in[g])
	cube.Set(y/2, y%2, x, in[g]*3)
	t.SyncThreads()
	tt := tile.T()
	// Thread (x, y) reads element (x, y) of the 8×4 transpose: tile's (y, x)
	// read through the strides, plus the cube's row sum.
	s := int64(0)
	for k := 0; k < 8; k++ {
		s += cube.At(y/2, y%2, k)
	}
	out[g] = tt.At(x, y)*1000 + s
}
