package cuda_test

import (
	"errors"
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

// runawayNoGen recurses without end and has no generated loop.
func runawayNoGen(t cuda.Thread, out []int64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = foreverNoGen(int64(i))
	}
}

func foreverNoGen(n int64) int64 { return 1 + foreverNoGen(n+1) }

// recursiveMapNoGen reaches the recursion through a map, which kernels
// compiled to PTX cannot use.
func recursiveMapNoGen(t cuda.Thread, out []int64) {
	m := map[int]int64{}
	if i := t.Grid1(); i < len(out) {
		m[i] = int64(i)
		out[i] = countDownNoGen(m[i])
	}
}

// TestCPURecursionWithoutGeneratedLoopsRunsOnPTXSim: on the cpu backend a
// kernel that reaches a recursive function and has no depth-counting copy
// (nugo gen has not run) runs compiled, on ptxsim, whose calls count their
// depth: a bounded recursion gives its results, a runaway one the
// KernelError of the limit instead of Go's fatal stack overflow. One the
// compiler cannot take is refused before it runs, with the recursion, the
// limit, what to do and the compiler's reason. A func value that only
// shares the recursive function's name is no recursion and runs natively
// (issue 21 item 5).
func TestCPURecursionWithoutGeneratedLoopsRunsOnPTXSim(t *testing.T) {
	onBackend(t, cuda.CPU)
	out := make([]int64, 64)
	if err := cuda.Jit(recursiveNoGen).Launch(cuda.Dim1(1), cuda.Dim1(64), out); err != nil || out[63] != 63 {
		t.Errorf("bounded recursion: %v, out[63] = %d; want 63", err, out[63])
	}
	err := cuda.Jit(runawayNoGen).Launch(cuda.Dim1(1), cuda.Dim1(64), out)
	var ke *cuda.KernelError
	if !errors.As(err, &ke) || !strings.Contains(err.Error(), cuda.ErrCallDepth.Error()) {
		t.Errorf("runaway recursion: %v; want a KernelError %q", err, cuda.ErrCallDepth)
	}
	clear(out)
	err = cuda.Jit(recursiveMapNoGen).Launch(cuda.Dim1(1), cuda.Dim1(64), out)
	if err == nil {
		t.Fatal("recursive kernel with a map ran on the cpu backend without its depth-counting copy")
	}
	for _, s := range []string{"countDownNoGen (countDownNoGen → countDownNoGen)", "4096", "go generate", "ptxsim", "map"} {
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
}
