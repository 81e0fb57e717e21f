package corpus

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// Atomics on global and shared memory; results are order-independent.

func atomicHistogram(t cuda.Thread, a []int32, hist []int32) {
	if i := t.Grid1(); i < len(a) {
		b := a[i] % 16
		if b < 0 {
			b = -b
		}
		cuda.AtomicAdd(&hist[b], 1)
	}
}

func atomicGlobalOps(t cuda.Thread, a []int64, sum, mx, mn []int64, or, and, xor []uint32, cnt []uint64) {
	if i := t.Grid1(); i < len(a) {
		cuda.AtomicAdd(&sum[0], a[i]%1000)
		cuda.AtomicSub(&sum[1], a[i]%1000)
		cuda.AtomicMax(&mx[0], a[i])
		cuda.AtomicMin(&mn[0], a[i])
		cuda.AtomicOr(&or[0], uint32(a[i]))
		cuda.AtomicAnd(&and[0], uint32(a[i])|0xF0F0F0F0)
		cuda.AtomicXor(&xor[0], uint32(i))
		cuda.AtomicAdd(&cnt[0], 1)
	}
}

// atomicFloat's inputs hold NaNs: a NaN is never stored, as on the CPU.
func atomicFloat(t cuda.Thread, a []float64, f []float32, sum []float64, fsum []float32, mx []float64, mn []float32) {
	if i := t.Grid1(); i < len(a) {
		cuda.AtomicAdd(&sum[0], float64(i%8))
		cuda.AtomicAdd(&fsum[0], float32(i%4))
		cuda.AtomicMax(&mx[0], a[i])
		cuda.AtomicMin(&mn[0], f[i])
	}
}

func atomicShared(t cuda.Thread, a []int32, out []int32) {
	sh := cuda.SharedArray[int32](t, 9)
	tid := t.ThreadIdx().X
	if tid < 9 {
		sh[tid] = 0
	}
	t.SyncThreads()
	if i := t.Grid1(); i < len(a) {
		cuda.AtomicAdd(&sh[tid%8], a[i]%100)
		cuda.AtomicMax(&sh[8], int32(tid))
	}
	t.SyncThreads()
	if tid < 9 {
		cuda.AtomicAdd(&out[tid], sh[tid])
	}
}

// atomicCASExch: each thread claims slot i%8 once via CAS; Exch counts.
func atomicCASExch(t cuda.Thread, owners []int32, claimed []int32, ex []uint64) {
	if i := t.Grid1(); i < len(claimed) {
		if cuda.AtomicCAS(&owners[i%8], -1, int32(i%8)) == -1 {
			cuda.AtomicAdd(&claimed[i%8], 1)
		}
		cuda.AtomicExch(&ex[i%4], uint64(i%4)*10)
	}
}

func minusOnes(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = -1
	}
	return out
}

// atomicWrap counts with AtomicInc and AtomicDec, 32 bits (atom.inc,
// atom.dec) and 64 (a CAS loop), from inside and outside the range and in
// shared memory. The counters' final values and the sums of the old values
// do not depend on the order the threads come in.
func atomicWrap(t cuda.Thread, c32 []uint32, c64 []uint64, sums []uint64) {
	sh := cuda.SharedArray[uint32](t, 1)
	if i := t.Grid1(); i < 1000 {
		cuda.AtomicAdd(&sums[0], uint64(cuda.AtomicInc(&c32[0], 6)))
		cuda.AtomicAdd(&sums[1], uint64(cuda.AtomicDec(&c32[1], 4)))
		cuda.AtomicAdd(&sums[2], uint64(cuda.AtomicInc(&c32[2], 6)))
		cuda.AtomicAdd(&sums[3], cuda.AtomicInc(&c64[0], 1<<40))
		cuda.AtomicAdd(&sums[4], cuda.AtomicDec(&c64[1], 9))
		cuda.AtomicInc(&sh[0], 2)
	}
	t.SyncThreads()
	if t.ThreadIdx().X == 0 {
		cuda.AtomicAdd(&sums[5], uint64(sh[0]))
	}
}

// atomicHalfAdd: one AtomicAdd per element of x adds b[i] to a[i]'s copy
// (the rounding edge cases of cycleF16: ties, overflow, NaN, subnormals)
// and keeps the old value; the histogram and sums add small multiples of
// 1/4 whose partial sums are all exact in half, so their results do not
// depend on the order the threads come in.
func atomicHalfAdd(t cuda.Thread, a32 []int32, x, b, old, hist, sums []cuda.Float16) {
	if i := t.Grid1(); i < len(a32) {
		old[i] = cuda.AtomicAdd(&x[i], b[i])
		bin := a32[i] % 16
		if bin < 0 {
			bin = -bin
		}
		cuda.AtomicAdd(&hist[bin], cuda.F16(1))
		cuda.AtomicSub(&sums[0], cuda.F16(float32(i%5-2)))
		cuda.AtomicAdd(&sums[1], cuda.F16(0.25))
		cuda.AtomicSub(&sums[2], cuda.F16(-0.75))
	}
}

