package compiler

import "testing"

func TestSmokeCompile(t *testing.T) {
	src := `package k
import (
	"math"
	"math/bits"
	"github.com/nugo-dev/nugo/cuda"
)
type pair struct{ a, b float64 }
func sum2(x, y int64) (int64, bool) { return x + y, x > y }
func add[T cuda.Number](t cuda.Thread, a []T, s T, d []int64, m cuda.Array2[float32]) {
	if i := t.Grid1(); i < len(a) {
		a[i] += s * T(math.Sqrt(2))
		cuda.Printf("%d %v %f %t\n", i, s, 1.5, i > 3)
		var buf [4]float64
		for j := range buf { buf[j] = float64(j) }
		p := pair{1, 2}
		p.b += buf[i%4]
		x, y := int64(1), int64(2)
		for k := 0; k < 10; k++ { x, y = y, x }
		q, ok := sum2(x, y)
		if ok { d[i] = q / d[0] + q % 3 }
		d[i] += int64(bits.LeadingZeros64(uint64(q))) + int64(math.Max(p.a, p.b)) << 2
		sh := cuda.SharedArray[float32](t, 64)
		sh[t.ThreadIdx().X] = m.At(1, 2)
		t.SyncThreads()
		m.Set(0, 0, sh[0])
		cuda.AtomicAdd(&d[0], 1)
		cuda.AtomicMax(&sh[1], 2)
		var i8 int8 = int8(i)
		i8 *= 100
		d[1] = int64(i8)
		sub := d[1:3]
		for _, v := range sub { d[2] += v }
	}
}
`
	for _, debug := range []bool{false, true} {
		m, err := compileSrc(t, src, "add[float32]", Target{Debug: debug})
		if err != nil {
			t.Fatal(err)
		}
		if testing.Verbose() && debug {
			t.Log(m.PTX)
		}
		assembleAll(t, "smoke", m)
	}
}
