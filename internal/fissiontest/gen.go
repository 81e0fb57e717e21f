package fissiontest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Program is one random synchronising kernel and its launch.
//
// The kernel's signature is always
//
//	func Name(t cuda.Thread, in []int32, fin []float32, out []int64, fout []float64, p int)
//
// in and fin hold N elements (fewer than the grid's threads when the grid
// has a tail); out and fout hold Slots and FSlots elements per thread of
// the grid, where each thread writes its values at the end (or before it
// returns early).
type Program struct {
	Name           string // the kernel's name
	Source         string // the kernel's declaration and its constants
	BlockX, BlockY int    // the block's shape
	Grid           int    // blocks (one-dimensional grid)
	N              int    // len(in) == len(fin)
	P              int    // the kernel's int parameter
	Slots, FSlots  int    // out and fout elements per thread
	// MayRefuse lists reasons for which nugo gen may leave the kernel on
	// goroutines: constructs the generator used knowing that the transform
	// does not take them in every case.
	MayRefuse []string
}

// Threads is the number of threads of the grid.
func (p *Program) Threads() int { return p.BlockX * p.BlockY * p.Grid }

// Thread-local value types; every one of them is Shuffleable.
var (
	intTypes   = []string{"int32", "uint32", "int64", "uint64", "int"}
	floatTypes = []string{"float32", "float64"}
)

func isFloat(t string) bool { return t == "float32" || t == "float64" }
func isUnsigned(t string) bool {
	return t == "uint32" || t == "uint64"
}

// gvar is a thread-local variable of the generated kernel.
type gvar struct {
	name   string
	t      string
	slot   int  // its element in out (ints) or fout (floats) per thread
	frozen bool // a loop's counter: not assigned by generated statements
	hidden bool // shadowed by a variable of an inner scope
	shadow *gvar
}

// sharedArr is a shared array and what has been done to it since the last
// barrier: a thread may write its own slot unless some thread has read
// another's slot since the barrier, and read other threads' slots unless
// some thread has written since the barrier.
type sharedArr struct {
	name       string
	t          string
	twoD       bool
	written    bool
	readOthers bool
}

// gen is the state of one program's generation.
type gen struct {
	r        *rand.Rand
	w        strings.Builder
	ind      int
	vars     []*gvar  // in scope, innermost last
	scopes   []int    // len(vars) at each open scope
	uvars    []string // block-uniform ints in scope (loop counters)
	uscopes  []int    // len(uvars) at each open scope
	shared   []*sharedArr
	twoD     bool
	nint     int // out slots so far
	nflt     int // fout slots so far
	nname    int
	budget   int // statements left
	depth    int // nesting of block-level statements
	returns  int // early returns emitted
	barriers int // barriers emitted in the current uniform loop body

	mayRefuse []string
	inBranch  int // nesting of block-level ifs
	uloops    int // nesting of uniform loops around barriers (uniformLoop)
	// labels are those of the uniform loops around, by nesting, with
	// whether a branch named each (gen_locals.go).
	labels []*loopLabel
}

// Generate returns the random program of seed, named name.
func Generate(seed uint64, name string) *Program {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	p := &Program{Name: name}
	g.twoD = g.r.IntN(3) == 0
	if g.twoD {
		shapes := [][2]int{{8, 4}, {5, 7}, {16, 3}, {12, 10}, {32, 2}, {9, 9}, {33, 2}, {4, 16}, {7, 1}, {40, 3}}
		s := shapes[g.r.IntN(len(shapes))]
		p.BlockX, p.BlockY = s[0], s[1]
	} else {
		sizes := []int{1, 7, 31, 32, 33, 48, 64, 65, 96, 100, 128, 130, 160, 256}
		p.BlockX, p.BlockY = sizes[g.r.IntN(len(sizes))], 1
	}
	p.Grid = 1 + g.r.IntN(4)
	nt := p.BlockX * p.BlockY
	p.N = p.Grid * nt
	if g.r.IntN(2) == 0 {
		p.N -= g.r.IntN(nt + 1) // a grid tail
	}
	p.P = 1 + g.r.IntN(3)
	g.budget = 12 + g.r.IntN(30)

	body := g.body(p, nt)
	p.MayRefuse = g.mayRefuse
	p.Slots, p.FSlots = max(g.nint, 1), max(g.nflt, 1)
	var src strings.Builder
	fmt.Fprintf(&src, "// %s is random synchronising program %d.\n", name, seed)
	fmt.Fprintf(&src, "func %s(t cuda.Thread, in []int32, fin []float32, out []int64, fout []float64, p int) {\n", name)
	fmt.Fprintf(&src, "\tconst S, FS = %d, %d\n", p.Slots, p.FSlots)
	src.WriteString(body)
	src.WriteString("}\n")
	p.Source = src.String()
	return p
}

