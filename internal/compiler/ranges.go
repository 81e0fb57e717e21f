package compiler

import (
	"go/token"
	"go/types"
	"math"
	"math/bits"

	"golang.org/x/tools/go/ssa"
)

// Range analysis: an interval [lo, hi] for every integer value of a
// function, so that 64-bit integers (Go's int) proven to fit in 32 bits are
// computed with 32-bit instructions (see narrow.go).
//
// The analysis is an abstract interpretation over the SSA: every integer
// value gets the interval of the values it can take; a use of v in a block
// dominated by the true (or false) edge of `if v < w` sees v's interval cut
// by that comparison. Loops are solved by iterating to a post-fixpoint,
// widening unstable bounds to the type's bounds after a few rounds, then a
// few descending rounds recover the bounds that conditions impose (k < 16).
// Arithmetic that may overflow gives the type's full range; a value of
// unsigned type has a meaningful interval only when lo >= 0.

// rng is a closed interval of int64 values.
type rng struct{ lo, hi int64 }

var (
	full = rng{math.MinInt64, math.MaxInt64}
	r32  = rng{math.MinInt32, math.MaxInt32}
)

func (r rng) within(o rng) bool { return r.lo >= o.lo && r.hi <= o.hi }
func (r rng) nonNeg() bool      { return r.lo >= 0 }

func join2(a, b rng) rng { return rng{min(a.lo, b.lo), max(a.hi, b.hi)} }

// typeRange is the interval of an integer type; ok is false for other types.
// Unsigned 64-bit types get full: their interval means something only when
// it is non-negative.
func typeRange(t types.Type) (rng, bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return rng{}, false
	}
	switch b.Kind() {
	case types.Int8:
		return rng{math.MinInt8, math.MaxInt8}, true
	case types.Int16:
		return rng{math.MinInt16, math.MaxInt16}, true
	case types.Int32, types.UntypedRune:
		return r32, true
	case types.Uint8:
		return rng{0, math.MaxUint8}, true
	case types.Uint16:
		return rng{0, math.MaxUint16}, true
	case types.Uint32:
		return rng{0, math.MaxUint32}, true
	}
	return full, true
}

func isUnsigned(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsUnsigned != 0
}

// clamp maps an exact interval of a result (ok false: it overflowed int64)
// to the interval of type t: a result outside t's bounds wraps, which can
// give any value of t.
func clamp(r rng, ok bool, t types.Type) rng {
	tr, _ := typeRange(t)
	if !ok || !r.within(tr) {
		return tr
	}
	if isUnsigned(t) && !r.nonNeg() {
		return tr
	}
	return r
}

func addOK(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0) || b == 0
}

func mulOK(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
	if hi != 0 || lo > math.MaxInt64 || a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	p := int64(lo)
	if (a < 0) != (b < 0) {
		p = -p
	}
	return p, true
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// rangeInfo is the result of the analysis of one function: the intervals,
// and for each value the blocks entered only through an edge of a branch
// on a comparison of that value (the blocks whose dominance cuts it).
type rangeInfo struct {
	r     map[ssa.Value]rng
	facts map[ssa.Value][]*ssa.BasicBlock
}

// branchFacts lists, for each value compared by a branch, the successors of
// that branch that have no other predecessor.
func branchFacts(fn *ssa.Function) map[ssa.Value][]*ssa.BasicBlock {
	facts := map[ssa.Value][]*ssa.BasicBlock{}
	for _, d := range fn.Blocks {
		if len(d.Preds) != 1 {
			continue
		}
		p := d.Preds[0]
		if len(p.Instrs) == 0 || len(p.Succs) != 2 || p.Succs[0] == p.Succs[1] {
			continue
		}
		ifi, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		if cmp, ok := ifi.Cond.(*ssa.BinOp); ok {
			facts[cmp.X] = append(facts[cmp.X], d)
			if cmp.Y != cmp.X {
				facts[cmp.Y] = append(facts[cmp.Y], d)
			}
		}
	}
	return facts
}

// rangeState is the analysis of one function.
type rangeState struct {
	fn    *ssa.Function
	facts map[ssa.Value][]*ssa.BasicBlock
	r     map[ssa.Value]rng // absent: no value reaches (bottom)
	// widen is set during the ascending rounds after the first few.
	widen bool
}

const (
	rangeRoundsBeforeWidening = 3
	rangeMaxRounds            = 64
	rangeDescendingRounds     = 3
)

// analyzeRanges computes the intervals of fn's integer values; nil when the
// analysis did not converge (then nothing is narrowed).
func analyzeRanges(fn *ssa.Function) *rangeInfo {
	s := &rangeState{fn: fn, r: map[ssa.Value]rng{}, facts: branchFacts(fn)}
	var vals []ssa.Value
	for _, b := range fn.DomPreorder() {
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok {
				if _, isInt := typeRange(v.Type()); isInt {
					vals = append(vals, v)
				}
			}
		}
	}
	converged := false
	for round := 0; round < rangeMaxRounds; round++ {
		s.widen = round >= rangeRoundsBeforeWidening
		changed := false
		for _, v := range vals {
			if s.update(v, true) {
				changed = true
			}
		}
		if !changed {
			converged = true
			break
		}
	}
	if !converged {
		return nil
	}
	// Descending rounds from the post-fixpoint stay above the least
	// fixpoint (the transfer functions are monotone), so they stay sound.
	s.widen = false
	for round := 0; round < rangeDescendingRounds; round++ {
		for _, v := range vals {
			s.update(v, false)
		}
	}
	return &rangeInfo{s.r, s.facts}
}

