package fissiontest

import "testing"

// regressions are the smallest kernels found by the random programs whose
// block loops were wrong (or did not compile), named after what broke,
// the limitations they met (Limit*), and a few hand-written checks.
// Each runs through the same checks as the random programs.
var regressions = []*Program{
	// BugRematLeavesUnusedDecl: x := int64(gi % 10), a function of the
	// thread's position, is recomputed where it is used (after the second
	// barrier) and dropped from the region that defines it; but that
	// region still recomputes gi, which only x used there: nugo_loops.go
	// does not compile ("kernels.go:N: declared and not used: gi"). Found
	// by random program 19 (seed 19); fixed by "fission: fix a region
	// recomputing a position variable that only a dropped declaration
	// read" (fission_used.go).
	{Name: "BugRematLeavesUnusedDecl", BlockX: 33, BlockY: 1, Grid: 2, N: 66, P: 1, Slots: 1, FSlots: 1, Source: `
func BugRematLeavesUnusedDecl(t cuda.Thread, in []int32, fin []float32, out []int64, fout []float64, p int) {
	s0 := cuda.SharedArray[int32](t, 33)
	tid := t.ThreadIdx().X
	gi := t.BlockIdx().X*t.BlockDim().X + tid
	t.SyncThreads()
	s0[tid] = 1
	x := int64(gi % 10)
	t.SyncThreads()
	out[gi] = x
}
`},
	// LimitUniformAssignInIf (a limitation, not a wrong result): u is
	// assigned the same value in every thread, but inside an if without
	// barriers, which fission.go's findUniform takes for thread code; so
	// u counts as thread-dependent and the loop around the barrier keeps
	// goroutines. Found by random programs 634 and 643 (seeds 634, 643 of
	// the generator before it put a barrier after such an assignment).
	// When the transform learns this, drop MayRefuse.
	{Name: "LimitUniformAssignInIf", BlockX: 40, BlockY: 1, Grid: 3, N: 100, P: 2, Slots: 1, FSlots: 1,
		MayRefuse: []string{"a barrier in a loop whose condition is not the same in every thread of the block"}, Source: `
func LimitUniformAssignInIf(t cuda.Thread, in []int32, fin []float32, out []int64, fout []float64, p int) {
	s0 := cuda.SharedArray[int32](t, 40)
	tid := t.ThreadIdx().X
	gi := t.Grid1()
	u := p + 1
	if t.BlockIdx().X == 1 {
		u = 3
	}
	var v int32
	if gi < len(in) {
		v = in[gi]
	}
	for i := 0; i < u; i++ {
		s0[tid] = v
		t.SyncThreads()
		v += s0[(tid+1)%t.BlockDim().X]
		t.SyncThreads()
	}
	out[gi] = int64(v)
}
`},
	// LimitShadowAcrossBarrier (a limitation): x declared again inside a
	// loop around barriers, shadowing an x that lives across them, is
	// refused ("x is declared again in a scope whose loop also declares
	// it; rename one"). About 3% of the random programs meet it.
	{Name: "LimitShadowAcrossBarrier", BlockX: 50, BlockY: 1, Grid: 2, N: 100, P: 1, Slots: 1, FSlots: 1,
		MayRefuse: []string{"is declared again in a scope whose loop also declares it"}, Source: `
func LimitShadowAcrossBarrier(t cuda.Thread, in []int32, fin []float32, out []int64, fout []float64, p int) {
	tid := t.ThreadIdx().X
	x := int32(tid) * 3
	t.SyncThreads()
	for i := 0; i < 2; i++ {
		x := x + int32(i)
		t.SyncThreads()
		out[t.Grid1()] += int64(x)
	}
	out[t.Grid1()] += int64(x)
}
`},
	// SharedInLoop (hand-written, passes): a shared array declared inside
	// a loop around barriers, a thread that returned before it, a shuffle
	// with lanes that differ from thread to thread.
	{Name: "SharedInLoop", BlockX: 45, BlockY: 1, Grid: 3, N: 120, P: 2, Slots: 2, FSlots: 1, Source: `
func SharedInLoop(t cuda.Thread, in []int32, fin []float32, out []int64, fout []float64, p int) {
	tid := t.ThreadIdx().X
	nt := t.BlockDim().X
	gi := t.Grid1()
	var v int32
	if gi < len(in) {
		v = in[gi]
	}
	if tid == 3 {
		return
	}
	for i := 0; i < p+1; i++ {
		sl := cuda.SharedArray[int32](t, 45)
		sl[tid] = v + int32(i)
		t.SyncThreads()
		v ^= sl[(tid+i+1)%nt]
		w := cuda.ShflSync(t, v, (tid+i)%32)
		if tid%4 != 0 {
			v += w
		}
		t.SyncThreads()
	}
	out[gi*2] = int64(v)
}
`},
}

// TestFissionRegressions runs the regression kernels through nugo gen,
// their block loops, the goroutine path and ptxsim.
func TestFissionRegressions(t *testing.T) {
	checkPrograms(t, regressions)
}
