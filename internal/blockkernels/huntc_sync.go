package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// The kernels below follow the patterns of Numba's CUDA test suite
// (test_sync, test_sm, test_dyn_shared, test_atomics on shared arrays,
// test_warp_ops, test_laplace, test_cooperative_groups) written with
// nugo's API: huntc_test.go runs each through its block loop, the
// goroutine path and ptxsim and requires the same bits and the same
// errors.

// HuntcSyncReduce folds thread-dependent predicates with
// SyncThreadsCount, SyncThreadsAnd and SyncThreadsOr, as test_sync's
// use_syncthreads_count/and/or; threads past the end of a take part with
// a false predicate.
func HuntcSyncReduce(t cuda.Thread, a []int32, out []int32) {
	i := t.Grid1()
	v := int32(0)
	if i < len(a) {
		v = a[i]
	}
	c := t.SyncThreadsCount(v%3 == 0)
	all := t.SyncThreadsAnd(v > -450 || i >= len(a))
	any := t.SyncThreadsOr(v == 499 && t.ThreadIdx().X%2 == 1)
	r := int32(c) * 4
	if all {
		r += 2
	}
	if any {
		r++
	}
	if i < len(out) {
		out[i] = r
	}
}

// HuntcSmem2D fills a 2-D shared array (test_sync's coop_smem2d) with the
// thread's (x, y) and reads it back mirrored after a barrier.
func HuntcSmem2D(t cuda.Thread, out cuda.Array2[float32]) {
	sm := cuda.SharedArray2[float32](t, 10, 20)
	x, y := t.ThreadIdx().X, t.ThreadIdx().Y
	sm.Set(x, y, float32(x+1)/float32(y+1))
	t.SyncThreads()
	bx := t.BlockIdx().X * 10
	out.Set(bx+x, y, sm.At(9-x, 19-y))
}

// HuntcMixedShared keeps shared arrays of five element types, each
// written by one group of threads and read by others after a barrier.
func HuntcMixedShared(t cuda.Thread, a []int32, out []float64) {
	s8 := cuda.SharedArray[int8](t, 256)
	s16 := cuda.SharedArray[uint16](t, 256)
	s64 := cuda.SharedArray[int64](t, 256)
	sf := cuda.SharedArray[float64](t, 256)
	sc := cuda.SharedArray[complex64](t, 64)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	i := t.Grid1()
	v := a[i]
	s8[tid] = int8(v)
	s16[tid] = uint16(v * 3)
	s64[tid] = int64(v) << 33
	sf[tid] = float64(v) / 7
	if tid < 64 {
		sc[tid] = complex(float32(v), float32(-v))
	}
	t.SyncThreads()
	j := n - 1 - tid
	r := float64(s8[j]) + float64(s16[(tid+1)%n]) + float64(s64[j]>>30) + sf[(tid+3)%n]
	r += float64(real(sc[tid%64]) - imag(sc[(tid+5)%64]))
	out[i] = r
}

// HuntcDynShared reads dynamic shared memory through two element types
// that alias it (test_dyn_shared): float32 values written, their bits read
// as uint32 by another thread.
func HuntcDynShared(t cuda.Thread, a []float32, out []uint32) {
	f := cuda.DynamicSharedArray[float32](t)
	u := cuda.DynamicSharedArray[uint32](t)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	f[tid] = a[i] * 2
	t.SyncThreads()
	out[i] = u[(tid+1)%len(u)] ^ uint32(len(f))
}

// HuntcSharedAtomics runs every atomic on shared arrays of int32, uint32
// and float32 elements with the old values used: each kind works on an
// array of its own (so that the final values do not depend on the order
// the threads ran in), each thread sums the old values it got back where
// their multiset does not depend on that order either (an add of a
// constant, inc, dec, a CAS and an exchange of the thread's own element),
// and the block folds those sums.
func HuntcSharedAtomics(t cuda.Thread, a []int32, out []int64) {
	add := cuda.SharedArray[int32](t, 8)
	sub := cuda.SharedArray[int32](t, 8)
	mx := cuda.SharedArray[int32](t, 8)
	mn := cuda.SharedArray[int32](t, 8)
	and := cuda.SharedArray[uint32](t, 8)
	or := cuda.SharedArray[uint32](t, 8)
	xor := cuda.SharedArray[uint32](t, 8)
	inc := cuda.SharedArray[uint32](t, 8)
	dec := cuda.SharedArray[uint32](t, 8)
	fadd := cuda.SharedArray[float32](t, 8)
	fmx := cuda.SharedArray[float32](t, 8)
	fmn := cuda.SharedArray[float32](t, 8)
	own := cuda.SharedArray[int32](t, 256)
	ex := cuda.SharedArray[int32](t, 256)
	olds := cuda.SharedArray[int64](t, 256)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	v := int32(0)
	if i < len(a) {
		v = a[i]
	}
	if tid < 8 {
		add[tid], sub[tid], mx[tid], mn[tid] = 100, 100, -1000, 1000
		and[tid], or[tid], xor[tid], inc[tid], dec[tid] = 0xffff, 0, 0, 50, 3
		fadd[tid], fmx[tid], fmn[tid] = 0.5, -1e9, 1e9
	}
	own[tid] = int32(tid)
	ex[tid] = int32(tid * 3)
	t.SyncThreads()
	k := tid % 8
	var s int64
	s += int64(cuda.AtomicAdd(&add[k], 1))
	s += int64(cuda.AtomicSub(&sub[k], 2))
	cuda.AtomicMax(&mx[k], v)
	cuda.AtomicMin(&mn[k], v)
	cuda.AtomicAnd(&and[k], uint32(v)|0x40)
	cuda.AtomicOr(&or[k], uint32(v)&0x1f)
	cuda.AtomicXor(&xor[k], uint32(tid))
	s += int64(cuda.AtomicInc(&inc[k], 9))
	s += int64(cuda.AtomicDec(&dec[k], 6))
	cuda.AtomicAdd(&fadd[k], float32(v%8)*0.25)
	cuda.AtomicMax(&fmx[k], float32(v))
	cuda.AtomicMin(&fmn[k], float32(v)/4)
	s += int64(cuda.AtomicCAS(&own[tid], int32(tid), v))
	s += int64(cuda.AtomicCAS(&own[tid], int32(tid), 5))
	s += int64(cuda.AtomicExch(&ex[tid], v))
	olds[tid] = s
	t.SyncThreads()
	if tid == 0 {
		var sum int64
		for j := 0; j < t.BlockDim().X; j++ {
			sum += olds[j] + int64(own[j])*3 + int64(ex[j])
		}
		b := t.BlockIdx().X * 97
		out[b] = sum
		for j := 0; j < 8; j++ {
			out[b+1+j] = int64(add[j])
			out[b+9+j] = int64(sub[j])
			out[b+17+j] = int64(mx[j])
			out[b+25+j] = int64(mn[j])
			out[b+33+j] = int64(and[j])
			out[b+41+j] = int64(or[j])
			out[b+49+j] = int64(xor[j])
			out[b+57+j] = int64(inc[j])
			out[b+65+j] = int64(dec[j])
			out[b+73+j] = int64(fadd[j] * 16)
			out[b+81+j] = int64(fmx[j])
			out[b+89+j] = int64(fmn[j] * 4)
		}
	}
}
