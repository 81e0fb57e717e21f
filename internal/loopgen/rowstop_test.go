package loopgen

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestRowLoopStopCheck checks which kernels' row loops leave the stop check
// out (Row.Start): only those that can reach no collective operation.
func TestRowLoopStopCheck(t *testing.T) {
	res, err := Generate("testdata/rowstop")
	if err != nil {
		t.Fatal(err)
	}
	src := string(res.Source)
	tests := []struct {
		kernel string
		start  bool // Row.Start, no stop check
	}{
		{"Free", true},
		{"Recursive", true},
		{"GenericNumber[float32]", true},
		{"MethodValue", false},
		{"FuncValue", false},
		{"OtherPackage", false},
		{"Interface", false},
		{"GenericAny[int32]", false},
	}
	for _, tc := range tests {
		t.Run(tc.kernel, func(t *testing.T) {
			if !slices.Contains(res.Kernels, tc.kernel) || slices.Contains(res.Fissioned, tc.kernel) {
				t.Fatalf("%s is not a row loop kernel: kernels %v, fissioned %v", tc.kernel, res.Kernels, res.Fissioned)
			}
			_, loop, ok := strings.Cut(src, "RegisterRowLoop("+tc.kernel+",")
			if !ok {
				t.Fatalf("no row loop for %s in\n%s", tc.kernel, src)
			}
			loop, _, _ = strings.Cut(loop, "RegisterRowLoop(")
			start, begin := strings.Contains(loop, ".Start()"), strings.Contains(loop, ".Begin()")
			if start != tc.start || begin == tc.start || strings.Contains(loop, "*stop") == tc.start {
				t.Errorf("%s's loop (Start: %v, Begin: %v), want Start %v:\n%s", tc.kernel, start, begin, tc.start, loop)
			}
			// Every loop runs on to the next row (Row.More) and leaves
			// a row's inner loop with break, not return.
			if !strings.Contains(loop, "> 0; t, n = r.More() {") || strings.Contains(loop, "return\n") {
				t.Errorf("%s's loop does not go on with Row.More:\n%s", tc.kernel, loop)
			}
		})
	}
	if !bytes.Contains(res.Source, []byte("if n--; n == 0 {\n")) {
		t.Errorf("no loop without the stop check in\n%s", src)
	}
}
