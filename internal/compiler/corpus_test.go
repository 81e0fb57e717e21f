package compiler_test

import (
	"os"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"

	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/ptxas"
)

// TestCorpusAssembles compiles every corpus kernel, in release and debug
// mode, and assembles each module with ptxas for sm_75 and sm_90.
func TestCorpusAssembles(t *testing.T) {
	have := ptxasOrSkip(t)
	n := 0
	for _, c := range corpus.All() {
		for _, debug := range []bool{false, true} {
			name := c.Name
			if debug {
				name += "/debug"
			}
			t.Run(name, func(t *testing.T) {
				if c.Devmath && !frontend.HasDevmath() {
					t.Skip("SKIP: the device math library is not linked into this build yet")
				}
				m, err := compiler.CompileFunc(c.Kernel, compiler.Target{Debug: debug})
				if err != nil {
					t.Fatalf("compile: %v", err)
				}
				if !strings.Contains(m.PTX, ".entry "+m.Entry+"(") {
					t.Fatalf("module lacks its entry %s", m.Entry)
				}
				n++
				if !have {
					return
				}
				for _, arch := range []string{"sm_75", "sm_90"} {
					if _, err := ptxas.Assemble(m.PTX, arch, false); err != nil {
						t.Errorf("%s: %v\n%s", arch, err, m.PTX)
					}
				}
			})
		}
	}
	t.Logf("%d corpus modules compiled", n)
}

// ptxasOrSkip reports whether ptxas can run; it logs a visible skip when it
// is absent, and fails under CI=true.
func ptxasOrSkip(t *testing.T) bool {
	if ptxas.Available() {
		return true
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %v", ptxas.ErrNotFound)
	}
	t.Logf("SKIP ptxas check (ptxas absent): %v", ptxas.ErrNotFound)
	return false
}
