package baseline

import "testing"

func TestAddFloat32(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 2}, {1, 4}, {7, 3}, {1000, 0}} {
		x, y, out := make([]float32, tc.n), make([]float32, tc.n), make([]float32, tc.n)
		for i := range x {
			x[i], y[i] = float32(i), 0.5
		}
		AddFloat32(out, x, y, tc.workers)
		for i := range out {
			if out[i] != float32(i)+0.5 {
				t.Fatalf("n=%d workers=%d: out[%d] = %v", tc.n, tc.workers, i, out[i])
			}
		}
	}
}
