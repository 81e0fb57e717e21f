package blockkernels

import "github.com/nugo-dev/nugo/cuda"

// The kernels below stress uniformity (internal/loopgen/fission_uniform.go):
// ifs promoted around barriers, uniform values assigned in ifs and loops,
// switches written as if-else chains, shadowing renames.
// hunt_uniform_test.go runs each on the three paths.

// HuntPromoted sets, under a uniform condition that also does a thread's
// work, the round count of a loop around barriers, and breaks that loop
// from a uniform if that also writes.
func HuntPromoted(t cuda.Thread, a []int32, n int) {
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	rounds := 1
	if n > 4 {
		rounds = n / 2
		if i < len(a) {
			a[i] += 3
		}
	}
	lim := 0
	for k := 0; k < n; k++ {
		lim += k % 3
	}
	for r := 0; r < rounds; r++ {
		sh[tid] = int32(r + tid)
		t.SyncThreads()
		if r == lim%5 {
			if i < len(a) {
				a[i] += sh[(tid+1)%t.BlockDim().X]
			}
			break
		}
		if i < len(a) {
			a[i] -= sh[t.BlockDim().X-1-tid]
		}
		t.SyncThreads()
	}
	if i < len(a) {
		a[i] = a[i]*7 + int32(rounds*100+lim)
	}
}

// HuntSwitchDefault is a switch around barriers whose default case sits
// between the others and whose cases list several values.
func HuntSwitchDefault(t cuda.Thread, a []int32, mode int) {
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	v := int32(0)
	if i < len(a) {
		v = a[i]
	}
	switch mode % 4 {
	case 0, 3:
		sh[tid] = v
		t.SyncThreads()
		v = sh[t.BlockDim().X-1-tid]
	default:
		sh[tid] = 2 * v
		t.SyncThreads()
		v += sh[(tid+1)%t.BlockDim().X]
	case 2:
		sh[tid] = -v
		t.SyncThreads()
		v -= sh[0]
	}
	if i < len(a) {
		a[i] = v
	}
}

// HuntSwitchInit is a switch with an init statement, a tag assigned in it,
// and no default; the case order matters (mode 6 matches the first case).
func HuntSwitchInit(t cuda.Thread, a []int32, mode int) {
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	v := int32(1)
	if i < len(a) {
		v = a[i]
	}
	switch m := mode * 2; {
	case m > 10:
		sh[tid] = v + 1
		t.SyncThreads()
		v = sh[0]
	case m > 4:
		sh[tid] = v * 3
		t.SyncThreads()
		v = sh[tid^1]
	}
	if i < len(a) {
		a[i] = v
	}
}

// bumpCount is a device function with an effect: it counts its calls in
// c[0] (thread 0's) and returns mode.
func bumpCount(c []int32, first bool, mode int) int {
	if first {
		c[0]++
	}
	return mode
}

// HuntSwitchEffect's switch tag calls a function with an effect: it must
// be evaluated once, not once per case.
func HuntSwitchEffect(t cuda.Thread, a []int32, c []int32, mode int) {
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	switch bumpCount(c, i == 0, mode) {
	case 1:
		sh[tid] = 1
		t.SyncThreads()
	case 2:
		sh[tid] = 2
		t.SyncThreads()
	case 3:
		sh[tid] = 3
		t.SyncThreads()
	}
	if i < len(a) {
		a[i] = sh[tid]
	}
}

// HuntShadowIf declares x again inside a uniform if around barriers and
// in a loop's init, and reads both across barriers.
func HuntShadowIf(t cuda.Thread, a []int32, n int) {
	tid := t.ThreadIdx().X
	i := t.Grid1()
	x := int32(tid)
	if n > 2 {
		x := x*2 + 1
		t.SyncThreads()
		if i < len(a) {
			a[i] += x
		}
		for x := int32(n); x > 0; x-- {
			t.SyncThreads()
			if i < len(a) {
				a[i] += x
			}
		}
		if i < len(a) {
			a[i] *= x
		}
	}
	t.SyncThreads()
	if i < len(a) {
		a[i] += x
	}
}

// HuntShadowLoop declares x := x + 1 in a loop around barriers, reads it
// after the barrier, and reads the outer x after the loop.
func HuntShadowLoop(t cuda.Thread, a []int32, n int) {
	tid := t.ThreadIdx().X
	i := t.Grid1()
	x := int32(tid % 7)
	for k := 0; k < n; k++ {
		x := x + int32(k)
		t.SyncThreads()
		if i < len(a) {
			a[i] = a[i]*3 + x
		}
		x++
		t.SyncThreads()
		if i < len(a) {
			a[i] -= x
		}
	}
	if i < len(a) {
		a[i] += x
	}
}

// HuntUniformEffects calls, with arguments the same in every thread, a
// device function with an effect and a global atomic, and uses their
// results around barriers: each must run once per thread, not once per
// block.
func HuntUniformEffects(t cuda.Thread, a []int32, c []int32, m int) {
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	bumpCount(c, t.Grid1() == 5, 2)
	cuda.AtomicAdd(&c[1], 1)
	old := cuda.AtomicAdd(&c[2], 1)
	sh[tid] = int32(m)
	t.SyncThreads()
	for k := 0; k < m; k++ {
		v := sh[tid] + sh[(tid+k)%t.BlockDim().X]
		t.SyncThreads()
		sh[tid] = v
		t.SyncThreads()
	}
	if i := t.Grid1(); i < len(a) {
		a[i] = sh[tid]
		if old < 0 {
			a[i] = -1
		}
	}
}

// HuntUniformLoopAssign assigns the bound of a loop around barriers in a
// uniform if inside that loop, after the inner loop reads it, and in a
// loop without barriers before it.
func HuntUniformLoopAssign(t cuda.Thread, a []int32, n int) {
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	s := 0
	for k := 0; k < n; k++ {
		if k%3 == 1 {
			s = k
		}
	}
	v := int32(tid)
	for r := 0; r < 4; r++ {
		for q := 0; q < s; q++ {
			sh[tid] = v
			t.SyncThreads()
			v += sh[(tid+q+1)%t.BlockDim().X]
			t.SyncThreads()
		}
		if r == 1 {
			s = s/2 + 1
		} else if r == 2 {
			continue
		}
		v = v*3 + int32(s)
	}
	if i < len(a) {
		a[i] = v
	}
}

// HuntUniformPanic fails in uniform code (a division by the parameter
// d, zero) after some threads returned: in the statement before a loop
// around barriers (where 0), in that loop's header (where 1), or in a
// uniform if's condition around barriers (where 2).
func HuntUniformPanic(t cuda.Thread, a []int32, gone, d, where int) {
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	sh[tid] = int32(tid)
	t.SyncThreads()
	if tid < gone {
		return
	}
	k := 2
	if where == 0 {
		k = 12 / d
	}
	for r := 0; r < k+12/(d+1-where%2); r++ {
		t.SyncThreads()
		sh[tid]++
	}
	if where == 2 && 12/d > 0 {
		t.SyncThreads()
		sh[tid]--
	}
	if i := t.Grid1(); i < len(a) {
		a[i] = sh[tid]
	}
}
