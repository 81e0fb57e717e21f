package loopgen

import (
	"regexp"
	"strings"
	"testing"
)

const warpDemandDir = "testdata/warpdemand"

// TestDemandedThreads checks, on the generated text, which regions
// before a shuffle tree whose result thread 0 alone reads visit warp 0
// only in flat blocks (their loop stops at min(32, n)), and that those
// where a skipped thread could panic, write memory or leave a value
// later code reads visit every thread.
func TestDemandedThreads(t *testing.T) {
	res, err := Generate(warpDemandDir)
	if err != nil {
		t.Fatal(err)
	}
	src := string(res.Source)
	for _, c := range []struct {
		kernel string
		bound  int // regions bounded by min(32, nugoN)
	}{
		{"Bounded", 1},
		{"PositionValue", 1},
		{"WideGuard", 0},
		{"Unguarded", 0},
		{"Divides", 0},
		{"OtherValue", 0},
		{"LaneZero", 0},
		{"Stores", 0},
	} {
		t.Run(c.kernel, func(t *testing.T) {
			body, ok := blockLoopOf(src, c.kernel)
			if !ok {
				t.Fatalf("no block loop for %s", c.kernel)
			}
			if got := strings.Count(body, "nugoTi < min(32, nugoN)"); got != c.bound {
				t.Errorf("%s has %d regions bounded to warp 0, want %d", c.kernel, got, c.bound)
			}
			// The loops for blocks of two or three dimensions visit every thread.
			if got, want := strings.Count(body, "for nugoTx := 0; nugoTx < nugoDim.X; nugoTx, nugoTi = nugoTx+1, nugoTi+1 {"), 3; got < want {
				t.Errorf("%s has %d full loops for blocks of several dimensions, want at least %d", c.kernel, got, want)
			}
		})
	}
	checkCommitted(t, warpDemandDir, res.Source)
}

// blockLoopOf returns the text of kernel's block loop registration in a
// generated file.
func blockLoopOf(src, kernel string) (string, bool) {
	_, after, ok := strings.Cut(src, "RegisterBlockLoop("+kernel+",")
	if !ok {
		return "", false
	}
	body, _, _ := strings.Cut(after, "RegisterBlockLoop(")
	return body, true
}

// TestUnrolledTree checks which halving shuffle trees are written out
// per warp (their first operation lane 0 += lane 16, their last lane 0 +=
// lane 1) beside the loop that other blocks run: those of constant start
// whose lane 0 alone is read after them.
func TestUnrolledTree(t *testing.T) {
	res, err := Generate(warpDemandDir)
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile(`(nugoLanes\d*)\[0\] \+= (nugoLanes\d*)\[16\]\n`)
	last := regexp.MustCompile(`(nugoLanes\d*)\[0\] \+= (nugoLanes\d*)\[1\]\n\s*\}\n\s*\} else \{\n\s*for off := 16; off > 0; off /= 2 \{`)
	for _, c := range []struct {
		kernel string
		trees  int
	}{
		{"Bounded", 2},
		{"LaneZero", 1},
		{"Stores", 2},
		{"AllLanes", 0},
		{"VarStart", 0},
	} {
		t.Run(c.kernel, func(t *testing.T) {
			body, ok := blockLoopOf(string(res.Source), c.kernel)
			if !ok {
				t.Fatalf("no block loop for %s", c.kernel)
			}
			if got := len(first.FindAllString(body, -1)); got != c.trees {
				t.Errorf("%s has %d unrolled trees, want %d", c.kernel, got, c.trees)
			}
			if got := len(last.FindAllString(body, -1)); got != c.trees {
				t.Errorf("%s has %d unrolled trees ending in lane 0 += lane 1 before the loop, want %d", c.kernel, got, c.trees)
			}
			if !strings.Contains(body, "for off := ") {
				t.Errorf("%s lost its tree loop", c.kernel)
			}
		})
	}
}
