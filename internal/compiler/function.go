package compiler

import (
	"fmt"
	"go/token"
	"go/types"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// fnState is the per-function state of the lowering: value → registers,
// block labels, instructions folded into others, pointer state spaces.
type fnState struct {
	m      *modState
	fn     *ssa.Function
	p      *ptx.Func
	kernel bool
	vals   map[ssa.Value][]string
	labels map[*ssa.BasicBlock]string
	skip   map[ssa.Instruction]bool
	printf map[*ssa.Call][]ssa.Value
	spaces map[ssa.Value]space
	// readOnly holds the kernel's parameters never written: loaded with .nc.
	readOnly map[*ssa.Parameter]bool
	lastLoc  string
	// inl is set while the function's body is inlined into a caller.
	inl  *inlineState
	tail []func() // out-of-line code (debug error paths), emitted after the body
	// depth is the register holding a recursive function's call depth
	// (calldepth.go); "" elsewhere.
	depth string
	pos   token.Pos
	// block is the block being lowered; divPairs the 64-bit quotients and
	// remainders computed so far (see divRem64).
	block    *ssa.BasicBlock
	divPairs map[[2]ssa.Value]divPair
	// zeroChecked holds, by divisor, the blocks whose division checks
	// (integer divide by zero) are emitted: a check in a dominating block
	// makes another redundant.
	zeroChecked map[ssa.Value][]*ssa.BasicBlock
	// ranges are the intervals of integer values (ranges.go); narrow the
	// 32-bit registers of 64-bit integers proven to fit (narrow.go).
	ranges *rangeInfo
	narrow map[ssa.Value]string
	// unroll holds the loops unrolled on their entry edge, by header.
	unroll map[*ssa.BasicBlock]*unrollLoop
	noCopy *ssa.Phi // a phi edgeCopies leaves alone (unroll.go steps it)
}

// bailout unwinds the lowering of one instruction after a diagnostic.
type bailout struct{}

// errorf records a diagnostic at the current instruction and abandons it.
func (f *fnState) errorf(format string, args ...any) {
	f.m.diags.add(f.pos, format, args...)
	panic(bailout{})
}

func (f *fnState) newLabel(hint string) string {
	f.m.nlabel++
	return fmt.Sprintf("$L_%s_%s%d", f.p.Name, hint, f.m.nlabel)
}

// emitBody lowers the function's blocks in dominator pre-order.
func (f *fnState) emitBody() {
	fn := f.fn
	for _, b := range fn.Blocks {
		f.labels[b] = f.newLabel("bb")
	}
	f.findPrintf()
	f.m.checkLoopAddresses(fn)
	f.ranges = analyzeRanges(fn)
	// Phis get their registers first: predecessors emitted earlier copy into them.
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if phi, ok := instr.(*ssa.Phi); ok {
				f.guard(func() { f.vals[phi] = f.newRegs(phi.Type()) })
				if f.narrowPhi(phi) {
					if f.narrow == nil {
						f.narrow = map[ssa.Value]string{}
					}
					f.narrow[phi] = f.p.NewReg(ptx.B32).String()
				}
			}
		}
	}
	f.findUnroll()
	for i, b := range fn.DomPreorder() {
		f.block = b
		if i > 0 || len(b.Preds) > 0 {
			f.p.Label(f.labels[b])
		}
		for _, instr := range b.Instrs {
			if f.skip[instr] {
				continue
			}
			f.pos = instrPos(instr, fn)
			f.lineInfo()
			f.lowerInstr(instr)
		}
	}
}

func (m *modState) lowerFunc(fn *ssa.Function, p *ptx.Func, kernel bool) {
	f := &fnState{
		m: m, fn: fn, p: p, kernel: kernel,
		vals:   map[ssa.Value][]string{},
		labels: map[*ssa.BasicBlock]string{},
		skip:   map[ssa.Instruction]bool{},
		printf: map[*ssa.Call][]ssa.Value{},
		spaces: map[ssa.Value]space{},
	}
	f.pos = fn.Pos()
	if len(fn.Blocks) == 0 {
		m.diags.add(fn.Pos(), "function %s has no Go body the GPU can run", fn.Name())
		return
	}
	if fn.Recover != nil {
		m.diags.add(fn.Pos(), "recover is not supported in kernels")
		return
	}
	if !f.guard(f.params) {
		return
	}
	f.computeSpaces()
	f.findReadOnly()
	f.emitBody()
	for len(f.tail) > 0 {
		t := f.tail[0]
		f.tail = f.tail[1:]
		t()
	}
}

