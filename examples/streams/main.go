// Streams splits work over two streams: each copies its half in, runs the
// kernel on it and copies it out, independently of the other, so the two
// halves may overlap. The host data is pinned (Numba's cuda.pinned), so
// that the copies go straight between it and the device.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

func sqrtInPlace(t cuda.Thread, x []float64) {
	for i := t.Grid1(); i < len(x); i += t.GridSize1() { // grid-stride loop
		x[i] = math.Sqrt(x[i])
	}
}

func run(n int) ([]float64, error) {
	data := make([]float64, n)
	for i := range data {
		data[i] = float64(i)
	}
	pinned, err := cuda.Pin(data)
	if err != nil {
		return nil, err
	}
	defer pinned.Unpin() // after the streams below have finished with data
	k := cuda.Jit(sqrtInPlace)
	halves := [][]float64{data[:n/2], data[n/2:]}
	var arrays []*cuda.DeviceArray[float64]
	defer func() {
		for _, d := range arrays {
			d.Free()
		}
	}()
	var streams []*cuda.Stream
	for _, h := range halves {
		s, err := cuda.NewStream()
		if err != nil {
			return nil, err
		}
		d, err := cuda.ToDeviceAsync(h, s)
		if err != nil {
			return nil, err
		}
		arrays = append(arrays, d)
		cfg := cuda.LaunchConfig{Grid: cuda.Dim1(64), Block: cuda.Dim1(256), Stream: s}
		if err := k.LaunchWith(cfg, d); err != nil {
			return nil, err
		}
		if err := d.CopyToHostAsync(h, s); err != nil {
			return nil, err
		}
		streams = append(streams, s)
	}
	for _, s := range streams {
		if err := s.Synchronize(); err != nil {
			return nil, err
		}
	}
	return data, nil
}

func main() {
	data, err := run(1 << 20)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("sqrt(2) =", data[2], "sqrt(n-1) =", data[len(data)-1])
}
