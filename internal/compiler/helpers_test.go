package compiler

import (
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// assembleAll assembles a module for sm_75 and sm_90.
func assembleAll(t testing.TB, name string, m *Module) {
	t.Helper()
	sms := []int{75, 90}
	if m.Target.sm() > 75 {
		sms = sms[1:] // a module for a newer GPU does not assemble for an older one
	}
	ptxastest.Assemble(t, name, m.PTX, sms...)
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
