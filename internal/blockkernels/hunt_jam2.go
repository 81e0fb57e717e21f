package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// More jam and interchange hunt kernels (hunt_jam_test.go): variables of
// array type changed element by element, a loop whose body changes its
// own variable, names that renaming could capture, headers of other
// forms.

// HuntSwapArr accumulates, over 32 rounds, into the elements of an array
// variable declared before the region's barrier.
func HuntSwapArr(t cuda.Thread, a, out []int32) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	g := t.Grid1()
	var acc [2]int32
	acc[1] = int32(tid)
	if g < len(a) {
		acc[0] = a[g]
		sh[tid] = a[g]
	}
	t.SyncThreads()
	for p := 0; p < 32; p++ {
		acc[p%2] += sh[(tid+p)%n] * int32(p+1)
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = acc[0]*3 + acc[1]
	}
}

// HuntJamArr is HuntSwapArr with 8 rounds (jammed).
func HuntJamArr(t cuda.Thread, a, out []int32) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	g := t.Grid1()
	var acc [2]int32
	acc[1] = int32(tid)
	if g < len(a) {
		acc[0] = a[g]
		sh[tid] = a[g]
	}
	t.SyncThreads()
	for p := 0; p < 8; p++ {
		acc[p%2] += sh[(tid+p)%n] * int32(p+1)
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = acc[0]*3 + acc[1]
	}
}

// HuntSwapStep changes its loop's variable in the loop's body.
func HuntSwapStep(t cuda.Thread, a, out []int32) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	g := t.Grid1()
	if g < len(a) {
		sh[tid] = a[g]
	}
	t.SyncThreads()
	s := sh[tid]
	for p := 0; p < 32; p++ {
		s += sh[(tid+p)%n]
		p++
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = s
	}
}

// HuntJamStep is HuntSwapStep with 8 rounds and a statement after the
// loop (jammed).
func HuntJamStep(t cuda.Thread, a, out []int32) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	g := t.Grid1()
	if g < len(a) {
		sh[tid] = a[g]
	}
	t.SyncThreads()
	s := sh[tid]
	for p := 0; p < 8; p++ {
		s += sh[(tid+p)%n]
		p++
	}
	s++
	t.SyncThreads()
	if g < len(out) {
		out[g] = s
	}
}

// HuntJamNames has parameters named like the copies of its thread's
// variables (s1, s2, tid1) that the jammed loop reads.
func HuntJamNames(t cuda.Thread, a, out []int32, s1, s2, tid1 int32) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	g := t.Grid1()
	if g < len(a) {
		sh[tid] = a[g]
	}
	t.SyncThreads()
	s := sh[tid]
	for p := 0; p < 8; p++ {
		s += sh[(tid+p)%n]*s1 + s2 + tid1
	}
	s *= 2
	t.SyncThreads()
	if g < len(out) {
		out[g] = s
	}
}

// HuntSwapHeaders runs loops of other headers: <=, a step of 2 and 3,
// rounds not a multiple of 16 (24, 17), int64 and uint8 sums, in
// regions of their own.
func HuntSwapHeaders(t cuda.Thread, a []int32, out []int64, out8 []uint8) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	g := t.Grid1()
	if g < len(a) {
		sh[tid] = a[g]
	}
	t.SyncThreads()
	var s int64
	for p := 0; p <= 31; p += 2 {
		s += int64(sh[(tid+p)%n]) << (p % 7)
	}
	t.SyncThreads()
	var u uint8
	for p := 3; p < 54; p += 3 {
		u += uint8(sh[(tid*p)%n]) * uint8(p)
	}
	t.SyncThreads()
	var v int64
	for p := int64(-5); p < 19; p++ {
		v = v*3 + int64(sh[(tid+int(p)+5)%n])*p
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = s ^ v
		out8[g] = u
	}
}

// huntPair is a struct value the threads of HuntStructField set field by
// field.
type huntPair struct {
	lo, hi int32
	arr    [2]int32
}

// HuntStructField keeps per-thread values in fields of a struct variable
// (and an array inside it) across barriers.
func HuntStructField(t cuda.Thread, a, out []int32) {
	tid := t.ThreadIdx().X
	g := t.Grid1()
	var q huntPair
	q.lo = int32(tid)
	if g < len(a) {
		q.hi = a[g]
	}
	q.arr[1] = int32(g)
	t.SyncThreads()
	q.lo += q.hi * 2
	t.SyncThreads()
	if g < len(out) {
		out[g] = q.lo + q.arr[1]
	}
}

// HuntSwapCarried carries a sum declared before a barrier through an
// interchanged loop of 48 rounds into a later region, with position
// values computed before the barrier, and a jammed loop over values
// loaded from an earlier region whose result two regions later read.
func HuntSwapCarried(t cuda.Thread, a, out []int32) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	g := t.Grid1()
	k := tid%5 + 1
	s := int32(tid) * 7
	var u, w int32
	if g < len(a) {
		sh[tid] = a[g]
		u = a[g] >> 2
	}
	t.SyncThreads()
	for p := 0; p < 48; p++ {
		s += sh[(tid+p*k)%n] ^ int32(p)
	}
	t.SyncThreads()
	for p := 0; p < 5; p++ {
		u = u*3 + sh[(tid+p)%n]
		w += u
	}
	u -= w
	t.SyncThreads()
	sh[tid] = s
	t.SyncThreads()
	if g < len(out) {
		out[g] = s + u + sh[(tid+1)%n]
	}
}

// HuntArrParam sets elements of an array parameter, which each thread
// has a copy of.
func HuntArrParam(t cuda.Thread, a []int32, c [4]int32) {
	tid := t.ThreadIdx().X
	c[tid%4] += int32(tid)
	t.SyncThreads()
	if g := t.Grid1(); g < len(a) {
		a[g] = c[0] + c[1]*10 + c[2]*100 + c[3]*1000
	}
}

// HuntJamShadow declares, in the regions of a jammed (8 rounds) and an
// interchanged (32) loop, new variables named like the thread's
// variables of earlier regions that they read (k := k * 2), and a loop
// variable named like a position variable.
func HuntJamShadow(t cuda.Thread, a, out []int32) {
	sh := cuda.SharedArray[int32](t, HuntMax)
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

// HuntLocalType keeps, across barriers, a variable of a type declared in
// the kernel's body, carried through an interchanged loop.
func HuntLocalType(t cuda.Thread, a, out []int32) {
	type acc int64
	sh := cuda.SharedArray[int32](t, HuntMax)
	tid := t.ThreadIdx().X
	n := t.BlockDim().X
	g := t.Grid1()
	q := acc(tid)
	if g < len(a) {
		sh[tid] = a[g]
	}
	t.SyncThreads()
	var s acc
	for p := 0; p < 32; p++ {
		s += acc(sh[(tid+p)%n]) * q
	}
	t.SyncThreads()
	if g < len(out) {
		out[g] = int32(s)
	}
}
