package loopgen

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

const fissionDir = "testdata/fission"

// TestFissionReasons checks which kernels of the fission test package get
// a block loop, why the others keep the goroutine path, and that the
// generated file is the committed one (which go vet compiles).
func TestFissionReasons(t *testing.T) {
	res, err := Generate(fissionDir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Reduce", "EarlyExit", "InSwitch", "AssignsParam", "Helper", "wait", "GridWide", "QuarterVote", "HalfVote", "Shadow", "GridFold", "GridByBlock", "WarpBranch", "ParamClamp", "ParamThread", "SplitUniform", "SplitConst", "LabeledBreak", "SplitDead", "SwitchLabeled", "SplitOp", "UniformInIf", "UniformAccumulate", "UniformBreak", "ShadowAcross", "MixedIf", "NestedMixedIf", "SwitchUniform", "SwitchNestedBreak"}; !slices.Equal(res.Fissioned, want) {
		t.Errorf("fissioned %v, want %v", res.Fissioned, want)
	}
	want := map[string]string{
		"Divergent":      "not the same in every thread",
		"BreakOut":       "break in a loop around barriers",
		"Closure":        "function literal",
		"GridDivergent":  "not the same in every thread",
		"LaneLoop":       "loop whose condition is not the same in every thread",
		"ActiveOneSide":  "ActiveMask under a condition that is not the same",
		"WarpSyncBranch": "SyncWarp under a condition that is not the same",
		"MatchArg":       "MatchAllSync other than as the value of a two-variable assignment",
		// A value assigned under a thread-dependent condition, or from a
		// thread's value in a later iteration of a loop, is not uniform
		// (fission_uniform.go).
		"DivergentAssign": "loop whose condition is not the same in every thread",
		// A switch with barriers becomes an if-else chain unless a case
		// falls through or breaks out of it.
		"SwitchFallthrough": "inside a switch",
		"CarriedDivergent":  "loop whose condition is not the same in every thread",
		// Only definitions of the list that declares a variable are
		// split (fission_locals.go).
		"SplitNested": "loop whose condition is not the same in every thread",
		"SplitPair":   "loop whose condition is not the same in every thread",
		// A parameter whose address is taken is a thread's copy.
		// Declared at the top, it lives across any barrier.
		"ParamAddr":       "the address of n, which lives across a barrier, is taken",
		"ParamAddrRegion": "the address of n, which lives across a barrier, is taken",
		// A labeled break is the block's only where every thread reaches
		// it together (fission_labels.go).
		"LabeledDivergent": "labeled break in a loop around barriers",
	}
	if len(res.Unfissioned) != len(want) {
		t.Errorf("unfissioned %v, want %d kernels", res.Unfissioned, len(want))
	}
	for _, s := range res.Unfissioned {
		if w, ok := want[s.Name]; !ok || !strings.Contains(s.Reason, w) || !strings.HasPrefix(s.Reason, "fission.go:") && !strings.HasPrefix(s.Reason, "uniform.go:") && !strings.HasPrefix(s.Reason, "locals.go:") {
			t.Errorf("%s keeps goroutines because %q, want a position and %q", s.Name, s.Reason, w)
		}
		if !slices.Contains(res.Kernels, s.Name) {
			t.Errorf("%s keeps no row loop", s.Name)
		}
	}
	for _, s := range []string{"RegisterBlockLoop(Reduce,", "RegisterRowLoop(Divergent,", "RegisterRowLoop(Plain,", "//line fission.go:",
		// GridWide's barrier, with its line; GridFold's i and n apart.
		"RegisterBlockLoop(GridWide,", "//line fission.go:90\n\t\t\t\tif !nugoB.SyncGrid(nil) {", "i := (nugoX0 + nugoTx)\n", "n := t.GridSize1()\n",
		// Uniform compounds run once per block, at the block's level
		// (fission_uniform.go); a shadowing x is renamed.
		"\t\t\t\tif n > 64 {\n//line uniform.go:11\n\t\t\t\t\trounds = 2\n", "\t\t\t\t} else if n > 8 {\n//line uniform.go:17\n\t\t\t\t\tstride = 3\n",
		"\t\t\t\t\tif k == n {\n//line uniform.go:45\n\t\t\t\t\t\tbreak\n", "x2 := x + int32(i)\n", "x2 := nugoVX2[nugoTi]\n",
		// Split definitions (fission_locals.go).
		"m2 := nugoTx\n", "y2 := float32(3)\n", "_ = int(a[(nugoX0 + nugoTx)])\n", "m2 := m + (nugoTx * 2)\n", "n := nugoParamN\n",
		// MixedIf's bound is set once per block, in a Go if around the
		// loop over the threads that store.
		"\t\t\t\tif n > 4 {\n\n//line uniform.go:87\n\t\t\t\t\trounds = 2\n\t\t\t\t\tif nugoFlat {\n"} {
		if !bytes.Contains(res.Source, []byte(s)) {
			t.Errorf("generated file lacks %q", s)
		}
	}
	checkCommitted(t, fissionDir, res.Source)
}