func (g *gen) line(format string, args ...any) {
	g.w.WriteString(strings.Repeat("\t", g.ind))
	fmt.Fprintf(&g.w, format, args...)
	g.w.WriteByte('\n')
}

func (g *gen) fresh(prefix string) string {
	g.nname++
	return fmt.Sprintf("%s%d", prefix, g.nname)
}

func (g *gen) open() {
	g.scopes = append(g.scopes, len(g.vars))
	g.uscopes = append(g.uscopes, len(g.uvars))
	g.ind++
}

// close ends a scope; the variables declared in it write their values
// into their slots, which also keeps each of them used.
func (g *gen) close() {
	top := g.scopes[len(g.scopes)-1]
	g.outputVars(g.vars[top:])
	g.endScope()
}

// endScope ends a scope without writing its variables.
func (g *gen) endScope() {
	top := g.scopes[len(g.scopes)-1]
	for _, v := range g.vars[top:] {
		if v.shadow != nil {
			v.shadow.hidden = false
		}
	}
	g.vars = g.vars[:top]
	g.scopes = g.scopes[:len(g.scopes)-1]
	g.uvars = g.uvars[:g.uscopes[len(g.uscopes)-1]]
	g.uscopes = g.uscopes[:len(g.uscopes)-1]
	g.ind--
}

// newVar declares a thread-local variable of type t holding expression e.
func (g *gen) newVar(t, e string) *gvar {
	v := &gvar{name: g.fresh("v"), t: t}
	if len(g.scopes) > 0 && g.chance(20) {
		// Shadow a variable of an outer scope.
		top := g.scopes[len(g.scopes)-1]
		var c []*gvar
		for _, o := range g.vars[:top] {
			if !o.hidden && !o.frozen {
				c = append(c, o)
			}
		}
		if len(c) > 0 {
			v.shadow = c[g.pick(len(c))]
			v.shadow.hidden = true
			v.name = v.shadow.name
		}
	}
	if isFloat(t) {
		v.slot = g.nflt
		g.nflt++
	} else {
		v.slot = g.nint
		g.nint++
	}
	switch g.pick(4) {
	case 0:
		g.line("var %s %s = %s", v.name, t, e)
	case 1:
		if v.shadow != nil { // e would read the new variable
			g.line("%s := %s(%s)", v.name, t, e)
			break
		}
		g.line("var %s %s", v.name, t)
		g.line("%s = %s", v.name, e)
	default:
		g.line("%s := %s(%s)", v.name, t, e)
	}
	g.vars = append(g.vars, v)
	return v
}

func (g *gen) pick(n int) int { return g.r.IntN(n) }
func (g *gen) chance(percent int) bool {
	return g.r.IntN(100) < percent
}

func (g *gen) anyType() string {
	if g.chance(25) {
		return floatTypes[g.pick(len(floatTypes))]
	}
	return intTypes[g.pick(len(intTypes))]
}

