// Package ptxastest is how tests check PTX with NVIDIA's ptxas: one rule
// for a missing ptxas (a visible skip on a developer's machine, a failure
// under CI=true, where CI has installed it) and one way to assemble a
// module for several targets and report what ptxas said.
package ptxastest

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/ptxas"
)

// Available reports whether ptxas can run. When it cannot, it fails t
// under CI=true and otherwise logs a visible SKIP line, so the caller
// returns without checking and the rest of its test still counts.
func Available(t testing.TB) bool {
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

// Need is Available for tests that check nothing else: without ptxas it
// skips the test (or fails it under CI=true).
func Need(t testing.TB) {
	t.Helper()
	if !Available(t) {
		t.SkipNow()
	}
}

// Assemble assembles ptx for each sm (75 means sm_75) and reports every
// failure on t with ptxas's message and the numbered source. It returns
// false when ptxas is absent (see Available) or any target failed.
func Assemble(t testing.TB, name, ptx string, sms ...int) bool {
	t.Helper()
	if !Available(t) {
		return false
	}
	ok := true
	for _, sm := range sms {
		if _, err := ptxas.Assemble(ptx, fmt.Sprintf("sm_%d", sm), false); err != nil {
			t.Errorf("ptxas sm_%d, %s: %v\n%s", sm, name, err, Numbered(ptx))
			ok = false
		}
	}
	return ok
}

// Numbered returns src with each line prefixed by its number, as ptxas's
// messages count them.
func Numbered(src string) string {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(src, "\n"), "\n") {
		fmt.Fprintf(&b, "%d\t%s\n", i+1, line)
	}
	return b.String()
}
