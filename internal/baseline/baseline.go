// Package baseline holds the hand-written Go loops that nugo's benchmarks
// compare against, so that every benchmark measures against the same code.
package baseline

import (
	"runtime"
	"sync"
)

// AddFloat32 stores x[i]+y[i] in out[i], one contiguous chunk per
// goroutine, with the addition inlined: the plain Go loop a CPU kernel or
// ufunc for vector add is measured against. workers <= 0 means GOMAXPROCS.
func AddFloat32(out, x, y []float32, workers int) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for i := range workers {
		lo, hi := i*len(out)/workers, (i+1)*len(out)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, a, b := out[lo:hi], x[lo:hi], y[lo:hi]
			for j := range o {
				o[j] = a[j] + b[j]
			}
		}()
	}
	wg.Wait()
}
