// Vectoradd adds two float32 vectors of 1M elements with explicit device
// arrays: copy in once, launch, copy the result out.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
)

func add(t cuda.Thread, a, b, c []float32) {
	if i := t.Grid1(); i < len(c) {
		c[i] = a[i] + b[i]
	}
}

func run(n int) (a, b, c []float32, err error) {
	a, b, c = make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), 2*float32(i)
	}
	da, err := cuda.ToDevice(a)
	if err != nil {
		return nil, nil, nil, err
	}
	defer da.Free()
	db, err := cuda.ToDevice(b)
	if err != nil {
		return nil, nil, nil, err
	}
	defer db.Free()
	dc, err := cuda.DeviceArrayLike(c)
	if err != nil {
		return nil, nil, nil, err
	}
	defer dc.Free()
	if err := cuda.Jit(add).Launch(cuda.Dim1((n+255)/256), cuda.Dim1(256), da, db, dc); err != nil {
		return nil, nil, nil, err
	}
	return a, b, c, dc.CopyToHost(c)
}

func main() {
	_, _, c, err := run(1 << 20)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("c[:4] =", c[:4], "c[last] =", c[len(c)-1])
}
