package ptxsim

import (
	"slices"
	"strings"
)

// Warp-level instructions: shfl.sync, vote.sync, match.sync, activemask
// and bar.warp.sync. A thread that reaches one parks (stWarp). When every
// thread of the block is blocked, runBlock releases, in each warp, the
// lanes whose member mask's live lanes are all parked at a warp-level
// instruction with the same mask, computing their results among the
// lanes of their mask. Lanes that do not take part (outside the
// mask, past the end of the block, or exited) are absent: reading one
// gives the reader's own value, and match.sync neither compares with one
// nor sets its bit, as the CUDA backends document. A lane whose mask does
// not include itself faults. activemask waits for no lane: it gets the
// lanes on its path (diverge.go).

// fullWarp is the member mask of activemask.
const fullWarp = 0xffffffff

// warpMaskMsg is the fault of a lane not in its member mask, with the mask
// and the lane: the words of nugo's cpu backend and debug-mode check
// (compiler.WarpMaskMsg).
const warpMaskMsg = "warp operation with member mask %#08x called by lane %d, which is not in the mask (CUDA leaves this undefined)"

// shfl modes (inst.fop of opShfl)
const (
	shflIdx uint8 = iota
	shflUp
	shflDown
	shflBfly
)

// vote modes (inst.fop of opVote)
const (
	voteAll uint8 = iota
	voteAny
	voteBallot
	voteUni
	voteActive // activemask: a ballot of true
)

// match modes (inst.fop of opMatch)
const (
	matchAny uint8 = iota
	matchAll
)

// decodeWarp decodes shfl.sync.mode.b32 d, a, b, c, membermask;
// vote.sync.mode.{pred,b32} d, {!}a, membermask; activemask.b32 d, which
// waits for the warp's live threads like the others; and
// match.sync.{any,all}.{b32,b64} d[|p], a, membermask; and
// bar.warp.sync membermask.
func (d *decoder) decodeWarp(in *inst, base string, m mods) error {
	ops := d.ri.ops
	var err error
	mode := func(names map[string]uint8) error {
		if len(m.words) != 1 {
			return d.errf("%s needs one mode", d.ri.opcode)
		}
		v, ok := names[m.words[0]]
		if !ok {
			return d.errf("unsupported mode .%s on %s", m.words[0], base)
		}
		in.fop = v
		return nil
	}
	switch base {
	case "activemask":
		if len(m.types) != 1 || m.types[0] != tB32 {
			return d.errf("activemask needs type .b32")
		}
		if err := d.need(1); err != nil {
			return err
		}
		in.op, in.fop, in.a, in.e = opVote, voteActive, slotTrue, d.constSlot(fullWarp)
		in.d, err = d.dst(ops[0])
		return err
	case "bar.warp":
		if err := d.need(1); err != nil {
			return err
		}
		in.op = opWarpSync
		in.e, err = d.src(ops[0], tU32)
		return err
	case "shfl":
		if err := mode(map[string]uint8{"idx": shflIdx, "up": shflUp, "down": shflDown, "bfly": shflBfly}); err != nil {
			return err
		}
		if len(m.types) != 1 || m.types[0].bits() != 32 {
			return d.errf("shfl needs type .b32")
		}
		if err := d.need(5); err != nil {
			return err
		}
		in.op = opShfl
		if in.d, err = d.dst(ops[0]); err != nil {
			return err
		}
		for i, p := range []*int32{&in.a, &in.b, &in.c, &in.e} {
			if *p, err = d.src(ops[i+1], tB32); err != nil {
				return err
			}
		}
		return nil
	case "match":
		if err := mode(map[string]uint8{"any": matchAny, "all": matchAll}); err != nil {
			return err
		}
		if len(m.types) != 1 || (m.types[0] != tB32 && m.types[0] != tB64) {
			return d.errf("match needs type .b32 or .b64")
		}
		in.op, in.ty = opMatch, m.types[0]
		if d.ri.pipe {
			if in.fop != matchAll {
				return d.errf("match.any has no predicate destination")
			}
			if err := d.need(4); err != nil {
				return err
			}
			if in.d2, err = d.dst(ops[1]); err != nil {
				return err
			}
			ops = append(ops[:1:1], ops[2:]...)
		} else if err := d.need(3); err != nil {
			return err
		}
		if in.d, err = d.dst(ops[0]); err != nil {
			return err
		}
		if in.a, err = d.src(ops[1], in.ty); err != nil {
			return err
		}
		in.e, err = d.src(ops[2], tU32)
		return err
	case "vote":
		// .uni is also a branch modifier, which parseMods drops.
		if slices.Contains(strings.Split(d.ri.opcode, "."), "uni") && len(m.words) == 0 {
			in.fop = voteUni
		} else if err := mode(map[string]uint8{"all": voteAll, "any": voteAny, "ballot": voteBallot}); err != nil {
			return err
		}
		if len(m.types) != 1 || (in.fop == voteBallot) != (m.types[0] == tB32) || (in.fop != voteBallot && m.types[0] != tPred) {
			return d.errf("vote.ballot needs type .b32, the other modes .pred")
		}
		if err := d.need(3); err != nil {
			return err
		}
		in.op = opVote
		if in.d, err = d.dst(ops[0]); err != nil {
			return err
		}
		a := ops[1]
		if a.kind == okReg && a.not {
			a.not = false
			in.flags |= flNegSrc
		}
		if in.a, err = d.src(a, tPred); err != nil {
			return err
		}
		in.e, err = d.src(ops[2], tU32)
		return err
	}
	return d.errf("unsupported warp instruction %s", d.ri.opcode)
}

