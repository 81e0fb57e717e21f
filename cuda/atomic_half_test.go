package cuda

import (
	"math"
	"testing"
	"time"
)

func h16(b uint16) Float16 { return Float16FromBits(b) }

// halfAtomicsKernel: every thread of the grid updates eight Float16s that
// share four 32-bit words, so each word is swapped by updates of both of
// its halves at once. Small integers keep the sums exact and so
// independent of the order.
func halfAtomicsKernel(th Thread, a []Float16) {
	i := th.Grid1()
	AtomicAdd(&a[i%2], F16(1))                   // both halves of word 0
	AtomicSub(&a[2], F16(0.5))                   // word 1, low
	AtomicAdd(&a[3], F16(float32(i%2)))          // word 1, high
	AtomicMax(&a[4], F16(float32(i%1000)))       // word 2
	AtomicMin(&a[5], F16(float32(i%1000)-500))   //
	AtomicExch(&a[6], F16(7))                    // word 3
	AtomicCAS(&a[7], Float16{}, F16(float32(9))) //
}

func TestHalfAtomicsUnderContention(t *testing.T) {
	const threads = 8 * 256 // 1024 adds of 1 per element: exact in half
	a := make([]Float16, 8)
	a[5] = F16(1000)
	if err := Jit(halfAtomicsKernel).Launch(Dim1(8), Dim1(256), a); err != nil {
		t.Fatal(err)
	}
	want := []float32{threads / 2, threads / 2, -threads / 2, threads / 2, 999, -500, 7, 9}
	for i, w := range want {
		if a[i] != F16(w) {
			t.Errorf("element %d = %v, want %v", i, a[i], w)
		}
	}
}

// AtomicAdd on a Float16 stores HAdd's correctly rounded sum (ties to
// even, overflow to Inf, the canonical NaN) and returns the old value.
func TestHalfAtomicAddRounds(t *testing.T) {
	cases := []struct {
		old, val, want Float16
		what           string
	}{
		{F16(2048), F16(1), F16(2048), "tie 2049 to even 2048"},
		{F16(2050), F16(1), F16(2052), "tie 2051 to even 2052"},
		{F16(1), h16(0x1000), F16(1), "1 + 2^-11: tie to even 1"},
		{F16(1), h16(0x1200), h16(0x3C01), "1 + 3·2^-12: up"},
		{F16(65504), F16(16), h16(0x7C00), "65504 + 16: tie to even Inf"},
		{F16(65504), F16(15), F16(65504), "65504 + 15: stays"},
		{h16(0x7C00), h16(0xFC00), h16(0x7FFF), "Inf + -Inf: canonical NaN"},
		{h16(0x7E01), F16(1), h16(0x7FFF), "NaN payload: canonical NaN"},
		{h16(0x0001), h16(0x8001), Float16{}, "subnormals cancel to +0"},
		{h16(0x8000), h16(0x8000), h16(0x8000), "-0 + -0 = -0"},
		{h16(0x0001), h16(0x0001), h16(0x0002), "subnormal sum exact"},
	}
	for _, c := range cases {
		if h := HAdd(c.old, c.val); h != c.want {
			t.Fatalf("%s: HAdd = %#04x, the table says %#04x", c.what, h.Bits(), c.want.Bits())
		}
		// in either half of a word, between neighbours that must not change
		for off := range 2 {
			a := []Float16{h16(0x1234), h16(0x5678), h16(0x9ABC)}
			p := &a[off]
			*p = c.old
			if old := AtomicAdd(p, c.val); old != c.old || *p != c.want {
				t.Errorf("%s at %d: AtomicAdd = %#04x, leaves %#04x; want %#04x, %#04x", c.what, off, old.Bits(), p.Bits(), c.old.Bits(), c.want.Bits())
			}
			*p = c.old
			if old := AtomicSub(p, HNeg(c.val)); old != c.old || *p != c.want {
				t.Errorf("%s at %d: AtomicSub of the negation leaves %#04x, want %#04x", c.what, off, p.Bits(), c.want.Bits())
			}
			for i, w := range []uint16{0x1234, 0x5678, 0x9ABC} {
				if i != off && a[i].Bits() != w {
					t.Errorf("%s at %d: neighbour %d became %#04x", c.what, off, i, a[i].Bits())
				}
			}
		}
	}
}

