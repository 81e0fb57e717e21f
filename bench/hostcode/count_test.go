package main

import (
	"os"
	"testing"
)

func TestCountGo(t *testing.T) {
	src := `// Doc.
package main

import (
	"fmt"
)

func main() {
	x, err := f()

	if err != nil {
		return
	}
	if x > 0 || err != nil { // counts as a check
		fmt.Println(x)
	}
}
`
	c, err := countGo(src)
	if err != nil {
		t.Fatal(err)
	}
	if want := (counts{host: 9, errorChecks: 6}); c != want {
		t.Errorf("countGo = %+v, want %+v", c, want)
	}
}

func TestCountPython(t *testing.T) {
	src := "import numpy as np\nfrom numba import cuda\n\n@cuda.jit\ndef k(x):\n    x[0] = 1\n\n# comment\nx = np.zeros(1)\nk[1, 1](x)\n"
	if c := countPython(src); c != (counts{host: 2}) {
		t.Errorf("countPython = %+v, want 2 host lines", c)
	}
}

// TestNewcomerCounts checks that the helpers shorten the program and that
// the files the counts come from are there.
func TestNewcomerCounts(t *testing.T) {
	py, err := os.ReadFile("numba/newcomer.py")
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile("before/main.go")
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile("after/main.go")
	if err != nil {
		t.Fatal(err)
	}
	b, err := countGo(string(before))
	if err != nil {
		t.Fatal(err)
	}
	a, err := countGo(string(after))
	if err != nil {
		t.Fatal(err)
	}
	n := countPython(string(py))
	if n.host < 15 || a.host >= b.host || a.errorChecks != 0 || b.errorChecks == 0 {
		t.Errorf("host lines: Numba %d, before %d (%d checks), after %d (%d checks)", n.host, b.host, b.errorChecks, a.host, a.errorChecks)
	}
}
