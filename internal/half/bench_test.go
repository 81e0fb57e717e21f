package half

import (
	"testing"
	"time"
)

// BenchmarkAxpy times y = a·x + y over 4096 elements in half (Fma on bit
// patterns, the CPU backend's cost of cuda.HFma) and reports it as a ratio
// to the same loop in float32.
func BenchmarkAxpy(b *testing.B) {
	const n = 4096
	xh, yh := make([]uint16, n), make([]uint16, n)
	x32, y32 := make([]float32, n), make([]float32, n)
	for i := range xh {
		xh[i] = FromFloat32(float32(i%100) * 0.01)
		yh[i] = FromFloat32(float32(i%7) * 0.5)
		x32[i], y32[i] = ToFloat32(xh[i]), ToFloat32(yh[i])
	}
	a := FromFloat32(1.5)
	var t32 time.Duration
	for i := 0; i < b.N; i++ {
		for j := range yh {
			yh[j] = Fma(a, xh[j], yh[j])
		}
		b.StopTimer()
		start := time.Now()
		for j := range y32 {
			y32[j] = 1.5*x32[j] + y32[j]
		}
		t32 += time.Since(start)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/elem")
	if t32 > 0 {
		b.ReportMetric(float64(b.Elapsed())/float64(t32), "x-float32")
	}
}
