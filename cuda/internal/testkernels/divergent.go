package testkernels

import "github.com/nugo-dev/nugo/cuda"

// DivergentFullMask shuffles over the full warp on one side of if lane <
// 16 and takes a ballot after the if: lanes 16-31, live, never reach the
// shuffle (undefined on a GPU). Its block loop fails the launch at the
// shuffle; the goroutine path pairs the shuffle with the ballot.
func DivergentFullMask(t cuda.Thread, out []uint32) {
	i := t.Grid1()
	v := uint32(i)
	if t.LaneID() < 16 {
		v = cuda.ShflSync(t, v, 0)
	}
	out[i] = v + cuda.BallotSync(t, true)
}
