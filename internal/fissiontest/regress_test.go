package fissiontest

import "testing"

// regressions are the smallest kernels found by the random programs whose
// block loops were wrong (or did not compile), named after what broke.
// Each runs through the same checks as the random programs.
var regressions = []*Program{
	// BugRematLeavesUnusedDecl: x := int64(gi % 10), a function of the
	// thread's position, is recomputed where it is used (after the second
	// barrier) and dropped from the region that defines it; but that
	// region still recomputes gi, which only x used there: nugo_loops.go
	// does not compile ("kernels.go:N: declared and not used: gi"). Found
	// by random program 19 (seed 19).
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
}

// TestFissionRegressions runs the regression kernels through nugo gen,
// their block loops, the goroutine path and ptxsim.
func TestFissionRegressions(t *testing.T) {
	checkPrograms(t, regressions)
}
