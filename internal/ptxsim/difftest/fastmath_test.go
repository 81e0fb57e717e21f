package difftest

import (
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxsim/golaunch"
)

// TestCorpusFastMathRuns: with FastMath the compiler emits approximate and
// fused instructions whose results may differ from Go's; every such module
// must still be accepted and run by the interpreter.
func TestCorpusFastMathRuns(t *testing.T) {
	for _, c := range corpus.All() {
		if c.Devmath && !frontend.HasDevmath() {
			continue
		}
		m, err := compiler.CompileFunc(c.Kernel, compiler.Target{FastMath: true})
		if err != nil {
			t.Errorf("%s: compile: %v", c.Name, err)
			continue
		}
		if _, err := golaunch.New(m); err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if out := RunModule(m, fromCorpus(c), Options{}); out.Err != nil {
			t.Errorf("%s: run: %v", c.Name, out.Err)
		}
	}
}
