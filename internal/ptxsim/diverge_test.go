package ptxsim

import (
	"slices"
	"strings"
	"testing"
)

// divergeKernel stores, for each thread, the activemask at seven places
// of divergent code (out[8*tid+k], 0xbad where the thread does not run
// it): inside if lane%2 == 0 (0), after that if (1), in nested ifs (2 in
// lane%4 == 0 inside lane < 16; 3 after the inner if), in a loop that lane
// runs lane%4+1 times, at trip 2 (4), in a device function called by all
// but running activemask only for lane < 8 (5, 0 for the others), and
// after the lanes from 24 on have returned (6).
const divergeKernel = header + `
.func (.reg .b32 %m) activeIf(.reg .b32 %c)
{
	.reg .pred %q;
	mov.u32 %m, 0;
	setp.eq.u32 %q, %c, 0;
	@%q bra END;
	activemask.b32 %m;
END:
	ret;
}

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<20>;
	.reg .b64 %rd<8>;
	.reg .pred %p<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %laneid;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd3, %rd1, %rd2;
	and.b32 %r3, %r2, 1;
	setp.ne.u32 %p1, %r3, 0;
	@%p1 bra SKIP1;
	activemask.b32 %r4;
	st.global.u32 [%rd3], %r4;
SKIP1:
	activemask.b32 %r5;
	st.global.u32 [%rd3+4], %r5;
	setp.ge.u32 %p2, %r2, 16;
	@%p2 bra SKIP2;
	and.b32 %r6, %r2, 3;
	setp.ne.u32 %p3, %r6, 0;
	@%p3 bra SKIP3;
	activemask.b32 %r7;
	st.global.u32 [%rd3+8], %r7;
SKIP3:
	activemask.b32 %r8;
	st.global.u32 [%rd3+12], %r8;
SKIP2:
	and.b32 %r9, %r2, 3;
	mov.u32 %r10, 0;
LOOP:
	setp.gt.u32 %p4, %r10, %r9;
	@%p4 bra DONE;
	setp.ne.u32 %p5, %r10, 2;
	@%p5 bra NEXT;
	activemask.b32 %r11;
	st.global.u32 [%rd3+16], %r11;
NEXT:
	add.u32 %r10, %r10, 1;
	bra LOOP;
DONE:
	setp.lt.u32 %p6, %r2, 8;
	selp.u32 %r12, 1, 0, %p6;
	call.uni (%r13), activeIf, (%r12);
	st.global.u32 [%rd3+20], %r13;
	setp.ge.u32 %p7, %r2, 24;
	@%p7 ret;
	activemask.b32 %r14;
	st.global.u32 [%rd3+24], %r14;
	ret;
}`

// TestActivemaskDivergence: activemask names the lanes that run it
// together, as a GPU's warp parts at a branch and reconverges at its
// immediate post-dominator: inside an if and after it, in nested ifs, at
// a loop trip that some lanes have left, inside a device function, after
// an early return; for a full warp and a partial one (block of 48).
func TestActivemaskDivergence(t *testing.T) {
	const n = 48
	out := runDiverge(t, divergeKernel, n, 8)
	const bad = 0xbad
	for tid := range n {
		lane := tid % 32
		live := uint32(1)<<min(32, n-tid/32*32) - 1
		if n-tid/32*32 >= 32 {
			live = 0xffffffff
		}
		want := make([]uint32, 7)
		for k := range want {
			want[k] = bad
		}
		if lane%2 == 0 {
			want[0] = 0x55555555 & live
		}
		want[1] = live
		if lane < 16 && lane%4 == 0 {
			want[2] = 0x1111 & live
		}
		if lane < 16 {
			want[3] = 0xffff & live
		}
		if lane%4 >= 2 {
			want[4] = 0xcccccccc & live
		}
		want[5] = 0
		if lane < 8 {
			want[5] = 0xff & live
		}
		if lane < 24 {
			want[6] = 0xffffff & live
		}
		if got := out[8*tid : 8*tid+7]; !slices.Equal(got, want) {
			t.Errorf("thread %d: activemasks %#x, want %#x", tid, got, want)
		}
	}
}