// AtomicMax and AtomicMin on Float16 follow the float32 rule: store val
// only if it beats the value there, so a NaN is never stored and a NaN
// there is never replaced; +0 does not beat -0 nor -0 +0. AtomicCAS
// compares bits; AtomicExch stores anything.
func TestHalfAtomicsCompareAndNaN(t *testing.T) {
	nan, pz, nz := h16(0x7E00), Float16{}, h16(0x8000)
	type op func(*Float16, Float16) Float16
	max, min := op(AtomicMax[Float16]), op(AtomicMin[Float16])
	cas := func(c Float16) op { return func(p *Float16, v Float16) Float16 { return AtomicCAS(p, c, v) } }
	cases := []struct {
		what       string
		f          op
		start, val Float16
		want       Float16
	}{
		{"max bigger", max, F16(1), F16(2), F16(2)},
		{"max smaller", max, F16(1), F16(-2), F16(1)},
		{"max NaN val", max, F16(1), nan, F16(1)},
		{"max NaN there", max, nan, F16(1), nan},
		{"max -Inf to Inf", max, h16(0xFC00), h16(0x7C00), h16(0x7C00)},
		{"max +0 over -0", max, nz, pz, nz},
		{"min smaller", min, F16(1), F16(-2), F16(-2)},
		{"min bigger", min, F16(1), F16(2), F16(1)},
		{"min NaN val", min, F16(1), nan, F16(1)},
		{"min NaN there", min, nan, F16(-1), nan},
		{"min -0 under +0", min, pz, nz, pz},
		{"min subnormals", min, h16(0x0002), h16(0x0001), h16(0x0001)},
		{"cas equal bits", cas(F16(3)), F16(3), F16(4), F16(4)},
		{"cas other value", cas(F16(2)), F16(3), F16(4), F16(3)},
		{"cas -0 is not +0", cas(pz), nz, F16(4), nz},
		{"cas NaN matches its bits", cas(nan), nan, F16(4), F16(4)},
		{"exch NaN", AtomicExch[Float16], F16(3), nan, nan},
	}
	for _, c := range cases {
		for off := range 2 {
			a := []Float16{h16(0xAAAA), h16(0x5555)}
			p := &a[off]
			*p = c.start
			old := c.f(p, c.val)
			if old != c.start || *p != c.want {
				t.Errorf("%s at %d: returned %#04x, leaves %#04x; want %#04x, %#04x", c.what, off, old.Bits(), p.Bits(), c.start.Bits(), c.want.Bits())
			}
			if other := a[1-off].Bits(); other != []uint16{0xAAAA, 0x5555}[1-off] {
				t.Errorf("%s at %d: neighbour became %#04x", c.what, off, other)
			}
		}
	}
}

// Defined types dispatch to the atomics of their underlying type.
func TestAtomicsOnDefinedTypes(t *testing.T) {
	type count int32
	type big uint
	type ratio float64
	c, b, r := count(-3), big(math.MaxUint64), ratio(1.5)
	if old := AtomicMax(&c, -5); old != -3 || c != -3 {
		t.Errorf("defined int32 Max compared unsigned: %d", c)
	}
	if old := AtomicAdd(&b, 2); old != math.MaxUint64 || b != 1 {
		t.Errorf("defined uint Add: old %d, b %d", old, b)
	}
	if old := AtomicMin(&b, 0); old != 1 || b != 0 {
		t.Errorf("defined uint Min: %d", b)
	}
	if old := AtomicSub(&r, 0.25); old != 1.5 || r != 1.25 {
		t.Errorf("defined float64 Sub: %v", r)
	}
	if old := AtomicMax(&r, ratio(math.NaN())); old != 1.25 || r != 1.25 {
		t.Errorf("defined float64 Max stored a NaN: %v", r)
	}
}

// BenchmarkAtomicAddHalf reports the cost of an uncontended Float16
// AtomicAdd on the CPU backend (a compare-and-swap of the containing word
// around HAdd) relative to a float32 one (a compare-and-swap around +).
func BenchmarkAtomicAddHalf(b *testing.B) {
	var h [2]Float16
	var f float32
	const n = 1000
	var spent [2]time.Duration
	for b.Loop() {
		start := time.Now()
		for range n {
			AtomicAdd(&h[1], Float16{})
		}
		mid := time.Now()
		for range n {
			AtomicAdd(&f, 0)
		}
		spent[0] += mid.Sub(start)
		spent[1] += time.Since(mid)
	}
	b.ReportMetric(float64(spent[0].Nanoseconds())/float64(b.N*n), "half-ns/op")
	b.ReportMetric(float64(spent[0])/float64(spent[1]), "half/float32")
}
