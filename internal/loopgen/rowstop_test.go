package loopgen

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestRowLoopStopCheck checks which kernels' row loops leave the stop check
// out (Row.Start): only those that can reach no collective operation; and
// which start with Row.StartGrid1: those that read only Grid1 of their Thread.
func TestRowLoopStopCheck(t *testing.T) {
	res, err := Generate("testdata/rowstop")
	if err != nil {
		t.Fatal(err)
	}
	src := string(res.Source)
	tests := []struct {
		kernel string
		start  bool // Row.Start or StartGrid1, no stop check
		grid1  bool // Row.StartGrid1: the Thread is used only in t.Grid1() calls
	}{
		{"Free", true, true},
		{"Recursive", true, false},
		{"GenericNumber[float32]", true, true},
		{"Grid1Value", true, false},
		{"Indexed", true, false},
		{"MethodValue", false, false},
		{"FuncValue", false, false},
		{"OtherPackage", false, false},
		{"Interface", false, false},
		{"GenericAny[int32]", false, false},
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
			start := strings.Contains(loop, ".Start()") || strings.Contains(loop, ".StartGrid1()")
			begin := strings.Contains(loop, ".Begin()")
			if grid1 := strings.Contains(loop, ".StartGrid1()"); grid1 != tc.grid1 {
				t.Errorf("%s's loop starts with StartGrid1: %v, want %v:\n%s", tc.kernel, grid1, tc.grid1, loop)
			}
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