// runDiverge runs kernel k of src over one block of n threads with an
// output of words words per thread, filled with 0xbad first.
func runDiverge(t *testing.T, src string, n, words int) []uint32 {
	t.Helper()
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	p, err := m.Load(mem)
	if err != nil {
		t.Fatal(err)
	}
	addr, buf := mem.Alloc(4 * words * n)
	for i := 0; i < len(buf); i += 4 {
		buf[i], buf[i+1] = 0xad, 0x0b
	}
	params, err := PackParams(m, "k", addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(Config{Kernel: "k", Block: [3]int{n}, Params: params}); err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, words*n)
	for i := range out {
		out[i] = u32at(buf, 4*i)
	}
	return out
}

// breakKernel leaves a loop by a break in its body: lane l runs trips 0 to
// l%8 and records activemask at the top of each of the first eight trips
// (out[8*tid+trip]); a lane leaving at trip k has run k+1 of them.
const breakKernel = header + `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %laneid;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd3, %rd1, %rd2;
	and.b32 %r3, %r2, 7;
	mov.u32 %r4, 0;
TOP:
	activemask.b32 %r5;
	mul.wide.u32 %rd4, %r4, 4;
	add.s64 %rd5, %rd3, %rd4;
	st.global.u32 [%rd5], %r5;
	setp.eq.u32 %p1, %r4, %r3;
	@%p1 bra OUT;
	add.u32 %r4, %r4, 1;
	setp.lt.u32 %p2, %r4, 100;
	@%p2 bra TOP;
OUT:
	ret;
}`

// TestActivemaskLoopBreak: at each trip of a loop that lanes leave by a
// break at different trips, activemask is the lanes still in the loop.
func TestActivemaskLoopBreak(t *testing.T) {
	const n = 32
	out := runDiverge(t, breakKernel, n, 8)
	for tid := range n {
		for trip := range 8 {
			want := uint32(0xbad)
			if trip <= tid%8 {
				want = 0
				for l := range 32 {
					if l%8 >= trip {
						want |= 1 << l
					}
				}
			}
			if got := out[8*tid+trip]; got != want {
				t.Errorf("thread %d trip %d: activemask %#x, want %#x", tid, trip, got, want)
			}
		}
	}
}

// quarterKernel takes, in each quarter of the warp, a ballot of lane%3 ==
// 0 over the quarter's lanes (mask 0xff << 8*(lane/8)), once where all
// lanes run the same instruction with their own masks (out[4*tid]) and
// once with odd and even quarters on the two sides of a branch, also
// exchanging with the neighbour lane (xor 1) and voting all/any inside the
// quarter (out[4*tid+1..3]).
const quarterKernel = header + `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.reg .pred %p<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %laneid;
	mul.wide.u32 %rd2, %r1, 16;
	add.s64 %rd3, %rd1, %rd2;
	rem.u32 %r3, %r2, 3;
	setp.eq.u32 %p1, %r3, 0;
	shr.u32 %r4, %r2, 3;
	shl.b32 %r5, %r4, 3;
	mov.u32 %r6, 255;
	shl.b32 %r7, %r6, %r5;
	vote.sync.ballot.b32 %r8, %p1, %r7;
	st.global.u32 [%rd3], %r8;
	and.b32 %r9, %r4, 1;
	setp.ne.u32 %p2, %r9, 0;
	@%p2 bra ODD;
	vote.sync.ballot.b32 %r10, %p1, %r7;
	shfl.sync.bfly.b32 %r11, %r2, 1, 31, %r7;
	vote.sync.all.pred %p3, %p1, %r7;
	bra JOIN;
ODD:
	vote.sync.ballot.b32 %r10, %p1, %r7;
	shfl.sync.bfly.b32 %r11, %r2, 1, 31, %r7;
	vote.sync.any.pred %p3, %p1, %r7;
JOIN:
	selp.u32 %r12, 1, 0, %p3;
	st.global.u32 [%rd3+4], %r10;
	st.global.u32 [%rd3+8], %r11;
	st.global.u32 [%rd3+12], %r12;
	ret;
}`

// TestQuarterWarpBallot: each quarter of a warp takes its own ballot with
// its own member mask, as one instruction of all lanes and from both sides
// of a branch; lanes outside a mask neither wait for nor count in it.
func TestQuarterWarpBallot(t *testing.T) {
	const n = 64
	out := runDiverge(t, quarterKernel, n, 4)
	for tid := range n {
		lane := tid % 32
		q := lane / 8
		var ballot uint32
		for l := q * 8; l < q*8+8; l++ {
			if l%3 == 0 {
				ballot |= 1 << l
			}
		}
		// A quarter holds lanes with l%3 == 0 and without: all is
		// false and any is true in every quarter.
		want := []uint32{ballot, ballot, uint32(lane ^ 1), 0}
		if q%2 == 1 {
			want[3] = 1
		}
		if got := out[4*tid : 4*tid+4]; !slices.Equal(got, want) {
			t.Errorf("thread %d: %#x, want %#x", tid, got, want)
		}
	}
}