// update recomputes v; ascending rounds join with (or widen) the old value.
func (s *rangeState) update(v ssa.Value, ascending bool) bool {
	n, ok := s.transfer(v)
	old, had := s.r[v]
	if !ok {
		if ascending || !had {
			return false
		}
		delete(s.r, v)
		return true
	}
	if ascending && had {
		n = join2(old, n)
		if s.widen && n != old {
			tr, _ := typeRange(v.Type())
			if n.lo < old.lo {
				n.lo = widenLo(n.lo, tr)
			}
			if n.hi > old.hi {
				n.hi = widenHi(n.hi, tr)
			}
		}
	}
	if had && n == old {
		return false
	}
	s.r[v] = n
	return true
}

// Widening thresholds: a growing bound jumps to the next one (within the
// type's bounds). Stopping at 2**31-1 and 2**62 before the type's bound
// keeps k+1 of a counter from overflowing to the full range, so that the
// condition that ends the loop can bound it again.
var wideningSteps = []int64{math.MaxInt32, 1 << 62, math.MaxInt64}

func widenHi(x int64, tr rng) int64 {
	for _, t := range wideningSteps {
		if t >= x {
			return min(t, tr.hi)
		}
	}
	return tr.hi
}

func widenLo(x int64, tr rng) int64 {
	for _, t := range wideningSteps {
		if -t-1 <= x {
			return max(-t-1, tr.lo)
		}
	}
	return tr.lo
}

// at returns the interval of v as seen in block b (refined by the
// conditions of dominating branches); ok is false for bottom.
func (s *rangeState) at(v ssa.Value, b *ssa.BasicBlock) (rng, bool) {
	r, ok := s.plain(v)
	if !ok || b == nil {
		return r, ok
	}
	return refine(s.plain, s.facts, v, r, b)
}

// plain is v's interval without refinement.
func (s *rangeState) plain(v ssa.Value) (rng, bool) { return plainRange(s.r, v) }

// plainRange is v's interval in r: constants their value, parameters
// (and other values that are no instruction) their type's bounds,
// instructions absent from r bottom.
func plainRange(r map[ssa.Value]rng, v ssa.Value) (rng, bool) {
	if c, ok := v.(*ssa.Const); ok {
		return constRange(c)
	}
	if x, ok := r[v]; ok {
		return x, true
	}
	if _, ok := v.(ssa.Instruction); ok {
		return rng{}, false // bottom: not computed (yet)
	}
	tr, isInt := typeRange(v.Type())
	return tr, isInt
}

func constRange(c *ssa.Const) (rng, bool) {
	tr, isInt := typeRange(c.Type())
	if !isInt {
		return rng{}, false
	}
	if c.Value == nil {
		return rng{0, 0}, true
	}
	if isUnsigned(c.Type()) {
		u := c.Uint64()
		if u > math.MaxInt64 {
			return tr, true
		}
		return rng{int64(u), int64(u)}, true
	}
	x := c.Int64()
	return rng{x, x}, true
}