// guard runs fn and turns a bailout or an unexpected panic into a diagnostic;
// it reports whether fn completed.
func (f *fnState) guard(fn func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				f.m.diags.add(f.pos, "internal compiler error: %v\n%s", r, debug.Stack())
			}
			ok = false
		}
	}()
	fn()
	return true
}

// instrPos finds the best source position of an instruction.
func instrPos(instr ssa.Instruction, fn *ssa.Function) token.Pos {
	if p := instr.Pos(); p.IsValid() {
		return p
	}
	if v, ok := instr.(ssa.Value); ok {
		for _, r := range *v.Referrers() {
			if p := r.Pos(); p.IsValid() {
				return p
			}
		}
	}
	for _, op := range instr.Operands(nil) {
		if *op != nil {
			if p := (*op).Pos(); p.IsValid() {
				return p
			}
		}
	}
	if b := instr.Block(); b != nil {
		for _, i := range b.Instrs {
			if p := i.Pos(); p.IsValid() {
				return p
			}
		}
	}
	return fn.Pos()
}

// params declares the PTX parameters and loads them into registers.
func (f *fnState) params() {
	for pi, prm := range f.fn.Params {
		if f.kernel && pi > 0 && isFuncType(prm.Type()) {
			f.funcParam(pi-1, prm)
			continue
		}
		if f.kernel && pi > 0 && isAggregate(prm.Type()) {
			f.aggregateParam(pi, prm)
			continue
		}
		ls, err := leaves(prm.Type())
		if err != nil {
			f.errorf("parameter %s: %v", prm.Name(), err)
		}
		regs := make([]string, len(ls))
		var layout *Param
		if f.kernel && pi > 0 {
			layout = paramLayout(prm)
			layout.Arg = pi - 1
		}
		for li, s := range ls {
			name := fmt.Sprintf("%s_param_%d_%d", f.p.Name, pi, li)
			ptype := s.mem()
			if !f.kernel {
				ptype = paramType(s)
			}
			f.p.Params = append(f.p.Params, ptx.Param{Name: name, Type: ptype})
			r := f.newReg(s)
			switch {
			case s == sBool:
				t := f.p.NewReg(ptx.B32).String()
				f.p.Emit("ld.param"+ptype, t, "["+name+"]")
				f.p.Emit("setp.ne.b32", r, t, "0")
			case s == sPtr && f.kernel:
				t := f.p.NewReg(ptx.B64).String()
				f.p.Emit("ld.param.u64", t, "["+name+"]")
				f.p.Emit("cvta.to.global.u64", r, t)
			default:
				f.p.Emit("ld.param"+ptype, r, "["+name+"]")
			}
			regs[li] = r
			if layout != nil {
				size := s.size()
				off := f.m.out.ParamBytes
				off = (off + size - 1) / size * size
				f.m.out.ParamBytes = off + size
				layout.PTX = append(layout.PTX, PTXParam{Name: name, Type: s.mem(), Size: size, Offset: off, Role: roleOf(layout.Kind, li, isComplex(prm.Type()))})
			}
		}
		if layout != nil {
			f.m.out.Params = append(f.m.out.Params, *layout)
		}
		f.vals[prm] = regs
	}
	if n := f.m.out.ParamBytes; f.kernel && n > MaxParamBytes {
		f.errorf("the kernel's parameters take %d bytes; at most %d fit in a launch (pass large arrays and structs in a slice instead)", n, MaxParamBytes)
	}
	f.depthParam()
}

// paramType is the PTX type of a device function's parameter or result.
func paramType(s scalar) string {
	switch s.class() {
	case ptx.Pred, ptx.B32:
		return ".b32"
	case ptx.F32:
		return ".f32"
	case ptx.F64:
		return ".f64"
	case ptx.B16:
		return ".b16"
	}
	return ".b64"
}

func paramLayout(prm *ssa.Parameter) *Param {
	p := &Param{Name: prm.Name()}
	t := prm.Type()
	elem := t
	switch u := t.Underlying().(type) {
	case *types.Slice:
		p.Kind = Slice
		elem = u.Elem()
	default:
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
			switch n.Obj().Name() {
			case "Array2":
				p.Kind = Array2
			case "Array3":
				p.Kind = Array3
			}
			if p.Kind != Scalar && n.TypeArgs().Len() == 1 {
				elem = n.TypeArgs().At(0)
			}
		}
	}
	if s, err := scalarOf(elem); err == nil {
		p.Elem = scalarInfo[s].name
		p.ElemSize = s.size()
	} else if c, ok := complexPart(elem); ok {
		p.Elem = map[scalar]string{sF32: "complex64", sF64: "complex128"}[c]
		p.ElemSize = 2 * c.size()
	}
	return p
}