// TestPostDominators: immediate post-dominators of an if-else diamond, a
// loop and an endless loop.
func TestPostDominators(t *testing.T) {
	// 0 -> 1, 2; 1 -> 3; 2 -> 3; 3 -> 4 (loop head) -> 5, 6; 5 -> 4;
	// 6 -> exit 8; 7 -> 7 (endless, unreachable from exit).
	succ := [][]int{{1, 2}, {3}, {3}, {4}, {5, 6}, {4}, {8}, {7}, nil}
	pred := make([][]int, len(succ))
	for a, ss := range succ {
		for _, b := range ss {
			pred[b] = append(pred[b], a)
		}
	}
	got := postDominators(len(succ), 8, succ, pred)
	want := []int{3, 3, 3, 4, 6, 4, 8, -1, 8}
	if !slices.Equal(got, want) {
		t.Errorf("ipdom %v, want %v", got, want)
	}
}

// trapPathKernel has a check on one side of an if whose failure path
// traps, as a debug-mode bounds check does: the warp still reconverges
// after the if (out[2*tid+1] is the whole warp), the sides' activemasks
// being the even and odd lanes (out[2*tid]).
const trapPathKernel = header + `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %laneid;
	mul.wide.u32 %rd2, %r1, 8;
	add.s64 %rd3, %rd1, %rd2;
	and.b32 %r3, %r2, 1;
	setp.ne.u32 %p1, %r3, 0;
	@%p1 bra ODD;
	setp.gt.u32 %p2, %r2, 100;
	@%p2 bra FAIL;
	activemask.b32 %r4;
	st.global.u32 [%rd3], %r4;
	bra JOIN;
ODD:
	activemask.b32 %r4;
	st.global.u32 [%rd3], %r4;
JOIN:
	activemask.b32 %r5;
	st.global.u32 [%rd3+4], %r5;
	ret;
FAIL:
	trap;
}`

// TestActivemaskTrapPath: a path that can only trap does not move the
// reconvergence point of the branch around it.
func TestActivemaskTrapPath(t *testing.T) {
	out := runDiverge(t, trapPathKernel, 32, 2)
	for tid := range 32 {
		want := []uint32{0x55555555, 0xffffffff}
		if tid%2 == 1 {
			want[0] = 0xaaaaaaaa
		}
		if got := out[2*tid : 2*tid+2]; !slices.Equal(got, want) {
			t.Errorf("thread %d: activemasks %#x, want %#x", tid, got, want)
		}
	}
}

// loopKernel runs a loop of 200 trips with a branch that half the lanes
// take in each; ACTIVE is activemask (divergence tracked) or a mov.
const loopKernel = header + `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	mov.u32 %r2, 0;
	mov.u32 %r3, 0;
LOOP:
	add.u32 %r4, %r2, %r1;
	and.b32 %r5, %r4, 1;
	setp.eq.u32 %p1, %r5, 0;
	@%p1 bra SKIP;
	add.u32 %r3, %r3, %r4;
SKIP:
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p2, %r2, 200;
	@%p2 bra LOOP;
	ACTIVE;
	add.u32 %r3, %r3, %r6;
	st.global.u32 [%rd3], %r3;
	ret;
}`

// BenchmarkDivergenceTracking runs loopKernel over 256 threads with and
// without divergence tracking (an activemask after the loop, or a mov in
// its place): their ratio is what tracking costs a kernel that uses
// activemask; kernels without one run the untracked code.
func BenchmarkDivergenceTracking(b *testing.B) {
	for _, v := range []struct{ name, active string }{
		{"untracked", "mov.u32 %r6, 0"},
		{"tracked", "activemask.b32 %r6"},
	} {
		b.Run(v.name, func(b *testing.B) {
			m, err := Parse(strings.Replace(loopKernel, "ACTIVE", v.active, 1))
			if err != nil {
				b.Fatal(err)
			}
			mem := NewMemory()
			p, err := m.Load(mem)
			if err != nil {
				b.Fatal(err)
			}
			addr, _ := mem.Alloc(4 * 256)
			params, err := PackParams(m, "k", addr)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := p.Run(Config{Kernel: "k", Block: [3]int{256}, Params: params}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
