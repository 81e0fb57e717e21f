package cuda

import (
	"fmt"
	"testing"
)

// TestBlockShuffleConstMatches checks the uniform-lane shuffle, whose
// shuffles up and down copy runs of lanes, against the per-thread one,
// on whole and partial warps, with and without threads that returned.
func TestBlockShuffleConstMatches(t *testing.T) {
	for _, n := range []int{1, 32, 45, 64, 100} {
		v := make([]int32, n)
		for i := range v {
			v[i] = int32(i*7 + 3)
		}
		exitedSome := make([]bool, n)
		for i := range exitedSome {
			exitedSome[i] = i%5 == 2
		}
		for _, exited := range [][]bool{nil, exitedSome} {
			for _, kind := range []ShuffleKind{ShuffleIdx, ShuffleDown, ShuffleUp, ShuffleXor} {
				for _, arg := range []int{0, 1, 3, 16, 31, 32, 33, -1} {
					t.Run(fmt.Sprintf("n%d/exited%v/kind%d/arg%d", n, exited != nil, kind, arg), func(t *testing.T) {
						args := make([]int, n)
						for i := range args {
							args[i] = arg
						}
						want, got := make([]int32, n), make([]int32, n)
						BlockShuffle(kind, want, v, args, exited)
						BlockShuffleConst(kind, got, v, arg, exited)
						for i := range want {
							if exited != nil && exited[i] {
								continue
							}
							if got[i] != want[i] {
								t.Fatalf("thread %d: got %d, want %d", i, got[i], want[i])
							}
						}
					})
				}
			}
		}
	}
}

// TestBlockShuffleDown checks BlockShuffle against the rule that it
// implements: lane l reads lane l+delta of its warp when that lane is
// present, else its own value.
func TestBlockShuffleDown(t *testing.T) {
	const n = 40 // a whole warp and a partial one of 8 lanes
	v, args, out := make([]float32, n), make([]int, n), make([]float32, n)
	for i := range v {
		v[i], args[i] = float32(i), 4
	}
	exited := make([]bool, n)
	exited[10] = true
	BlockShuffle(ShuffleDown, out, v, args, exited)
	for i, w := range map[int]float32{0: 4, 6: 6, 27: 31, 28: 28, 32: 36, 35: 39, 36: 36, 39: 39} {
		if out[i] != w {
			t.Errorf("thread %d read %v, want %v", i, out[i], w)
		}
	}
}
