package cuda_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
)

// debugMessagesMatchCPU launches each of testkernels.DebugFailures in debug
// mode on the CPU backend and on backend b: both must fail with a
// *KernelError at the kernel's line, and b's message must be the CPU's
// (Go's runtime message) exactly.
func debugMessagesMatchCPU(t *testing.T, b Backend) {
	t.Helper()
	onBackend(t, CPU)
	for _, c := range testkernels.DebugFailures() {
		var kes [2]*KernelError
		for i, be := range []Backend{CPU, b} {
			if err := SetBackend(be); err != nil {
				t.Fatal(err)
			}
			err := Jit(c.Kernel, Debug).Launch(Dim1(1), Dim1(32), c.Args()...)
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
		// Only thread 0 fails; the line is the CPU's (which has no column).
		if kes[1].Block != (Dim3{}) || kes[1].Thread != (Dim3{}) || !strings.HasPrefix(kes[1].Pos, kes[0].Pos+":") {
			t.Errorf("%s: %s reports block %v thread %v at %s, the CPU thread 0 at %s", c.Name, b, kes[1].Block, kes[1].Thread, kes[1].Pos, kes[0].Pos)
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
