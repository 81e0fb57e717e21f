package ptxsim

import (
	"strings"
	"testing"
)

// spinKernel: thread 0 of every block whose index is below live adds one
// to the counter at ctr, then spins (with nanosleep) until the counter
// reaches the grid's block count, and stores what it read at out[ctaid];
// blocks from live on exit at once.
const spinKernel = header + `
.visible .entry k(.param .u64 ctr, .param .u64 out, .param .u32 live)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [ctr];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r1, [live];
	mov.u32 %r2, %ctaid.x;
	setp.ge.u32 %p1, %r2, %r1;
	@%p1 exit;
	mov.u32 %r3, %tid.x;
	setp.ne.u32 %p2, %r3, 0;
	@%p2 bra DONE;
	mov.u32 %r4, %nctaid.x;
	atom.global.add.u32 %r5, [%rd1], 1;
SPIN:
	ld.acquire.gpu.global.u32 %r6, [%rd1];
	setp.ge.u32 %p3, %r6, %r4;
	@%p3 bra ARRIVED;
	nanosleep.u32 32;
	bra SPIN;
ARRIVED:
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.u32 [%rd4], %r6;
DONE:
	bar.sync 0;
	ret;
}`

// TestCooperative: blocks that wait for each other complete when the
// launch is cooperative, even with one worker asked for (every block gets
// a goroutine of its own); a block that exits before its part is reported
// as a deadlock, not a hang.
func TestCooperative(t *testing.T) {
	for _, tc := range []struct {
		name       string
		blocks     int
		live       int
		wantDeadly bool
	}{
		{"every block arrives", 24, 24, false},
		{"one block", 1, 1, false},
		{"blocks exit", 8, 6, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse(spinKernel)
			if err != nil {
				t.Fatal(err)
			}
			mem := NewMemory()
			p, err := m.Load(mem)
			if err != nil {
				t.Fatal(err)
			}
			ctr, _ := mem.Alloc(4)
			out, ob := mem.Alloc(4 * tc.blocks)
			params, err := PackParams(m, "k", ctr, out, uint32(tc.live))
			if err != nil {
				t.Fatal(err)
			}
			err = p.Run(Config{Kernel: "k", Grid: [3]int{tc.blocks, 1, 1}, Block: [3]int{64, 1, 1}, Params: params, Workers: 1, Cooperative: true})
			if tc.wantDeadly {
				// The count is of the blocks finished when the deadlock
				// is seen: one or both of those that exit, as goroutines
				// are scheduled.
				ee, ok := err.(*ExecError)
				if !ok || !strings.Contains(ee.Msg, "deadlock") ||
					!strings.Contains(ee.Msg, "1 block(s) exited") && !strings.Contains(ee.Msg, "2 block(s) exited") {
					t.Fatalf("error %v; want the deadlock of the blocks left waiting", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for b := range tc.blocks {
				if got := u32at(ob, 4*b); got != uint32(tc.blocks) {
					t.Errorf("block %d read %d, want %d", b, got, tc.blocks)
				}
			}
		})
	}
}
