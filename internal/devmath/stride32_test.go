package devmath

import (
	"math"
	"testing"
)

// TestStride32 runs every one-argument float32 function on every 1024th
// float32 bit pattern (about four million inputs, both signs, all exponents,
// subnormals, infinities and NaNs) against float32(Go's float64 function).
func TestStride32(t *testing.T) {
	const stride = 1024
	for _, c := range goRef32 {
		var worst float64
		var wx float32
		for b := uint64(0); b < 1<<32; b += stride {
			x := math.Float32frombits(uint32(b) + uint32(b>>10)&0x3ff) // vary the low bits too
			got, want := c.f(x), float32(c.g(float64(x)))
			var d float64
			if isSpecial32(got) || isSpecial32(want) {
				if !sameSpecial32(got, want) {
					d = math.Inf(1)
				}
			} else {
				d = ulpDist32(got, want)
			}
			if d > worst {
				worst, wx = d, x
			}
		}
		t.Logf("%-12s max %.0f ulp at %v", c.name, worst, wx)
		if worst > 1 {
			t.Errorf("%s(%v) = %v, float32(Go) = %v: %v ulp", c.name, wx, c.f(wx), float32(c.g(float64(wx))), worst)
		}
	}
}
