package loopgen

import (
	"bytes"
	"os"
	"path/filepath"
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
	if want := []string{"Reduce", "EarlyExit", "Helper", "wait", "GridWide", "QuarterVote", "HalfVote", "Shadow", "GridFold", "GridByBlock", "WarpBranch"}; !slices.Equal(res.Fissioned, want) {
		t.Errorf("fissioned %v, want %v", res.Fissioned, want)
	}
	want := map[string]string{
		"Divergent":      "not the same in every thread",
		"InSwitch":       "inside a switch",
		"BreakOut":       "break in a loop around barriers",
		"AssignsParam":   "assigns to parameter a",
		"Closure":        "function literal",
		"GridDivergent":  "not the same in every thread",
		"LaneLoop":       "loop whose condition is not the same in every thread",
		"ActiveOneSide":  "ActiveMask under a condition that is not the same",
		"WarpSyncBranch": "SyncWarp under a condition that is not the same",
		"MatchArg":       "MatchAllSync other than as the value of a two-variable assignment",
	}
	if len(res.Unfissioned) != len(want) {
		t.Errorf("unfissioned %v, want %d kernels", res.Unfissioned, len(want))
	}
	for _, s := range res.Unfissioned {
		if w, ok := want[s.Name]; !ok || !strings.Contains(s.Reason, w) || !strings.HasPrefix(s.Reason, "fission.go:") {
			t.Errorf("%s keeps goroutines because %q, want a position and %q", s.Name, s.Reason, w)
		}
		if !slices.Contains(res.Kernels, s.Name) {
			t.Errorf("%s keeps no row loop", s.Name)
		}
	}
	for _, s := range []string{"RegisterBlockLoop(Reduce,", "RegisterRowLoop(Divergent,", "RegisterRowLoop(Plain,", "//line fission.go:",
		// GridWide's barrier, with its line; GridFold's i and n apart.
		"RegisterBlockLoop(GridWide,", "//line fission.go:90\n\t\t\t\tif !nugoB.SyncGrid(nil) {", "i := t.Grid1()\n", "n := t.GridSize1()\n"} {
		if !bytes.Contains(res.Source, []byte(s)) {
			t.Errorf("generated file lacks %q", s)
		}
	}
	committed, err := os.ReadFile(filepath.Join(fissionDir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, res.Source) {
		t.Errorf("%s/%s is stale: run go run ./cmd/nugo gen ./internal/loopgen/%s", fissionDir, FileName, fissionDir)
	}
}
