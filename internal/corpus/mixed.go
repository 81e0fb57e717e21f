package corpus

import "github.com/nugo-dev/nugo/cuda"

// Kernels that mix section 2's features, and loops whose counters the
// compiler proves small enough for 32-bit arithmetic.

type mixAcc struct {
	sum   int64
	count int32
	last  int8
	flag  bool
}

func mixAdd(a mixAcc, v int64) mixAcc {
	a.sum += v
	a.count++
	a.last = int8(v)
	a.flag = a.flag != (v%2 == 0)
	return a
}

// mixDivMod returns several results.
func mixDivMod(x, y int64) (q, r int64, neg bool) {
	return x / y, x % y, (x < 0) != (y < 0)
}

func mixMax[T cuda.Number](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func mixSum[T cuda.Integer](xs []T) (s T) {
	for _, x := range xs {
		s += x
	}
	return s
}

func mixControl(t cuda.Thread, a []int64, out []int64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	var acc mixAcc
outer:
	for j := range 6 {
		for k := range 6 {
			switch (j*6 + k + i) % 7 {
			case 0:
				continue outer
			case 1:
				acc = mixAdd(acc, int64(j))
				fallthrough
			case 2:
				acc = mixAdd(acc, int64(k))
			case 6:
				if j == 5 {
					break outer
				}
			default:
				acc = mixAdd(acc, a[i])
			}
		}
	}
	q, r, neg := mixDivMod(acc.sum, int64(i%9)-4|1)
	out[i] = q*1000 + r*10 + int64(acc.count) + int64(acc.last)*100000 + b2i(neg) + 2*b2i(acc.flag)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func mixGeneric(t cuda.Thread, a []int16, f []float32, out []float64) {
	i := t.Grid1()
	if i < len(out) {
		lo := i % 20
		s := mixSum(a[lo : lo+8])
		m := mixMax(f[i], f[(i+1)%len(f)])
		n := mixMax(int8(a[i]), int8(-a[i]))
		out[i] = float64(s) + float64(m) + float64(n)*0.25
	}
}

func mixShifts(t cuda.Thread, a []int64, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		x := a[i]
		n := uint(i % 80) // counts past every width
		u8 := uint8(x) << (n % 12)
		i16 := int16(x) >> (n % 20)
		u32 := uint32(x) >> n
		i64 := x << n
		s64 := x >> n
		out[i] = int64(u8) + int64(i16)*3 + int64(u32)*5 + i64*7 + s64*11
	}
}

func mixWrap(t cuda.Thread, a []int64, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		b := int8(a[i])
		w := uint16(a[i])
		for k := 0; k < i%9; k++ {
			b = b*3 + 101
			w = w*7 + 40000
			b--
			w -= 3
		}
		nb := -b
		nw := ^w
		out[i] = int64(b)*100000 + int64(w) + int64(nb)*7 + int64(nw)*13
	}
}

func mixFloatToInt(t cuda.Thread, f []float64, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		x := f[i]
		out[i] = int64(x) + int64(int32(x*3)) + int64(int8(x/4)) + int64(uint16(x*x)) + int64(uint8(float32(x)+10))
	}
}

// mixNarrowLoops: counters bounded by constants, tid arithmetic, a shared
// reduction and shifted indices: the compiler keeps them in 32 bits.
func mixNarrowLoops(t cuda.Thread, a []float32, out []float32) {
	sh := cuda.SharedArray[float32](t, 128)
	tid := t.ThreadIdx().X
	g := t.Grid1()
	var v float32
	if g < len(a) {
		v = a[g]
	}
	sh[tid] = v
	t.SyncThreads()
	for s := 64; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.SyncThreads()
	}
	var buf [12]float32
	for k := 0; k < 12; k++ {
		buf[k] = sh[(tid*5+k*3)&127] * float32(k-6)
	}
	var acc float32
	for k := 11; k >= 0; k -= 2 {
		acc += buf[k] - buf[11-k]
	}
	for k := range 4 {
		acc += float32((tid*k-k*k)%7) + float32(tid>>k)
	}
	if g < len(out) {
		out[g] = acc + sh[0]*0.5
	}
}

var mixedCases = []Case{
	c1("mixed/control_structs_funcs", mixControl, func() []any { return []any{cycleI64(n1), zeros[int64](n1)} }),
	c1("mixed/generic_funcs", mixGeneric, func() []any { return []any{cycleOf[int16](n1 + 30), cycleF32(n1 + 20)[20:], zeros[float64](n1)} }),
	c1("mixed/shifts_past_width", mixShifts, func() []any { return []any{cycleI64(n1), zeros[int64](n1)} }),
	c1("mixed/narrow_wrap", mixWrap, func() []any { return []any{cycleI64(n1), zeros[int64](n1)} }),
	c1("mixed/float_to_int", mixFloatToInt, func() []any { return []any{iotaF64(n1), zeros[int64](n1)} }),
	{Name: "mixed/const_divisions", Kernel: mixConstDivisions, Grid: cuda.Dim1(1), Block: cuda.Dim1(1024), Args: func() []any { return []any{zeros[int64](1024)} }},
	{Name: "mixed/narrow_edges", Kernel: mixNarrowEdges, Grid: cuda.Dim1(1), Block: cuda.Dim1(1024), Args: func() []any { return []any{zeros[int64](1024)} }},
	c1("mixed/narrow_loops", mixNarrowLoops, func() []any { return []any{cycleF32(n1), zeros[float32](n1)} }),
}

// mixNarrowEdges computes values next to 2**31: those that fit are done in
// 32 bits, (tid+1)<<21 reaches 2**31 at thread 1023 and must not wrap.
func mixNarrowEdges(t cuda.Thread, out []int64) {
	tid := t.ThreadIdx().X
	a := tid * 2097151   // < 2**31 - 1
	b := (tid + 1) << 21 // 2**31 at tid 1023
	c := (tid + 1) * -2097152
	var s int64
	for k := 0; k < 40; k++ {
		s += int64((tid<<k)>>k) + int64(k*k*k)
		if k%7 == 3 {
			s ^= int64(b - a + c/(tid%13+1))
		}
	}
	d := int32(a) + int32(b) // wraps in int32, as Go says
	out[tid] = s + int64(a)*3 + int64(b) + int64(c) + int64(d)
}

// mixConstDivisions divides proven-small non-negative values by constants
// (compiled as multiplies by reciprocals) and by powers of two.
func mixConstDivisions(t cuda.Thread, out []int64) {
	tid := t.ThreadIdx().X
	x := tid*2097151 + tid // up to 2**31 - 1 - 1023 + 1023
	var s int
	for _, d := range [...]int{3, 7, 10, 641, 1000003, 2147483647} {
		s += x/d + x%d
	}
	s += x/3 + x%7 + x/10 + x%641 + x/1000003 + x%2147483646 + x/65536 + x%4096 + tid/1023
	s += x/(1<<40) + x%(1<<40) + x/(1<<31) + x%(1<<31) + x/(1<<31+5) + x%(1<<31+5) // divisors past 32 bits
	out[tid] = int64(s)
}
