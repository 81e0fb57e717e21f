package golaunch_test

import (
	"reflect"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/primes"
	"github.com/nugo-dev/nugo/internal/ptxsim/golaunch"
)

func compilePrimes(tb testing.TB) *golaunch.Kernel {
	tb.Helper()
	m, err := compiler.CompileFunc(primes.Kernel, compiler.Target{})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := golaunch.New(m)
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// TestCompiledPrimes runs the compiled capstone kernel, with aliasing
// arguments and a sub-slice, against the serial reference.
func TestCompiledPrimes(t *testing.T) {
	k := compilePrimes(t)
	buf := make([]int64, 1000)
	out := buf[500:800] // a sub-slice: cap reaches the end of buf
	err := k.Run(golaunch.Launch{Grid: [3]int{(len(out) + 127) / 128, 1, 1}, Block: [3]int{128, 1, 1}},
		[]reflect.Value{reflect.ValueOf(int64(1 << 33)), reflect.ValueOf(out)})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		if want := primes.FactorSum(1<<33 + int64(i)); v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
	for i, v := range buf[:500] {
		if v != 0 {
			t.Fatalf("buf[%d] = %d written outside the slice", i, v)
		}
	}
}

// BenchmarkCompiledPrimes runs the compiler's primes kernel over 20000
// numbers on one worker and reports interpreted PTX instructions per second.
func BenchmarkCompiledPrimes(b *testing.B) {
	k := compilePrimes(b)
	out := make([]int64, 20000)
	args := []reflect.Value{reflect.ValueOf(int64(1)), reflect.ValueOf(out)}
	l := golaunch.Launch{Grid: [3]int{(len(out) + 255) / 256, 1, 1}, Block: [3]int{256, 1, 1}, Workers: 1}
	var total int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := k.RunStats(l, args)
		if err != nil {
			b.Fatal(err)
		}
		total += st.Instructions
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "instr/s")
}
