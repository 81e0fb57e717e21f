package cuda

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs this package's tests on the CPU backend whatever
// NUGO_BACKEND says. Most of their kernels are declared in package cuda
// itself, which the compilers do not take as user code; the compiled
// backends are tested with kernels outside it (gpu_test.go, compile_test.go,
// internal/ptxsim/difftest, the examples). Tests of the variable itself run
// in child processes that keep it.
func TestMain(m *testing.M) {
	if os.Getenv("NUGO_TEST_WANT_BACKEND") == "" {
		if err := SetBackend(CPU); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}
