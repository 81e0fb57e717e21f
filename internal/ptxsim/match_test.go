package ptxsim

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

// matchKernel: thread tid (of a 1-D block) exits at once when exitMod is
// not 0 and tid%exitMod == 3; the others run match.sync on their 64-bit
// value v = in[tid] and on its low half, and read the five lane masks.
// Each stores 12 words at out[12*tid]: any.b64, any.b32, all.b64,
// all.b32, all.b32 without predicate, the two predicates (bits 0 and 1),
// and lanemask eq, lt, le, gt, ge.
const matchKernel = header + `
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 exitMod)
{
	.reg .b32 %r<20>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r1, [exitMod];
	mov.u32 %r2, %tid.x;
	setp.eq.u32 %p3, %r1, 0;
	@%p3 bra RUN;
	rem.u32 %r3, %r2, %r1;
	setp.eq.u32 %p3, %r3, 3;
	@%p3 exit;
RUN:
	mul.wide.u32 %rd3, %r2, 8;
	add.s64 %rd3, %rd1, %rd3;
	ld.global.u64 %rd4, [%rd3];
	cvt.u32.u64 %r4, %rd4;
	match.any.sync.b64 %r5, %rd4, 0xffffffff;
	match.any.sync.b32 %r6, %r4, -1;
	match.all.sync.b64 %r7|%p1, %rd4, 0xffffffff;
	match.all.sync.b32 %r8|%p2, %r4, 0xffffffff;
	match.all.sync.b32 %r9, %r4, 0xffffffff;
	selp.u32 %r10, 1, 0, %p1;
	selp.u32 %r11, 2, 0, %p2;
	or.b32 %r10, %r10, %r11;
	mov.u32 %r12, %lanemask_eq;
	mov.u32 %r13, %lanemask_lt;
	mov.u32 %r14, %lanemask_le;
	mov.u32 %r15, %lanemask_gt;
	mov.u32 %r16, %lanemask_ge;
	mul.wide.u32 %rd5, %r2, 48;
	add.s64 %rd5, %rd2, %rd5;
	st.global.v4.u32 [%rd5], {%r5, %r6, %r7, %r8};
	st.global.v4.u32 [%rd5+16], {%r9, %r10, %r12, %r13};
	st.global.v4.u32 [%rd5+32], {%r14, %r15, %r16, %r16};
	ret;
}`

// TestMatchSync checks match.any and match.all, .b32 and .b64, with and
// without the predicate, over a block of 70 threads (two full warps and
// one of 6 lanes), with and without exited lanes, and the lane mask
// special registers. The expected masks are computed here from the
// definition: the live lanes of the warp whose value has the same bits.
func TestMatchSync(t *testing.T) {
	const n = 70
	negZero, nan2 := math.Float64bits(math.Copysign(0, -1)), math.Float64bits(math.NaN())^1
	cases := []struct {
		name    string
		exitMod uint32
		v       func(tid int) uint64
	}{
		{"groups of four", 0, func(i int) uint64 { return uint64(i / 4) }},
		{"high halves differ", 0, func(i int) uint64 { return uint64(i%3)<<32 | uint64(i%2) }},
		{"uniform", 0, func(i int) uint64 { return 0xdead_beef_0000_0042 }},
		{"uniform but one", 0, func(i int) uint64 { return uint64(b2u(i == 40)) }},
		{"uniform among the live", 5, func(i int) uint64 {
			if i%5 == 3 {
				return uint64(i) // exits before the match: does not count
			}
			return 7
		}},
		{"mixed with exits", 4, func(i int) uint64 { return uint64(i % 6 / 2) }},
		{"float zeros and NaNs", 0, func(i int) uint64 {
			return []uint64{0, negZero, math.Float64bits(math.NaN()), nan2, math.Float64bits(1)}[i%5]
		}},
	}
	m, err := Parse(matchKernel)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := NewMemory()
			p, _ := m.Load(mem)
			inAddr, in := mem.Alloc(8 * n)
			outAddr, out := mem.Alloc(48 * n)
			for i := range n {
				binary.LittleEndian.PutUint64(in[8*i:], c.v(i))
			}
			params, err := PackParams(m, "k", inAddr, outAddr, c.exitMod)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Run(Config{Kernel: "k", Block: [3]int{n}, Params: params}); err != nil {
				t.Fatal(err)
			}
			exited := func(i int) bool { return c.exitMod != 0 && i%int(c.exitMod) == 3 }
			for tid := range n {
				got := make([]uint32, 11)
				for k := range got {
					got[k] = binary.LittleEndian.Uint32(out[48*tid+4*k:])
				}
				if exited(tid) {
					continue
				}
				w, lane := tid/32*32, tid%32
				var live, any64, any32 uint32
				for l := range min(32, n-w) {
					if exited(w + l) {
						continue
					}
					live |= 1 << l
					if c.v(w+l) == c.v(tid) {
						any64 |= 1 << l
					}
					if uint32(c.v(w+l)) == uint32(c.v(tid)) {
						any32 |= 1 << l
					}
				}
				var all64, all32, flags uint32
				if any64 == live {
					all64, flags = live, flags|1
				}
				if any32 == live {
					all32, flags = live, flags|2
				}
				eq := uint32(1) << lane
				want := []uint32{any64, any32, all64, all32, all32, flags, eq, eq - 1, eq | (eq - 1), ^(eq | (eq - 1)), ^(eq - 1)}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("thread %d: got %#x, want %#x", tid, got, want)
				}
			}
		})
	}
}

// TestMatchDecodeErrors: malformed match.sync is a parse error that names
// the problem, and a partial member mask faults.
func TestMatchDecodeErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"match.any.sync.b32 %r1|%p1, %r2, -1;", "match.any has no predicate destination"},
		{"match.all.sync.u32 %r1, %r2, -1;", "match needs type .b32 or .b64"},
		{"match.sync.b32 %r1, %r2, -1;", "needs one mode"},
		{"match.none.sync.b32 %r1, %r2, -1;", "unsupported mode .none"},
		{"match.any.sync.b32 %r1, %r2;", "takes 3 operands"},
		{"match.all.sync.b64 %r1|%p1, %rd1;", "takes 4 operands"},
		{"mov.u32 %lanemask_lt, %r1;", "special registers are read-only"},
		{"match.any.sync.b32 %r1, %r2, 0xffff;", "called by lane 16, which is not in the mask"},
	} {
		src := header + `
.visible .entry k()
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.reg .pred %p<4>;
	mov.u32 %r2, %tid.x;
	` + c.body + `
	ret;
}`
		m, err := Parse(src)
		if err == nil {
			p, _ := m.Load(NewMemory())
			err = p.Run(Config{Kernel: "k", Block: [3]int{32}})
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error mentioning %q", c.body, err, c.want)
		}
	}
}
