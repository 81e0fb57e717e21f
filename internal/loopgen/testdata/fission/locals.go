package fission

import "github.com/nugo-dev/nugo/cuda"

// ParamClamp bounds a parameter by its slice's length: a uniform local
// copy of the parameter, set once per block, bounds the loop around the
// barrier.
func ParamClamp(t cuda.Thread, a []int32, n int) {
	n = min(n, len(a))
	for k := 0; k < n; k++ {
		a[t.Grid1()] += int32(k)
		t.SyncThreads()
	}
}

// ParamThread adds the thread's index to a parameter: each thread's copy
// lives across the barrier in a per-thread array.
func ParamThread(t cuda.Thread, a []int32, k int) {
	k += t.ThreadIdx().X
	t.SyncThreads()
	a[t.Grid1()] = int32(k)
}

// SplitUniform bounds a loop around barriers with m, then gives m a
// thread's value: each definition gets its own verdict.
func SplitUniform(t cuda.Thread, a []int32, n int) {
	m := n
	for k := 0; k < m; k++ {
		t.SyncThreads()
	}
	m = t.ThreadIdx().X
	t.SyncThreads()
	a[t.Grid1()] = int32(m)
}

// SplitConst sets y from a thread's value, then to a constant that bounds
// a loop around a barrier: the constant keeps y's type.
func SplitConst(t cuda.Thread, a []float32) {
	y := float32(t.ThreadIdx().X)
	a[t.Grid1()] = y
	y = 3
	for k := float32(0); k < y; k++ {
		t.SyncThreads()
	}
	a[t.Grid1()] += y
}

// SplitNested gives m a thread's value inside an if: not a definition of
// the list that declares m, so m has one verdict, not uniform.
func SplitNested(t cuda.Thread, a []int32, n int) {
	m := n
	if t.ThreadIdx().X > 2 {
		m = 1
	}
	for k := 0; k < m; k++ {
		t.SyncThreads()
	}
	a[t.Grid1()] = int32(m)
}

// LabeledBreak leaves and continues the outer loop around barriers from
// the inner one, under conditions the same in every thread.
func LabeledBreak(t cuda.Thread, a []int32, n int) {
outer:
	for i := 0; i < 4; i++ {
		for k := 0; k < 3; k++ {
			a[t.Grid1()] += int32(i*3 + k)
			t.SyncThreads()
			if k == n {
				continue outer
			}
			if i+k == n+2 {
				a[t.Grid1()]++
				break outer
			}
		}
		t.SyncThreads()
	}
}

// LabeledDivergent leaves the outer loop around barriers in some threads
// only.
func LabeledDivergent(t cuda.Thread, a []int32) {
outer:
	for i := 0; i < 4; i++ {
		for k := 0; k < 3; k++ {
			t.SyncThreads()
			if t.ThreadIdx().X == k {
				break outer
			}
		}
	}
	a[t.Grid1()] = 1
}

// SplitDead bounds a loop around a barrier with m, then gives m a
// thread's value that nothing reads: the assignment keeps its right side
// only (`_ = a[i]`, which still fails where the index does).
func SplitDead(t cuda.Thread, a []int32, n int) {
	m := n
	for k := 0; k < m; k++ {
		a[t.Grid1()]++
		t.SyncThreads()
	}
	m = int(a[t.Grid1()])
}

// SwitchLabeled leaves a labeled loop around barriers inside a case of a
// uniform switch: the break does not leave the switch, which becomes an
// if-else chain.
func SwitchLabeled(t cuda.Thread, a []int32, n int) {
	switch n % 3 {
	case 0:
		a[t.Grid1()] = 1
	default:
	rounds:
		for k := 0; k < 4; k++ {
			t.SyncThreads()
			if k == n {
				break rounds
			}
		}
	}
}

// SplitOp adds a thread's value to a loop bound after the loop: the
// increment defines a new variable from the uniform one.
func SplitOp(t cuda.Thread, a []int32, n int) {
	m := n
	for k := 0; k < m; k++ {
		t.SyncThreads()
	}
	m += t.ThreadIdx().X * 2
	t.SyncThreads()
	a[t.Grid1()] = int32(m)
}

// SplitPair gives m a thread's value in an assignment of two variables:
// not split, so m has one verdict, not uniform.
func SplitPair(t cuda.Thread, a []int32, n int) {
	m, w := n, 0
	for k := 0; k < m; k++ {
		t.SyncThreads()
	}
	m, w = t.ThreadIdx().X, m
	a[t.Grid1()] = int32(m + w)
}

// ParamAddr changes a parameter through its address, then reads it after
// a barrier: each thread's copy (the goroutine path's) would need its
// address across the barrier, so the kernel keeps goroutines (the block's
// threads shared the parameter before).
func ParamAddr(t cuda.Thread, a []int32, n int) {
	p := &n
	*p += t.ThreadIdx().X
	t.SyncThreads()
	a[t.Grid1()] = int32(n)
}

// ParamAddrRegion changes a parameter through its address in the region
// after the barrier only; the local copy declared at the top lives across
// the barrier all the same, so the kernel keeps goroutines too.
func ParamAddrRegion(t cuda.Thread, a []int32, n int) {
	t.SyncThreads()
	p := &n
	*p += t.ThreadIdx().X
	a[t.Grid1()] = int32(n)
}
