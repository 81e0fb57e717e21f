package random_test

import (
	"math"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/random"
)

// Slots of statsKernel's per-thread output.
const (
	sumU64 = iota
	sqU64
	sumU32
	sqU32
	sumN64
	sqN64
	sumN32
	sqN32
	inside1Sigma // normals (both widths) with |z| < 1
	belowHalf    // Uniform64 draws < 0.5
	outOfRange   // uniforms outside [0,1) (Uniform32: [0,1])
	statSlots
)

// bins of statsKernel's Uniform32 histogram.
const bins = 16

// statsKernel draws per values of each kind from generator i and writes
// their sums, sums of squares, counts and a histogram of Uniform32.
func statsKernel(t cuda.Thread, states []uint64, per int, out []float64, hist []int64) {
	i := t.Grid1()
	if 2*i+1 >= len(states) {
		return
	}
	var su, qu, s32, q32, sn, qn, sn32, qn32, in1, half, bad float64
	for k := 0; k < per; k++ {
		u := random.Uniform64(states, i)
		su += u
		qu += u * u
		if u < 0.5 {
			half++
		}
		if u < 0 || u >= 1 {
			bad++
		}
		v := random.Uniform32(states, i)
		s32 += float64(v)
		q32 += float64(v) * float64(v)
		if v < 0 || v > 1 {
			bad++
		}
		b := int(v * bins)
		if b >= bins {
			b = bins - 1
		}
		hist[bins*i+b]++
		z := random.Normal64(states, i)
		sn += z
		qn += z * z
		if z > -1 && z < 1 {
			in1++
		}
		w := random.Normal32(states, i)
		sn32 += float64(w)
		qn32 += float64(w) * float64(w)
		if w > -1 && w < 1 {
			in1++
		}
	}
	o := out[statSlots*i : statSlots*(i+1)]
	o[sumU64], o[sqU64], o[sumU32], o[sqU32] = su, qu, s32, q32
	o[sumN64], o[sqN64], o[sumN32], o[sqN32] = sn, qn, sn32, qn32
	o[inside1Sigma], o[belowHalf], o[outOfRange] = in1, half, bad
}

// TestStatistics draws 2^20 numbers of each kind over 4096 generators on
// the CPU backend and checks their moments against the distributions'.
// The seed is fixed, so the outcome is deterministic; the bounds are
// about 10 standard errors wide, so a correct generator passes with any
// seed and a broken one (a wrong scale, shift, a stuck or shared
// generator, a bad Box-Muller) fails.
func TestStatistics(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	const threads, per = 4096, 256
	const n = threads * per
	states, err := random.NewStates(threads, 2024)
	if err != nil {
		t.Fatal(err)
	}
	defer states.Free()
	out := make([]float64, statSlots*threads)
	hist := make([]int64, bins*threads)
	if err := cuda.Jit(statsKernel).Launch(cuda.Dim1(threads/128), cuda.Dim1(128), states, per, out, hist); err != nil {
		t.Fatal(err)
	}
	var tot [statSlots]float64
	for i := range threads {
		for s := range statSlots {
			tot[s] += out[statSlots*i+s]
		}
	}
	mean := func(s int) float64 { return tot[s] / n }
	variance := func(s, q int) float64 { return tot[q]/n - mean(s)*mean(s) }
	checks := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"Uniform64 mean", mean(sumU64), 0.5, 0.003},
		{"Uniform64 variance", variance(sumU64, sqU64), 1.0 / 12, 0.001},
		{"Uniform32 mean", mean(sumU32), 0.5, 0.003},
		{"Uniform32 variance", variance(sumU32, sqU32), 1.0 / 12, 0.001},
		{"Uniform64 fraction below 0.5", tot[belowHalf] / n, 0.5, 0.005},
		{"Normal64 mean", mean(sumN64), 0, 0.01},
		{"Normal64 variance", variance(sumN64, sqN64), 1, 0.015},
		{"Normal32 mean", mean(sumN32), 0, 0.01},
		{"Normal32 variance", variance(sumN32, sqN32), 1, 0.015},
		{"normals within 1 sigma", tot[inside1Sigma] / (2 * n), math.Erf(1 / math.Sqrt2), 0.005},
		{"uniforms out of range", tot[outOfRange], 0, 0},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.6g, want %.6g ± %g", c.name, c.got, c.want, c.tol)
		}
	}

	// Pearson's chi-square of the Uniform32 histogram, 15 degrees of
	// freedom: 60 has a probability below 1e-6 for a uniform generator.
	var chi2 float64
	for b := range bins {
		var c int64
		for i := range threads {
			c += hist[bins*i+b]
		}
		e := float64(n) / bins
		chi2 += (float64(c) - e) * (float64(c) - e) / e
	}
	if chi2 > 60 {
		t.Errorf("Uniform32 histogram chi-square = %.1f over %d bins; a uniform generator stays below 60", chi2, bins)
	}

	// The generators are distinct: thread i's sum differs from thread
	// i+1's (a shared or repeated state would make them equal).
	for i := 0; i+1 < threads; i++ {
		if out[statSlots*i+sumU64] == out[statSlots*(i+1)+sumU64] {
			t.Fatalf("threads %d and %d drew the same Uniform64 sum %v", i, i+1, out[statSlots*i+sumU64])
		}
	}
	t.Logf("%d draws of each kind: uniform64 mean %.5f var %.5f, normal64 mean %.5f var %.5f, chi2 %.1f",
		n, mean(sumU64), variance(sumU64, sqU64), mean(sumN64), variance(sumN64, sqN64), chi2)
}