// releaseWarps completes the warp-level instructions that can complete,
// every thread of the block being blocked, and reports whether any did.
func (w *worker) releaseWarps() bool {
	released := false
	for lo := 0; lo < len(w.threads); lo += 32 {
		if w.releaseWarp(w.threads[lo:min(lo+32, len(w.threads))]) {
			released = true
		}
	}
	return released
}

// releaseWarp releases what it can of one warp's parked lanes: first the
// lanes of complete member masks; if there are none, those at activemask.
func (w *worker) releaseWarp(warp []thread) bool {
	var live, parked, active uint32
	for l := range warp {
		switch t := &warp[l]; t.state {
		case stExit:
		case stWarp:
			live |= 1 << l
			if t.warpIn.op == opVote && t.warpIn.fop == voteActive {
				active |= 1 << l
			} else {
				parked |= 1 << l
			}
		default:
			live |= 1 << l
		}
	}
	mask := func(l int) uint32 { return uint32(warp[l].regs[warp[l].warpIn.e]) }
	// A lane can go when every live lane of its mask is parked with the
	// same mask (CUDA requires them to reach one with the same mask; a lane
	// parked with another has yet to get there); its partners then can too.
	var can uint32
	for l := range warp {
		if parked&(1<<l) == 0 {
			continue
		}
		m, ok := mask(l), true
		for j := range warp {
			if m&live&(1<<j) != 0 && (parked&(1<<j) == 0 || mask(j) != m) {
				ok = false
				break
			}
		}
		if ok {
			can |= 1 << l
		}
	}
	if can != 0 {
		w.completeWarp(warp, can, mask)
		return true
	}
	if active != 0 {
		w.releaseActive(warp, live, active)
		return true
	}
	return false
}

// completeWarp computes the result of the instruction of each lane of can
// among the lanes of its member mask, all parked.
func (w *worker) completeWarp(warp []thread, can uint32, mask func(l int) uint32) {
	var vals [32]uint64
	var pred uint32
	for l := range warp {
		t := &warp[l]
		if can&(1<<l) == 0 {
			continue
		}
		in := t.warpIn
		vals[l] = t.regs[in.a]
		if in.op == opMatch && in.ty == tB32 {
			vals[l] &= 0xffffffff
		}
		if in.op == opVote && (vals[l]&1 != 0) != (in.flags&flNegSrc != 0) {
			pred |= 1 << l
		}
	}
	var out [32]uint64
	var out2 [32]uint64
	for l := range warp {
		t := &warp[l]
		if can&(1<<l) == 0 {
			continue
		}
		in := t.warpIn
		part := mask(l) & can
		ballot := pred & part
		switch in.op {
		case opShfl:
			j := shflSource(in.fop, l, uint32(t.regs[in.b]), uint32(t.regs[in.c]))
			if part&(1<<j) == 0 {
				j = l
			}
			out[l] = vals[j] & 0xffffffff
		case opVote:
			switch in.fop {
			case voteAll:
				out[l] = b2u(ballot == part)
			case voteAny:
				out[l] = b2u(ballot != 0)
			case voteBallot:
				out[l] = uint64(ballot)
			case voteUni:
				out[l] = b2u(ballot == 0 || ballot == part)
			}
		case opMatch:
			var same uint32
			for j := range warp {
				if part&(1<<j) != 0 && vals[j] == vals[l] {
					same |= 1 << j
				}
			}
			all := same == part
			if in.fop == matchAll && !all {
				same = 0
			}
			out[l], out2[l] = uint64(same), b2u(all)
		}
	}
	for l := range warp {
		t := &warp[l]
		if can&(1<<l) == 0 {
			continue
		}
		in := t.warpIn
		if in.d >= 0 && in.op != opWarpSync {
			t.regs[in.d] = out[l]
		}
		if in.op == opMatch && in.d2 >= 0 {
			t.regs[in.d2] = out2[l]
		}
		t.warpIn = nil
		t.state = stRun
	}
}

// shflSource is the source lane of shfl.sync for lane with operands b and
// c, as the PTX ISA defines it; a lane whose source is out of range reads
// its own value.
func shflSource(mode uint8, lane int, b, c uint32) int {
	l := uint32(lane)
	bval, cval, seg := b&31, c&31, c>>8&31
	maxLane := l&seg | cval&^seg
	minLane := l & seg
	var j int
	ok := false
	switch mode {
	case shflUp:
		j = lane - int(bval)
		ok = j >= int(maxLane)
	case shflDown:
		j = lane + int(bval)
		ok = j <= int(maxLane)
	case shflBfly:
		j = int(l ^ bval)
		ok = j <= int(maxLane)
	case shflIdx:
		j = int(minLane | bval&^seg)
		ok = j <= int(maxLane)
	}
	if !ok {
		return lane
	}
	return j
}

// stuckThread is a thread parked at a warp-level instruction, for the
// deadlock error.
func (w *worker) stuckThread() *thread {
	for i := range w.threads {
		if w.threads[i].state == stWarp {
			return &w.threads[i]
		}
	}
	return &w.threads[0]
}
