package testkernels

import (
	"math/bits"

	"github.com/nugo-dev/nugo/cuda"
)

// Match records, for every thread whose skip is 0, MatchAnySync and
// MatchAllSync of in[i]: the masks in anyMask and allMask, and in all 1
// if every live lane of its warp holds the same value, else 0. Threads past the
// end of in and those whose skip is not 0 return first: they are absent.
func Match[T cuda.Shuffleable](t cuda.Thread, in []T, skip []int32, anyMask, allMask []uint32, all []int32) {
	i := t.Grid1()
	if i >= len(in) || skip[i] != 0 {
		return
	}
	v := in[i]
	anyMask[i] = cuda.MatchAnySync(t, v)
	m, ok := cuda.MatchAllSync(t, v)
	var a int32
	if ok {
		a = 1
	}
	allMask[i], all[i] = m, a
}

// MatchFloat32 is Match for float32, written out so that the package's
// generated row loops cover an instantiation of the generic kernel too.
func MatchFloat32(t cuda.Thread, in []float32, skip []int32, anyMask, allMask []uint32, all []int32) {
	Match(t, in, skip, anyMask, allMask, all)
}

// Lanemasks stores the five lane masks of the thread with linear index i
// (in a block of any shape) at out[5*i:]: Lt, Le, Eq, Ge, Gt.
func Lanemasks(t cuda.Thread, out []uint32) {
	x, y, z := t.ThreadIdx().X, t.ThreadIdx().Y, t.ThreadIdx().Z
	d := t.BlockDim()
	i := x + d.X*(y+d.Y*z) + t.BlockIdx().X*d.X*d.Y*d.Z
	o := out[5*i : 5*i+5]
	o[0], o[1], o[2], o[3], o[4] = t.LanemaskLt(), t.LanemaskLe(), t.LanemaskEq(), t.LanemaskGe(), t.LanemaskGt()
}

// RankAmongTrue gives each thread whose in[i] is positive its rank among
// such lanes of its warp (BallotSync masked by LanemaskLt, then counted),
// and -1 to the others: the stream-compaction idiom.
func RankAmongTrue(t cuda.Thread, in []int32, rank []int32) {
	i := t.Grid1()
	if i >= len(in) {
		return
	}
	b := cuda.BallotSync(t, in[i] > 0)
	r := int32(-1)
	if in[i] > 0 {
		r = int32(bits.OnesCount32(b & t.LanemaskLt()))
	}
	rank[i] = r
}
