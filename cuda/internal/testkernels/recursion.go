package testkernels

import "github.com/nugo-dev/nugo/cuda"

// Recurse writes to out[i] the sum 1+2+...+depth[i], by a recursion depth[i]
// calls deep (issue 21 item 5): a depth within cuda.MaxCallDepth works on
// every backend, a deeper one fails the launch with a *cuda.KernelError
// instead of overflowing the thread's stack; on the cpu backend through
// the depth-counting copies nugo gen writes into nugo_loops.go.
func Recurse(t cuda.Thread, depth []int64, out []int64) {
	if i := t.Grid1(); i < len(depth) {
		out[i] = sumDown(depth[i])
	}
}

// sumDown is n + (n-1) + ... + 1, one call per term.
func sumDown(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return n + sumDown(n-1)
}

// RunawayMutual recurses without end in thread 3 (two functions calling
// each other); the other threads write their index.
func RunawayMutual(t cuda.Thread, out []int64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	if i == 3 {
		out[i] = ping(int64(i))
		return
	}
	out[i] = int64(i)
}

func ping(n int64) int64 { return pong(n+1) + 1 }

func pong(n int64) int64 { return ping(n*3%1000) - 1 }
