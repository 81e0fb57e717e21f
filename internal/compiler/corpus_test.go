package compiler_test

import (
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"

	"github.com/nugo-dev/nugo/internal/corpus"
)

// TestCorpusAssembles compiles every corpus kernel, in release and debug
// mode, and assembles each module with ptxas for sm_75 and sm_90.
func TestCorpusAssembles(t *testing.T) {
	have := ptxastest.Available(t)
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
				ptxastest.Assemble(t, name, m.PTX, 75, 90)
			})
		}
	}
	t.Logf("%d corpus modules compiled", n)
}