func roleOf(k ParamKind, leaf int, complexScalar bool) string {
	switch k {
	case Scalar:
		if complexScalar {
			return [...]string{"real", "imag"}[leaf]
		}
		return "value"
	case Slice:
		return [...]string{"ptr", "len", "cap"}[leaf]
	case Array2:
		return [...]string{"ptr", "len", "cap", "rows", "cols", "off", "s0", "s1"}[leaf]
	case Array3:
		return [...]string{"ptr", "len", "cap", "d0", "d1", "d2", "off", "s0", "s1", "s2"}[leaf]
	}
	return "value"
}

// lowerInstr lowers one instruction; failures become diagnostics.
func (f *fnState) lowerInstr(instr ssa.Instruction) {
	ok := f.guard(func() { f.instr(instr) })
	if !ok {
		if v, isVal := instr.(ssa.Value); isVal && f.vals[v] == nil {
			f.guard(func() { f.vals[v] = f.newRegs(v.Type()) })
		}
	}
}

// instr is the one switch over SSA instructions.
func (f *fnState) instr(instr ssa.Instruction) {
	if selfClosureInstr(instr) {
		return // a recursive closure's plumbing (closures.go)
	}
	switch in := instr.(type) {
	case *ssa.DebugRef:
	case *ssa.Phi:
		// Registers allocated up front; copies happen on the edges. A phi
		// kept in 32 bits is widened where it is defined.
		if n, ok := f.narrow[in]; ok {
			f.p.Emit("cvt.s64.s32", f.vals[in][0], n)
		}
	case *ssa.BinOp:
		f.bind(in, f.binOp(in))
	case *ssa.UnOp:
		f.unOp(in)
	case *ssa.Convert:
		f.bind(in, f.convert(in.X, in.Type()))
	case *ssa.ChangeType:
		f.bindCopy(in, f.get(in.X))
	case *ssa.Alloc:
		f.alloc(in)
	case *ssa.Store:
		f.store(in)
	case *ssa.FieldAddr:
		f.fieldAddr(in)
	case *ssa.IndexAddr:
		f.indexAddr(in)
	case *ssa.Field:
		f.field(in)
	case *ssa.Index:
		f.index(in)
	case *ssa.Extract:
		f.extract(in)
	case *ssa.Slice:
		f.slice(in)
	case *ssa.Call:
		f.call(in)
	case *ssa.Jump:
		f.jump(in.Block(), in.Block().Succs[0])
	case *ssa.If:
		f.branch(in)
	case *ssa.Return:
		f.ret(in)
	case *ssa.MakeSlice:
		f.makeSlice(in)
	case *ssa.Panic:
		f.panicStmt(in)
	case *ssa.MakeInterface:
		if !panicOperand(in) {
			f.errorf("cannot use an interface value in a kernel; use a concrete type")
		}
	case *ssa.ChangeInterface:
		if !panicOperand(in) {
			f.errorf("cannot use an interface value in a kernel; use a concrete type")
		}
	case *ssa.MakeClosure:
		f.errorf("closures that capture variables are not supported in kernels; write a top-level device function")
	case *ssa.Go:
		f.errorf("cannot start a goroutine in a kernel")
	case *ssa.Defer, *ssa.RunDefers:
		f.errorf("defer is not supported in kernels")
	case *ssa.MakeMap, *ssa.MapUpdate, *ssa.Lookup:
		f.errorf("cannot use a map in a kernel; pass a slice and index it instead")
	case *ssa.MakeChan, *ssa.Send, *ssa.Select:
		f.errorf("cannot use a channel in a kernel")
	case *ssa.Range, *ssa.Next:
		f.errorf("range over this value is not supported in kernels; range over a slice or an integer")
	case *ssa.TypeAssert:
		f.errorf("type assertions are not supported in kernels")
	case *ssa.SliceToArrayPointer:
		f.sliceToArrayPointer(in)
	default:
		f.errorf("%T is not supported in kernels", instr)
	}
}

