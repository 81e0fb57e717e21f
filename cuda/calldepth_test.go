package cuda_test

import (
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// recursiveNoGen reaches a recursion (countDownNoGen) and has no generated
// loop: package cuda gets none.
func recursiveNoGen(t cuda.Thread, out []int64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = viaHelperNoGen(int64(i))
	}
}

func viaHelperNoGen(n int64) int64 { return countDownNoGen(n) }

func countDownNoGen(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return 1 + countDownNoGen(n-1)
}

// shadowNoGen calls a func value named like the recursive function: no
// recursion.
func shadowNoGen(t cuda.Thread, out []int64) {
	countDownNoGen := func(n int64) int64 { return 2 * n }
	if i := t.Grid1(); i < len(out) {
		out[i] = countDownNoGen(int64(i))
	}
}

// TestCPURefusesRecursionWithoutGeneratedLoops: on the cpu backend a kernel
// that reaches a recursive function and has no depth-counting copy (nugo
// gen has not run) is refused before it runs, with the recursion, the
// limit and what to do; ptxsim runs it (its compiled calls count their
// depth). A func value that only shares the recursive function's name is
// no recursion (issue 21 item 5).
func TestCPURefusesRecursionWithoutGeneratedLoops(t *testing.T) {
	onBackend(t, cuda.CPU)
	out := make([]int64, 64)
	err := cuda.Jit(recursiveNoGen).Launch(cuda.Dim1(1), cuda.Dim1(64), out)
	if err == nil {
		t.Fatal("recursive kernel without generated loops ran on the cpu backend")
	}
	for _, s := range []string{"countDownNoGen (countDownNoGen → countDownNoGen)", "4096", "go generate", "ptxsim"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
	if out[5] != 0 {
		t.Errorf("the kernel ran: out[5] = %d", out[5])
	}
	if err := cuda.Jit(shadowNoGen).Launch(cuda.Dim1(1), cuda.Dim1(64), out); err != nil || out[5] != 10 {
		t.Errorf("shadowNoGen: %v, out[5] = %d; want it to run", err, out[5])
	}
	onBackend(t, cuda.PTXSim)
	if err := cuda.Jit(recursiveNoGen).Launch(cuda.Dim1(1), cuda.Dim1(64), out); err != nil || out[63] != 63 {
		t.Errorf("ptxsim: %v, out[63] = %d; want 63", err, out[63])
	}
}
