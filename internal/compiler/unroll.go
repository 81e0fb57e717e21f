package compiler

import (
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// Unrolling of simple counted loops. ptxas unrolls a loop 4 times by
// itself; nvcc's LLVM unrolls 4 times before that, so nvcc's loops run 16
// iterations per branch where nugo's ran 4 (bench/gpu/CODEGEN.md). For the
// loop shape
//
//	for j := lo; j <= hi; j++ { body }   (or j < hi)
//
// with hi loop-invariant, j a signed 64-bit integer and a body of one
// block of plain arithmetic, loads and stores, the edge into the loop gets a
// main loop that runs the body 4 times per test while j+3 <= hi, then
// falls into the original loop, which finishes the last iterations. The
// iterations run in the same order with the same operations (float sums
// keep their order), so results are unchanged; the test j <= hi-3 is used
// only when hi-3 does not wrap (Go's loop with hi near math.MinInt64 keeps
// its meaning).

// unrollFactor is how many bodies the main loop runs per test.
const unrollFactor = 4

// maxUnrollBody bounds the body's instructions: big bodies gain little.
const maxUnrollBody = 24

// unrollLoop is a loop that matches the shape above.
type unrollLoop struct {
	header, body, pre *ssa.BasicBlock
	j                 *ssa.Phi
	bound             ssa.Value
	op                token.Token       // LEQ or LSS
	hoist             []ssa.Instruction // the header's invariant values, made before the main loop
}

// findUnroll records the function's unrollable loops by header.
func (f *fnState) findUnroll() {
	if f.m.target.Debug || f.inl != nil {
		return
	}
	for _, h := range f.fn.Blocks {
		if u := f.matchUnroll(h); u != nil {
			if f.unroll == nil {
				f.unroll = map[*ssa.BasicBlock]*unrollLoop{}
			}
			f.unroll[h] = u
		}
	}
}

// matchUnroll returns the loop headed by h if it has the unrollable shape.
func (f *fnState) matchUnroll(h *ssa.BasicBlock) *unrollLoop {
	if len(h.Preds) != 2 || len(h.Succs) != 2 {
		return nil
	}
	body := h.Succs[0]
	if body == h || len(body.Preds) != 1 || body.Preds[0] != h || len(body.Succs) != 1 || body.Succs[0] != h {
		return nil
	}
	var p *ssa.BasicBlock
	switch body {
	case h.Preds[0]:
		p = h.Preds[1]
	case h.Preds[1]:
		p = h.Preds[0]
	default:
		return nil
	}
	if p == h || p == body {
		return nil
	}
	// The header: phis, loop-invariant values (go/ssa evaluates a bound
	// such as len(x) or i+n there), the compare, the branch.
	ifi, ok := h.Instrs[len(h.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	cond, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || cond.Block() != h || cond.Op != token.LEQ && cond.Op != token.LSS {
		return nil
	}
	var pre []ssa.Instruction
	for _, instr := range h.Instrs[:len(h.Instrs)-1] {
		switch in := instr.(type) {
		case *ssa.Phi, *ssa.DebugRef:
		case *ssa.BinOp:
			if in == cond {
				continue
			}
			switch in.Op {
			case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
			default:
				return nil
			}
			pre = append(pre, in)
		case *ssa.Call:
			b, isBuiltin := in.Call.Value.(*ssa.Builtin)
			if !isBuiltin || b.Name() != "len" && b.Name() != "cap" {
				return nil
			}
			pre = append(pre, in)
		case *ssa.Convert:
			pre = append(pre, in)
		default:
			return nil
		}
	}
	hoisted := map[ssa.Value]bool{}
	for _, instr := range pre {
		for _, op := range instr.Operands(nil) {
			if *op != nil && !hoisted[*op] && !invariantIn(*op, h, body) {
				return nil
			}
		}
		hoisted[instr.(ssa.Value)] = true
	}
	j, isPhi := cond.X.(*ssa.Phi)
	if !isPhi || j.Block() != h || !signed64(j.Type()) {
		return nil
	}
	if !hoisted[cond.Y] && !invariantIn(cond.Y, h, body) {
		return nil
	}
	// j's next value is j + 1, made in the body.
	bi := 0
	if h.Preds[1] == body {
		bi = 1
	}
	inc, ok := j.Edges[bi].(*ssa.BinOp)
	if !ok || inc.Block() != body || inc.Op != token.ADD || !(inc.X == j && isOne(inc.Y) || inc.Y == j && isOne(inc.X)) {
		return nil
	}
	// The body: plain arithmetic, loads and stores.
	n := 0
	for _, instr := range body.Instrs {
		switch in := instr.(type) {
		case *ssa.DebugRef, *ssa.Jump:
			continue
		case *ssa.BinOp:
			switch in.Op {
			case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT,
				token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			default:
				return nil // division and shifts keep per-block state (divPairs, checks)
			}
		case *ssa.UnOp:
			if in.Op != token.MUL && in.Op != token.SUB && in.Op != token.XOR && in.Op != token.NOT {
				return nil
			}
		case *ssa.Convert, *ssa.ChangeType, *ssa.IndexAddr, *ssa.FieldAddr, *ssa.Store:
		default:
			return nil
		}
		for _, op := range instr.Operands(nil) {
			if v, isInstr := (*op).(ssa.Instruction); isInstr && v.Block() == h {
				if _, phi := v.(*ssa.Phi); !phi && !hoisted[*op] {
					return nil // the compare
				}
			}
		}
		n++
	}
	if n > maxUnrollBody {
		return nil
	}
	return &unrollLoop{header: h, body: body, pre: p, j: j, bound: cond.Y, op: cond.Op, hoist: pre}
}

// signed64 reports whether t is int or int64.
func signed64(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Int || b.Kind() == types.Int64)
}

func isOne(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Int64() == 1
}

// invariantIn reports whether v is defined outside the loop of header h and
// body b.
func invariantIn(v ssa.Value, h, b *ssa.BasicBlock) bool {
	switch v := v.(type) {
	case *ssa.Const, *ssa.Parameter, *ssa.Global, *ssa.Builtin:
		return true
	case ssa.Instruction:
		return v.Block() != h && v.Block() != b
	}
	return false
}

// emitUnrolled emits u's main loop on the edge from its preheader, after
// the edge's phi copies.
func (f *fnState) emitUnrolled(u *unrollLoop) {
	jn, narrowed := f.narrow[u.j]
	if narrowed && !f.fits32(u.bound, u.header) {
		return // a 32-bit j against a 64-bit bound: left as it is
	}
	diags := len(f.m.diags.list)
	saved, pos := f.block, f.pos
	f.block = u.header
	for _, instr := range u.hoist {
		if f.skip[instr] {
			continue
		}
		f.pos = instrPos(instr, f.fn)
		f.lowerInstr(instr)
	}
	// The loop's arithmetic in j's width: 32 bits for a narrowed j, whose
	// 64-bit form each body gets by conversion.
	w, jr, hi := sI64, f.one(u.j), ""
	if narrowed {
		w, jr = sI32, jn
		hi = regOr(f, f.narrowOperand(u.bound), sI32)
	} else {
		hi = regOr(f, f.one(u.bound), sI64)
	}
	typ := w.op()
	// j + unrollFactor - 1 <= hi, written j <= lim; lim < hi when it did
	// not wrap.
	k := unrollFactor - 1
	if u.op == token.LSS {
		k = unrollFactor
	}
	lim := f.newReg(w)
	f.p.Emit("sub"+typ, lim, hi, strconv.Itoa(k))
	ok := f.newReg(sBool)
	f.p.Emit("setp.lt"+typ, ok, lim, hi)
	top, done := f.newLabel("unroll"), f.newLabel("unrolled")
	// Rotated, the test at the bottom: ptxas unrolls this form 4 times
	// more (not the form with the test at the top).
	f.p.EmitIf("!"+ok, "bra", done)
	enter := f.newReg(sBool)
	f.p.Emit("setp.gt"+typ, enter, jr, lim)
	f.p.EmitIf(enter, "bra", done)
	f.p.Label(top)
	// Body i sees j+i; j itself steps once by unrollFactor at the end, a
	// single induction step that ptxas's own unroller recognizes. A phi
	// kept in 32 bits (narrow.go) has its 64-bit form made at the header;
	// here it is made before each body.
	jregs := f.vals[u.j]
	f.block, f.noCopy = u.body, u.j
	for i := 0; i < unrollFactor; i++ {
		for _, instr := range u.header.Instrs {
			if phi, isPhi := instr.(*ssa.Phi); isPhi && phi != u.j {
				if n, ok := f.narrow[phi]; ok {
					f.p.Emit("cvt.s64.s32", f.vals[phi][0], n)
				}
			}
		}
		ji := jr
		if i > 0 {
			ji = f.newReg(w)
			f.p.Emit("add"+typ, ji, jr, strconv.Itoa(i))
		}
		if narrowed {
			f.narrow[u.j] = ji
			wide := f.newReg(sI64)
			f.p.Emit("cvt.s64.s32", wide, ji)
			f.vals[u.j] = []string{wide}
		} else {
			f.vals[u.j] = []string{ji}
		}
		for _, instr := range u.body.Instrs {
			if _, jump := instr.(*ssa.Jump); jump || f.skip[instr] {
				continue
			}
			f.pos = instrPos(instr, f.fn)
			f.lowerInstr(instr)
		}
		f.edgeCopies(u.body, u.header)
	}
	f.block, f.pos, f.vals[u.j], f.noCopy = saved, pos, jregs, nil
	if narrowed {
		f.narrow[u.j] = jn
	}
	f.p.Emit("add"+typ, jr, jr, strconv.Itoa(unrollFactor))
	again := f.newReg(sBool)
	f.p.Emit("setp.le"+typ, again, jr, lim)
	f.p.EmitIf(again, "bra", top)
	f.p.Label(done)
	// An error in the body is reported once, by the body's own lowering.
	f.m.diags.list = f.m.diags.list[:diags]
}
