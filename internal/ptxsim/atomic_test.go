package ptxsim

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// TestAtomicsUnderContention runs many blocks on several workers, all
// hammering the same addresses.
func TestAtomicsUnderContention(t *testing.T) {
	src := header + `
.visible .entry k(.param .u64 g, .param .u64 seen)
{
	.shared .align 4 .u32 scount;
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.reg .f32 %f<2>;
	.reg .f64 %fd<2>;
	ld.param.u64 %rd1, [g];
	ld.param.u64 %rd2, [seen];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r2, %r3, %r1;         // global id
	// shared memory starts with leftovers: thread 0 clears the counter
	setp.eq.u32 %p3, %r1, 0;
	mov.u32 %r15, 0;
	@%p3 st.shared.u32 [scount], %r15;
	bar.sync 0;
	atom.global.add.u32 %r5, [%rd1], 1;     // ticket
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd2, %rd3;
	atom.global.add.u32 %r6, [%rd4], 1;     // seen[ticket]++
	atom.global.add.f32 %f1, [%rd1+8], 0f3F800000;
	red.global.add.f64 [%rd1+16], 0d3FF0000000000000;
	atom.global.max.s32 %r7, [%rd1+24], %r4;
	neg.s32 %r8, %r4;
	atom.global.min.s32 %r7, [%rd1+28], %r8;
	cvt.u64.u32 %rd5, %r4;
	atom.global.max.u64 %rd6, [%rd1+32], %rd5;
	atom.global.inc.u32 %r9, [%rd1+40], 9;
	and.b32 %r10, %r4, 31;
	mov.u32 %r11, 1;
	shl.b32 %r11, %r11, %r10;
	atom.global.or.b32 %r12, [%rd1+44], %r11;
	atom.global.xor.b32 %r12, [%rd1+48], %r11;
	// a CAS spin lock guarding a plain read-modify-write
SPIN:
	atom.global.cas.b32 %r13, [%rd1+52], 0, 1;
	setp.ne.u32 %p1, %r13, 0;
	@%p1 bra SPIN;
	ld.volatile.global.u32 %r14, [%rd1+56];
	add.s32 %r14, %r14, 1;
	st.volatile.global.u32 [%rd1+56], %r14;
	membar.gl;
	atom.global.exch.b32 %r13, [%rd1+52], 0;
	// shared atomics, then one thread publishes the block total
	atom.shared.add.u32 %r15, [scount], 2;
	bar.sync 0;
	setp.ne.u32 %p2, %r1, 0;
	@%p2 ret;
	ld.shared.u32 %r15, [scount];
	red.global.add.u32 [%rd1+60], %r15;
	atom.add.u64 %rd7, [%rd1+64], 3;        // generic address
	ret;
}`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	p, _ := m.Load(mem)
	const blocks, bs = 64, 128
	n := blocks * bs
	gAddr, g := mem.Alloc(72)
	sAddr, seen := mem.Alloc(4 * n)
	binary.LittleEndian.PutUint32(g[28:], math.MaxInt32)
	binary.LittleEndian.PutUint32(g[48:], 0)
	params, _ := PackParams(m, "k", gAddr, sAddr)
	if err := p.Run(Config{Kernel: "k", Grid: [3]int{blocks}, Block: [3]int{bs}, Params: params, Workers: 4}); err != nil {
		t.Fatal(err)
	}
	if got := u32at(g, 0); got != uint32(n) {
		t.Errorf("counter = %d, want %d", got, n)
	}
	for i := 0; i < n; i++ {
		if c := u32at(seen, 4*i); c != 1 {
			t.Fatalf("ticket %d handed out %d times; atomics are not atomic", i, c)
		}
	}
	if got := math.Float32frombits(u32at(g, 8)); got != float32(n) {
		t.Errorf("f32 sum = %g, want %d", got, n)
	}
	if got := math.Float64frombits(u64at(g, 16)); got != float64(n) {
		t.Errorf("f64 sum = %g, want %d", got, n)
	}
	if got := int32(u32at(g, 24)); got != int32(n-1) {
		t.Errorf("max = %d, want %d", got, n-1)
	}
	if got := int32(u32at(g, 28)); got != -int32(n-1) {
		t.Errorf("min = %d, want %d", got, -(n - 1))
	}
	if got := u64at(g, 32); got != uint64(n-1) {
		t.Errorf("max.u64 = %d, want %d", got, n-1)
	}
	if got := u32at(g, 40); got != uint32(n%10) {
		t.Errorf("inc with wrap at 9 = %d, want %d", got, n%10)
	}
	if got := u32at(g, 44); got != 0xffffffff {
		t.Errorf("or = %#x, want all ones", got)
	}
	if got := u32at(g, 48); got != 0 { // every bit flipped n/32 (even) times
		t.Errorf("xor = %#x, want 0", got)
	}
	if got := u32at(g, 56); got != uint32(n) {
		t.Errorf("counter under CAS lock = %d, want %d", got, n)
	}
	if got := u32at(g, 60); got != uint32(2*n) {
		t.Errorf("sum of shared block counts = %d, want %d", got, 2*n)
	}
	if got := u64at(g, 64); got != uint64(3*blocks) {
		t.Errorf("generic atom.add.u64 = %d, want %d", got, 3*blocks)
	}
}

