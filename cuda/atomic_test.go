package cuda

import (
	"math"
	"testing"
)

// atomicsKernel makes every thread of the grid hit the same elements.
func atomicsKernel[T AtomicNumber](th Thread, a []T) {
	i := T(th.Grid1() % 100)
	AtomicAdd(&a[0], 1)
	AtomicSub(&a[1], 1)
	AtomicMax(&a[2], i)
	AtomicMin(&a[3], i+5)
	AtomicExch(&a[4], 7)
	AtomicCAS(&a[5], 0, 9)
}

func testAtomics[T AtomicNumber](t *testing.T, name string) {
	t.Run(name, func(t *testing.T) {
		const threads = 64 * 256
		acc := make([]T, 6)
		acc[3] = 1 << 20 // Min starts high
		if err := Jit(atomicsKernel[T]).Launch(Dim1(64), Dim1(256), acc); err != nil {
			t.Fatal(err)
		}
		var zero T
		want := []T{threads, zero - threads, 99, 5, 7, 9}
		for i := range want {
			if acc[i] != want[i] {
				t.Errorf("element %d = %v, want %v", i, acc[i], want[i])
			}
		}
	})
}

func TestAtomicsUnderContention(t *testing.T) {
	testAtomics[int32](t, "int32")
	testAtomics[int64](t, "int64")
	testAtomics[int](t, "int")
	testAtomics[uint32](t, "uint32")
	testAtomics[uint64](t, "uint64")
	testAtomics[float32](t, "float32")
	testAtomics[float64](t, "float64")
}

func TestAtomicsReturnOldValue(t *testing.T) {
	x := int32(5)
	if old := AtomicAdd(&x, 3); old != 5 || x != 8 {
		t.Errorf("Add: old %d x %d", old, x)
	}
	if old := AtomicCAS(&x, 7, 1); old != 8 || x != 8 {
		t.Errorf("failed CAS: old %d x %d", old, x)
	}
	if old := AtomicCAS(&x, 8, 1); old != 8 || x != 1 {
		t.Errorf("CAS: old %d x %d", old, x)
	}
	u := uint64(0b1100)
	if old := AtomicAnd(&u, 0b1010); old != 0b1100 || u != 0b1000 {
		t.Errorf("And: old %b u %b", old, u)
	}
	if old := AtomicOr(&u, 0b0001); old != 0b1000 || u != 0b1001 {
		t.Errorf("Or: old %b u %b", old, u)
	}
	if old := AtomicXor(&u, 0b1111); old != 0b1001 || u != 0b0110 {
		t.Errorf("Xor: old %b u %b", old, u)
	}
	f := 1.5
	if old := AtomicMax(&f, math.NaN()); old != 1.5 || f != 1.5 {
		t.Errorf("Max with NaN stored it: %v", f)
	}
	if old := AtomicMin(&f, -2); old != 1.5 || f != -2 {
		t.Errorf("Min: old %v f %v", old, f)
	}
	type celsius float32 // named types work too
	c := celsius(1)
	if old := AtomicAdd(&c, 0.5); old != 1 || c != 1.5 {
		t.Errorf("named float: old %v c %v", old, c)
	}
	neg := int64(-3)
	if old := AtomicMax(&neg, -5); old != -3 || neg != -3 {
		t.Errorf("signed Max compared unsigned: %d", neg)
	}
	w := uint32(math.MaxUint32)
	if old := AtomicAdd(&w, 1); old != math.MaxUint32 || w != 0 {
		t.Errorf("uint32 add does not wrap: %d", w)
	}
}

func TestBitwiseAtomicsUnderContention(t *testing.T) {
	bits := make([]uint64, 2)
	bits[1] = math.MaxUint64
	if err := Jit(bitwiseKernel).Launch(Dim1(4), Dim1(64), bits); err != nil {
		t.Fatal(err)
	}
	if bits[0] != math.MaxUint64 || bits[1] != 0 {
		t.Fatalf("bits = %x", bits)
	}
	x := make([]int32, 1)
	if err := Jit(xorKernel).Launch(Dim1(3), Dim1(33), x); err != nil {
		t.Fatal(err)
	}
	if x[0] != 1 { // 99 toggles
		t.Fatalf("xor toggled to %d", x[0])
	}
}

func bitwiseKernel(th Thread, b []uint64) {
	i := th.Grid1()
	AtomicOr(&b[0], uint64(1)<<(i%64))
	AtomicAnd(&b[1], ^(uint64(1) << (i % 64)))
}

func xorKernel(th Thread, x []int32) { AtomicXor(&x[0], 1) }

// AtomicInc and AtomicDec wrap as CUDA's atomicInc and atomicDec do.
func TestAtomicIncDec(t *testing.T) {
	cases := []struct {
		start, val     uint64
		incNew, decNew uint64
		what           string
	}{
		{0, 5, 1, 5, "from zero"},
		{3, 5, 4, 2, "inside"},
		{5, 5, 0, 4, "at the limit"},
		{9, 5, 0, 5, "above the limit"},
		{0, 0, 0, 0, "limit zero"},
		{1<<64 - 1, 1<<64 - 1, 0, 1<<64 - 2, "full range"},
	}
	for _, c := range cases {
		x64 := c.start
		if old := AtomicInc(&x64, c.val); old != c.start || x64 != c.incNew {
			t.Errorf("%s: AtomicInc(%d, %d) = %d, leaves %d; want %d, %d", c.what, c.start, c.val, old, x64, c.start, c.incNew)
		}
		x64 = c.start
		if old := AtomicDec(&x64, c.val); old != c.start || x64 != c.decNew {
			t.Errorf("%s: AtomicDec(%d, %d) = %d, leaves %d; want %d, %d", c.what, c.start, c.val, old, x64, c.start, c.decNew)
		}
		if c.start <= 1<<32-1 && c.val <= 1<<32-1 {
			x32 := uint32(c.start)
			if AtomicInc(&x32, uint32(c.val)); uint64(x32) != c.incNew {
				t.Errorf("%s: 32-bit AtomicInc leaves %d, want %d", c.what, x32, c.incNew)
			}
		}
	}
}
