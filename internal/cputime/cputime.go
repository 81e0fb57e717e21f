// Package cputime measures the process's CPU time for benchmarks, which
// report it beside wall time: on a machine other programs load, wall time
// measures the sharing as much as the code, CPU time less so.
package cputime

import (
	"testing"
	"time"
)

// Report reports, as the metric cpu-ns/op, the process's CPU time per
// iteration of b since start, a value of Process; nothing when start is
// negative (no CPU time on this system).
func Report(b *testing.B, start time.Duration) {
	if start >= 0 && b.N > 0 {
		b.ReportMetric(float64((Process()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
