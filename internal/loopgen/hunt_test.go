package loopgen

import (
	"bytes"
	"testing"
)

// TestJamNamesStable generates a package whose jammed region has two
// variables named k several times and requires the same bytes each time
// (the copies' names were chosen in map order, so nugo gen -check failed
// now and then on an up-to-date file).
func TestJamNamesStable(t *testing.T) {
	var first []byte
	for i := range 12 {
		res, err := Generate("testdata/jamnames")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(res.Source, []byte("nugoJam")) {
			t.Fatal("Shadow is not jammed: the test checks nothing")
		}
		if i == 0 {
			first = res.Source
		} else if !bytes.Equal(res.Source, first) {
			t.Fatalf("generation %d differs from the first", i)
		}
	}
}
