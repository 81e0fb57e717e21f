package fission

import "github.com/nugo-dev/nugo/cuda"

// UniformInIf assigns its loop's bound and stride inside ifs without
// barriers, under conditions the same in every thread: both stay uniform,
// the ifs run once per block and the loop around the barrier stays a loop.
func UniformInIf(t cuda.Thread, a []int32, n int) {
	rounds := 1
	if n > 64 {
		rounds = 2
	}
	stride := 1
	if t.BlockIdx().X == 0 {
		stride = 2
	} else if n > 8 {
		stride = 3
	}
	for k := 0; k < rounds; k++ {
		a[t.Grid1()] += int32(stride)
		t.SyncThreads()
	}
}

// UniformAccumulate sums a uniform loop's counter into a uniform value
// without barriers, which then bounds a loop around one.
func UniformAccumulate(t cuda.Thread, a []int32, n int) {
	total := 0
	for k := range n {
		if k%2 == 0 {
			total += k
		}
	}
	for k := 0; k < total; k++ {
		a[t.Grid1()]++
		t.SyncThreads()
	}
}

// UniformBreak leaves and continues a loop around barriers on uniform
// conditions.
func UniformBreak(t cuda.Thread, a []int32, n int) {
	for k := 0; k < 8; k++ {
		if k == n {
			break
		}
		if k%2 == 1 {
			continue
		}
		a[t.Grid1()] += int32(k)
		t.SyncThreads()
	}
}

// ShadowAcross declares x again inside a loop around barriers, hiding an
// x that lives across them: the inner one is renamed in the block loop.
func ShadowAcross(t cuda.Thread, a []int32) {
	x := int32(t.ThreadIdx().X) * 3
	t.SyncThreads()
	for i := 0; i < 2; i++ {
		x := x + int32(i)
		t.SyncThreads()
		a[t.Grid1()] += x
	}
	a[t.Grid1()] += x
}

// DivergentAssign assigns its loop's bound under a condition that differs
// from thread to thread: the bound is not uniform.
func DivergentAssign(t cuda.Thread, a []int32) {
	rounds := 1
	if t.ThreadIdx().X < 3 {
		rounds = 2
	}
	for k := 0; k < rounds; k++ {
		a[t.Grid1()]++
		t.SyncThreads()
	}
}

// MixedIf assigns its loop's bound in an if that also stores: the if
// becomes a Go if around the loop over the threads that store, and the
// bound's assignment runs once per block.
func MixedIf(t cuda.Thread, a []int32, n int) {
	rounds := 1
	if n > 4 {
		rounds = 2
		a[t.Grid1()] = 0
	}
	for k := 0; k < rounds; k++ {
		a[t.Grid1()]++
		t.SyncThreads()
	}
}

// NestedMixedIf assigns a bound in an if nested in an if that stores,
// and stops a loop around barriers with a break in such an if.
func NestedMixedIf(t cuda.Thread, a []int32, n int) {
	limit := 3
	for k := 0; k < 8; k++ {
		if n > 1 {
			a[t.Grid1()] += 2
			if k > n {
				limit--
			}
			if k == limit {
				a[t.Grid1()]++
				break
			}
		}
		t.SyncThreads()
	}
}

// CarriedDivergent makes its bound thread dependent in a later iteration
// of a uniform loop: the fixpoint sees it.
func CarriedDivergent(t cuda.Thread, a []int32) {
	bound, step := 1, 0
	for k := 0; k < 3; k++ {
		bound += step
		step = int(t.ThreadIdx().X)
	}
	for k := 0; k < bound; k++ {
		a[t.Grid1()]++
		t.SyncThreads()
	}
}

// SwitchUniform waits at barriers in the cases of a switch on a value the
// same in every thread: it runs as an if-else chain.
func SwitchUniform(t cuda.Thread, a []int32, n int) {
	switch m := n % 4; m {
	case 0, 1:
		a[t.Grid1()]++
		t.SyncThreads()
	case 2:
		t.SyncThreads()
		a[t.Grid1()] += 2
	default:
		for k := 0; k < 2; k++ {
			t.SyncThreads()
		}
	}
}

// SwitchFallthrough falls through from a case with a barrier.
func SwitchFallthrough(t cuda.Thread, a []int32, n int) {
	switch n {
	case 0:
		t.SyncThreads()
		fallthrough
	case 1:
		a[t.Grid1()]++
	}
}

// SwitchNestedBreak has a switch of a thread's own, with a break of its
// own, in a case of a uniform switch around barriers.
func SwitchNestedBreak(t cuda.Thread, a []int32, n int) {
	switch n % 2 {
	case 0:
		switch a[t.Grid1()] & 3 {
		case 1:
			if a[t.Grid1()] > 8 {
				break
			}
			a[t.Grid1()]++
		}
		t.SyncThreads()
	}
}
