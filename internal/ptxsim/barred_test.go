package ptxsim

import (
	"strings"
	"testing"
)

// barRedKernel: threads whose linear index is lim or more exit at once; the
// others take pred = (linear+off) % m == 0 through three bar.red and two
// with the predicate negated, and store, at 16*linear, the two counts and
// the and/or flags (1: and, 2: or, 4: and of !pred, 8: or of !pred).
const barRedKernel = header + `
.visible .entry k(.param .u64 out, .param .u32 m, .param .u32 off, .param .u32 lim)
{
	.reg .b32 %r<20>;
	.reg .b64 %rd<4>;
	.reg .pred %p<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [m];
	ld.param.u32 %r14, [off];
	ld.param.u32 %r2, [lim];
	mov.u32 %r3, %tid.x;
	mov.u32 %r4, %tid.y;
	mov.u32 %r5, %tid.z;
	mov.u32 %r6, %ntid.x;
	mov.u32 %r7, %ntid.y;
	mad.lo.u32 %r8, %r5, %r7, %r4;
	mad.lo.u32 %r8, %r8, %r6, %r3;
	setp.ge.u32 %p1, %r8, %r2;
	@%p1 exit;
	add.u32 %r9, %r8, %r14;
	rem.u32 %r9, %r9, %r1;
	setp.eq.u32 %p2, %r9, 0;
	bar.red.popc.u32 %r10, 0, %p2;
	bar.sync 0;
	bar.red.and.pred %p3, 0, %p2;
	bar.red.or.pred %p4, 0, %p2;
	barrier.red.popc.aligned.u32 %r11, 0, !%p2;
	bar.cta.red.and.pred %p5, 0, !%p2;
	barrier.red.or.pred %p6, 0, !%p2;
	selp.u32 %r12, 1, 0, %p3;
	selp.u32 %r13, 2, 0, %p4;
	or.b32 %r12, %r12, %r13;
	selp.u32 %r13, 4, 0, %p5;
	or.b32 %r12, %r12, %r13;
	selp.u32 %r13, 8, 0, %p6;
	or.b32 %r12, %r12, %r13;
	mul.wide.u32 %rd2, %r8, 16;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.u32 [%rd3], {%r10, %r11, %r12, %r9};
	ret;
}`

// TestBarRed checks bar.red's popc, and and or, plain and with a negated
// predicate, over 1-, 2- and 3-D blocks, partial warps, and threads that
// exit before the barrier (which neither count nor block).
func TestBarRed(t *testing.T) {
	for _, tc := range []struct {
		name         string
		block        [3]int
		m, off, lim  int
		trues, total int // expected over the live threads
	}{
		{"even of 40", [3]int{40, 1, 1}, 2, 0, 40, 20, 40},
		{"every third of 33 live in 40", [3]int{40, 1, 1}, 3, 0, 33, 11, 33},
		{"all true", [3]int{64, 1, 1}, 1, 0, 64, 64, 64},
		{"all false", [3]int{37, 1, 1}, 1000, 1, 37, 0, 37},
		{"one true", [3]int{100, 1, 1}, 1000, 901, 100, 1, 100},
		{"2-D 5x7", [3]int{5, 7, 1}, 2, 0, 35, 18, 35},
		{"3-D 4x3x3 with 20 live", [3]int{4, 3, 3}, 5, 0, 20, 4, 20},
		{"all exit but one", [3]int{96, 1, 1}, 2, 1, 1, 0, 1},
		{"all exit", [3]int{50, 1, 1}, 2, 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.block[0] * tc.block[1] * tc.block[2]
			m, err := Parse(barRedKernel)
			if err != nil {
				t.Fatal(err)
			}
			mem := NewMemory()
			p, err := m.Load(mem)
			if err != nil {
				t.Fatal(err)
			}
			addr, out := mem.Alloc(16 * n)
			for i := range out {
				out[i] = 0xEE
			}
			params, err := PackParams(m, "k", addr, uint32(tc.m), uint32(tc.off), uint32(tc.lim))
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Run(Config{Kernel: "k", Block: tc.block, Params: params}); err != nil {
				t.Fatal(err)
			}
			var flags uint32
			if tc.trues == tc.total {
				flags |= 1
			}
			if tc.trues > 0 {
				flags |= 2
			}
			if tc.trues == 0 {
				flags |= 4
			}
			if tc.trues < tc.total {
				flags |= 8
			}
			for i := range n {
				got := []uint32{u32at(out, 16*i), u32at(out, 16*i+4), u32at(out, 16*i+8)}
				want := []uint32{uint32(tc.trues), uint32(tc.total - tc.trues), flags}
				if i >= tc.lim {
					want = []uint32{0xEEEEEEEE, 0xEEEEEEEE, 0xEEEEEEEE}
				}
				for k := range want {
					if got[k] != want[k] {
						t.Errorf("thread %d result %d = %#x, want %#x", i, k, got[k], want[k])
					}
				}
			}
		})
	}
}

// TestBarRedDecodeErrors: malformed bar.red and the unsupported
// bar.arrive are parse errors that name the problem.
func TestBarRedDecodeErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"bar.red.popc.pred %p1, 0, %p2;", "needs type .u32"},
		{"bar.red.and.u32 %r1, 0, %p2;", "needs type .u32"},
		{"bar.red.xor.pred %p1, 0, %p2;", "needs one of .popc, .and, .or"},
		{"bar.red.pred %p1, 0, %p2;", "needs one of .popc, .and, .or"},
		{"bar.red.popc.u32 %r1, %p2;", "takes 3 or 4 operands"},
		{"bar.arrive 0, 32;", "bar.arrive is not supported"},
	} {
		src := header + `
.visible .entry k()
{
	.reg .b32 %r<4>;
	.reg .pred %p<4>;
	` + c.body + `
	ret;
}`
		_, err := Parse(src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error mentioning %q", c.body, err, c.want)
		}
	}
}
