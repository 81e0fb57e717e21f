package blockkernels

import (
	"runtime"
	"sync"
)

// The plain Go loops the kernels are measured against: the same work,
// split into contiguous runs of blocks over the same number of goroutines
// as the CPU backend uses, with no shared memory and no barriers.

// parallel calls fn(lo, hi) for contiguous runs of [0, n) on GOMAXPROCS
// goroutines.
func parallel(n int, fn func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := k*n/w, (k+1)*n/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}

// HandReduceSum writes into sums[b] the sum of a[b*Block:(b+1)*Block],
// added left to right.
func HandReduceSum(a, sums []float32) {
	parallel(len(sums), func(lo, hi int) {
		for b := lo; b < hi; b++ {
			var s float32
			for _, v := range a[b*Block : min((b+1)*Block, len(a))] {
				s += v
			}
			sums[b] = s
		}
	})
}

// HandMatmul computes c = a·b for row-major n×k a, k×m b and n×m c,
// blocked by Tile rows of c per task and accumulated in i-p-j order.
func HandMatmul(a, b, c []float32, n, k, m int) {
	parallel((n+Tile-1)/Tile, func(lo, hi int) {
		for i := lo * Tile; i < min(hi*Tile, n); i++ {
			row := c[i*m : (i+1)*m]
			clear(row)
			for p := range k {
				x := a[i*k+p]
				for j, y := range b[p*m : (p+1)*m] {
					row[j] += x * y
				}
			}
		}
	})
}

// HandScan writes into out the inclusive prefix sums of a within each
// block of Block elements.
func HandScan(a, out []int32) {
	parallel((len(a)+Block-1)/Block, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			var s int32
			for i := b * Block; i < min((b+1)*Block, len(a)); i++ {
				s += a[i]
				out[i] = s
			}
		}
	})
}

// HandHistogram counts the bytes of a into counts (Bins bins), each
// goroutine in bins of its own, added at the end.
func HandHistogram(a []uint8, counts []uint32) {
	var mu sync.Mutex
	parallel(len(a), func(lo, hi int) {
		var local [Bins]uint32
		for _, v := range a[lo:hi] {
			local[v]++
		}
		mu.Lock()
		for b, n := range local {
			counts[b] += n
		}
		mu.Unlock()
	})
}

// HandStencil writes into out the moving average of a over 2*Radius+1
// elements, zero past the ends.
func HandStencil(a, out []float32) {
	parallel(len(out), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var s float32
			for k := -Radius; k <= Radius; k++ {
				if j := i + k; j >= 0 && j < len(a) {
					s += a[j]
				}
			}
			out[i] = s / (2*Radius + 1)
		}
	})
}
