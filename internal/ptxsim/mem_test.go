package ptxsim

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

const header = ".version 7.8\n.target sm_75\n.address_size 64\n"

func TestMovPackSpecialRegistersAndVectors(t *testing.T) {
	src := header + `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<24>;
	.reg .b64 %rd<8>;
	.reg .b16 %h<3>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;  mov.u32 %r2, %tid.y;  mov.u32 %r3, %tid.z;
	mov.u32 %r4, %ntid.x; mov.u32 %r5, %ntid.y; mov.u32 %r6, %ntid.z;
	mov.u32 %r7, %ctaid.x; mov.u32 %r8, %ctaid.y; mov.u32 %r9, %ctaid.z;
	mov.u32 %r10, %nctaid.x; mov.u32 %r11, %nctaid.y; mov.u32 %r12, %nctaid.z;
	mov.u32 %r13, %laneid; mov.u32 %r14, %warpid; mov.u32 %r15, %nwarpid;
	// linear thread id within the grid, used as the output slot
	mad.lo.s32 %r16, %r3, %r5, %r2;
	mad.lo.s32 %r16, %r16, %r4, %r1;
	mad.lo.s32 %r17, %r9, %r11, %r8;
	mad.lo.s32 %r17, %r17, %r10, %r7;
	mul.lo.s32 %r18, %r4, %r5;
	mul.lo.s32 %r18, %r18, %r6;
	mad.lo.s32 %r16, %r17, %r18, %r16;
	mul.wide.u32 %rd2, %r16, 64;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};
	st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};
	st.global.v4.u32 [%rd3+32], {%r9, %r10, %r11, %r12};
	st.global.v2.u32 [%rd3+48], {%r13, %r14};
	mov.b64 %rd4, {%r15, %r16};
	mov.b64 {%r19, %r20}, %rd4;
	mov.b32 %r21, {%h1, %h2};
	st.global.v2.u32 [%rd3+56], {%r19, %r20};
	ret;
}`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	p, _ := m.Load(mem)
	grid, block := [3]int{2, 3, 2}, [3]int{4, 5, 3}
	nt := 2 * 3 * 2 * 4 * 5 * 3
	addr, out := mem.Alloc(64 * nt)
	params, _ := PackParams(m, "k", addr)
	if err := p.Run(Config{Kernel: "k", Grid: grid, Block: block, Params: params}); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for bz := 0; bz < grid[2]; bz++ {
		for by := 0; by < grid[1]; by++ {
			for bx := 0; bx < grid[0]; bx++ {
				for z := 0; z < block[2]; z++ {
					for y := 0; y < block[1]; y++ {
						for x := 0; x < block[0]; x++ {
							lin := x + block[0]*(y+block[1]*z)
							g := ((bz*grid[1]+by)*grid[0]+bx)*60 + lin
							want := []int{x, y, z, block[0], block[1], block[2], bx, by, bz, grid[0], grid[1], grid[2], lin % 32, lin / 32, 2, g}
							for i, w := range want {
								if got := int(u32at(out, 64*g+4*i)); got != w {
									t.Fatalf("thread %d field %d = %d, want %d", g, i, got, w)
								}
							}
							seen++
						}
					}
				}
			}
		}
	}
	if seen != nt {
		t.Fatal("not every thread checked")
	}
}

