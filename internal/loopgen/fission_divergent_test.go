package loopgen

import (
	"regexp"
	"strings"
	"testing"
)

// TestDivergentForms checks the block loops written for warp operations
// under thread-dependent conditions: the condition stored per thread, the
// sides run over BlockBranch's off flags, run-time checks before the warp
// operations of a side unless the other lanes reach no further warp
// operation, and a return inside a side marking both the exited and the
// off flags.
func TestDivergentForms(t *testing.T) {
	res, err := Generate(fissionDir)
	if err != nil {
		t.Fatal(err)
	}
	src := string(res.Source)
	loop := func(name string) string {
		i := strings.Index(src, "RegisterBlockLoop("+name+",")
		if i < 0 {
			t.Fatalf("no block loop for %s", name)
		}
		j := strings.Index(src[i+1:], "RegisterBlockLoop(")
		if j < 0 {
			return src[i:]
		}
		return src[i : i+1+j]
	}
	tests := []struct {
		kernel      string
		has, hasNot []string
		checks      int
	}{
		{"HalfVote", []string{"nugoIn[nugoTi] = t.LaneID() < 16", "if cuda.BlockBranch(nugoOff, nugoIn, nil, true) {", "cuda.BlockBallotMask(nugoB, nugoVote, nugoPred, nugoMask, nugoOff)"}, []string{"BlockBranch(nugoOff2"}, 0},
		{"WarpBranch", []string{
			"if cuda.BlockBranch(nugoOff, nugoIn, nugoExited, true) {",
			"if cuda.BlockBranch(nugoOff2, nugoIn, nugoExited, false) {",
			"if cuda.BlockBranch(nugoOff3, nugoIn2, nugoOff2, true) {",
			"nugoExited[nugoTi] = true\n\t*nugoOff[nugoTi] = true\n\t*continue nugoRegion",
			"cuda.BlockBranchCheck(nugoB, nugoMask, nugoOff, nugoExited)",
			"cuda.BlockShuffleMask(nugoB, cuda.ShuffleDown, nugoShfl, nugoVal, nugoMask, nugoLane, 0, nugoOff)",
			"cuda.BlockShuffleConst(cuda.ShuffleIdx, nugoShfl2, nugoVV, int(0), nugoExited)",
		}, nil, 2},
	}
	for _, tc := range tests {
		t.Run(tc.kernel, func(t *testing.T) {
			l := loop(tc.kernel)
			for _, s := range tc.has {
				if re := regexp.MustCompile(strings.NewReplacer("(", `\(`, ")", `\)`, "[", `\[`, "]", `\]`, "{", `\{`, ".", `\.`).Replace(s)); !re.MatchString(l) {
					t.Errorf("lacks %q", s)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(l, s) {
					t.Errorf("has %q", s)
				}
			}
			if n := strings.Count(l, "BlockBranchCheck("); n != tc.checks {
				t.Errorf("%d run-time checks, want %d", n, tc.checks)
			}
		})
	}
}
