package ptxsim

import (
	"testing"
)

func fibRef(n int64) int64 {
	if n < 2 {
		return n
	}
	return fibRef(n-1) + fibRef(n-2)
}

func TestCalls(t *testing.T) {
	src := header + `
// two results through .param, arguments through .param
.func (.param .b64 q, .param .b64 r) divmod(.param .b64 a, .param .b64 b)
{
	.reg .b64 %rd<5>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	div.s64 %rd3, %rd1, %rd2;
	rem.s64 %rd4, %rd1, %rd2;
	st.param.b64 [q], %rd3;
	st.param.b64 [r], %rd4;
	ret;
}

// recursion with a local array in each frame
.func (.param .b64 out) fib(.param .b64 n)
{
	.local .align 8 .b8 scratch[16];
	.reg .pred %p1;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [n];
	mov.u64 %rd7, scratch;
	st.local.u64 [%rd7+8], %rd1;
	setp.lt.s64 %p1, %rd1, 2;
	@%p1 bra BASE;
	add.s64 %rd2, %rd1, -1;
	{
	.param .b64 p0;
	st.param.b64 [p0], %rd2;
	.param .b64 r0;
	call (r0), fib, (p0);
	ld.param.b64 %rd3, [r0];
	}
	add.s64 %rd2, %rd1, -2;
	{
	.param .b64 p0;
	st.param.b64 [p0], %rd2;
	.param .b64 r0;
	call (r0), fib, (p0);
	ld.param.b64 %rd4, [r0];
	}
	ld.local.u64 %rd5, [scratch+8];   // still this frame's n
	sub.s64 %rd5, %rd5, %rd1;
	add.s64 %rd1, %rd3, %rd4;
	add.s64 %rd1, %rd1, %rd5;
BASE:
	st.param.b64 [out], %rd1;
	ret;
}

// register parameters; a void function that takes a pointer to the caller's local
.func (.reg .b32 %ret) addmul(.reg .b32 %x, .reg .b32 %y)
{
	mad.lo.s32 %ret, %x, %y, %x;
	ret;
}
.func bump(.param .b64 ptr)
{
	.reg .b64 %rd<2>;
	.reg .b32 %r<2>;
	ld.param.u64 %rd1, [ptr];
	ld.u32 %r1, [%rd1];
	add.s32 %r1, %r1, 100;
	st.u32 [%rd1], %r1;
	ret;
}

.visible .entry k(.param .s64 a, .param .s64 b, .param .s64 n, .param .u64 out)
{
	.local .align 4 .b8 cell[4];
	.reg .b64 %rd<12>;
	.reg .b32 %r<4>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	ld.param.u64 %rd3, [n];
	ld.param.u64 %rd10, [out];
	{
	.param .b64 p0;
	st.param.b64 [p0], %rd1;
	.param .b64 p1;
	st.param.b64 [p1], %rd2;
	.param .b64 r0;
	.param .b64 r1;
	call.uni (r0, r1), divmod, (p0, p1);
	ld.param.b64 %rd4, [r0];
	ld.param.b64 %rd5, [r1];
	}
	{
	.param .b64 p0;
	st.param.b64 [p0], %rd3;
	.param .b64 r0;
	call.uni (r0), fib, (p0);
	ld.param.b64 %rd6, [r0];
	}
	cvt.u32.u64 %r1, %rd1;
	call.uni (%r2), addmul, (%r1, 3);
	mov.u64 %rd7, cell;
	st.local.u32 [%rd7], %r2;
	cvta.local.u64 %rd8, %rd7;
	{
	.param .b64 p0;
	st.param.b64 [p0], %rd8;
	call.uni bump, (p0);
	}
	ld.local.u32 %r3, [cell];
	st.global.u64 [%rd10], %rd4;
	st.global.u64 [%rd10+8], %rd5;
	st.global.u64 [%rd10+16], %rd6;
	st.global.u32 [%rd10+24], %r2;
	st.global.u32 [%rd10+28], %r3;
	ret;
}`
	for _, c := range []struct{ a, b, n int64 }{{17, 5, 10}, {-17, 5, 1}, {17, -5, 0}, {-9223372036854775808, -1, 15}} {
		out := runScalar(t, src, "k", 32, c.a, c.b, c.n)
		if got := int64(u64at(out, 0)); got != c.a/c.b {
			t.Errorf("quotient %d/%d = %d, want %d", c.a, c.b, got, c.a/c.b)
		}
		if got := int64(u64at(out, 8)); got != c.a%c.b {
			t.Errorf("remainder %d%%%d = %d, want %d", c.a, c.b, got, c.a%c.b)
		}
		if got := int64(u64at(out, 16)); got != fibRef(c.n) {
			t.Errorf("fib(%d) = %d, want %d", c.n, got, fibRef(c.n))
		}
		x := int32(c.a)
		if got := int32(u32at(out, 24)); got != x*3+x {
			t.Errorf("addmul = %d, want %d", got, x*3+x)
		}
		if got := int32(u32at(out, 28)); got != x*3+x+100 {
			t.Errorf("bump through a local pointer = %d, want %d", got, x*3+x+100)
		}
	}
}

// TestBarrierInsideFunction: a .func that synchronises; every thread of the
// block suspends inside its call and resumes there.
func TestBarrierInsideFunction(t *testing.T) {
	src := header + `
.shared .align 4 .b8 buf[1024];
.func (.param .b32 r) exchange(.param .b32 v)
{
	.reg .b32 %r<8>;
	ld.param.u32 %r1, [v];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ntid.x;
	shl.b32 %r4, %r2, 2;
	st.shared.u32 [%r4], %r1;
	bar.sync 0;
	sub.s32 %r5, %r3, %r2;
	sub.s32 %r5, %r5, 1;
	shl.b32 %r5, %r5, 2;
	ld.shared.u32 %r6, [%r5];
	st.param.b32 [r], %r6;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mul.lo.s32 %r2, %r1, 7;
	{
	.param .b32 p;
	st.param.b32 [p], %r2;
	.param .b32 q;
	call.uni (q), exchange, (p);
	ld.param.b32 %r3, [q];
	}
	ld.param.u64 %rd1, [out];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	p, _ := m.Load(mem)
	addr, out := mem.Alloc(4 * 200)
	params, _ := PackParams(m, "k", addr)
	if err := p.Run(Config{Kernel: "k", Block: [3]int{200}, Params: params}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if got := u32at(out, 4*i); got != uint32(7*(199-i)) {
			t.Fatalf("out[%d] = %d, want %d", i, got, 7*(199-i))
		}
	}
}
