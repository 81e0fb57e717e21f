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
	// LimitUniformAssignInIf (a limitation, now lifted): u is assigned
	// the same value in every thread, but inside an if without barriers,
	// which fission.go's findUniform took for thread code; so u counted
	// as thread-dependent and the loop around the barrier kept
	// goroutines. Found by random programs 634 and 643 (seeds 634, 643 of
	// the generator before it put a barrier after such an assignment).
	// The if now runs once per block (fission_uniform.go).
	{Name: "LimitUniformAssignInIf", BlockX: 40, BlockY: 1, Grid: 3, N: 100, P: 2, Slots: 1, FSlots: 1, Source: `
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
	// LimitShadowAcrossBarrier (a limitation, now lifted): x declared
	// again inside a loop around barriers, shadowing an x that lives
	// across them, was refused ("x is declared again in a scope whose
	// loop also declares it; rename one"); about 3% of the random
	// programs met it. The copy fission transforms now renames the inner
	// x (shadowRenames, fission_uniform.go).
	{Name: "LimitShadowAcrossBarrier", BlockX: 50, BlockY: 1, Grid: 2, N: 100, P: 1, Slots: 1, FSlots: 1, Source: `
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
	// UniformShapes (hand-written): values the same in every thread
	// assigned in ifs and summed in a loop without barriers, then bounding
	// loops and ifs around barriers, and a break and a continue on uniform
	// conditions in a loop around barriers (fission_uniform.go).
	{Name: "UniformShapes", BlockX: 36, BlockY: 1, Grid: 4, N: 130, P: 3, Slots: 2, FSlots: 1, Source: `
func UniformShapes(t cuda.Thread, in []int32, fin []float32, out []int64, fout []float64, p int) {
	s0 := cuda.SharedArray[int32](t, 36)
	tid := t.ThreadIdx().X
	nt := t.BlockDim().X
	gi := t.Grid1()
	var v int32
	if gi < len(in) {
		v = in[gi]
	}
	rounds := 1
	if t.BlockIdx().X%2 == 1 {
		rounds = p
	} else if p > 2 {
		rounds++
	}
	total := 0
	for k := range p + 2 {
		if k%2 == 0 {
			total += k
		}
	}
	for i := 0; i < rounds+total; i++ {
		if i == 2*p {
			break
		}
		if (i+t.BlockIdx().X)%3 == 2 {
			continue
		}
		s0[tid] = v
		t.SyncThreads()
		v += s0[(tid+i+1)%nt]
		t.SyncThreads()
	}
	w := int64(v)
	if total > 1 {
		s0[tid] = v * 2
		t.SyncThreads()
		w += int64(s0[nt-1-tid])
	}
	if gi < len(in) {
		out[gi*2] = int64(v)
		out[gi*2+1] = w
	}
}
`},
	// PromotedIfs (hand-written): a bound the same in every thread set in
	// an if that also does a thread's work, and a break after a thread's
	// work in an if nested in another, both promoted to ifs around the
	// loops over the threads (promoteIfs, fission_uniform.go).
	{Name: "PromotedIfs", BlockX: 33, BlockY: 1, Grid: 3, N: 90, P: 2, Slots: 1, FSlots: 1, Source: `
func PromotedIfs(t cuda.Thread, in []int32, fin []float32, out []int64, fout []float64, p int) {
	s0 := cuda.SharedArray[int32](t, 33)
	tid := t.ThreadIdx().X
	nt := t.BlockDim().X
	gi := t.Grid1()
	var v int32
	if gi < len(in) {
		v = in[gi]
	}
	rounds := 1
	if t.BlockIdx().X != 1 {
		v ^= int32(tid * 7)
		rounds = p + 2
	}
	limit := 4
	for i := 0; i < rounds; i++ {
		s0[tid] = v
		t.SyncThreads()
		v += s0[(tid+i+1)%nt]
		t.SyncThreads()
		if p > 1 {
			v -= int32(i)
			if i > p {
				limit--
			}
			if i == limit {
				v *= 3
				break
			}
		}
	}
	out[gi] = int64(v)
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