// refine cuts r, the interval of v, by the branch conditions that hold in
// block b: for every block D that dominates b (below v's definition) and is
// entered only from a block P ending in `if v op w`, the edge P→D tells
// op's truth. Every path from v's definition to b passes through that edge
// after v's last definition, so the cut holds in b.
func refine(plain func(ssa.Value) (rng, bool), facts map[ssa.Value][]*ssa.BasicBlock, v ssa.Value, r rng, b *ssa.BasicBlock) (rng, bool) {
	ds := facts[v]
	if len(ds) == 0 {
		return r, true
	}
	var def *ssa.BasicBlock
	if instr, ok := v.(ssa.Instruction); ok {
		def = instr.Block()
	}
	for _, d := range ds {
		if d == def || !d.Dominates(b) || def != nil && !def.Dominates(d) {
			continue
		}
		var ok bool
		if r, ok = cutByEdge(plain, v, r, d.Preds[0], d); !ok {
			return rng{}, false
		}
	}
	return r, true
}

// cutByEdge cuts r, the interval of v, by what the edge p→d tells when p
// ends in `if v op w`; ok is false when no value of r can take the edge.
func cutByEdge(plain func(ssa.Value) (rng, bool), v ssa.Value, r rng, p, d *ssa.BasicBlock) (rng, bool) {
	if len(p.Instrs) == 0 || len(p.Succs) != 2 || p.Succs[0] == p.Succs[1] {
		return r, true
	}
	ifi, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
	if !ok {
		return r, true
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	if !ok {
		return r, true
	}
	op := cmp.Op
	var w ssa.Value
	switch {
	case cmp.X == v:
		w = cmp.Y
	case cmp.Y == v:
		w = cmp.X
		op = swapCmp(op)
	default:
		return r, true
	}
	if _, isInt := typeRange(w.Type()); !isInt {
		return r, true
	}
	wr, ok := plain(w)
	if !ok {
		return r, true
	}
	if isUnsigned(v.Type()) && !(r.nonNeg() && wr.nonNeg()) {
		return r, true // unsigned order agrees with int64 order only there
	}
	if d != p.Succs[0] {
		op = negateCmp(op)
	}
	switch op {
	case token.LSS:
		if wr.hi == math.MinInt64 {
			return rng{}, false
		}
		r.hi = min(r.hi, wr.hi-1)
	case token.LEQ:
		r.hi = min(r.hi, wr.hi)
	case token.GTR:
		if wr.lo == math.MaxInt64 {
			return rng{}, false
		}
		r.lo = max(r.lo, wr.lo+1)
	case token.GEQ:
		r.lo = max(r.lo, wr.lo)
	case token.EQL:
		r.lo, r.hi = max(r.lo, wr.lo), min(r.hi, wr.hi)
	}
	if r.lo > r.hi {
		return rng{}, false // unreachable
	}
	return r, true
}

func swapCmp(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

func negateCmp(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GEQ
	case token.LEQ:
		return token.GTR
	case token.GTR:
		return token.LEQ
	case token.GEQ:
		return token.LSS
	case token.EQL:
		return token.NEQ
	case token.NEQ:
		return token.EQL
	}
	return token.ILLEGAL
}

// Limits of the thread and block indices (PTX ISA, special registers).
var (
	tidRange   = [3]rng{{0, 1023}, {0, 1023}, {0, 63}}
	ntidRange  = [3]rng{{1, 1024}, {1, 1024}, {1, 64}}
	ctaidRange = [3]rng{{0, math.MaxInt32 - 1}, {0, 65534}, {0, 65534}}
	nctaRange  = [3]rng{{1, math.MaxInt32}, {1, 65535}, {1, 65535}}
)

func gridRange(d int) rng {
	return rng{0, ctaidRange[d].hi*ntidRange[d].hi + tidRange[d].hi}
}

func gridSizeRange(d int) rng {
	return rng{1, ntidRange[d].hi * nctaRange[d].hi}
}

// threadRanges returns the intervals of the leaves of a cuda.Thread method's
// result, or nil.
func threadRanges(call *ssa.Call) []rng {
	fn := call.Call.StaticCallee()
	if fn == nil || len(fn.Blocks) != 0 || fn.Signature.Recv() == nil || !isNamed(fn.Signature.Recv().Type(), "Thread") {
		return nil
	}
	switch name := calleeName(fn); name {
	case "ThreadIdx":
		return tidRange[:]
	case "BlockDim":
		return ntidRange[:]
	case "BlockIdx":
		return ctaidRange[:]
	case "GridDim":
		return nctaRange[:]
	case "Grid1", "Grid2", "Grid3":
		out := make([]rng, int(name[4]-'0'))
		for i := range out {
			out[i] = gridRange(i)
		}
		return out
	case "GridSize1", "GridSize2", "GridSize3":
		out := make([]rng, int(name[8]-'0'))
		for i := range out {
			out[i] = gridSizeRange(i)
		}
		return out
	case "LaneID":
		return []rng{{0, 31}}
	case "WarpSize":
		return []rng{{32, 32}}
	}
	return nil
}

// componentRange is the range of component i (a struct field or a tuple
// element) of x: the known range when x is a call of a cuda.Thread method
// such as BlockDim or Grid2, else tr, the range of the component's type.
func componentRange(x ssa.Value, i int, isInt bool, tr rng) (rng, bool) {
	if !isInt {
		return rng{}, false
	}
	if call, ok := x.(*ssa.Call); ok {
		if rs := threadRanges(call); rs != nil && i < len(rs) {
			return rs[i], true
		}
	}
	return tr, true
}

// transfer computes v's interval from its operands' intervals in v's block.
func (s *rangeState) transfer(v ssa.Value) (rng, bool) {
	instr, _ := v.(ssa.Instruction)
	var blk *ssa.BasicBlock
	if instr != nil {
		blk = instr.Block()
	}
	tr, isInt := typeRange(v.Type())
	get := func(x ssa.Value) (rng, bool) { return s.at(x, blk) }
	switch v := v.(type) {
	case *ssa.Phi:
		var out rng
		found := false
		for i, e := range v.Edges {
			p := v.Block().Preds[i]
			r, ok := s.at(e, p)
			if ok {
				// The value flows only when p's branch takes this edge.
				r, ok = cutByEdge(s.plain, e, r, p, v.Block())
			}
			if !ok {
				continue
			}
			if found {
				out = join2(out, r)
			} else {
				out, found = r, true
			}
		}
		return out, found
	case *ssa.BinOp:
		if !isInt {
			return rng{}, false
		}
		x, ok1 := get(v.X)
		y, ok2 := get(v.Y)
		if !ok1 || !ok2 {
			return rng{}, false
		}
		return binRange(v.Op, x, y, v.Type()), true
	case *ssa.UnOp:
		if !isInt || v.Op != token.SUB {
			return tr, isInt
		}
		x, ok := get(v.X)
		if !ok {
			return rng{}, false
		}
		if x.lo == math.MinInt64 {
			return clamp(rng{}, false, v.Type()), true
		}
		return clamp(rng{-x.hi, -x.lo}, true, v.Type()), true
	case *ssa.Convert:
		if !isInt {
			return rng{}, false
		}
		if _, srcInt := typeRange(v.X.Type()); !srcInt {
			return tr, true
		}
		x, ok := get(v.X)
		if !ok {
			return rng{}, false
		}
		if isUnsigned(v.X.Type()) && !x.nonNeg() {
			return tr, true
		}
		return clamp(x, true, v.Type()), true
	case *ssa.ChangeType:
		if !isInt {
			return rng{}, false
		}
		return get(v.X)
	case *ssa.Field:
		return componentRange(v.X, v.Field, isInt, tr)
	case *ssa.Extract:
		return componentRange(v.Tuple, v.Index, isInt, tr)
	case *ssa.Call:
		if !isInt {
			return tr, isInt // tuples: no interval of their own
		}
		if rs := threadRanges(v); len(rs) == 1 {
			return rs[0], true
		}
		if b, ok := v.Call.Value.(*ssa.Builtin); ok {
			switch b.Name() {
			case "len", "cap":
				if n := constLen(v.Call.Args[0]); n >= 0 {
					return rng{n, n}, true
				}
				return rng{0, math.MaxInt64}, true
			case "min", "max":
				out, ok := get(v.Call.Args[0])
				if !ok {
					return rng{}, false
				}
				uns := isUnsigned(v.Type())
				if uns && !out.nonNeg() {
					// An unsigned argument of unknown range may be at
					// or above 2^63: nothing is known of the result.
					return tr, true
				}
				for _, a := range v.Call.Args[1:] {
					r, ok := get(a)
					if !ok {
						return rng{}, false
					}
					if uns && !r.nonNeg() {
						return tr, true
					}
					if b.Name() == "min" {
						out = rng{min(out.lo, r.lo), min(out.hi, r.hi)}
					} else {
						out = rng{max(out.lo, r.lo), max(out.hi, r.hi)}
					}
				}
				if isUnsigned(v.Type()) && !out.nonNeg() {
					return tr, true
				}
				return out, true
			}
		}
		return tr, true
	}
	return tr, isInt
}

// constLen is the length of an array, or of a slice made with a constant
// size (cuda.SharedArray, make), or -1.
func constLen(x ssa.Value) int64 {
	if n := arrayLen(x.Type()); n >= 0 {
		return n
	}
	switch x := x.(type) {
	case *ssa.Call:
		if fn := x.Call.StaticCallee(); fn != nil && len(fn.Blocks) == 0 && calleeName(fn) == "SharedArray" && calleePkg(fn) == "github.com/nugo-dev/nugo/cuda" {
			if c, ok := x.Call.Args[1].(*ssa.Const); ok {
				return c.Int64()
			}
		}
	case *ssa.MakeSlice:
		if c, ok := x.Len.(*ssa.Const); ok {
			return c.Int64()
		}
	}
	return -1
}

// binRange is the interval of x op y of type t.
func binRange(op token.Token, x, y rng, t types.Type) rng {
	tr, _ := typeRange(t)
	uns := isUnsigned(t)
	if uns && !(x.nonNeg() && y.nonNeg()) {
		return tr
	}
	switch op {
	case token.ADD:
		lo, ok1 := addOK(x.lo, y.lo)
		hi, ok2 := addOK(x.hi, y.hi)
		return clamp(rng{lo, hi}, ok1 && ok2, t)
	case token.SUB:
		if y.hi == math.MinInt64 || y.lo == math.MinInt64 {
			return tr
		}
		lo, ok1 := addOK(x.lo, -y.hi)
		hi, ok2 := addOK(x.hi, -y.lo)
		return clamp(rng{lo, hi}, ok1 && ok2, t)
	case token.MUL:
		a, ok1 := mulOK(x.lo, y.lo)
		b, ok2 := mulOK(x.lo, y.hi)
		c, ok3 := mulOK(x.hi, y.lo)
		d, ok4 := mulOK(x.hi, y.hi)
		return clamp(rng{min(a, b, c, d), max(a, b, c, d)}, ok1 && ok2 && ok3 && ok4, t)
	case token.QUO:
		if y.lo < 1 {
			return tr
		}
		a, b, c, d := x.lo/y.lo, x.lo/y.hi, x.hi/y.lo, x.hi/y.hi
		return clamp(rng{min(a, b, c, d), max(a, b, c, d)}, true, t)
	case token.REM:
		if y.lo < 1 {
			return tr
		}
		m := y.hi - 1
		switch {
		case x.nonNeg():
			return rng{0, min(x.hi, m)}
		case x.hi <= 0:
			return rng{max(x.lo, -m), 0}
		}
		return rng{max(x.lo, -m), min(x.hi, m)}
	case token.AND:
		switch {
		case x.nonNeg() && y.nonNeg():
			return rng{0, min(x.hi, y.hi)}
		case x.nonNeg():
			return rng{0, x.hi}
		case y.nonNeg():
			return rng{0, y.hi}
		}
	case token.OR, token.XOR:
		if x.nonNeg() && y.nonNeg() {
			m := max(x.hi, y.hi)
			return rng{0, int64(uint64(1)<<bits.Len64(uint64(m)) - 1)}
		}
	case token.SHR:
		if y.lo >= 0 && y.hi < 64 && (x.nonNeg() || !uns) {
			return rng{min(x.lo>>y.lo, x.lo>>y.hi), max(x.hi>>y.lo, x.hi>>y.hi)}
		}
	case token.SHL:
		if y.lo >= 0 && y.hi < 63 {
			return binRange(token.MUL, x, rng{1 << y.lo, 1 << y.hi}, t)
		}
	}
	return tr
}
