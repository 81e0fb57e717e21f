package cuda

import (
	"runtime"
	"testing"

	"github.com/nugo-dev/nugo/internal/baseline"
)

func empty(t Thread, data []float32) {}

// BenchmarkCPULaunchEmpty measures the CPU backend's cost per thread: one
// launch of an empty kernel over 2^20 threads per iteration.
func BenchmarkCPULaunchEmpty(b *testing.B) {
	const n = 1 << 20
	k := Jit(empty)
	data := make([]float32, 1)
	for b.Loop() {
		if err := k.Launch(Dim1(n/256), Dim1(256), data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/thread")
}

func vectorAdd(t Thread, a, b, c []float32) {
	if i := t.Grid1(); i < len(c) {
		c[i] = a[i] + b[i]
	}
}

const vecN = 1 << 24

func vectors() (a, b, c []float32) {
	a, b, c = make([]float32, vecN), make([]float32, vecN), make([]float32, vecN)
	for i := range a {
		a[i], b[i] = float32(i), 1
	}
	return a, b, c
}

// BenchmarkVectorAdd compares the CPU backend with a plain Go loop split
// over the same number of goroutines, on 2^24 float32 elements.
func BenchmarkVectorAdd(b *testing.B) {
	x, y, z := vectors()
	b.Run("kernel", func(b *testing.B) {
		k := Jit(vectorAdd)
		for b.Loop() {
			if err := k.Launch(Dim1(vecN/256), Dim1(256), x, y, z); err != nil {
				b.Fatal(err)
			}
		}
		b.SetBytes(3 * 4 * vecN)
	})
	b.Run("goroutines", func(b *testing.B) {
		for b.Loop() {
			baseline.AddFloat32(z, x, y, runtime.GOMAXPROCS(0))
		}
		b.SetBytes(3 * 4 * vecN)
	})
}

func TestVectorAddMatchesLoop(t *testing.T) {
	x, y, z := vectors()
	if err := Jit(vectorAdd).Launch(Dim1(vecN/256), Dim1(256), x, y, z); err != nil {
		t.Fatal(err)
	}
	want := make([]float32, vecN)
	baseline.AddFloat32(want, x, y, 3)
	for i := range z {
		if z[i] != want[i] {
			t.Fatalf("c[%d] = %v, want %v", i, z[i], want[i])
		}
	}
}
