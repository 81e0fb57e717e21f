// Coalesced compares writing log10(i+1) in order (neighbouring threads write
// neighbouring elements, which a GPU coalesces into few memory transactions)
// with writing it through a random permutation (every write its own
// transaction). Both compute the same values; only the access pattern, and
// so the time, differs.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"time"

	"github.com/nugo-dev/nugo/cuda"
)

func inOrder(t cuda.Thread, out []float64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = math.Log10(float64(i + 1))
	}
}

func permuted(t cuda.Thread, perm []int32, out []float64) {
	if i := t.Grid1(); i < len(out) {
		j := perm[i]
		out[j] = math.Log10(float64(j + 1))
	}
}

type timing struct{ inOrder, permuted time.Duration }

func run(n int) (ordered, shuffled []float64, tm timing, err error) {
	perm := make([]int32, n)
	for i, p := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
		perm[i] = int32(p)
	}
	dperm, err := cuda.ToDevice(perm)
	if err != nil {
		return nil, nil, tm, err
	}
	defer dperm.Free()
	out, err := cuda.NewDeviceArray[float64](n)
	if err != nil {
		return nil, nil, tm, err
	}
	defer out.Free()
	grid, block := cuda.Dim1((n+255)/256), cuda.Dim1(256)

	start := time.Now()
	if err := cuda.Jit(inOrder).Launch(grid, block, out); err != nil {
		return nil, nil, tm, err
	}
	tm.inOrder = time.Since(start)
	if ordered, err = out.ToHost(); err != nil {
		return nil, nil, tm, err
	}
	start = time.Now()
	if err := cuda.Jit(permuted).Launch(grid, block, dperm, out); err != nil {
		return nil, nil, tm, err
	}
	tm.permuted = time.Since(start)
	shuffled, err = out.ToHost()
	return ordered, shuffled, tm, err
}

func main() {
	_, _, tm, err := run(1 << 22)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("in order %v, through a random permutation %v\n", tm.inOrder, tm.permuted)
}
