package loopgen

import (
	"slices"
	"strings"
	"testing"
)

const sharedReadDir = "testdata/sharedread"

// TestSharedReadUniform: an element of a shared array read at a constant
// index right after a barrier, with no write to the array before the next
// barrier, is the same in every thread, so a loop or if around barriers
// may take its condition from it (Converge, Trip); reads where a thread
// may write the array in the same interval, at a thread's index or
// through an alias keep goroutines.
func TestSharedReadUniform(t *testing.T) {
	res, err := Generate(sharedReadDir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Converge", "Trip", "WhileFlag"}; !slices.Equal(res.Fissioned, want) {
		t.Errorf("fissioned %v, want %v", res.Fissioned, want)
	}
	want := map[string]string{
		"WrittenAfter":    "loop whose condition is not the same in every thread",
		"NotAfterBarrier": "loop whose condition is not the same in every thread",
		"ThreadIndex":     "loop whose condition is not the same in every thread",
		"Aliased":         "loop whose condition is not the same in every thread",
		"InLoopBody":      "break in a loop around barriers",
		"WhileContinue":   "loop whose condition is not the same in every thread",
		"WhileTailWrite":  "loop whose condition is not the same in every thread",
		"WhileAfterWrite": "loop whose condition is not the same in every thread",
	}
	if len(res.Unfissioned) != len(want) {
		t.Errorf("unfissioned %v, want %d kernels", res.Unfissioned, len(want))
	}
	for _, s := range res.Unfissioned {
		if w, ok := want[s.Name]; !ok || !strings.Contains(s.Reason, w) {
			t.Errorf("%s keeps goroutines because %q, want %q", s.Name, s.Reason, w)
		}
	}
	checkCommitted(t, sharedReadDir, res.Source)
}
