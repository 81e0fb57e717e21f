// Events times a kernel with events recorded on a stream before and after
// it: the time the device spent, not the time the host waited.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"
	"time"

	"github.com/nugo-dev/nugo/cuda"
)

func saxpy(t cuda.Thread, a float32, x, y []float32) {
	if i := t.Grid1(); i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

func run(n int) ([]float32, time.Duration, error) {
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	s, err := cuda.NewStream()
	if err != nil {
		return nil, 0, err
	}
	start, err := cuda.NewEvent()
	if err != nil {
		return nil, 0, err
	}
	end, err := cuda.NewEvent()
	if err != nil {
		return nil, 0, err
	}
	if err := start.Record(s); err != nil {
		return nil, 0, err
	}
	cfg := cuda.LaunchConfig{Grid: cuda.Dim1((n + 255) / 256), Block: cuda.Dim1(256), Stream: s}
	if err := cuda.Jit(saxpy).LaunchWith(cfg, float32(2), x, y); err != nil {
		return nil, 0, err
	}
	if err := end.Record(s); err != nil {
		return nil, 0, err
	}
	if err := s.Synchronize(); err != nil {
		return nil, 0, err
	}
	dt, err := cuda.ElapsedTime(start, end)
	return y, dt, err
}

func main() {
	_, dt, err := run(1 << 22)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("saxpy over %d elements took %v\n", 1<<22, dt)
}
