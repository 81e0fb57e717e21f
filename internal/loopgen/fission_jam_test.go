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
// loop runs a constant 16 rounds or more and nothing follows it in the
// region (16 exactly: the plain loop with its rounds written out), else
// jammed; a loop that writes shared memory, whose bound
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
	jammedTwice := [][]byte{
		[]byte("for nugoJ := nugoJam; nugoJ+3 <= nugoN; nugoJ += 3 {"),
		[]byte("t1 := nugoB.FlatThread(nugoTi1)"),
		[]byte("tid1 := nugoTi1"), // flat: the copy's own index
		[]byte("for nugoTi := nugoJam; nugoTi < nugoN; nugoTi++ {"),
		[]byte("t12 := nugoB.Thread(nugoTi12)"),
		[]byte("tid12 := t12.ThreadIdx().X"),
		[]byte("sum1 += sh[(tid1+p)%64] * sh[p]\n"),
		[]byte("sum3 += sh[(tid3+p)%64] * sh[p]\n"),
		[]byte("nugoVSum[nugoJ+2] = sum3"),
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
		{"Unrolled", false, false},    // 16 rounds: one pass, see below
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
				// The plain loop with its 16 rounds written out.
				if got := bytes.Count(loop, []byte("p := 0 + 15\n")); got != 2 {
					t.Errorf("%s has %d loops with the rounds written out, want 2", c.kernel, got)
				}
			}
			if !c.jammed {
				return
			}
			for _, text := range jammedTwice {
				if !bytes.Contains(loop, text) {
					t.Errorf("%s's block loop lacks %q", c.kernel, text)
				}
			}
		})
	}
	checkCommitted(t, jamDir, src)
}
