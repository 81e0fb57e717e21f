package ptxsim

import (
	"encoding/binary"
	"os"
	"testing"
)

// primeFactorSum is the Go reference of testdata/primes.ptx.
func primeFactorSum(n int64) int64 {
	s := int64(0)
	for p := int64(2); p*p <= n; p++ {
		for n%p == 0 {
			s += p
			n /= p
		}
	}
	if n > 1 {
		s += n
	}
	return s
}

func loadPrimes(tb testing.TB) (*Module, *Program, *Memory) {
	tb.Helper()
	src, err := os.ReadFile("testdata/primes.ptx")
	if err != nil {
		tb.Fatal(err)
	}
	m, err := Parse(string(src))
	if err != nil {
		tb.Fatal(err)
	}
	mem := NewMemory()
	p, err := m.Load(mem)
	if err != nil {
		tb.Fatal(err)
	}
	return m, p, mem
}

func runPrimes(tb testing.TB, m *Module, p *Program, mem *Memory, n int) ([]int64, Stats) {
	tb.Helper()
	addr, buf := mem.Alloc(8 * n)
	defer mem.Free(addr)
	params, err := PackParams(m, "primes", addr, n)
	if err != nil {
		tb.Fatal(err)
	}
	st, err := p.RunStats(Config{Kernel: "primes", Grid: [3]int{(n + 255) / 256}, Block: [3]int{256}, Params: params})
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(buf[8*i:]))
	}
	return out, st
}

func TestPrimesKernel(t *testing.T) {
	m, p, mem := loadPrimes(t)
	for _, n := range []int{1, 255, 256, 257, 10000} {
		out, _ := runPrimes(t, m, p, mem, n)
		for i, v := range out {
			if want := primeFactorSum(int64(i + 1)); v != want {
				t.Fatalf("n=%d: out[%d] = %d, want %d", n, i, v, want)
			}
		}
	}
}

// BenchmarkPrimes runs the primes kernel over 20000 elements on one worker
// and reports simulated PTX instructions per second (instr/s).
func BenchmarkPrimes(b *testing.B) {
	m, p, mem := loadPrimes(b)
	const n = 20000
	addr, _ := mem.Alloc(8 * n)
	params, err := PackParams(m, "primes", addr, n)
	if err != nil {
		b.Fatal(err)
	}
	var total int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := p.RunStats(Config{Kernel: "primes", Grid: [3]int{(n + 255) / 256}, Block: [3]int{256}, Params: params, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		total += st.Instructions
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "instr/s")
}
