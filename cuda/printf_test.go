package cuda

import (
	"bytes"
	"sort"
	"strings"
	"testing"
)

func TestPrintfFromKernel(t *testing.T) {
	var buf bytes.Buffer
	printer.Lock()
	printer.w = &buf
	printer.Unlock()
	defer func() {
		printer.Lock()
		printer.w = oldStdout
		printer.Unlock()
	}()
	k := Jit(func(t Thread, x []float64) {
		i := t.Grid1()
		Printf("thread %d of %s: %.2f %v\n", i, "grid", x[i], i%2 == 0)
	})
	if err := k.Launch(Dim1(2), Dim1(2), []float64{0.5, 1.25, 2, 3.125}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	sort.Strings(lines)
	want := []string{
		"thread 0 of grid: 0.50 true",
		"thread 1 of grid: 1.25 false",
		"thread 2 of grid: 2.00 true",
		"thread 3 of grid: 3.12 false",
	}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("printed\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

var oldStdout = printer.w
