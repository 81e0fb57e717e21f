package ptxsim

import (
	"slices"
	"strings"
)

// Warp-level instructions: shfl.sync, vote.sync, match.sync, activemask
// and bar.warp.sync. A thread that reaches one parks (stWarp); when every
// live thread of its warp is parked, runBlock computes the results and
// resumes them. Lanes that do not take part (past the end of the block, or
// exited) are absent: reading one gives the reader's own value, and
// match.sync neither compares with one nor sets its bit, as the CUDA
// backends document.

// fullWarp is the only member mask supported.
const fullWarp = 0xffffffff

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

// releaseWarps completes the warp-level instruction of every warp whose
// live threads are all parked at one, and reports whether any was.
func (w *worker) releaseWarps() bool {
	released := false
	for lo := 0; lo < len(w.threads); lo += 32 {
		warp := w.threads[lo:min(lo+32, len(w.threads))]
		parked := false
		ready := true
		var present uint32
		for l := range warp {
			switch warp[l].state {
			case stWarp:
				parked = true
				present |= 1 << l
			case stExit:
			default:
				ready = false
			}
		}
		if !parked || !ready {
			continue
		}
		released = true
		w.completeWarp(warp, present)
	}
	return released
}

// completeWarp computes the result of each parked lane's instruction.
func (w *worker) completeWarp(warp []thread, present uint32) {
	var ballot uint32
	var vals [32]uint64
	for l := range warp {
		t := &warp[l]
		if present&(1<<l) == 0 {
			continue
		}
		in := t.warpIn
		vals[l] = t.regs[in.a]
		if in.op == opMatch && in.ty == tB32 {
			vals[l] &= 0xffffffff
		}
		if in.op == opVote && (vals[l]&1 != 0) != (in.flags&flNegSrc != 0) {
			ballot |= 1 << l
		}
	}
	for l := range warp {
		t := &warp[l]
		if present&(1<<l) == 0 {
			continue
		}
		in := t.warpIn
		switch in.op {
		case opShfl:
			j := shflSource(in.fop, l, uint32(t.regs[in.b]), uint32(t.regs[in.c]))
			if present&(1<<j) == 0 {
				j = l
			}
			if in.d >= 0 {
				t.regs[in.d] = vals[j] & 0xffffffff
			}
		case opVote:
			var r uint64
			switch in.fop {
			case voteAll:
				r = b2u(ballot == present)
			case voteAny:
				r = b2u(ballot != 0)
			case voteBallot, voteActive:
				r = uint64(ballot)
			case voteUni:
				r = b2u(ballot == 0 || ballot == present)
			}
			if in.d >= 0 {
				t.regs[in.d] = r
			}
		case opMatch:
			var same uint32
			for j := range warp {
				if present&(1<<j) != 0 && vals[j] == vals[l] {
					same |= 1 << j
				}
			}
			all := same == present
			if in.fop == matchAll && !all {
				same = 0
			}
			if in.d >= 0 {
				t.regs[in.d] = uint64(same)
			}
			if in.d2 >= 0 {
				t.regs[in.d2] = b2u(all)
			}
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
