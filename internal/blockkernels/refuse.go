package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// The kernels below assign their parameters or redefine a variable in the
// list that declares it (internal/loopgen/fission_locals.go): forms that
// kept the goroutine path before. refuse_test.go runs each on the three
// paths.

// RefuseMax is the largest block the refuse kernels take.
const RefuseMax = 64

// RefuseClampParam sums each block's elements of a[:n] by a
// shared-memory tree, n first clamped to a's length by assigning the
// parameter.
func RefuseClampParam(t cuda.Thread, a, out []int32, n int) {
	n = min(n, len(a))
	sh := cuda.SharedArray[int32](t, RefuseMax)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	v := int32(0)
	if i < n {
		v = a[i]
	}
	sh[tid] = v
	t.SyncThreads()
	for s := t.BlockDim().X / 2; s > 0; s /= 2 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.SyncThreads()
	}
	if tid == 0 && t.BlockIdx().X < len(out) {
		out[t.BlockIdx().X] = sh[0] + int32(n)
	}
}

// RefuseSliceParam re-slices its slice parameters by a uniform offset,
// and a again in each round of a loop around barriers.
func RefuseSliceParam(t cuda.Thread, a, out []int32, off int) {
	a = a[off:]
	out = out[off:]
	sh := cuda.SharedArray[int32](t, RefuseMax)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	for r := 0; r < off; r++ {
		if i < len(a) {
			sh[tid] = a[i] + int32(r)
		} else {
			sh[tid] = int32(len(a))
		}
		t.SyncThreads()
		if i < len(out) {
			out[i] += sh[(tid+r+1)%t.BlockDim().X]
		}
		t.SyncThreads()
		a = a[1:]
	}
}

// RefuseThreadParam gives its parameters a thread's values, which live
// across a barrier.
func RefuseThreadParam(t cuda.Thread, a []int32, k int, scale int32) {
	k += t.ThreadIdx().X * 3
	scale *= int32(k%5) - 2
	sh := cuda.SharedArray[int32](t, RefuseMax)
	tid := t.ThreadIdx().X
	sh[tid] = int32(k)
	t.SyncThreads()
	if i := t.Grid1(); i < len(a) {
		a[i] = sh[(tid+1)%t.BlockDim().X]*scale + int32(k)
	}
}

// RefuseSplit bounds a loop around barriers with m, then gives m a
// thread's value computed from the bound.
func RefuseSplit(t cuda.Thread, a []int32, n int) {
	sh := cuda.SharedArray[int32](t, RefuseMax)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	m := n%4 + 1
	sh[tid] = int32(tid)
	for r := 0; r < m; r++ {
		if tid == r {
			sh[tid] += int32(m * 10)
		}
		t.SyncThreads()
		v := sh[(tid+r+1)%t.BlockDim().X] % 7
		t.SyncThreads()
		sh[tid] += v
	}
	m = tid*2 + m
	t.SyncThreads()
	if i < len(a) {
		a[i] = int32(m) + sh[(tid+1)%t.BlockDim().X]
	}
}

// RefuseSplitChain defines x three times: a thread's value, a constant
// doubled in a loop around barriers, a thread's value again.
func RefuseSplitChain(t cuda.Thread, a []float32, n int) {
	sh := cuda.SharedArray[float32](t, RefuseMax)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	x := float32(tid) * 0.5
	sh[tid] = x
	t.SyncThreads()
	x = 2
	for x < float32(n) {
		sh[tid] += x
		t.SyncThreads()
		x *= 2
	}
	x = x + sh[(tid+3)%t.BlockDim().X]
	t.SyncThreads()
	if i < len(a) {
		a[i] = x
	}
}

// RefuseLabeled rotates a shared tile in nested loops around barriers,
// continuing and leaving the outer loop from the inner one by labels,
// under conditions the same in every thread.
func RefuseLabeled(t cuda.Thread, a []int32, n int) {
	sh := cuda.SharedArray[int32](t, RefuseMax)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	v := int32(tid)
	if i < len(a) {
		v = a[i]
	}
rounds:
	for r := 0; r < 5; r++ {
		for k := range 3 {
			sh[tid] = v
			t.SyncThreads()
			v += sh[(tid+k+1)%t.BlockDim().X] * int32(r+1)
			t.SyncThreads()
			if k == n%3 {
				continue rounds
			}
			if r+k >= n {
				v ^= int32(r)
				break rounds
			}
		}
		v++
	}
	if i < len(a) {
		a[i] = v
	}
}

// RefuseSplitOp changes a loop bound by a thread's value with assignment
// operators once the loop around barriers is done.
func RefuseSplitOp(t cuda.Thread, a []int32, n int) {
	sh := cuda.SharedArray[int32](t, RefuseMax)
	tid := t.ThreadIdx().X
	m := n%3 + 1
	sh[tid] = int32(tid)
	for r := 0; r < m; r++ {
		t.SyncThreads()
		v := sh[(tid+r)%t.BlockDim().X]
		t.SyncThreads()
		sh[tid] = v*3 + int32(r)
	}
	m <<= tid % 4
	m -= n
	t.SyncThreads()
	if i := t.Grid1(); i < len(a) {
		a[i] = int32(m) + sh[(tid+m&63)%t.BlockDim().X]
	}
}

// RefuseParamAddr changes its parameter through its address after a
// barrier. Its block loop shared the parameter among the block's threads
// (each thread added to the others' sums); it keeps goroutines now.
func RefuseParamAddr(t cuda.Thread, a []int32, n int) {
	t.SyncThreads()
	p := &n
	*p += t.ThreadIdx().X
	if i := t.Grid1(); i < len(a) {
		a[i] = int32(n)
	}
}