func TestStateSpaces(t *testing.T) {
	src := header + `
.global .align 4 .u32 gtab[4] = {10, 20, 30, 40};
.const .align 8 .f64 ctab[2] = {0d3FF8000000000000, 0dC004000000000000};
.shared .align 8 .b8 sbuf[64];
.visible .entry k(.param .u32 x, .param .u64 out)
{
	.local .align 8 .b8 depot[32];
	.reg .b32 %r<10>;
	.reg .b64 %rd<12>;
	.reg .f64 %fd<4>;
	.reg .b16 %h<3>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [x];
	// global variable with initializer, through a generic address
	mov.u64 %rd2, gtab;
	ld.u32 %r2, [%rd2+8];
	ld.global.u32 %r3, [gtab+12];
	// const
	ld.const.f64 %fd1, [ctab];
	ld.const.f64 %fd2, [ctab+8];
	add.rn.f64 %fd3, %fd1, %fd2;
	// shared: store through the shared window, load back as shared and generic
	mov.u64 %rd3, sbuf;
	st.shared.u32 [%rd3+4], %r1;
	cvta.shared.u64 %rd4, %rd3;
	ld.u32 %r4, [%rd4+4];
	st.u32 [%rd4+8], %r2;
	ld.shared.u32 %r5, [sbuf+8];
	cvta.to.shared.u64 %rd5, %rd4;
	ld.shared.u32 %r9, [%rd5+4];
	// local: a depot reached by symbol, by local address and by generic address
	mov.u64 %rd6, depot;
	st.local.u32 [%rd6], %r1;
	st.local.u16 [depot+6], 0xbeef;
	cvta.local.u64 %rd7, %rd6;
	ld.u32 %r6, [%rd7];
	ld.local.s16 %r7, [depot+6];
	ld.u16 %h1, [%rd7+6];
	cvt.u32.u16 %r8, %h1;
	// stores of the results
	st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r5};
	st.global.v4.u32 [%rd1+16], {%r6, %r7, %r8, %r9};
	st.global.f64 [%rd1+32], %fd3;
	ret;
}`
	out := runScalar(t, src, "k", 40, uint32(77))
	beef := uint16(0xbeef)
	want := []uint32{30, 40, 77, 30, 77, uint32(int32(int16(beef))), 0xbeef, 77}
	for i, w := range want {
		if got := u32at(out, 4*i); got != w {
			t.Errorf("field %d = %#x, want %#x", i, got, w)
		}
	}
	if got := math.Float64frombits(u64at(out, 32)); got != 1.5+-2.5 {
		t.Errorf("const sum = %g, want %g", got, 1.5+-2.5)
	}
}

