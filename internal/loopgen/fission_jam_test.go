package loopgen

import (
	"bytes"
	"regexp"
	"testing"
)

const jamDir = "testdata/jam"

// TestJamForms checks which regions are unroll-and-jammed or
// interchanged: a region made of one uniform loop over the thread's own
// variables is, in its loops for flat and for other blocks, with the
// remainder loop after it; interchanged (fission_interchange.go) when the
// loop runs a constant number of rounds over 16 and nothing follows it in
// the region, else jammed (eight threads at a time with the rounds written
// out when they are at most 16, four with the loop otherwise, the copies'
// positions through the group's first thread's); a loop that writes shared memory, whose bound
// depends on the thread, that calls a function or branches, or in a
// kernel whose threads may return early, is neither.
func TestJamForms(t *testing.T) {
	res, err := Generate(jamDir)
	if err != nil {
		t.Fatal(err)
	}
	src := res.Source
	starts := regexp.MustCompile(`cuda\.RegisterBlockLoop\((\w+),`).FindAllSubmatchIndex(src, -1)
	loops := map[string][]byte{}
	for i, m := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		loops[string(src[m[2]:m[3]])] = src[m[0]:end]
	}
	// Dot: 8 rounds, written out, eight threads at a time.
	jammedTwice := [][]byte{
		[]byte("for nugoJ := nugoJam; nugoJ+8 <= nugoN; nugoJ += 8 {"),
		[]byte("t1 := nugoB.FlatThread(nugoTi1)"),
		[]byte("t2 := t1.Shift(1)"), // positions through the group's first thread
		[]byte("tid1 := nugoTi1"),   // flat: the copy's own index
		[]byte("if !nugoB.Runs(8) {"),
		[]byte("t12 := nugoB.Thread(nugoTi12)"),
		[]byte("t22 := t12.Shift(1)"),
		[]byte("tid12 := t12.ThreadIdx().X"),
		[]byte("p := 0 + 7\n"),
		// sh[p] through one view of the span the rounds read (the same
		// for every copy); sh[(tid+p)%64] is not a view (not linear in p).
		[]byte("nugoView := (*[8]float32)(sh[(0) : (0)+8])\n"),
		[]byte("sum1 += sh[(tid1+p)%64] * nugoView[0]\n"),
		[]byte("sum3 += sh[(tid3+p)%64] * nugoView[7]\n"),
		[]byte("nugoVSum[nugoJ+2] = sum3"),
		// The threads left run alone, their rounds written out.
		[]byte("for nugoTi := nugoJam; nugoTi < nugoN; nugoTi++ {"),
	}
	// UniformBound: rounds not constant, a loop, four threads at a time.
	jammedLoop := [][]byte{
		[]byte("for nugoJ := nugoJam; nugoJ+4 <= nugoN; nugoJ += 4 {"),
		[]byte("if !nugoB.Runs(4) {"),
		[]byte("for p := 0; p < n; p++ {"),
		// Other blocks' remainder: from the first thread left, carrying
		// its position.
		[]byte("nugoTx, nugoTy, nugoTz := nugoB.Pos(nugoJam2)\n"),
		[]byte("for nugoTi := nugoJam2; nugoTi < nugoN; nugoTi, nugoTx, nugoTy, nugoTz = nugoB.Step(nugoTi, nugoTx, nugoTy, nugoTz) {"),
	}
	swappedTwice := [][]byte{
		[]byte("nugoPtid[nugoTi] = tid\n"),      // positions computed once
		[]byte("nugoXsum[nugoTi] = sum\n"),      // the carried variable in scratch
		[]byte("for p := 0; p < 32; p += 16 {"), // 16 rounds a pass
		[]byte("for nugoK := range nugoS {"),
		[]byte("sum := nugoS2[nugoK]\n"),
		[]byte("p := p + 15\n"),
		[]byte("copy(nugoVSum[0:nugoN], nugoXsum[0:nugoN])\n"),
		[]byte("for nugoTi := nugoSwap; nugoTi < nugoN; nugoTi++ {"),
	}
	for _, c := range []struct {
		kernel          string
		jammed, swapped bool
	}{
		{"Dot", true, false}, // 8 rounds
		{"Swapped", false, true},
		{"Unrolled", true, false},     // 16 rounds: written out, see below
		{"SwappedAfter", true, false}, // a statement after the loop
		{"UniformBound", true, false}, // rounds not constant
		{"StoresShared", false, false},
		{"ThreadBound", false, false},
		{"Calls", false, false},
		{"Branches", false, false},
		{"Exits", false, false},
	} {
		t.Run(c.kernel, func(t *testing.T) {
			loop, ok := loops[c.kernel]
			if !ok {
				t.Fatalf("no block loop for %s", c.kernel)
			}
			if got := bytes.Count(loop, []byte("defer func() { _ = recover() }()")); got != map[bool]int{true: 2, false: 0}[c.jammed || c.swapped] {
				t.Errorf("%s has %d jammed or interchanged loops, want jammed %v, interchanged %v (in both loops)", c.kernel, got, c.jammed, c.swapped)
			}
			if got := bytes.Count(loop, []byte("nugoJam")) > 0; got != c.jammed {
				t.Errorf("%s jammed %v, want %v", c.kernel, got, c.jammed)
			}
			if got := bytes.Count(loop, []byte("nugoSwap")) > 0; got != c.swapped {
				t.Errorf("%s interchanged %v, want %v", c.kernel, got, c.swapped)
			}
			if c.swapped {
				for _, text := range swappedTwice {
					if !bytes.Contains(loop, text) {
						t.Errorf("%s's block loop lacks %q", c.kernel, text)
					}
				}
			}
			if c.kernel == "Unrolled" {
				// 16 rounds written out in the jammed loops and the
				// remainders, for flat and other blocks.
				if got := bytes.Count(loop, []byte("p := 0 + 15\n")); got != 4 {
					t.Errorf("%s has %d loops with the rounds written out, want 4", c.kernel, got)
				}
			}
			var texts [][]byte
			switch c.kernel {
			case "Dot":
				texts = jammedTwice
			case "UniformBound":
				texts = jammedLoop
			}
			for _, text := range texts {
				if !bytes.Contains(loop, text) {
					t.Errorf("%s's block loop lacks %q", c.kernel, text)
				}
			}
		})
	}
	checkCommitted(t, jamDir, src)
}