// jump emits the phi copies of the edge from → to and a branch.
func (f *fnState) jump(from, to *ssa.BasicBlock) {
	f.edgeCopies(from, to)
	if u := f.unroll[to]; u != nil && from == u.pre {
		f.emitUnrolled(u) // unroll.go
	}
	f.p.Emit("bra.uni", f.labels[to])
}

func hasPhis(b *ssa.BasicBlock) bool {
	return len(b.Instrs) > 0 && isPhi(b.Instrs[0])
}

func isPhi(i ssa.Instruction) bool { _, ok := i.(*ssa.Phi); return ok }

// branch lowers If; edges into blocks with phis get their own copy code.
func (f *fnState) branch(in *ssa.If) {
	b := in.Block()
	cond := f.pred(in.Cond)
	t, e := b.Succs[0], b.Succs[1]
	if !hasPhis(t) && !hasPhis(e) {
		f.p.EmitIf(cond, "bra", f.labels[t])
		f.p.Emit("bra.uni", f.labels[e])
		return
	}
	elseEdge := f.newLabel("else")
	f.p.EmitIf("!"+cond, "bra", elseEdge)
	f.jump(b, t)
	f.p.Label(elseEdge)
	f.jump(b, e)
}

// edgeCopies performs the phis of to for the edge from → to as one parallel
// copy: every source is read (into a temporary) before any phi is written,
// which makes swaps and cycles of phis correct.
func (f *fnState) edgeCopies(from, to *ssa.BasicBlock) {
	pi := -1
	for i, p := range to.Preds {
		if p == from {
			pi = i
			break
		}
	}
	if pi < 0 {
		return
	}
	type cp struct {
		dst, src string
		s        scalar
	}
	var copies []cp
	for _, instr := range to.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if phi == f.noCopy {
			continue
		}
		dst := f.vals[phi]
		edge := phi.Edges[pi]
		if n, ok := f.narrow[phi]; ok {
			if src := f.narrowOperand(edge); src != n {
				copies = append(copies, cp{n, src, sI32})
			}
			continue
		}
		src := f.getAs(edge, f.phiSpace(phi))
		ls, _ := leaves(phi.Type())
		for i := range dst {
			if dst[i] != src[i] {
				copies = append(copies, cp{dst[i], src[i], ls[i]})
			}
		}
	}
	if len(copies) == 1 {
		f.mov(copies[0].s, copies[0].dst, copies[0].src)
		return
	}
	tmps := make([]string, len(copies))
	for i, c := range copies {
		if isImmediate(c.src) {
			tmps[i] = c.src
			continue
		}
		tmps[i] = f.newReg(c.s)
		f.mov(c.s, tmps[i], c.src)
	}
	for i, c := range copies {
		f.mov(c.s, c.dst, tmps[i])
	}
}

// ret stores a device function's results and returns.
func (f *fnState) ret(in *ssa.Return) {
	if f.inl != nil {
		f.inlineReturn(in)
		return
	}
	if f.kernel {
		f.p.Emit("ret")
		return
	}
	var vals []string
	for _, r := range in.Results {
		vals = append(vals, f.getAs(r, spaceGeneric)...)
	}
	ls, offs, _ := retLayout(f.fn.Signature.Results())
	for i, s := range ls {
		v := vals[i]
		if s == sBool {
			t := f.p.NewReg(ptx.B32).String()
			f.p.Emit("selp.b32", t, "1", "0", v)
			v = t
		}
		f.p.Emit("st.param"+paramType(s), addr(f.p.Results[0].Name, int64(offs[i])), v)
	}
	f.p.Emit("ret")
}

// lineInfo writes a .loc directive when the Go source position changes,
// with Target.LineInfo, so that profilers and debuggers (ptxas -lineinfo)
// map the GPU code to Go lines. It adds directives only: the instructions
// are those of a compile without it.
func (f *fnState) lineInfo() {
	if !f.m.target.LineInfo || !f.pos.IsValid() {
		return
	}
	p := f.m.k.Fset.Position(f.pos)
	if p.Filename == "" || strings.ContainsAny(p.Filename, "\"\n") {
		return
	}
	id, ok := f.m.files[p.Filename]
	if !ok {
		id = len(f.m.files) + 1
		f.m.files[p.Filename] = id
		f.m.mod.Files = append(f.m.mod.Files, p.Filename)
	}
	loc := fmt.Sprintf("\t.loc %d %d %d", id, p.Line, p.Column)
	if loc != f.lastLoc {
		f.p.Raw(loc)
		f.lastLoc = loc
	}
}