// varOf returns a variable of type t in scope, or nil.
func (g *gen) varOf(t string, assignable bool) *gvar {
	var c []*gvar
	for _, v := range g.vars {
		if v.t == t && !v.hidden && !(assignable && v.frozen) {
			c = append(c, v)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return c[g.pick(len(c))]
}

func (g *gen) anyVar(assignable bool) *gvar {
	var c []*gvar
	for _, v := range g.vars {
		if !v.hidden && !(assignable && v.frozen) {
			c = append(c, v)
		}
	}
	return c[g.pick(len(c))]
}

// body writes the kernel's statements and returns them.
func (g *gen) body(p *Program, nt int) string {
	g.ind = 1
	if g.twoD {
		g.line("tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y")
		g.line("bx, by := t.BlockDim().X, t.BlockDim().Y")
		g.line("nt := bx * by")
		g.line("tid := ty*bx + tx")
	} else {
		g.line("tid := t.ThreadIdx().X")
		g.line("nt := t.BlockDim().X")
	}
	g.line("bid := t.BlockIdx().X")
	g.line("gi := bid*nt + tid")
	g.line("_, _ = p, gi")
	if g.twoD {
		g.line("_, _, _, _ = tx, ty, bx, by")
	}
	// Shared arrays, each slot written by its thread before the first
	// barrier, so that every slot read later holds a value of this block.
	ns := 1 + g.pick(2)
	for i := 0; i < ns; i++ {
		s := &sharedArr{name: fmt.Sprintf("s%d", i), t: g.anyType()}
		g.line("%s := cuda.SharedArray[%s](t, %d)", s.name, s.t, nt)
		g.shared = append(g.shared, s)
	}
	if g.twoD && g.chance(70) {
		s := &sharedArr{name: "m0", t: g.anyType(), twoD: true}
		g.line("%s := cuda.SharedArray2[%s](t, %d, %d)", s.name, s.t, p.BlockY, p.BlockX)
		g.shared = append(g.shared, s)
	}
	// Inputs.
	a := g.newVar("int32", "0")
	g.line("if gi < len(in) {")
	g.line("\t%s = in[gi]", a.name)
	g.line("}")
	f := g.newVar("float32", "0.5")
	g.line("if gi < len(fin) {")
	g.line("\t%s = fin[gi]", f.name)
	g.line("}")
	for i := 0; i < 2+g.pick(3); i++ {
		t := g.anyType()
		g.newVar(t, g.expr(t, 2))
	}
	for _, s := range g.shared {
		g.sharedWrite(s)
	}
	g.barrier()
	for g.budget > 0 {
		g.blockStmt()
	}
	g.outputs()
	return g.w.String()
}

// outputs writes every variable in scope into the thread's slots.
func (g *gen) outputs() { g.outputVars(g.vars) }

func (g *gen) outputVars(vars []*gvar) {
	for _, v := range vars {
		if v.hidden {
			continue
		}
		if isFloat(v.t) {
			g.line("fout[gi*FS+%d] = float64(%s)", v.slot, v.name)
		} else {
			g.line("out[gi*S+%d] = int64(%s)", v.slot, v.name)
		}
	}
}

// barrier writes SyncThreads.
func (g *gen) barrier() {
	g.line("t.SyncThreads()")
	g.synced()
}

// synced records a barrier: every shared array may be written and read.
func (g *gen) synced() {
	g.barriers++
	for _, s := range g.shared {
		s.written, s.readOthers = false, false
	}
}

func (g *gen) dirty() bool {
	for _, s := range g.shared {
		if s.written || s.readOthers {
			return true
		}
	}
	return false
}

// blockStmt writes one statement at a block-uniform point: barriers, warp
// operations and uniform control flow may go here.
func (g *gen) blockStmt() {
	g.budget--
	deep := g.depth >= 2 || g.budget < 4
	switch k := g.pick(100); {
	case k < 30:
		g.threadStmt(0)
	case k < 40:
		g.barrier()
	case k < 48:
		g.reduceStmt()
	case k < 58:
		g.warpStmt()
	case k < 64:
		g.treeStep()
	case k < 68 && g.returns < 2:
		g.earlyReturn()
	case k < 80 && !deep:
		g.uniformLoop()
	case k < 86 && !deep:
		g.uniformIf()
	case k < 90 && !deep:
		g.reduceLoop()
	case k < 93 && !deep:
		g.warpReduce()
	case k < 94:
		g.uniformVar()
	case k < 96:
		g.uniformShape()
	case k < 98:
		g.divergentWarp() // gen_divergent.go
	case k < 99:
		g.warpExchange()
	default:
		g.threadStmt(0)
	}
}

// block writes a block-level body of about n statements.
func (g *gen) block(n int) {
	for i := 0; i < n && g.budget > 0; i++ {
		g.blockStmt()
	}
}

// threadStmt writes a statement that involves no other thread: an
// assignment, a new variable, a thread-dependent if or loop, a shared
// write at the thread's slot or a read of other slots.
func (g *gen) threadStmt(depth int) {
	switch k := g.pick(100); {
	case k < 30:
		v := g.varOf(g.anyType(), true)
		if v == nil {
			v = g.anyVar(true)
		}
		ops := []string{"=", "+=", "-=", "^=", "|=", "&="}
		if isFloat(v.t) {
			ops = ops[:3]
		}
		g.line("%s %s %s", v.name, ops[g.pick(len(ops))], g.expr(v.t, 2))
	case k < 34:
		v := g.anyVar(true)
		if w := g.varOf(v.t, true); w != nil && w != v && g.chance(50) {
			g.line("%s, %s = %s, %s", v.name, w.name, w.name, v.name)
		} else {
			g.line("%s%s", v.name, []string{"++", "--"}[g.pick(2)])
		}
	case k < 40 && depth == 0:
		t := g.anyType()
		g.newVar(t, g.expr(t, 2))
	case k < 55 && depth < 2:
		g.line("if %s {", g.cond())
		g.open()
		for i := 0; i < 1+g.pick(3); i++ {
			g.threadStmt(depth + 1)
		}
		g.close()
		if g.chance(40) {
			g.line("} else {")
			g.open()
			g.threadStmt(depth + 1)
			g.close()
		}
		g.line("}")
	case k < 58 && depth < 2:
		v := g.anyVar(false)
		x := v.name
		if isFloat(v.t) {
			x = "tid"
		}
		g.line("switch %s & 3 {", x)
		for c := 0; c < 2; c++ {
			g.line("case %d:", c)
			g.open()
			g.threadStmt(depth + 1)
			if g.chance(30) {
				g.line("if %s {", g.cond())
				g.line("\tbreak")
				g.line("}")
				g.threadStmt(depth + 1)
			}
			g.close()
		}
		g.line("default:")
		g.open()
		if g.returns < 3 && g.chance(20) {
			g.returns++
			g.outputs()
			g.line("return")
		} else {
			g.threadStmt(depth + 1)
		}
		g.close()
		g.line("}")
	case k < 62 && depth < 2:
		j := g.fresh("j")
		bound := "tid&3"
		if src := g.varOf("int32", false); src != nil {
			bound = fmt.Sprintf("int(%s&3)", src.name)
		}
		g.line("for %s := 0; %s < %s; %s++ {", j, j, bound, j)
		g.open()
		v := g.varOf(g.anyType(), true)
		if v == nil {
			v = g.anyVar(true)
		}
		g.line("%s += %s(%s) %s", v.name, v.t, j, map[bool]string{true: "* 0.5", false: "* 3"}[isFloat(v.t)])
		if g.chance(50) {
			g.threadStmt(depth + 1)
		}
		if g.chance(20) {
			g.line("if %s {", g.cond())
			g.line("\t%s", []string{"break", "continue"}[g.pick(2)])
			g.line("}")
			g.threadStmt(depth + 1)
		}
		if g.returns < 3 && g.chance(15) {
			g.returns++
			g.line("if %s {", g.cond())
			g.open()
			g.outputs()
			g.line("return")
			g.close()
			g.line("}")
		}
		g.close()
		g.line("}")
	case k < 80:
		if s := g.writable(); s != nil {
			g.sharedWrite(s)
			return
		}
		g.threadStmt(depth)
	default:
		if s := g.readable(); s != nil {
			g.sharedRead(s)
			return
		}
		g.threadStmt(depth)
	}
}

func (g *gen) writable() *sharedArr {
	var c []*sharedArr
	for _, s := range g.shared {
		if !s.readOthers {
			c = append(c, s)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return c[g.pick(len(c))]
}

func (g *gen) readable() *sharedArr {
	var c []*sharedArr
	for _, s := range g.shared {
		if !s.written {
			c = append(c, s)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return c[g.pick(len(c))]
}

// sharedWrite writes the thread's own slot of s.
func (g *gen) sharedWrite(s *sharedArr) {
	s.written = true
	if s.twoD {
		g.line("%s.Set(ty, tx, %s)", s.name, g.expr(s.t, 2))
		return
	}
	g.line("%s[tid] = %s", s.name, g.expr(s.t, 2))
}

// sharedRead adds a value of another thread's slot of s to a variable.
func (g *gen) sharedRead(s *sharedArr) {
	s.readOthers = true
	var at string
	if s.twoD {
		rows := []string{"ty", "(ty+1)%by", "by-1-ty", fmt.Sprintf("(ty+%d)%%by", 1+g.pick(5))}
		cols := []string{"tx", "(tx+1)%bx", "bx-1-tx", fmt.Sprintf("(tx^%d)%%bx", 1+g.pick(15))}
		at = fmt.Sprintf("%s.At(%s, %s)", s.name, rows[g.pick(len(rows))], cols[g.pick(len(cols))])
	} else {
		idx := []string{
			fmt.Sprintf("(tid+%d)%%nt", 1+g.pick(40)),
			"nt-1-tid",
			fmt.Sprintf("(tid^%d)%%nt", 1+g.pick(63)),
			"(tid+nt-1)%nt",
		}
		if iv := g.varOf("int", false); iv != nil {
			idx = append(idx, fmt.Sprintf("(%s&0x7fff)%%nt", iv.name))
		}
		if len(g.uvars) > 0 {
			idx = append(idx, fmt.Sprintf("(tid+%s)%%nt", g.uvars[g.pick(len(g.uvars))]))
		}
		at = fmt.Sprintf("%s[%s]", s.name, idx[g.pick(len(idx))])
	}
	v := g.varOf(s.t, true)
	if v == nil || g.chance(30) {
		g.newVar(s.t, at)
		return
	}
	if isFloat(s.t) {
		g.line("%s += %s", v.name, at)
	} else {
		g.line("%s ^= %s", v.name, at)
	}
}

// cond is a thread-dependent condition.
func (g *gen) cond() string {
	t := g.anyType()
	switch g.pick(4) {
	case 0:
		return fmt.Sprintf("%s&%d == 0", g.atom(intTypes[g.pick(len(intTypes))]), 1+g.pick(7))
	case 1:
		return fmt.Sprintf("tid%%%d == %d", 2+g.pick(5), g.pick(2))
	}
	return fmt.Sprintf("%s < %s", g.expr(t, 1), g.expr(t, 1))
}

// atom is a variable, constant or thread position of type t.
func (g *gen) atom(t string) string {
	switch k := g.pick(10); {
	case k < 5:
		if v := g.varOf(t, false); v != nil {
			return v.name
		}
	case k < 7:
		return g.constant(t)
	case k < 8:
		pos := []string{"tid", "gi", "bid", "nt"}
		if g.twoD {
			pos = append(pos, "tx", "ty")
		}
		pos = append(pos, g.uvars...)
		return fmt.Sprintf("%s(%s)", t, pos[g.pick(len(pos))])
	}
	v := g.anyVar(false)
	if isFloat(t) || !isFloat(v.t) {
		return fmt.Sprintf("%s(%s)", t, v.name)
	}
	return g.constant(t)
}

// isConst reports whether an atom is a constant.
func isConst(a string) bool {
	i := strings.IndexByte(a, '(')
	return i >= 0 && len(a) > i+1 && (a[i+1] == '-' || a[i+1] >= '0' && a[i+1] <= '9')
}

func (g *gen) constant(t string) string {
	if isFloat(t) {
		c := []string{"0.5", "1.25", "-3", "2", "0.375", "-0.75", "100"}
		return fmt.Sprintf("%s(%s)", t, c[g.pick(len(c))])
	}
	if isUnsigned(t) && g.chance(20) {
		return t + "(2654435761)"
	}
	n := g.pick(1000)
	if !isUnsigned(t) && g.chance(30) {
		n = -n
	}
	return fmt.Sprintf("%s(%d)", t, n)
}

// expr is an expression of type t of about depth levels.
func (g *gen) expr(t string, depth int) string { return g.exprC(t, depth, true) }

// exprC is expr; a constant is allowed only if canConst. The left operand
// of every operator is not constant, so that no constant expression
// overflows its type (a compile error).
func (g *gen) exprC(t string, depth int, canConst bool) string {
	if depth == 0 || g.chance(30) {
		for {
			a := g.atom(t)
			if canConst || !isConst(a) {
				return a
			}
		}
	}
	a, b := g.exprC(t, depth-1, false), g.exprC(t, depth-1, true)
	if isFloat(t) {
		switch g.pick(3) {
		case 0:
			return fmt.Sprintf("(%s + %s)", a, b)
		case 1:
			return fmt.Sprintf("(%s - %s)", a, b)
		}
		// An explicit conversion rounds the product, so that no backend
		// may fuse it with an addition.
		return fmt.Sprintf("%s(%s * %s)", t, a, b)
	}
	switch g.pick(10) {
	case 0:
		return fmt.Sprintf("(%s << %d)", a, g.pick(9))
	case 1:
		return fmt.Sprintf("(%s >> %d)", a, g.pick(9))
	case 2:
		return fmt.Sprintf("(%s %% %d)", a, 1+g.pick(13))
	case 3:
		return fmt.Sprintf("(%s / %d)", a, 1+g.pick(13))
	}
	ops := []string{"+", "-", "*", "^", "&", "|"}
	return fmt.Sprintf("(%s %s %s)", a, ops[g.pick(len(ops))], b)
}

// reduceStmt writes a SyncThreadsCount, And or Or (a barrier) whose result
// feeds a variable, or guards a block-level if.
func (g *gen) reduceStmt() {
	switch g.pick(4) {
	case 0:
		v := g.varOf(intTypes[g.pick(len(intTypes))], true)
		if v == nil {
			v = g.newVar("int", "1")
		}
		g.line("%s += %s(t.SyncThreadsCount(%s))", v.name, v.t, g.cond())
		g.synced()
	case 1:
		name := g.fresh("c")
		g.line("%s := t.SyncThreadsCount(%s)", name, g.cond())
		g.synced()
		g.newVar("int", name)
		g.uvars = append(g.uvars, name) // the count is the same in every thread
	case 2:
		name := g.fresh("b")
		fn := []string{"And", "Or"}[g.pick(2)]
		g.line("%s := t.SyncThreads%s(%s)", name, fn, g.cond())
		g.synced()
		if g.depth < 2 && g.budget >= 3 && g.chance(50) {
			// The result is the same in every thread: barriers may sit
			// under it.
			g.line("if %s {", name)
			g.branches()
			return
		}
		v := g.anyVar(true)
		g.line("if %s {", name)
		g.line("\t%s = %s", v.name, g.expr(v.t, 1))
		g.line("}")
	default:
		if g.depth >= 2 || g.budget < 3 {
			g.line("_ = t.SyncThreadsOr(%s)", g.cond())
			g.synced()
			return
		}
		fn := []string{"And", "Or"}[g.pick(2)]
		g.line("if t.SyncThreads%s(%s) {", fn, g.cond())
		g.synced()
		g.branches()
	}
}

// warpStmt writes a shuffle or vote at a block-uniform point.
func (g *gen) warpStmt() {
	switch g.pick(6) {
	case 0, 1, 2, 3:
		v := g.anyVar(true)
		call := g.shflCall(v)
		switch k := g.pick(10); {
		case k < 2:
			// Two exchanges in one statement.
			op := "^"
			if isFloat(v.t) {
				op = "+"
			}
			g.line("%s = %s %s %s", v.name, call, op, g.shflCall(v))
		case k < 4:
			g.newVar(v.t, call)
		case k < 7:
			g.line("%s = %s", v.name, call)
		case isFloat(v.t):
			g.line("%s += %s", v.name, call)
		default:
			g.line("%s ^= %s", v.name, call)
		}
	case 4:
		v := g.varOf("uint32", true)
		if v == nil {
			v = g.newVar("uint32", "0")
		}
		g.line("%s ^= cuda.BallotSync(t, %s)", v.name, g.cond())
	default:
		name := g.fresh("w")
		fn := []string{"Any", "All"}[g.pick(2)]
		g.line("%s := cuda.%sSync(t, %s)", name, fn, g.cond())
		v := g.anyVar(true)
		g.line("if %s {", name)
		g.line("\t%s = %s", v.name, g.expr(v.t, 1))
		g.line("}")
	}
}

// shflCall is a shuffle of a value of v's type: v, another variable or
// an expression.
func (g *gen) shflCall(v *gvar) string {
	src := v.name
	if w := g.varOf(v.t, false); w != nil && g.chance(40) {
		src = w.name
	} else if g.chance(30) {
		src = g.exprC(v.t, 1, false)
	}
	switch g.pick(4) {
	case 0:
		return fmt.Sprintf("cuda.ShflDownSync(t, %s, %d)", src, 1+g.pick(31))
	case 1:
		return fmt.Sprintf("cuda.ShflUpSync(t, %s, %d)", src, 1+g.pick(31))
	case 2:
		return fmt.Sprintf("cuda.ShflXorSync(t, %s, %d)", src, 1+g.pick(31))
	}
	lanes := []string{
		fmt.Sprintf("%d", g.pick(32)),
		"(tid+1)%32",
		fmt.Sprintf("int(%s&31)", g.atom("uint32")),
	}
	return fmt.Sprintf("cuda.ShflSync(t, %s, %s)", src, lanes[g.pick(len(lanes))])
}

// treeStep writes a region that is one if over the thread's index against
// a uniform bound (which the block loop narrows to the threads it holds
// for), between two barriers.
func (g *gen) treeStep() {
	if g.dirty() {
		g.barrier()
	}
	x := "tid"
	if g.twoD {
		x = "tx"
	}
	bounds := []string{"nt/2", fmt.Sprintf("%d", g.pick(70)), "p", "bid"}
	bounds = append(bounds, g.uvars...)
	u := bounds[g.pick(len(bounds))]
	ops := []string{"<", "<=", "==", ">", ">="}
	op := ops[g.pick(len(ops))]
	if g.chance(30) {
		g.line("if %s %s %s {", u, map[string]string{"<": ">", "<=": ">=", "==": "==", ">": "<", ">=": "<="}[op], x)
	} else {
		g.line("if %s %s %s {", x, op, u)
	}
	g.open()
	var s *sharedArr
	for _, c := range g.shared {
		if !c.twoD {
			s = c
		}
	}
	if op == "<" && x == "tid" && s != nil && g.chance(60) {
		// The reduction's step: threads below u add the slot u above theirs.
		g.line("if tid+%s < nt {", u)
		g.line("\t%s[tid] += %s[tid+%s]", s.name, s.name, u)
		g.line("}")
		s.written, s.readOthers = true, true
	} else {
		for i := 0; i < 1+g.pick(3); i++ {
			g.threadStmt(1)
		}
	}
	g.close()
	g.line("}")
	g.barrier()
}

// earlyReturn writes an if in which some threads write their values and
// return; they no longer take part in barriers.
func (g *gen) earlyReturn() {
	g.returns++
	conds := []string{"gi >= len(in)", g.cond(), fmt.Sprintf("tid == %d", g.pick(40)), fmt.Sprintf("tid%%%d == 1", 3+g.pick(5))}
	g.line("if %s {", conds[g.pick(len(conds))])
	g.open()
	g.outputs()
	g.line("return")
	g.close()
	g.line("}")
}

// loopHeader opens a block-uniform loop and returns its counter.
func (g *gen) loopHeader() string {
	i := g.fresh("i")
	switch g.pick(7) {
	case 0:
		g.line("for %s := 0; %s < %d; %s++ {", i, i, 1+g.pick(4), i)
	case 1:
		g.line("for %s := range %d {", i, 1+g.pick(3))
		g.line("\t_ = %s", i)
	case 2:
		g.line("for %s := 0; %s < p; %s++ {", i, i, i)
	case 3:
		g.line("for %s := nt / 2; %s > 0; %s >>= 1 {", i, i, i)
	case 4:
		g.line("for %s := bid %% 2; %s < 3; %s++ {", i, i, i)
	case 5:
		if len(g.uvars) > 0 {
			u := g.uvars[g.pick(len(g.uvars))]
			if g.chance(50) {
				g.line("for %s := range %s %% 3 {", i, u)
				g.line("\t_ = %s", i)
			} else {
				g.line("for %s := 0; %s < %s%%3; %s++ {", i, i, u, i)
			}
			break
		}
		fallthrough
	default:
		g.line("for %s := 1; %s < nt; %s *= 2 {", i, i, i)
	}
	return i
}

// uniformLoop writes a loop the same in every thread with barriers in it.
func (g *gen) uniformLoop() {
	if g.dirty() {
		g.barrier()
	}
	lab := g.openLabel() // gen_locals.go
	i := g.loopHeader()
	g.depth++
	g.open()
	g.uvars = append(g.uvars, i)
	saved := g.barriers
	g.barriers = 0
	g.uloops++
	g.block(2 + g.pick(4))
	g.labeledExit() // gen_locals.go
	g.uloops--
	if g.barriers == 0 || g.dirty() {
		g.barrier()
	}
	g.barriers = saved + 1
	g.close()
	g.depth--
	g.line("}")
	g.closeLabel(lab)
}

// uniformIf writes an if the same in every thread with block-level
// statements in its branches.
func (g *gen) uniformIf() {
	conds := []string{"bid%2 == 0", "p > 1", fmt.Sprintf("nt > %d", g.pick(100)), "bid == 0"}
	for _, u := range g.uvars {
		conds = append(conds, fmt.Sprintf("%s%%2 == 1", u))
	}
	g.line("if %s {", conds[g.pick(len(conds))])
	g.branches()
}

// branches writes the two block-level branches of an if whose header is
// written, and its closing brace. The shared arrays' states merge.
func (g *gen) branches() {
	type st struct{ w, r bool }
	before := make([]st, len(g.shared))
	for i, s := range g.shared {
		before[i] = st{s.written, s.readOthers}
	}
	g.depth++
	g.inBranch++
	defer func() { g.inBranch-- }()
	g.open()
	g.block(1 + g.pick(3))
	if g.chance(8) {
		// The whole block returns (the condition is uniform).
		g.outputs()
		g.line("return")
		g.endScope()
	} else {
		g.close()
	}
	after := make([]st, len(g.shared))
	for i, s := range g.shared {
		after[i] = st{s.written, s.readOthers}
		s.written, s.readOthers = before[i].w, before[i].r
	}
	if g.chance(50) {
		g.line("} else {")
		g.open()
		g.block(1 + g.pick(2))
		g.close()
	}
	for i, s := range g.shared {
		s.written = s.written || after[i].w
		s.readOthers = s.readOthers || after[i].r
	}
	g.depth--
	g.line("}")
}

// reduceLoop writes a loop whose condition is a reducing barrier.
func (g *gen) reduceLoop() {
	if g.pick(2) == 0 {
		w := g.newVar("uint32", fmt.Sprintf("%s & 7", g.expr("uint32", 1)))
		w.frozen = true
		g.line("for t.SyncThreadsOr(%s != 0) {", w.name)
		g.synced()
		g.depth++
		g.open()
		g.line("%s >>= 1", w.name)
		g.block(1 + g.pick(3))
		g.close()
		g.depth--
		g.line("}")
		w.frozen = false
	} else {
		i := g.fresh("i")
		// (The reducing barrier on the left: nugo gen refuses one on the
		// right of &&, which not every thread might evaluate.)
		g.line("for %s := 0; t.SyncThreadsAnd(%s) && %s < %d; %s++ {", i, g.cond(), i, 1+g.pick(3), i)
		g.synced()
		g.depth++
		g.open()
		g.uvars = append(g.uvars, i)
		g.block(1 + g.pick(3))
		g.close()
		g.depth--
		g.line("}")
	}
	// The condition's barrier ends each iteration and the loop.
}

// warpExchange writes the thread's slot of a shared array, waits for its
// warp (SyncWarp) and reads a slot of the same warp.
func (g *gen) warpExchange() {
	var s *sharedArr
	for _, c := range g.shared {
		if !c.twoD {
			s = c
		}
	}
	if g.dirty() {
		g.barrier()
	}
	g.sharedWrite(s)
	g.line("t.SyncWarp()")
	v := g.varOf(s.t, true)
	if v == nil {
		v = g.newVar(s.t, "1")
	}
	op := "^="
	if isFloat(s.t) {
		op = "+="
	}
	g.line("if j := tid ^ %d; j < nt {", 1+g.pick(31))
	g.line("\t%s %s %s[j]", v.name, op, s.name)
	g.line("}")
	g.line("t.SyncWarp()")
	s.written, s.readOthers = true, true
}

// uniformVar declares or updates a variable the same in every thread
// (from the block's shape, p, the loop counters and other such
// variables), which later loops and ifs around barriers may use.
func (g *gen) uniformVar() {
	if g.chance(30) && g.localsShape() { // gen_locals.go
		return
	}
	u := []string{"p", "nt", "bid", "nt / 2", "p * 3"}
	u = append(u, g.uvars...)
	e := fmt.Sprintf("%s + %s", u[g.pick(len(u))], u[g.pick(len(u))])
	if g.chance(40) {
		e = fmt.Sprintf("(%s) %% %d", e, 2+g.pick(5))
	}
	// (Not in an if's branch once a thread may have returned: an if
	// that returns in some threads is not promoted, so the update would
	// make the variable a thread's.)
	if len(g.uvars) > 0 && g.chance(30) && (g.inBranch == 0 || g.returns == 0) {
		// Update an existing one; only those declared at this depth or
		// outside, which are all in scope.
		x := g.uvars[g.pick(len(g.uvars))]
		if strings.HasPrefix(x, "u") {
			// In an if without barriers that also does a thread's work,
			// the if becomes one around loops over the threads
			// (promoteIfs, fission_uniform.go).
			g.line("%s = %s", x, e)
			return
		}
	}
	name := g.fresh("u")
	g.line("%s := %s", name, e)
	g.line("_ = %s", name)
	g.uvars = append(g.uvars, name)
}

// warpReduce writes the shuffle tree of a warp reduction.
func (g *gen) warpReduce() {
	v := g.anyVar(true)
	i := g.fresh("d")
	fn := []string{"ShflDownSync", "ShflXorSync"}[g.pick(2)]
	g.line("for %s := 16; %s > 0; %s >>= 1 {", i, i, i)
	if isFloat(v.t) {
		g.line("\t%s += cuda.%s(t, %s, %s)", v.name, fn, v.name, i)
	} else {
		g.line("\t%s ^= cuda.%s(t, %s, %s)", v.name, fn, v.name, i)
	}
	g.line("}")
}