func TestAtomicOps(t *testing.T) {
	// single-thread checks of each operation's result and old value
	type tc struct {
		inst      string
		old, b, c uint64
		wantNew   uint64
	}
	cases := []tc{
		{"atom.global.dec.u32", 0, 5, 0, 5},
		{"atom.global.dec.u32", 7, 5, 0, 5},
		{"atom.global.dec.u32", 3, 5, 0, 2},
		{"atom.global.inc.u32", 5, 5, 0, 0},
		{"atom.global.inc.u32", 4, 5, 0, 5},
		{"atom.global.min.u32", 0xffffffff, 3, 0, 3},
		{"atom.global.min.s32", 0xffffffff, 3, 0, 0xffffffff},
		{"atom.global.max.s64", 1, 0xffffffffffffffff, 0, 1},
		{"atom.global.max.u64", 1, 0xffffffffffffffff, 0, 0xffffffffffffffff},
		{"atom.global.and.b64", 0xf0f0, 0xff00, 0, 0xf000},
		{"atom.global.cas.b64", 42, 42, 7, 7},
		{"atom.global.cas.b64", 42, 41, 7, 42},
		{"atom.global.exch.b64", 42, 41, 0, 41},
		{"atom.global.add.f64", f64b(1.5), f64b(2.25), 0, f64b(3.75)},
		{"atom.global.add.f32", f32b(1e-40), f32b(1), 0, f32b(1)},
		{"atom.global.add.f32", f32b(1.18e-38), f32b(-1.2e-38), 0, f32b(float32(math.Copysign(0, -1)))}, // result flushed
	}
	for _, c := range cases {
		w := 32
		if c.inst[len(c.inst)-2:] == "64" {
			w = 64
		}
		ops := "%v1, [%rd1], %v2"
		if c.inst[12:15] == "cas" {
			ops += ", %v3"
		}
		src := header + `
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 out)
{
	.reg .b64 %rd<4>;
	.reg .b` + itoa(w) + ` %v<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [b];
	ld.param.u64 %rd3, [c];
	cvt.u` + itoa(w) + `.u64 %v2, %rd2;
	cvt.u` + itoa(w) + `.u64 %v3, %rd3;
	` + c.inst + " " + ops + `;
	st.global.b` + itoa(w) + ` [%rd1+8], %v1;
	ret;
}`
		if w == 64 {
			src = strings.ReplaceAll(src, "cvt.u64.u64", "mov.b64")
		}
		m, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", c.inst, err)
		}
		mem := NewMemory()
		p, _ := m.Load(mem)
		addr, out := mem.Alloc(16)
		binary.LittleEndian.PutUint64(out, c.old)
		params, _ := PackParams(m, "k", uint64(0), c.b, c.c, addr)
		if err := p.Run(Config{Kernel: "k", Params: params}); err != nil {
			t.Fatalf("%s: %v", c.inst, err)
		}
		mask := maskOf(w)
		if got := u64at(out, 0) & mask; got != c.wantNew {
			t.Errorf("%s old=%#x b=%#x c=%#x: memory = %#x, want %#x", c.inst, c.old, c.b, c.c, got, c.wantNew)
		}
		if got := u64at(out, 8) & mask; got != c.old&mask {
			t.Errorf("%s: returned %#x, want the old value %#x", c.inst, got, c.old)
		}
	}
}
