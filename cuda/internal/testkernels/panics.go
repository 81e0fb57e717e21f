package testkernels

import (
	"errors"

	"github.com/nugo-dev/nugo/cuda"
)

// Panics has thread 70 panic with the value chosen by mode (Numba's raise
// in a kernel, issue 21 item 4); the other threads write their element.
func Panics(t cuda.Thread, d []int32, mode int) {
	i := t.Grid1()
	if i >= len(d) {
		return
	}
	if i == 70 {
		switch mode {
		case 0:
			panic("boom")
		case 1:
			panic(42)
		case 2:
			panic(-1.5e-7)
		case 3:
			panic(errors.New("bad input"))
		case 4:
			panic(uint64(1<<64 - 1))
		case 5:
			panic(true)
		case 6:
			panic(float32(0.1))
		case 7:
			panic(int8(-3))
		case 8:
			checkPositive(int32(-i))
		}
	}
	d[i] = int32(i)
}

// checkPositive panics in a device function.
func checkPositive(x int32) {
	if x <= 0 {
		panic("x must be positive")
	}
}

// Runaway recurses without end for a non-negative d[i]: the compiled
// backends stop it at their call-depth limit.
func Runaway(t cuda.Thread, d []int64) {
	if i := t.Grid1(); i < len(d) {
		d[i] = countUp(d[i])
	}
}

func countUp(n int64) int64 {
	if n == -1 {
		return 0
	}
	return countUp(n+1) + 1
}
