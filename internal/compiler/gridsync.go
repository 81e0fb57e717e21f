package compiler

import (
	"fmt"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// Grid-wide synchronisation (cuda.Thread.SyncGrid, CUDA's
// cooperative_groups::this_grid().sync()) without cudadevrt, which only
// the CUDA toolkit ships: the barrier is written out in PTX here.
//
// A module that syncs the grid takes one more kernel parameter,
// GridSyncParam, after the Go ones: the address of a 32-bit counter in
// device memory that the launch zeroes before the kernel runs. Every
// thread copies it at entry into the block's shared slot GridSyncPtr, so
// device functions reach it as well as the kernel.
//
// One round of the barrier: every live thread of the block bumps the
// block's shared leader flag and meets the others at bar.sync; the thread
// that bumped it first is the block's leader (not thread 0, which may
// have returned). The leader resets the flag, fences, and adds to the
// counter: block (0,0,0) adds 0x80000000-(blocks-1), every other block 1,
// so the round's additions sum to 0x80000000 and bit 31 of the counter
// flips exactly when the last block has arrived, while the low bits come
// back to where they were (no reset between rounds). The leader spins on
// acquire loads until bit 31 differs from the value its add returned,
// fences, and meets its block at bar.sync again.
//
// Every block must be resident at once (a cooperative launch), and every
// block must reach every round: a block whose threads have all returned
// never arrives, and the others wait for it forever. In debug mode a failed
// check ends its thread, which could leave a block that never arrives; so
// there the spinning leader also watches the error record, and once a
// check has failed every thread leaves the barrier and exits: the launch
// ends, and reports the failure.

// GridSyncMinSM is the oldest architecture whose launches can be
// cooperative (compute capability 6.0), so the oldest SyncGrid compiles
// for.
const GridSyncMinSM = 60

// Names of the module-scope shared variables of grid-syncing modules.
const (
	// GridSyncPtr holds the counter's address in each block.
	GridSyncPtr = "__nugo_gridsync_ptr"
	// gridSyncFlag elects each round's leader thread in a block; zeroed
	// with the block's other static shared memory at entry.
	gridSyncFlag = "__nugo_gridsync_flag"
)

// gridSync lowers t.SyncGrid.
func (f *fnState) gridSync() {
	m := f.m
	if sm := m.target.sm(); sm < GridSyncMinSM {
		f.errorf("t.SyncGrid needs a cooperative launch, which needs compute capability 6.0 or later; the target is sm_%d", sm)
	}
	if !m.gridSync {
		m.gridSync = true
		m.mod.Globals = append(m.mod.Globals,
			fmt.Sprintf(".shared .align 16 .u64 %s;", GridSyncPtr),
			fmt.Sprintf(".shared .align 16 .b8 %s[16];", gridSyncFlag))
		m.shared = append(m.shared, sharedBuf{gridSyncFlag, 16})
		m.nshared += 16 + 16 // the pointer, padded as the 16-aligned buffers around it may need
	}
	p := f.p
	r32 := func() string { return p.NewReg(ptx.B32).String() }
	pred := func() string { return p.NewReg(ptx.Pred).String() }
	newer := m.target.sm() >= 70 // fence.acq_rel, ld.acquire, nanosleep

	old, isLeader := r32(), pred()
	flag := p.NewReg(ptx.B64).String()
	p.Emit("mov.u64", flag, gridSyncFlag)
	p.Emit("atom.shared.add.u32", old, "["+flag+"]", "1")
	p.Emit("bar.sync", "0")
	done, spin, arrived := f.newLabel("gsync_done"), f.newLabel("gsync_spin"), f.newLabel("gsync_arrived")
	p.Emit("setp.ne.u32", isLeader, old, "0")
	p.EmitIf(isLeader, "bra", done)
	p.Emit("st.shared.u32", "["+flag+"]", "0")

	// blocks = nctaid.x*nctaid.y*nctaid.z; first: ctaid is (0,0,0).
	var n, c [3]string
	for i, d := range dims {
		n[i], c[i] = r32(), r32()
		p.Emit("mov.u32", n[i], "%nctaid."+d)
		p.Emit("mov.u32", c[i], "%ctaid."+d)
	}
	blocks, nz, add, big := r32(), r32(), r32(), r32()
	p.Emit("mul.lo.u32", blocks, n[0], n[1])
	p.Emit("mul.lo.u32", blocks, blocks, n[2])
	p.Emit("or.b32", nz, c[0], c[1])
	p.Emit("or.b32", nz, nz, c[2])
	first := pred()
	p.Emit("setp.eq.u32", first, nz, "0")
	p.Emit("sub.u32", big, "0x80000001", blocks)
	p.Emit("selp.b32", add, big, "1", first)

	ctr := p.NewReg(ptx.B64).String()
	p.Emit("ld.shared.u64", ctr, "["+GridSyncPtr+"]")
	before, now, flip := r32(), r32(), r32()
	if newer {
		p.Emit("fence.acq_rel.gpu")
	} else {
		p.Emit("membar.gl")
	}
	p.Emit("atom.global.add.u32", before, "["+ctr+"]", add)
	p.Label(spin)
	if newer {
		p.Emit("ld.acquire.gpu.global.u32", now, "["+ctr+"]")
	} else {
		p.Emit("ld.volatile.global.u32", now, "["+ctr+"]")
	}
	p.Emit("xor.b32", flip, before, now)
	p.Emit("and.b32", flip, flip, "0x80000000") // bit 31
	flipped := pred()
	p.Emit("setp.ne.u32", flipped, flip, "0")
	p.EmitIf(flipped, "bra", arrived)
	debug := m.target.Debug
	var rec string
	if debug {
		m.errorRecord = true // watched here even if no check is emitted
		rec = p.NewReg(ptx.B64).String()
		p.Emit("mov.u64", rec, ErrorSymbol)
		failed, w := pred(), r32()
		p.Emit("ld.volatile.global.u32", w, "["+rec+"]")
		p.Emit("setp.ne.u32", failed, w, "0")
		p.EmitIf(failed, "bra", done)
	}
	if newer {
		// Leaves the multiprocessor's issue slots to the blocks still
		// computing; ptxsim lets the other blocks run here.
		p.Emit("nanosleep.u32", "32")
	}
	p.Emit("bra", spin)
	p.Label(arrived)
	if newer {
		p.Emit("fence.acq_rel.gpu")
	} else {
		p.Emit("membar.gl")
	}
	p.Label(done)
	p.Emit("bar.sync", "0")
	if debug {
		if rec == "" {
			rec = p.NewReg(ptx.B64).String()
		}
		p.Emit("mov.u64", rec, ErrorSymbol)
		failed, w := pred(), r32()
		p.Emit("ld.volatile.global.u32", w, "["+rec+"]")
		p.Emit("setp.ne.u32", failed, w, "0")
		p.EmitIf(failed, "exit")
	}
}

// gridSyncPrologue declares the hidden counter parameter and puts, at the
// very start of the kernel, the copy of it into the block's GridSyncPtr
// (the shared-memory prologue's barrier, which follows, publishes it).
func (m *modState) gridSyncPrologue(kf *ptx.Func) {
	name := kf.Name + "_param_gridsync"
	kf.Params = append(kf.Params, ptx.Param{Name: name, Type: ".u64"})
	off := (m.out.ParamBytes + 7) &^ 7
	m.out.ParamBytes = off + 8
	m.out.GridSyncParam = PTXParam{Name: name, Type: ".u64", Size: 8, Offset: off, Role: "gridsync"}
	m.out.UsesGridSync = true

	body := kf.Body
	kf.Body = nil
	t, g := kf.NewReg(ptx.B64).String(), kf.NewReg(ptx.B64).String()
	kf.Emit("ld.param.u64", t, "["+name+"]")
	kf.Emit("cvta.to.global.u64", g, t)
	kf.Emit("st.shared.u64", "["+GridSyncPtr+"]", g)
	kf.Body = append(kf.Body, body...)
}
