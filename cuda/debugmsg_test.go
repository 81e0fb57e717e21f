package cuda_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/ptxas"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// debugMessagesMatchCPU launches each of testkernels.DebugFailures in debug
// mode on the CPU backend and on backend b: both must fail with a
// *KernelError at the kernel's line in the same thread, and b's message
// must be the CPU's (Go's runtime message) exactly.
func debugMessagesMatchCPU(t *testing.T, b Backend) {
	t.Helper()
	onBackend(t, CPU)
	for _, c := range testkernels.DebugFailures() {
		var kes [2]*KernelError
		for i, be := range []Backend{CPU, b} {
			if err := SetBackend(be); err != nil {
				t.Fatal(err)
			}
			err := Jit(c.Kernel, Debug).Launch(c.Grid, c.Block, c.Args()...)
			if !errors.As(err, &kes[i]) || !strings.Contains(kes[i].Pos, "debugfail.go:") {
				t.Errorf("%s on %s: %v, want a *KernelError at debugfail.go", c.Name, be, err)
			}
		}
		if kes[0] == nil || kes[1] == nil {
			continue
		}
		if kes[0].Msg != kes[1].Msg {
			t.Errorf("%s: %s says %q, the CPU %q", c.Name, b, kes[1].Msg, kes[0].Msg)
		}
		// One thread fails, at the CPU's position: file:line as the
		// binary records the file, on every backend and in every build
		// mode (-trimpath or not, source embedded or read from disk).
		if kes[1].Block != kes[0].Block || kes[1].Thread != kes[0].Thread || kes[1].Pos != kes[0].Pos {
			t.Errorf("%s: %s reports block %v thread %v at %s, the CPU block %v thread %v at %s", c.Name, b,
				kes[1].Block, kes[1].Thread, kes[1].Pos, kes[0].Block, kes[0].Thread, kes[0].Pos)
		}
	}
}

func TestPTXSimDebugMessagesMatchCPU(t *testing.T) {
	debugMessagesMatchCPU(t, PTXSim)
}

func TestGPUDebugMessagesMatchCPU(t *testing.T) {
	realGPU(t)
	debugMessagesMatchCPU(t, GPU)
}

// The debug-mode PTX of every failing kernel, error paths included, is
// what ptxas accepts (where installed; CI=true requires it).
func TestDebugFailuresAssemble(t *testing.T) {
	ptxastest.Need(t)
	seen := map[string]bool{}
	for _, c := range testkernels.DebugFailures() {
		k := Jit(c.Kernel, Debug)
		if seen[k.Name()] {
			continue
		}
		seen[k.Name()] = true
		ptx, err := k.PTX(75)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if !strings.Contains(ptx, "atom.global.cas.b32") {
			t.Errorf("%s: the debug PTX has no error path", c.Name)
		}
		if _, err := ptxas.Assemble(ptx, "sm_75", false); err != nil {
			t.Errorf("ptxas, %s: %v", c.Name, err)
		}
	}
}