// atomicHalfCompare: Max and Min over values with NaNs (never stored; a
// NaN there never replaced) and with ±Inf, so no tie of -0 and +0
// decides the result; CAS claims by bits (-0 never matches +0); Exch.
func atomicHalfCompare(t cuda.Thread, a []cuda.Float16, mx, mn, owners []cuda.Float16, claimed []int32, ex []cuda.Float16) {
	if i := t.Grid1(); i < len(a) {
		cuda.AtomicMax(&mx[0], a[i])
		cuda.AtomicMax(&mx[1], a[i]) // starts NaN
		// +0 or NaN: never a tie of -0 and +0
		cuda.AtomicMax(&mx[2], cuda.HAbs(cuda.HMul(a[i], cuda.F16(0))))
		cuda.AtomicMin(&mn[0], a[i])
		cuda.AtomicMin(&mn[1], a[i]) // starts NaN
		if cuda.AtomicCAS(&owners[i%8], cuda.F16(-1), cuda.F16(float32(i%8))).Bits() == 0xBC00 {
			cuda.AtomicAdd(&claimed[i%8], 1)
		}
		cuda.AtomicCAS(&owners[8], cuda.Float16FromBits(0), cuda.F16(5)) // holds -0
		cuda.AtomicExch(&ex[i%4], cuda.F16(float32(i%4)*10+0.5))
	}
}

// atomicHalfShared: the same atomics on a Float16 shared array, whose
// elements pair up in 32-bit words; each block adds its counts into out.
func atomicHalfShared(t cuda.Thread, a []cuda.Float16, out []cuda.Float16) {
	sh := cuda.SharedArray[cuda.Float16](t, 12)
	tid := t.ThreadIdx().X
	if tid < 12 {
		sh[tid] = cuda.Float16FromBits(0)
		if tid == 8 {
			sh[tid] = cuda.Float16FromBits(0xFC00) // -Inf
		}
	}
	t.SyncThreads()
	if i := t.Grid1(); i < len(a) {
		cuda.AtomicAdd(&sh[tid%8], cuda.F16(1))
		cuda.AtomicMax(&sh[8], a[i])
		cuda.AtomicSub(&sh[9], cuda.F16(0.5))
		if cuda.AtomicCAS(&sh[10], cuda.Float16FromBits(0), cuda.F16(1)).Bits() == 0 {
			cuda.AtomicMin(&sh[10], cuda.F16(-3))
		}
		cuda.AtomicExch(&sh[11], cuda.F16(7))
	}
	t.SyncThreads()
	switch {
	case tid == 8 || tid == 10:
		cuda.AtomicMin(&out[tid], sh[tid])
	case tid < 12:
		cuda.AtomicAdd(&out[tid], sh[tid])
	}
}

// atomicNan: AtomicNanMax and AtomicNanMin (Numba's nanmax, nanmin)
// over inputs with NaNs and ±Inf, into elements that start as NaN (the
// first number replaces it, a NaN given is ignored) on global and shared
// memory; x-x is +0 for a finite x and NaN for the rest. The results do
// not depend on the order the threads come in. On integers (im) they are
// AtomicMax and AtomicMin.
func atomicNan(t cuda.Thread, a []float64, f []float32, h []cuda.Float16, mx []float64, mn []float32, hmx []cuda.Float16, out []float32, im []int64) {
	sh := cuda.SharedArray[float32](t, 2)
	tid := t.ThreadIdx().X
	if tid < 2 {
		sh[tid] = out[2+tid] // NaN
	}
	t.SyncThreads()
	if i := t.Grid1(); i < len(a) {
		cuda.AtomicNanMax(&mx[0], a[i])
		cuda.AtomicNanMax(&mx[1], a[i]-a[i])
		cuda.AtomicNanMin(&mn[0], f[i])
		cuda.AtomicNanMin(&mn[1], f[i]-f[i])
		cuda.AtomicNanMax(&hmx[0], h[i])
		cuda.AtomicNanMin(&hmx[1], h[i])
		cuda.AtomicNanMax(&sh[0], f[i]*0.5)
		cuda.AtomicNanMin(&sh[1], f[i]-f[i])
		cuda.AtomicNanMax(&im[0], int64(i%1000)-500)
		cuda.AtomicNanMin(&im[1], int64(i%1000)-500)
	}
	t.SyncThreads()
	if tid < 2 {
		if tid == 0 {
			cuda.AtomicNanMax(&out[0], sh[0])
		} else {
			cuda.AtomicNanMin(&out[1], sh[1])
		}
	}
}

