package compiler

import (
	"os"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas"
)

// needPTXAS reports whether ptxas can run; it skips visibly when absent,
// and fails under CI=true.
func needPTXAS(t testing.TB) bool {
	t.Helper()
	if ptxas.Available() {
		return true
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %v", ptxas.ErrNotFound)
	}
	t.Logf("SKIP ptxas check (ptxas absent): %v", ptxas.ErrNotFound)
	return false
}

// assembleAll assembles a module for sm_75 and sm_90.
func assembleAll(t testing.TB, name string, m *Module) {
	t.Helper()
	if !needPTXAS(t) {
		return
	}
	for _, arch := range []string{"sm_75", "sm_90"} {
		if arch == "sm_75" && m.Target.sm() > 75 {
			continue // a module for a newer GPU does not assemble for an older one
		}
		if _, err := ptxas.Assemble(m.PTX, arch, false); err != nil {
			t.Errorf("%s for %s: %v\n%s", name, arch, err, numbered(m.PTX))
		}
	}
}

func numbered(s string) string {
	out := ""
	line := 1
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			out += itoa(line) + "\t" + s[start:i] + "\n"
			line++
			start = i + 1
		}
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

// compileSrc compiles kernel name of source src for target.
func compileSrc(t testing.TB, src, name string, target Target) (*Module, error) {
	t.Helper()
	k, err := frontend.LoadSource("kernel.go", []byte(src), name)
	if err != nil {
		return nil, err
	}
	return Compile(k, target)
}
