package compiler

import (
	"regexp"
	"strings"
	"testing"
)

const closureSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func Fib(t cuda.Thread, out []int64) {
	var fib func(n int64) int64
	fib = func(n int64) int64 {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	out[t.Grid1()] = fib(int64(t.Grid1()))
}

func Compared(t cuda.Thread, out []int64) {
	var f func(n int64) int64
	f = func(n int64) int64 {
		if n <= 0 {
			return 0
		}
		return f(n - 1)
	}
	if f != nil {
		out[0] = f(3)
	}
}
`

// TestRecursiveClosureLowering: a recursive closure that captures only its
// variable is one device function calling itself, called directly by the
// kernel, with no memory for its variable; one whose variable is used
// other than by calls (compared with nil) is an error, not a crash.
func TestRecursiveClosureLowering(t *testing.T) {
	m, err := compileSrc(t, closureSrc, "Fib", Target{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{} // a function is declared, then defined
	for _, f := range regexp.MustCompile(`\.func \(.*\) (\w+)\(`).FindAllStringSubmatch(m.PTX, -1) {
		names[f[1]] = true
	}
	if len(names) != 1 {
		t.Fatalf("device functions %v, want the closure's one:\n%s", names, m.PTX)
	}
	var name string
	for n := range names {
		name = n
	}
	if n := strings.Count(m.PTX, "call.uni (retval0), "+name+",") + strings.Count(m.PTX, "call (retval0), "+name+","); n < 3 {
		t.Errorf("%d calls of %s, want the kernel's and its own two:\n%s", n, name, m.PTX)
	}
	if strings.Contains(m.PTX, ".local") {
		t.Errorf("the closure's variable got local memory:\n%s", m.PTX)
	}
	assembleAll(t, "recursive closure", m)

	if _, err := compileSrc(t, closureSrc, "Compared", Target{}); err == nil {
		t.Error("a recursive closure compared with nil compiled")
	} else if strings.Contains(err.Error(), "internal compiler error") {
		t.Errorf("a recursive closure compared with nil: %v", err)
	}
}
