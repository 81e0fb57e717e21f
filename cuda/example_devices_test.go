package cuda_test

import (
	"fmt"
	"sync"

	"github.com/nugo-dev/nugo/cuda"
)

// squareInto stores the square of lo+i in out[i].
func squareInto(t cuda.Thread, lo int64, out []int64) {
	if i := t.Grid1(); i < len(out) {
		v := lo + int64(i)
		out[i] = v * v
	}
}

// Every device of the backend sums the squares of its share of 0..999,
// from a goroutine of its own. Arrays made on a device stay there; the
// kernel is compiled once per device. On the cpu and ptxsim backends,
// NUGO_VIRTUAL_DEVICES=4 gives four devices to run this on.
func ExampleAllDevices() {
	devs, err := cuda.AllDevices()
	if err != nil {
		fmt.Println(err)
		return
	}
	k := cuda.Jit(squareInto)
	const n = 1000
	per := (n + len(devs) - 1) / len(devs)
	sums := make([]int64, len(devs))
	errs := make([]error, len(devs))
	var wg sync.WaitGroup
	for i, d := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lo, hi := min(i*per, n), min((i+1)*per, n)
			out, err := cuda.NewDeviceArrayOn[int64](d, hi-lo)
			if err != nil {
				errs[i] = err
				return
			}
			defer out.Free()
			if err := d.Launch(k, cuda.Dim1((hi-lo+255)/256), cuda.Dim1(256), int64(lo), out); err != nil {
				errs[i] = fmt.Errorf("%v: %w", d, err)
				return
			}
			host, err := out.ToHost()
			if err != nil {
				errs[i] = err
				return
			}
			for _, v := range host {
				sums[i] += v
			}
		}()
	}
	wg.Wait()
	var total int64
	for i := range devs {
		if errs[i] != nil {
			fmt.Println(errs[i])
			return
		}
		total += sums[i]
	}
	fmt.Println("sum of squares", total)
	// Output: sum of squares 332833500
}