// atomicComplex: AtomicAddComplex on complex64 and complex128 elements of
// global and shared memory, each contended by many threads of several
// blocks, with values whose parts are small multiples of 1/4, so that the
// sums are exact in any order; the old values are kept where they do not
// depend on the order (every thread's own element).
func atomicComplex(t cuda.Thread, x []complex128, own, olds, g64 []complex64, g128 []complex128) {
	sh64 := cuda.SharedArray[complex64](t, 1)
	sh128 := cuda.SharedArray[complex128](t, 1)
	tid := t.ThreadIdx().X
	if tid == 0 {
		sh64[0], sh128[0] = 0, 0
	}
	t.SyncThreads()
	if i := t.Grid1(); i < len(x) {
		v := x[i]
		cuda.AtomicAddComplex(&g128[i%3], v)
		cuda.AtomicAddComplex(&g64[i%2], complex64(v))
		cuda.AtomicAddComplex(&sh64[0], complex64(v))
		cuda.AtomicAddComplex(&sh128[0], -v)
		olds[i] = cuda.AtomicAddComplex(&own[i], complex64(v)+1i)
	}
	t.SyncThreads()
	if tid == 0 {
		cuda.AtomicAddComplex(&g64[2], sh64[0])
		cuda.AtomicAddComplex(&g128[3], sh128[0])
	}
}

// quarterComplexes are n complex numbers whose parts are multiples of
// 1/4 between -8 and 8.
func quarterComplexes(n int) []complex128 {
	out := make([]complex128, n)
	for i := range out {
		out[i] = complex(float64(i*7%65-32)/4, float64(i*11%61-30)/4)
	}
	return out
}

func halfFill(n int, b uint16) []cuda.Float16 {
	out := make([]cuda.Float16, n)
	for i := range out {
		out[i] = cuda.Float16FromBits(b)
	}
	return out
}

var atomicCases = []Case{
	c1("atomics/histogram", atomicHistogram, func() []any { return []any{cycleOf[int32](n1), zeros[int32](16)} }),
	c1("atomics/global_ops", atomicGlobalOps, func() []any {
		return []any{cycleI64(n1), zeros[int64](2), []int64{-1 << 62}, []int64{1 << 62}, zeros[uint32](1), []uint32{0xFFFFFFFF}, zeros[uint32](1), zeros[uint64](1)}
	}),
	c1("atomics/float", atomicFloat, func() []any {
		return []any{cycleF64(n1), cycleF32(n1), zeros[float64](1), zeros[float32](1), []float64{-1e308}, []float32{3e38}}
	}),
	c1("atomics/shared", atomicShared, func() []any { return []any{cycleOf[int32](n1), zeros[int32](9)} }),
	c1("atomics/inc_dec", atomicWrap, func() []any {
		return []any{[]uint32{0, 0, 100}, []uint64{1<<40 - 5, 50}, zeros[uint64](6)}
	}),
	c1("atomics/cas_exch", atomicCASExch, func() []any { return []any{minusOnes(8), zeros[int32](8), zeros[uint64](4)} }),
	c1("atomics/half_add", atomicHalfAdd, func() []any {
		return []any{cycleOf[int32](n1), cycleF16(n1, 0), cycleF16(n1, 9), make([]cuda.Float16, n1), make([]cuda.Float16, 16), make([]cuda.Float16, 3)}
	}),
	c1("atomics/half_compare", atomicHalfCompare, func() []any {
		owners := append(halfFill(8, 0xBC00), cuda.Float16FromBits(0x8000))
		return []any{cycleF16(n1, 3), []cuda.Float16{cuda.F16(-7), cuda.Float16FromBits(0x7E00), cuda.F16(-1)},
			[]cuda.Float16{cuda.F16(7), cuda.Float16FromBits(0xFE00)}, owners, zeros[int32](8), make([]cuda.Float16, 4)}
	}),
	c1("atomics/nan", atomicNan, func() []any {
		nan64, nan32 := math.NaN(), float32(math.NaN())
		return []any{cycleF64(n1), cycleF32(n1), cycleF16(n1, 7), []float64{nan64, nan64}, []float32{nan32, nan32},
			halfFill(2, 0x7E00), []float32{nan32, nan32, nan32, nan32}, []int64{-1 << 40, 1 << 40}}
	}),
	c1("atomics/complex", atomicComplex, func() []any {
		own := make([]complex64, n1)
		for i := range own {
			own[i] = complex(float32(i), -float32(i)/2)
		}
		return []any{quarterComplexes(n1), own, make([]complex64, n1), make([]complex64, 3), []complex128{1, 2i, -3, 4 + 4i}}
	}),
	c1("atomics/half_shared", atomicHalfShared, func() []any {
		out := make([]cuda.Float16, 12)
		out[8], out[10] = cuda.Float16FromBits(0x7C00), cuda.Float16FromBits(0x7C00)
		return []any{cycleF16(n1, 5), out}
	}),
}
