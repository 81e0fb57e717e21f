package ptxsim

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// warpKernel stores, for each thread of a block of 40 (a full warp and a
// warp of 8 lanes), eight results of warp-level instructions on the value
// tid*10+1 and the predicate tid%3 == 0, and activemask.
const warpKernel = header + `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	.reg .pred %p<6>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mad.lo.s32 %r2, %r1, 10, 1;
	rem.u32 %r3, %r1, 3;
	setp.eq.u32 %p1, %r3, 0;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd3, %rd1, %rd2;
	shfl.sync.idx.b32 %r4, %r2, 3, 0x181f, 0xffffffff;
	shfl.sync.up.b32 %r5, %r2, 2, 0x1800, 0xffffffff;
	shfl.sync.down.b32 %r6, %r2, 3, 0x181f, 0xffffffff;
	bar.warp.sync 0xffffffff;
	shfl.sync.bfly.b32 %r7, %r2, 16, 0x1f, -1;
	vote.sync.ballot.b32 %r8, !%p1, 0xffffffff;
	vote.sync.all.pred %p2, %p1, 0xffffffff;
	vote.sync.any.pred %p3, %p1, 0xffffffff;
	setp.lt.u32 %p4, %r1, 100;
	vote.sync.uni.pred %p5, %p4, 0xffffffff;
	selp.u32 %r9, 1, 0, %p2;
	selp.u32 %r10, 2, 0, %p3;
	selp.u32 %r11, 4, 0, %p5;
	or.b32 %r9, %r9, %r10;
	or.b32 %r9, %r9, %r11;
	membar.gl;
	activemask.b32 %r12;
	st.global.v4.u32 [%rd3], {%r4, %r5, %r6, %r7};
	st.global.v4.u32 [%rd3+16], {%r8, %r9, %r12, %r12};
	ret;
}`

// TestWarpInstructions checks shfl.sync's modes with segmented c operands
// (width 8, as CUDA's width argument encodes them), vote.sync's modes,
// activemask, and
// that lanes past the end of the block read as the reader's own value.
func TestWarpInstructions(t *testing.T) {
	const n = 40
	m, err := Parse(warpKernel)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	p, _ := m.Load(mem)
	addr, out := mem.Alloc(32 * n)
	params, _ := PackParams(m, "k", addr)
	if err := p.Run(Config{Kernel: "k", Block: [3]int{n}, Params: params}); err != nil {
		t.Fatal(err)
	}
	val := func(tid int) uint32 { return uint32(tid*10 + 1) }
	for tid := range n {
		w, lane := tid/32*32, tid%32
		live := min(32, n-w)
		get := func(k int) uint32 { return binary.LittleEndian.Uint32(out[32*tid+4*k:]) }
		// Width-8 segments: idx 3 reads the segment's lane 3; up 2 and
		// down 3 stay inside the segment.
		src := func(l int) uint32 {
			if l >= live {
				return val(tid)
			}
			return val(w + l)
		}
		wantIdx := src(lane&^7 | 3)
		wantUp := val(tid)
		if lane&7 >= 2 {
			wantUp = src(lane - 2)
		}
		wantDown := val(tid)
		if lane&7+3 <= 7 {
			wantDown = src(lane + 3)
		}
		wantBfly := src(lane ^ 16)
		var ballot uint32
		all, anyP := true, false
		for l := range live {
			p := (w+l)%3 == 0
			if !p {
				ballot |= 1 << l
			}
			all = all && p
			anyP = anyP || p
		}
		flags := uint32(4) // uni: every lane has tid < 100
		if all {
			flags |= 1
		}
		if anyP {
			flags |= 2
		}
		active := uint32(1<<live - 1)
		got := []uint32{get(0), get(1), get(2), get(3), get(4), get(5), get(6)}
		want := []uint32{wantIdx, wantUp, wantDown, wantBfly, ballot, flags, active}
		for k := range want {
			if got[k] != want[k] {
				t.Errorf("thread %d result %d = %#x, want %#x", tid, k, got[k], want[k])
			}
		}
	}
}

// TestWarpInstructionErrors: a lane outside its member mask and a warp whose
// threads do not all reach the warp-level instruction fail the launch.
func TestWarpInstructionErrors(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"lane not in its mask", "shfl.sync.idx.b32 %r1, %r3, 0, 31, 0xffff;", "called by lane 16, which is not in the mask"},
		{"deadlock", "setp.eq.u32 %p1, %r3, 5;\n\t@%p1 bar.sync 0;\n\t@!%p1 bar.warp.sync -1;", "deadlock"},
		{"ballot type", "vote.sync.ballot.pred %p1, %p1, -1;", "vote.ballot needs type .b32"},
	}
	for _, c := range cases {
		src := header + `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .pred %p1;
	mov.u32 %r3, %tid.x;
	` + c.body + `
	ret;
}`
		m, err := Parse(src)
		if err == nil {
			mem := NewMemory()
			p, _ := m.Load(mem)
			addr, _ := mem.Alloc(64)
			params, _ := PackParams(m, "k", addr)
			err = p.Run(Config{Kernel: "k", Block: [3]int{32}, Params: params})
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error mentioning %q", c.name, err, c.want)
		}
		var ee *ExecError
		if c.name != "ballot type" && !errors.As(err, &ee) {
			t.Errorf("%s: %v is not an *ExecError", c.name, err)
		}
	}
}
