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
// never arrives, and the others wait for it forever. A failed check (an
// integer division by zero, a panic, and in debug mode the bounds checks)
// ends its thread, which could leave a block that never arrives; so the
// spinning leader also watches the error record, and once a check has
// failed every thread leaves the barrier and exits: the launch ends, and
// reports the failure. Debug mode also turns the early return of
// a whole block into such a failure (ErrGridExit): the kernel's returns
// count the block's returned threads, the last one marks the word after
// the counter, and a spinning leader that sees it fills the error record
// with the returned block and this SyncGrid's position (gridExitEpilogue).
// Hence the counter's allocation of GridSyncCounterBytes.

// GridSyncCounterBytes is the size of the zeroed allocation the hidden
// parameter points at: the counter, and the word where, in debug mode, the
// first block all of whose threads returned writes its linear index plus
// one.
const GridSyncCounterBytes = 8

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
	debug := m.target.Debug
	var exited string
	if debug {
		// The exit word, read before the counter: a block that set it
		// after passing this round saw the round complete first, so the
		// counter load below sees it complete too (see gridExitEpilogue).
		exited = r32()
		if newer {
			p.Emit("ld.acquire.gpu.global.u32", exited, addr(ctr, 4))
		} else {
			p.Emit("ld.volatile.global.u32", exited, addr(ctr, 4))
			p.Emit("membar.gl")
		}
	}
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
	// Watched in every build: a division by zero or a panic ends its
	// thread without debug mode too (issue 21).
	m.errorRecord = true // watched here even if no check is emitted
	rec := p.NewReg(ptx.B64).String()
	p.Emit("mov.u64", rec, ErrorSymbol)
	failed, w := pred(), r32()
	p.Emit("ld.volatile.global.u32", w, "["+rec+"]")
	p.Emit("setp.ne.u32", failed, w, "0")
	p.EmitIf(failed, "bra", done)
	if debug {
		// A block whose threads have all returned: this round never
		// completes. Report it from here, at this SyncGrid's position.
		broken, gone := pred(), f.newLabel("gsync_exited")
		p.Emit("setp.ne.u32", broken, exited, "0")
		p.EmitIf(broken, "bra", gone)
		f.gridExitReport(gone, exited, done)
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
	p.Emit("mov.u64", rec, ErrorSymbol)
	failed, w = pred(), r32()
	p.Emit("ld.volatile.global.u32", w, "["+rec+"]")
	p.Emit("setp.ne.u32", failed, w, "0")
	p.EmitIf(failed, "exit")
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

// gridExitReport queues the out-of-line code at label that fills the error
// record with ErrGridExit, naming the block whose linear index plus one is
// in register exited, and goes on at resume.
func (f *fnState) gridExitReport(label, exited, resume string) {
	site := len(f.m.out.Sites)
	if site >= MaxSites {
		f.errorf("more than %d debug checks in one kernel; compile without cuda.Debug", MaxSites)
	}
	f.m.out.Sites = append(f.m.out.Sites, Site{Kind: errKinds[ErrGridExit], Pos: f.sitePos(), Func: f.fn.String()})
	f.tail = append(f.tail, func() {
		p := f.p
		r32 := func() string { return p.NewReg(ptx.B32).String() }
		p.Label(label)
		lin, nx, ny, q, x, y, z := r32(), r32(), r32(), r32(), r32(), r32(), r32()
		p.Emit("sub.u32", lin, exited, "1")
		p.Emit("mov.u32", nx, "%nctaid.x")
		p.Emit("mov.u32", ny, "%nctaid.y")
		p.Emit("rem.u32", x, lin, nx)
		p.Emit("div.u32", q, lin, nx)
		p.Emit("rem.u32", y, q, ny)
		p.Emit("div.u32", z, q, ny)
		vals := make([]string, 3)
		for i, r := range []string{x, y, z} {
			vals[i] = p.NewReg(ptx.B64).String()
			p.Emit("cvt.u64.u32", vals[i], r)
		}
		f.errorPath(label+"_rec", ErrGridExit, site, false, vals, resume)
	})
}

// gridExitEpilogue, in debug mode, makes the kernel's returns go through
// code that counts the block's returned threads in the leader flag's
// second word (zeroed at entry with the block's shared memory); the last
// thread of the block stores the block's linear index plus one in the
// word after the grid barrier's counter, which spinning leaders watch.
//
// A spinner seeing that word set has found the bug, never a block that
// left legitimately: a block returns only after every barrier it reaches,
// and each of those completed only once every block, the spinner's
// included, arrived at it; so a block that returned after passing the
// spinner's round would have needed the spinner's arrival at the next one.
// The exiting block stores the word after its acquire load saw its last
// round complete, and the spinner loads the word before the counter with
// acquire semantics: if the word is set by a block that passed the
// spinner's round, the spinner's counter load sees that round complete.
// Threads that end at a failed check exit without counting: the record
// they fill stops the spinners already.
func (m *modState) gridExitEpilogue(kf *ptx.Func) {
	exit := m.label("gsync_ret")
	for i, line := range kf.Body {
		if line == "\tret;" {
			kf.Body[i] = "\tbra \t" + exit + ";"
		}
	}
	r32 := func() string { return kf.NewReg(ptx.B32).String() }
	kf.Label(exit)
	flag := kf.NewReg(ptx.B64).String()
	old, n, t := r32(), r32(), r32()
	kf.Emit("mov.u64", flag, gridSyncFlag)
	kf.Emit("atom.shared.add.u32", old, addr(flag, 4), "1")
	kf.Emit("mov.u32", n, "%ntid.x")
	kf.Emit("mov.u32", t, "%ntid.y")
	kf.Emit("mul.lo.u32", n, n, t)
	kf.Emit("mov.u32", t, "%ntid.z")
	kf.Emit("mul.lo.u32", n, n, t)
	kf.Emit("sub.u32", n, n, "1")
	notLast := kf.NewReg(ptx.Pred).String()
	kf.Emit("setp.ne.u32", notLast, old, n)
	kf.EmitIf(notLast, "ret")
	// The block's linear index plus one: x + nx*(y + ny*z) + 1.
	lin, c, d := r32(), r32(), r32()
	kf.Emit("mov.u32", lin, "%ctaid.z")
	kf.Emit("mov.u32", d, "%nctaid.y")
	kf.Emit("mov.u32", c, "%ctaid.y")
	kf.Emit("mad.lo.u32", lin, lin, d, c)
	kf.Emit("mov.u32", d, "%nctaid.x")
	kf.Emit("mov.u32", c, "%ctaid.x")
	kf.Emit("mad.lo.u32", lin, lin, d, c)
	kf.Emit("add.u32", lin, lin, "1")
	ctr := kf.NewReg(ptx.B64).String()
	kf.Emit("ld.shared.u64", ctr, "["+GridSyncPtr+"]")
	if m.target.sm() >= 70 {
		kf.Emit("st.release.gpu.global.u32", addr(ctr, 4), lin)
	} else {
		kf.Emit("membar.gl")
		kf.Emit("st.volatile.global.u32", addr(ctr, 4), lin)
	}
	kf.Emit("ret")
}