func TestMemoryFaults(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
		kind       FaultKind
	}{
		{"global out of range", "ld.param.u64 %rd1, [out];\n\tld.global.u32 %r1, [%rd1+4096];", []string{"ld.global.u32 %r1, [%rd1+4096]", "outside any global allocation", "address 0x", "thread (3,0,0)"}, FaultAddress},
		{"unregistered", "mov.u64 %rd1, 12345;\n\tst.global.u32 [%rd1], %r1;", []string{"st.global.u32", "store outside any global allocation", "0x3039"}, FaultAddress},
		{"null generic", "mov.u64 %rd1, 0;\n\tld.u64 %rd2, [%rd1];", []string{"ld.u64", "0x0"}, FaultAddress},
		{"shared", "mov.u32 %r1, 4096;\n\tld.shared.u32 %r2, [%r1];", []string{"shared load outside", "0x1000"}, FaultAddress},
		{"local", "mov.u64 %rd1, 64;\n\tld.local.u32 %r2, [%rd1];", []string{"local load outside"}, FaultAddress},
		{"misaligned atomic", "ld.param.u64 %rd1, [out];\n\tatom.global.add.u32 %r1, [%rd1+2], 1;", []string{"misaligned 4-byte atomic"}, FaultMisaligned},
		{"trap", "trap;", []string{"trap"}, FaultTrap},
		{"const store", "mov.u64 %rd1, 0;\n\tld.const.u32 %r1, [%rd1+100000];", []string{"const read outside"}, FaultAddress},
	}
	for _, c := range cases {
		src := header + `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.reg .pred %p1;
	mov.u32 %r3, %tid.x;
	setp.ne.u32 %p1, %r3, 3;
	@%p1 bra DONE;
	` + c.body + `
DONE:
	ret;
}`
		_, err := tryScalar(src, "k", 64, nil)
		if err == nil {
			// the faulting thread is thread 3: run with a block of 8
			m, perr := Parse(src)
			if perr != nil {
				t.Fatal(perr)
			}
			mem := NewMemory()
			p, _ := m.Load(mem)
			addr, _ := mem.Alloc(64)
			params, _ := PackParams(m, "k", addr)
			err = p.Run(Config{Kernel: "k", Block: [3]int{8}, Params: params})
		}
		var ee *ExecError
		if !errors.As(err, &ee) {
			t.Errorf("%s: got %v, want an *ExecError", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
		if ee.Kind != c.kind {
			t.Errorf("%s: fault kind %d, want %d", c.name, ee.Kind, c.kind)
		}
	}
}

func TestInfiniteLoopStops(t *testing.T) {
	src := header + `
.visible .entry k()
{
L:
	bra.uni L;
}`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Load(NewMemory())
	err = p.Run(Config{Kernel: "k", MaxSteps: 1000})
	var ee *ExecError
	if !errors.As(err, &ee) || ee.Kind != FaultLimit || !strings.Contains(err.Error(), "infinite loop") {
		t.Fatalf("got %v, want an infinite-loop error of kind FaultLimit", err)
	}
}

func TestParseErrorsNameLine(t *testing.T) {
	cases := []struct{ src, want string }{
		{header + ".visible .entry k()\n{\n\tshfl.sync.idx.b32 %r1, %r2, 0, 31, -1;\n}", "line 6"},
		{header + ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tfoo.u32 %r1, %r1;\n}", "unsupported instruction foo.u32"},
		{header + ".visible .entry k()\n{\n\tadd.u32 %r1, %r1, 1;\n}", "undeclared register %r1"},
		{header + ".visible .entry k()\n{\n\tbra NOWHERE;\n}", "undefined label NOWHERE"},
		{header + ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.cc.u32 %r1, %r1, 1;\n}", ".cc"},
	}
	for _, c := range cases {
		_, err := Parse(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse: got %v, want an error containing %q", err, c.want)
		}
	}
}

// TestBarrierReduction sums a block's values in shared memory with a tree
// reduction over bar.sync; threads beyond n exit early, which must not
// deadlock the barrier (sm_70 semantics).
func TestBarrierReduction(t *testing.T) {
	src := header + `
.visible .entry reduce(.param .u64 in, .param .u64 out, .param .u32 n)
{
	.shared .align 4 .u32 sdata[256];
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r9, [n];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r2, %r3, %r1;
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r5, [%rd4];
	shl.b32 %r6, %r1, 2;
	mov.u32 %r10, sdata;
	add.s32 %r6, %r6, %r10;
	st.shared.u32 [%r6], %r5;
	bar.sync 0;
	shr.u32 %r7, %r3, 1;
LOOP:
	setp.eq.u32 %p1, %r7, 0;
	@%p1 bra DONE;
	setp.lt.u32 %p2, %r1, %r7;
	@!%p2 bra SKIP;
	shl.b32 %r8, %r7, 2;
	add.s32 %r8, %r6, %r8;
	ld.shared.u32 %r11, [%r8];
	ld.shared.u32 %r5, [%r6];
	add.s32 %r5, %r5, %r11;
	st.shared.u32 [%r6], %r5;
SKIP:
	barrier.sync 0;
	shr.u32 %r7, %r7, 1;
	bra.uni LOOP;
DONE:
	setp.ne.u32 %p3, %r1, 0;
	@%p3 exit;
	mul.wide.u32 %rd5, %r2, 4;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r5;
	// threads that finish early: a second barrier that only thread 0 reaches
	bar.sync 0;
	ret;
}`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	p, _ := m.Load(mem)
	const blocks, bs = 37, 256
	inAddr, in := mem.Alloc(4 * blocks * bs)
	outAddr, out := mem.Alloc(4 * blocks)
	want := make([]uint32, blocks)
	for i := 0; i < blocks*bs; i++ {
		v := uint32(i*2654435761) >> 7
		binary.LittleEndian.PutUint32(in[4*i:], v)
		want[i/bs] += v
	}
	params, _ := PackParams(m, "reduce", inAddr, outAddr, blocks*bs)
	if err := p.Run(Config{Kernel: "reduce", Grid: [3]int{blocks}, Block: [3]int{bs}, Params: params}); err != nil {
		t.Fatal(err)
	}
	for b := range want {
		if got := u32at(out, 4*b); got != want[b] {
			t.Errorf("block %d sum = %d, want %d", b, got, want[b])
		}
	}
}

func TestDynamicSharedMemory(t *testing.T) {
	src := header + `
.extern .shared .align 16 .b8 dyn[];
.shared .align 4 .b8 fixed[12];
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ntid.x;
	sub.s32 %r3, %r2, %r1;
	sub.s32 %r3, %r3, 1;
	shl.b32 %r4, %r1, 2;
	st.shared.u32 [dyn+%r4], %r1;
	bar.sync 0;
	shl.b32 %r4, %r3, 2;
	mov.u32 %r5, dyn;
	add.s32 %r4, %r4, %r5;
	ld.shared.u32 %r5, [%r4];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}`
	_, err := Parse(src)
	if err == nil {
		t.Fatal("[dyn+%r4] is not PTX syntax; want a parse error")
	}
	src = strings.Replace(src, "st.shared.u32 [dyn+%r4], %r1;", "mov.u32 %r5, dyn;\n\tadd.s32 %r5, %r5, %r4;\n\tst.shared.u32 [%r5], %r1;", 1)
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	p, _ := m.Load(mem)
	addr, out := mem.Alloc(4 * 64)
	params, _ := PackParams(m, "k", addr)
	if err := p.Run(Config{Kernel: "k", Block: [3]int{64}, SharedMem: 256, Params: params}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 64; i++ {
		if got := u32at(out, 4*i); got != uint32(63-i) {
			t.Fatalf("out[%d] = %d, want %d", i, got, 63-i)
		}
	}
	// without the dynamic bytes, the same launch faults
	err = p.Run(Config{Kernel: "k", Block: [3]int{64}, Params: params})
	if err == nil || !strings.Contains(err.Error(), "shared") {
		t.Fatalf("launch without dynamic shared memory: got %v, want a shared-memory fault", err)
	}
}

// Globals reports where Load placed each .global variable, with its size;
// the kernel's writes land there; Unload frees them.
func TestProgramGlobals(t *testing.T) {
	src := header + `
.global .align 4 .u32 gtab[4] = {10, 20, 30, 40};
.global .align 8 .b8 rec[64];
.visible .entry k()
{
	.reg .b32 %r<2>;
	ld.global.u32 %r1, [gtab+4];
	st.global.u32 [rec+8], %r1;
	ret;
}`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	p, err := m.Load(mem)
	if err != nil {
		t.Fatal(err)
	}
	gs := p.Globals()
	if len(gs) != 2 || gs[0].Name != "gtab" || gs[0].Size != 16 || gs[1].Name != "rec" || gs[1].Size != 64 ||
		gs[1].Addr%8 != 0 || gs[0].Addr+16 > gs[1].Addr {
		t.Fatalf("Globals() = %+v", gs)
	}
	if a, _ := p.GlobalAddr("rec"); a != gs[1].Addr {
		t.Fatalf("GlobalAddr(rec) = %#x, Globals says %#x", a, gs[1].Addr)
	}
	if err := p.Run(Config{Kernel: "k"}); err != nil {
		t.Fatal(err)
	}
	b, err := mem.Bytes(gs[1].Addr+8, 4)
	if err != nil || u32at(b, 0) != 20 {
		t.Fatalf("rec[8:12] = %v, %v; want 20", b, err)
	}
	if err := p.Unload(); err != nil {
		t.Fatal(err)
	}
	if _, err := mem.Bytes(gs[0].Addr, 4); err == nil {
		t.Fatal("the globals are still in memory after Unload")
	}
}
