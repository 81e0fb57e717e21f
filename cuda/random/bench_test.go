package random_test

import (
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/random"
)

// Draws on the host, one generator: the cost of the functions themselves.
func BenchmarkHostDraw(b *testing.B) {
	for _, c := range []struct {
		name string
		draw func([]uint64, int) float64
	}{
		{"Next", func(s []uint64, i int) float64 { return float64(random.Next(s, i)) }},
		{"Uniform64", random.Uniform64},
		{"Uniform32", func(s []uint64, i int) float64 { return float64(random.Uniform32(s, i)) }},
		{"Normal64", random.Normal64},
		{"Normal32", func(s []uint64, i int) float64 { return float64(random.Normal32(s, i)) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			s, err := random.HostStates(1, 1, 0)
			if err != nil {
				b.Fatal(err)
			}
			var sum float64
			for b.Loop() {
				sum += c.draw(s, 0)
			}
			if sum != sum {
				b.Log(sum) // keeps sum alive
			}
		})
	}
}

// BenchmarkHostStates: initialising 2^20 generators (2^20 jumps of 128
// steps each), what NewStates does on the host before its copy.
func BenchmarkHostStates(b *testing.B) {
	for b.Loop() {
		if _, err := random.HostStates(1<<20, 42, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func uniformKernel(t cuda.Thread, states []uint64, per int, out []float32) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	var s float32
	for k := 0; k < per; k++ {
		s += random.Uniform32(states, i)
	}
	out[i] = s
}

// BenchmarkCPUKernelUniform32: 2^16 threads × 64 draws in a kernel on the
// CPU backend; ns/op / 2^22 is the cost of one draw.
func BenchmarkCPUKernelUniform32(b *testing.B) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		b.Fatal(err)
	}
	const threads, per = 1 << 16, 64
	states, err := random.NewStates(threads, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer states.Free()
	out := make([]float32, threads)
	k := cuda.Jit(uniformKernel)
	for b.Loop() {
		if err := k.Launch(cuda.Dim1(threads/256), cuda.Dim1(256), states, per, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(threads*per), "ns/draw")
}
