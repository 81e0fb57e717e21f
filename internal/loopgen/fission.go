package loopgen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// Barrier fission: a kernel that synchronises its block (SyncThreads, its
// reducing forms, warp operations) gets a block loop (cuda.BlockLoop)
// instead of a row loop. The kernel's body is cut at its barriers into
// regions; each region becomes a loop over the block's threads, and the
// barriers become the points between those loops. Statements whose value
// every thread of the block shares (block-uniform: built from constants,
// the kernel's parameters, BlockIdx, BlockDim, GridDim and shared arrays)
// run once per block outside the loops, so loops around barriers (the
// reduction's `for s := ...; s >>= 1`) and ifs around them stay plain Go
// loops and ifs around the per-thread loops. A variable of one thread that
// lives across a barrier is either recomputed at the start of each region
// that uses it, when its value is a function of the thread's position
// (tid := t.ThreadIdx().X), or kept in a per-thread array, loaded into the
// variable at the start of the region and stored back at its end. Warp
// operations gather their operands into per-thread arrays in one region,
// exchange them over each warp's 32 lanes (cuda.BlockShuffle and friends),
// and the next region reads the results; SyncThreadsCount, And and Or fold
// their predicates while the region before them runs.
//
// The technique is that of PoCL's work-group loops, COX's warp loops and
// Polygeist's barrier lowering, done on Go source: the generated file is
// ordinary Go, so the Go compiler inlines and optimises it, -race sees it,
// and a panic names the thread that raised it.
//
// A kernel whose barriers are not all in block-uniform control flow (which
// is undefined behaviour on GPUs), or that uses constructs the transform
// leaves alone, keeps its row loop and the goroutine path at its first
// barrier; Result.Unfissioned says why, and `nugo gen -v` prints it.

// collKind classifies calls that involve other threads of the block.
type collKind int

const (
	collNone    collKind = iota
	collBarrier          // SyncThreads, SyncWarp
	collReduce           // SyncThreadsCount, SyncThreadsAnd, SyncThreadsOr
	collShuffle          // ShflSync, ShflDownSync, ShflUpSync, ShflXorSync
	collVote             // BallotSync, AnySync, AllSync, ActiveMask
	collMasked           // the Mask forms, UniSync, MatchAnySync, MatchAllSync, t.SyncWarpMask (fission_warp.go)
	collGrid             // SyncGrid: a grid phase boundary (gridphase.go)
	collOther            // not transformed
)

// callee returns the function or method a call calls, or nil for calls of
// func values, conversions and builtins.
func (g *generator) callee(call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id == nil {
		return nil
	}
	fn, _ := g.pkg.TypesInfo.Uses[id].(*types.Func)
	return fn
}

// collective classifies a call.
func (g *generator) collective(call *ast.CallExpr) (collKind, string) {
	fn := g.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != cudaPath {
		return collNone, ""
	}
	name := fn.Name()
	if fn.Type().(*types.Signature).Recv() != nil {
		switch name {
		case "SyncThreads", "SyncWarp":
			return collBarrier, name
		case "SyncThreadsCount", "SyncThreadsAnd", "SyncThreadsOr":
			return collReduce, name
		case "SyncGrid":
			return collGrid, name
		case "SyncWarpMask":
			return collMasked, name
		}
		return collNone, ""
	}
	switch name {
	case "ShflSync", "ShflDownSync", "ShflUpSync", "ShflXorSync":
		return collShuffle, name
	case "BallotSync", "AnySync", "AllSync", "ActiveMask":
		return collVote, name
	case "MatchAnySync", "MatchAllSync", "UniSync":
		return collMasked, name
	}
	if strings.HasSuffix(name, "SyncMask") {
		// Reached by every live lane together (block-uniform control
		// flow), an operation with member masks is exact in a block loop:
		// each lane's result is over the lanes of its mask (under a
		// thread-dependent condition, over those of its side:
		// fission_divergent.go).
		return collMasked, name
	}
	return collNone, ""
}

// syncingFuncs returns the package's functions that, directly or through
// the package's other functions, involve other threads of the block.
func (g *generator) syncingFuncs() map[*types.Func]bool {
	if g.syncing != nil {
		return g.syncing
	}
	decls := g.packageFuncs()
	state := map[*types.Func]int{} // 1 visiting, 2 no, 3 yes
	var visit func(fn *types.Func) bool
	visit = func(fn *types.Func) bool {
		switch state[fn] {
		case 1, 2:
			return false
		case 3:
			return true
		}
		state[fn] = 1
		found := false
		ast.Inspect(decls[fn].Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || found {
				return !found
			}
			if k, _ := g.collective(call); k != collNone {
				found = true
			} else if c := g.callee(call); c != nil && decls[c.Origin()] != nil && visit(c.Origin()) {
				found = true
			}
			return !found
		})
		state[fn] = 2
		if found {
			state[fn] = 3
		}
		return found
	}
	g.syncing = map[*types.Func]bool{}
	for fn := range decls {
		if visit(fn) {
			g.syncing[fn] = true
		}
	}
	return g.syncing
}

// needsFission reports whether a kernel involves other threads of its
// block, directly or through a function of the package.
func (g *generator) needsFission(fd *ast.FuncDecl) bool {
	fn, _ := g.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
	return fn != nil && g.syncingFuncs()[fn]
}

// errFission is why a kernel cannot be transformed.
type errFission struct{ msg string }

func (e *errFission) Error() string { return e.msg }

// piece is one statement of a region: a statement of the kernel, or
// generated text in which each %s stands for one of exprs, printed.
type piece struct {
	stmt  ast.Stmt
	text  string
	exprs []ast.Expr
	shfl  *shuffleOp // gathers a shuffle's operands
}

// shuffleOp is one warp shuffle of a block loop: its operands are
// gathered into the per-thread arrays vals and lanes, then exchanged into
// out. Where the value is already a per-thread array (a variable living
// across barriers), the exchange reads that array (valArray); where the
// lane is uniform, it is passed as one number (laneConst).
type shuffleOp struct {
	kind             string
	vals, lanes, out string
	val, lane        ast.Expr
	valArray         string
	laneConst        bool
}

// region is a run of statements between barriers, run as one loop over the
// block's threads. prelude is block-uniform code run once before the loop.
type region struct {
	id      int
	prelude []piece
	pieces  []piece
	// returns is whether a return statement sits among the pieces.
	returns bool
	// label names the loop when a return becomes a continue.
	label string
}

// node is an element of a block-level statement list.
type node interface{}

// blockNode is a block statement around barriers.
type blockNode struct{ body []node }

// fissioner transforms one kernel.
type fissioner struct {
	g       *generator
	fd      *ast.FuncDecl
	info    *types.Info
	thread  *types.Var // the Thread parameter, nil if unnamed
	tname   string     // its name in the generated code
	params  map[*types.Var]bool
	local   map[*types.Var]bool // variables declared in the body
	assigns map[*types.Var][]ast.Node
	addr    map[*types.Var]bool
	block   map[ast.Node]bool // statements of block-level lists, loop headers
	uniform map[*types.Var]bool
	single  map[*types.Var]bool // assigned once, by its declaration
	// promoted are the ifs without barriers taken for ifs around them
	// (fission_uniform.go).
	promoted map[ast.Stmt]bool
	// rematVars are the variables whose value is a function of the
	// thread's position: recomputed in each region that reads them.
	rematVars map[*types.Var]bool
	taken     map[string]bool // names used in the kernel or the package scope
	// sharedReads are the reads of shared memory every thread of the
	// block makes alike (fission_sharedread.go): uniform values.
	sharedReads map[*ast.IndexExpr]bool

	regions  []*region
	shuffles []*shuffleOp
	scratch  []scratchVar // per-worker slices
	// shared are the kernel's top-level SharedArray declarations, made
	// from a per-worker buffer (cuda.BlockShared), with that buffer.
	shared     map[ast.Stmt]scratchVar
	sharedBufs []scratchVar
	// fused are the shuffles computed in place (fission_warp.go).
	fused     map[*textNode]*fusion
	depth     int    // of the block-level list being transformed
	gridSyncs int    // SyncGrid calls, each a grid phase boundary (gridphase.go)
	hash      string // the kernel declaration's fingerprint
	exited    string // name of the exited flags
	ti        string // the thread loop's index
	blk       string // the *cuda.Block
	n         string // the block's size
	cuda      string // cuda's import name
	flat, x0  string // whether the block is flat, its first thread's grid x
	// flatMode is set while a region's loop for flat blocks is written
	// (see flatten).
	flatMode bool
	// gridMode is set while a region's loop for blocks of two or three
	// dimensions that carries the thread's position (tx, ty, tz) is
	// written (see flatten).
	gridMode        bool
	tx, ty, tz, dim string
	// restricted are the regions whose flat loop visits only their
	// leading threads, with that number (fission_demand.go).
	restricted map[*region]int

	// loopLabels are the labels of loops around barriers, labelOf each
	// such loop's (fission_labels.go).
	loopLabels map[string]bool
	labelOf    map[ast.Stmt]string

	inlined []string  // the helpers inlined into the kernel (inline.go)
	div     *divState // divergent ifs (fission_divergent.go)
}

type scratchVar struct {
	name string
	typ  types.Type
}

func (f *fissioner) fail(pos token.Pos, format string, args ...any) {
	p := f.g.pkg.Fset.Position(pos)
	panic(&errFission{fmt.Sprintf("%s:%d:%d: %s", shortFile(p.Filename), p.Line, p.Column, fmt.Sprintf(format, args...))})
}

func shortFile(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// name returns a fresh name for generated code.
func (f *fissioner) name(base string) string {
	n := base
	for i := 2; f.taken[n]; i++ {
		n = base + strconv.Itoa(i)
	}
	f.taken[n] = true
	return n
}

// fission returns the block loop registration of kernel fd, or why it
// cannot be written.
func (g *generator) fission(fd *ast.FuncDecl) (src string, why string) {
	return g.fissionAs(fd, nil)
}

// fissionAs is fission for kernel fd or, when inst is not nil, for that
// instantiation of the generic kernel fd (inline.go).
func (g *generator) fissionAs(fd *ast.FuncDecl, inst *instance) (src string, why string) {
	src, why = g.fissionPromote(fd, inst, false)
	if why != "" {
		// With its redefined variables split (fission_locals.go), a
		// refused kernel may be transformed; if not, the first reason
		// stands.
		if s, w := g.fissionPromote(fd, inst, true); w == "" {
			return s, ""
		}
	}
	return src, why
}

// fissionPromote is fissionAs, splitting redefined variables if split.
func (g *generator) fissionPromote(fd *ast.FuncDecl, inst *instance, split bool) (src string, why string) {
	src, why, promoted := g.fissionTry(fd, inst, true, split)
	if why != "" && promoted {
		// The ifs promoted to split regions (fission_uniform.go) may have
		// made a variable live across the split that cannot be; the
		// kernel as it was may still be transformed.
		src, why, _ = g.fissionTry(fd, inst, false, split)
	}
	return src, why
}

// fissionTry is fissionAs, promoting ifs (promoteIfs) if promote and
// splitting redefined variables (splitDefs) if split; it reports whether
// it promoted any.
func (g *generator) fissionTry(fd *ast.FuncDecl, inst *instance, promote, split bool) (src string, why string, promoted bool) {
	f := &fissioner{
		g: g, fd: fd, info: g.pkg.TypesInfo,
		params: map[*types.Var]bool{}, local: map[*types.Var]bool{},
		assigns: map[*types.Var][]ast.Node{}, addr: map[*types.Var]bool{},
		block: map[ast.Node]bool{}, uniform: map[*types.Var]bool{}, single: map[*types.Var]bool{},
		taken: map[string]bool{}, shared: map[ast.Stmt]scratchVar{}, promoted: map[ast.Stmt]bool{},
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*errFission)
			if !ok {
				panic(r)
			}
			src, why, promoted = "", e.msg, len(f.promoted) > 0
		}
	}()
	sig := g.signature(fd)
	if sig.TypeParams().Len() > 0 && inst == nil {
		return "", "generic kernels get block loops only for the instantiations the package writes", false
	}
	// Synchronising helpers are inlined first (inline.go); the
	// fingerprint covers the declarations as written, the kernel's and
	// the inlined helpers', before the transform edits the syntax tree.
	ig, ifd, hash, inlined, why := g.inlined(fd, inst)
	if why != "" {
		return "", why, false
	}
	// Parameters the kernel assigns become local variables, and with
	// split, redefined variables are split (fission_locals.go).
	if ig, why = g.rewriteLocals(fd, ig, ifd, inst != nil, split); why != "" {
		return "", why, false
	}
	f.g, f.fd, f.info, f.hash, f.inlined = ig, ifd, ig.pkg.TypesInfo, hash, inlined
	f.check()
	f.switchesToIfs()
	f.unlabelLoops()
	f.fd.Body.List = f.splitTuples(f.fd.Body.List)
	f.ti, f.blk, f.n = f.name("nugoTi"), f.name("nugoB"), f.name("nugoN")
	f.flat, f.x0 = f.name("nugoFlat"), f.name("nugoX0")
	f.tx, f.ty, f.tz, f.dim = f.name("nugoTx"), f.name("nugoTy"), f.name("nugoTz"), f.name("nugoDim")
	f.census()
	f.findSharedReads()
	f.findUniform()
	for promote && f.promoteIfs() {
		f.uniform = map[*types.Var]bool{}
		f.findUniform()
	}
	f.findDivergent()
	body := f.list(f.fd.Body.List)
	return f.emit(body), "", len(f.promoted) > 0
}

// check rejects what the transform does not handle.
func (f *fissioner) check() {
	for _, n := range f.g.pkg.Types.Scope().Names() {
		f.taken[n] = true
	}
	for n := range f.g.names {
		f.taken[n] = true
	}
	for _, p := range f.fd.Type.Params.List {
		for _, id := range p.Names {
			if v, ok := f.info.Defs[id].(*types.Var); ok {
				f.params[v] = true
			}
		}
	}
	first := f.fd.Type.Params.List[0]
	if len(first.Names) > 0 && first.Names[0].Name != "_" {
		f.thread = f.info.Defs[first.Names[0]].(*types.Var)
	}
	syncing := f.g.syncingFuncs()
	ast.Inspect(f.fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			f.taken[n.Name] = true
			if v, ok := f.info.Defs[n].(*types.Var); ok && !f.params[v] {
				f.local[v] = true
			}
		case *ast.FuncLit:
			f.fail(n.Pos(), "a function literal in a synchronising kernel")
		case *ast.DeferStmt:
			f.fail(n.Pos(), "defer in a synchronising kernel")
		case *ast.GoStmt:
			f.fail(n.Pos(), "a go statement in a synchronising kernel")
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				f.fail(n.Pos(), "goto in a synchronising kernel")
			}
		case *ast.LabeledStmt:
			switch n.Stmt.(type) {
			case *ast.ForStmt, *ast.RangeStmt: // fission_labels.go
			default:
				if f.hasColl(n) {
					f.fail(n.Pos(), "a labeled statement around a barrier")
				}
			}
		case *ast.CallExpr:
			if k, name := f.g.collective(n); k == collOther {
				f.fail(n.Pos(), "%s is not transformed", name)
			} else if k == collNone {
				if c := f.g.callee(n); c != nil && syncing[c.Origin()] {
					f.fail(n.Pos(), "calls %s, which synchronises the block; only barriers in the kernel's own body are transformed", c.Name())
				}
				if c := f.g.callee(n); c != nil && c.Pkg() != nil && c.Pkg() != f.g.pkg.Types && c.Pkg().Path() != cudaPath {
					for _, a := range n.Args {
						if f.isThread(a) {
							f.fail(n.Pos(), "passes the Thread to %s.%s, which might synchronise", c.Pkg().Name(), c.Name())
						}
					}
				}
			}
		}
		return true
	})
}

// isThread reports whether e is the kernel's Thread parameter.
func (f *fissioner) isThread(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && f.thread != nil && f.info.Uses[id] == f.thread
}

// hasColl reports whether n contains a call involving other threads.
func (f *fissioner) hasColl(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			if k, _ := f.g.collective(call); k != collNone {
				found = true
			}
		}
		return !found
	})
	return found
}

// varOf returns the local variable or parameter an identifier denotes.
func (f *fissioner) varOf(id *ast.Ident) *types.Var {
	o := f.info.Defs[id]
	if o == nil {
		o = f.info.Uses[id]
	}
	v, _ := o.(*types.Var)
	if v == nil || !(f.local[v] || f.params[v]) {
		return nil
	}
	return v
}

// markBlock marks the statements of block-level lists: the body and the
// bodies of the statements around barriers.
func (f *fissioner) markBlock(list []ast.Stmt) {
	for _, s := range list {
		f.block[s] = true
		if !f.hasColl(s) && !f.promoted[s] {
			continue
		}
		switch s := s.(type) {
		case *ast.ForStmt:
			if s.Init != nil {
				f.block[s.Init] = true
			}
			if s.Post != nil {
				f.block[s.Post] = true
			}
			f.markBlock(s.Body.List)
		case *ast.RangeStmt:
			f.block[s] = true
			f.markBlock(s.Body.List)
		case *ast.IfStmt:
			if f.collOnlyInHead(s) && !f.promoted[s] {
				continue // a statement of one region (see list)
			}
			if s.Init != nil {
				f.block[s.Init] = true
			}
			f.markBlock(s.Body.List)
			switch e := s.Else.(type) {
			case *ast.BlockStmt:
				f.markBlock(e.List)
			case *ast.IfStmt:
				f.markBlock([]ast.Stmt{e})
			}
		case *ast.BlockStmt:
			f.markBlock(s.List)
		}
	}
}

// census records every assignment of every variable and every variable
// whose address is taken.
func (f *fissioner) census() {
	f.markBlock(f.fd.Body.List)
	record := func(e ast.Expr, at ast.Node) {
		if id, ok := f.valueRoot(e).(*ast.Ident); ok {
			if v := f.varOf(id); v != nil {
				f.assigns[v] = append(f.assigns[v], at)
			}
		}
	}
	eachWrite(f.fd.Body, f.info, func(x ast.Expr, kind writeKind, at ast.Node) {
		switch kind {
		case writeAssign, writeIncDec, writeDecl, writeRange:
			record(x, at)
			return
		}
		// Taking the address: &x, slicing an array variable, calling a
		// method with a pointer receiver on a variable (not on a pointer).
		id, ok := f.valueRoot(x).(*ast.Ident)
		if !ok {
			return
		}
		v := f.varOf(id)
		if v == nil {
			return
		}
		if _, ptrVar := v.Type().(*types.Pointer); kind != writeMethod || !ptrVar {
			f.addr[v] = true
		}
	})
	for v, as := range f.assigns {
		f.single[v] = len(as) == 1 && !f.addr[v]
	}
	for v := range f.params {
		if len(f.assigns[v]) == 0 && !f.addr[v] {
			f.single[v] = true
		}
	}
}

// findUniform computes the block-uniform variables: only ever assigned
// uniform values by block-level statements or inside block-level uniform
// compounds (fission_uniform.go), the greatest such set.
func (f *fissioner) findUniform() {
	// Assignments inside block-level compounds without barriers count
	// when the whole compound is uniform (fission_uniform.go).
	owners := f.compoundOwners()
	for v, as := range f.assigns {
		if !f.local[v] || f.addr[v] {
			continue
		}
		ok := true
		for _, a := range as {
			if owners[a] == nil && !f.block[a] && !f.blockSpec(a) {
				ok = false
			}
		}
		if ok {
			f.uniform[v] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for v := range f.uniform {
			for _, a := range f.assigns[v] {
				if !f.uniformAssign(a) || owners[a] != nil && !f.uniformCompound(owners[a], 0) {
					delete(f.uniform, v)
					changed = true
					break
				}
			}
		}
	}
}

// blockSpec reports whether a is a ValueSpec of a block-level var
// declaration.
func (f *fissioner) blockSpec(a ast.Node) bool {
	spec, ok := a.(*ast.ValueSpec)
	if !ok {
		return false
	}
	for s := range f.block {
		if ds, ok := s.(*ast.DeclStmt); ok {
			if gd, ok := ds.Decl.(*ast.GenDecl); ok && slices.Contains(gd.Specs, ast.Spec(spec)) {
				return true
			}
		}
	}
	return false
}

// uniformAssign reports whether the assignment a gives every variable it
// assigns a uniform value, and assigns only uniform variables.
func (f *fissioner) uniformAssign(a ast.Node) bool {
	lhsOK := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		if id.Name == "_" {
			return true
		}
		v := f.varOf(id)
		return v != nil && f.uniform[v]
	}
	switch a := a.(type) {
	case *ast.AssignStmt:
		for _, l := range a.Lhs {
			if !lhsOK(l) {
				return false
			}
		}
		for _, r := range a.Rhs {
			if !f.uniformExpr(r) {
				return false
			}
		}
		return true
	case *ast.IncDecStmt:
		return lhsOK(a.X)
	case *ast.ValueSpec:
		for _, id := range a.Names {
			if !lhsOK(id) {
				return false
			}
		}
		for _, r := range a.Values {
			if !f.uniformExpr(r) {
				return false
			}
		}
		return true
	case *ast.RangeStmt:
		if a.Value != nil || a.Key != nil && !lhsOK(a.Key) {
			return false
		}
		b, ok := f.info.TypeOf(a.X).Underlying().(*types.Basic)
		return ok && b.Info()&types.IsInteger != 0 && f.uniformExpr(a.X)
	}
	return false
}

// uniformExpr reports whether e has the same value in every thread of the
// block: it reads no memory and depends on no thread's position.
func (f *fissioner) uniformExpr(e ast.Expr) bool {
	return f.exprClass(e, false)
}

// posExpr reports whether e is a function of the thread's position and
// uniform values: cheap to recompute, and the same each time.
func (f *fissioner) posExpr(e ast.Expr) bool {
	return f.exprClass(e, true)
}

var uniformThreadMethods = map[string]bool{
	"BlockIdx": true, "BlockDim": true, "GridDim": true,
	"GridSize1": true, "GridSize2": true, "GridSize3": true, "WarpSize": true,
}

var positionThreadMethods = map[string]bool{
	"ThreadIdx": true, "Grid1": true, "Grid2": true, "Grid3": true, "LaneID": true,
	"LanemaskLt": true, "LanemaskLe": true, "LanemaskEq": true, "LanemaskGe": true, "LanemaskGt": true,
}

// exprClass reports whether e is uniform (pos false: the same value in
// every thread of the block, reading no memory) or a position expression
// (pos true: also a function of the thread's position, through the
// Thread's position methods and the variables recomputed in each region,
// rematVars).
func (f *fissioner) exprClass(e ast.Expr, pos bool) bool {
	if tv, ok := f.info.Types[e]; ok && tv.Value != nil {
		return true
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return f.exprClass(e.X, pos)
	case *ast.Ident:
		switch o := f.info.Uses[e].(type) {
		case *types.Const, *types.Nil:
			return true
		case *types.Var:
			if o == f.thread {
				// The Thread itself differs from thread to thread; only
				// some of its methods are uniform (callClass).
				return false
			}
			if f.params[o] {
				return f.single[o]
			}
			if f.uniform[o] {
				// A position expression is recomputed later, so the
				// uniform values it reads must not change.
				return !pos || f.single[o]
			}
			return pos && f.rematVars[o]
		}
		return false
	case *ast.UnaryExpr:
		return e.Op != token.AND && e.Op != token.ARROW && f.exprClass(e.X, pos)
	case *ast.BinaryExpr:
		return f.exprClass(e.X, pos) && f.exprClass(e.Y, pos)
	case *ast.SelectorExpr:
		// A field of a uniform struct value (t.BlockIdx().X).
		if sel, ok := f.info.Selections[e]; ok && sel.Kind() == types.FieldVal {
			return f.exprClass(e.X, pos)
		}
		return false
	case *ast.CallExpr:
		return f.callClass(e, pos)
	case *ast.IndexExpr:
		// An element of shared memory every thread reads alike; not a
		// position expression: it may change at the next barrier.
		return !pos && f.sharedReads[e]
	}
	return false
}

func (f *fissioner) callClass(e *ast.CallExpr, pos bool) bool {
	args := func() bool {
		for _, a := range e.Args {
			if !f.exprClass(a, pos) {
				return false
			}
		}
		return true
	}
	if tv, ok := f.info.Types[e.Fun]; ok && tv.IsType() {
		return len(e.Args) == 1 && args() // a conversion
	}
	if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
		if b, ok := f.info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "min", "max":
				return args()
			}
			return false
		}
	}
	fn := f.g.callee(e)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if k, _ := f.g.collective(e); k == collReduce {
		return !pos // the same result in every thread, after the barrier
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil {
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		if f.isThread(sel.X) {
			return uniformThreadMethods[fn.Name()] || pos && positionThreadMethods[fn.Name()]
		}
		// Shape accessors of the array views read no element.
		if fn.Pkg().Path() == cudaPath && (fn.Name() == "Shape" || fn.Name() == "Len") {
			return f.exprClass(sel.X, pos) && args()
		}
		return false
	}
	switch fn.Pkg().Path() {
	case cudaPath:
		switch fn.Name() {
		case "SharedArray", "SharedArray2", "SharedArray3", "DynamicSharedArray":
			// One array per block: made once, by the block loop.
			if pos {
				return false
			}
			for _, a := range e.Args[1:] {
				if !f.exprClass(a, false) {
					return false
				}
			}
			return f.isThread(e.Args[0])
		}
	case "math", "github.com/nugo-dev/nugo/math32", "math/bits":
		return args()
	}
	return false
}

// isUniformStmt reports whether s is a block-level assignment or
// declaration of uniform variables with uniform values.
func (f *fissioner) isUniformStmt(s ast.Stmt) bool {
	if !f.block[s] {
		return false
	}
	if isCompound(s) {
		return f.isUniformCompound(s)
	}
	if f.blockBranch(s) {
		return true
	}
	switch s := s.(type) {
	case *ast.AssignStmt, *ast.IncDecStmt:
		return f.uniformAssign(s)
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return false
		}
		for _, sp := range gd.Specs {
			if !f.uniformAssign(sp) {
				return false
			}
		}
		return true
	}
	return false
}

// movable reports whether a uniform statement can run before the loop of
// the region it sits in: it declares variables assigned nowhere else from
// values that never change.
func (f *fissioner) movable(s ast.Stmt) bool {
	stable := func(n ast.Node) bool {
		ok := true
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if v := f.varOf(n); v != nil && f.info.Uses[n] != nil && !f.single[v] {
					ok = false
				}
			case *ast.CallExpr:
				if k, _ := f.g.collective(n); k != collNone {
					ok = false
				}
			}
			return ok
		})
		return ok
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return false
		}
		for _, l := range s.Lhs {
			id := l.(*ast.Ident)
			if v := f.varOf(id); id.Name != "_" && (f.info.Defs[id] == nil || v == nil || !f.single[v]) {
				return false
			}
		}
		return stable(s)
	case *ast.DeclStmt:
		for _, sp := range s.Decl.(*ast.GenDecl).Specs {
			for _, id := range sp.(*ast.ValueSpec).Names {
				if v := f.varOf(id); id.Name != "_" && (v == nil || !f.single[v]) {
					return false
				}
			}
		}
		return stable(s)
	}
	return false
}

// namesUsed reports whether the pieces of region r refer to a name that
// s declares: moved before r's loop, s would shadow what they refer to.
func (f *fissioner) namesUsed(r *region, s ast.Stmt) bool {
	if r == nil {
		return false
	}
	names := map[string]bool{}
	for _, id := range defNames(s) {
		names[id.Name] = true
	}
	used := false
	for _, p := range r.pieces {
		var nodes []ast.Node
		if p.stmt != nil {
			nodes = append(nodes, p.stmt)
		}
		for _, x := range p.exprs {
			nodes = append(nodes, x)
		}
		if p.shfl != nil {
			nodes = append(nodes, p.shfl.val, p.shfl.lane)
		}
		for _, n := range nodes {
			ast.Inspect(n, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && names[id.Name] {
					used = true
				}
				return !used
			})
		}
	}
	return used
}

// sharedDecl records s if it is sh := cuda.SharedArray[T](t, n) (or
// SharedArray2, SharedArray3), run once per block.
func (f *fissioner) sharedDecl(s ast.Stmt) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok {
		return
	}
	fn := f.g.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != cudaPath {
		return
	}
	if dims, ok := sharedDims[fn.Name()]; !ok || len(call.Args) != dims+1 {
		return
	}
	var elem types.Type
	switch t := f.info.TypeOf(as.Lhs[0]).(type) {
	case *types.Slice:
		elem = t.Elem()
	case *types.Named:
		if t.TypeArgs().Len() != 1 {
			return
		}
		elem = t.TypeArgs().At(0)
	default:
		return
	}
	buf := scratchVar{f.name("nugoShared"), elem}
	f.shared[s] = buf
	f.sharedBufs = append(f.sharedBufs, buf)
}

// sharedDims are the shared array functions a block loop hoists, with
// their number of dimensions.
var sharedDims = map[string]int{"SharedArray": 1, "SharedArray2": 2, "SharedArray3": 3}

// textNode is generated block-level code (a warp exchange).
type textNode struct {
	text string
	shfl *shuffleOp // a shuffle's exchange, written once its operands are known
	pos  token.Pos  // the warp operation's call, named by a panic in the exchange
}

// stmtNode is a kernel statement run once per block (uniform).
type stmtNode struct{ stmt ast.Stmt }

// forNode and friends keep the kernel's statements for printing later,
// once the imports are renamed.
type (
	forNode struct {
		loop   ast.Stmt // *ast.ForStmt or *ast.RangeStmt
		body   []node
		noCond bool // the condition is a breakNode in the body
	}
	// breakNode ends the loop around it unless cond holds.
	breakNode  struct{ cond ast.Expr }
	ifElseNode struct {
		s    *ast.IfStmt
		then []node
		els  []node
		div  *divergence // a divergent if (fission_divergent.go)
	}
)

// list transforms a block-level statement list.
func (f *fissioner) list(stmts []ast.Stmt) []node {
	f.depth++
	defer func() { f.depth-- }()
	var out []node
	var cur *region
	open := func() *region {
		if cur == nil {
			cur = &region{id: len(f.regions)}
			f.regions = append(f.regions, cur)
			out = append(out, cur)
		}
		return cur
	}
	for _, s := range stmts {
		if !f.hasColl(s) && !f.promoted[s] {
			switch {
			case isConstOrType(s):
				r := open()
				r.prelude = append(r.prelude, piece{stmt: s})
			case f.isUniformStmt(s) && f.movable(s) && !f.namesUsed(cur, s):
				r := open()
				r.prelude = append(r.prelude, piece{stmt: s})
				if f.depth == 1 {
					f.sharedDecl(s)
				}
			case f.isUniformStmt(s):
				cur = nil
				out = append(out, &stmtNode{s})
			default:
				r := open()
				r.pieces = append(r.pieces, piece{stmt: s})
			}
			continue
		}
		switch s := s.(type) {
		case *ast.ExprStmt:
			if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
				if k, _ := f.g.collective(call); k == collBarrier {
					cur = nil // the barrier: the next statement starts a new loop
					continue
				} else if k == collGrid {
					cur = f.gridSync(call, &out)
					continue
				}
			}
			cur = f.collectiveStmt(s, open, &out)
		case *ast.AssignStmt, *ast.DeclStmt:
			cur = f.collectiveStmt(s, open, &out)
		case *ast.ForStmt:
			if s.Cond != nil && f.hasColl(s.Cond) {
				f.reduceOnly(s.Cond)
			}
			if s.Init != nil && !f.isUniformStmt(s.Init) {
				f.fail(s.Pos(), "a barrier in a loop whose init statement is not the same in every thread of the block")
			}
			if s.Cond != nil && !f.uniformExpr(s.Cond) {
				f.fail(s.Cond.Pos(), "a barrier in a loop whose condition is not the same in every thread of the block (a barrier under thread-dependent control flow)")
			}
			if s.Post != nil && !f.isUniformStmt(s.Post) {
				f.fail(s.Post.Pos(), "a barrier in a loop whose post statement is not the same in every thread of the block")
			}
			f.checkBranches(s.Body)
			cur = nil
			n := &forNode{loop: s}
			if s.Cond != nil && f.hasColl(s.Cond) {
				// for init; c(SyncThreadsOr(p)); post { body } runs as
				// for init; ; post { p...; if !c(or) { break }; body }.
				r := &region{id: len(f.regions)}
				f.regions = append(f.regions, r)
				n.body = append(n.body, r)
				wrap := &ast.ExprStmt{X: s.Cond}
				f.gather(wrap, r, &n.body)
				n.body = append(n.body, &breakNode{wrap.X})
				n.noCond = true
			}
			n.body = append(n.body, f.list(s.Body.List)...)
			out = append(out, n)
		case *ast.RangeStmt:
			if !f.uniformAssign(s) {
				f.fail(s.Pos(), "a barrier in a range loop that is not over a number the same in every thread of the block")
			}
			f.checkBranches(s.Body)
			cur = nil
			out = append(out, &forNode{loop: s, body: f.list(s.Body.List)})
		case *ast.IfStmt:
			if f.collOnlyInHead(s) && !f.promoted[s] {
				// Warp operations in the condition only: their results
				// start the region of the if.
				cur = f.collectiveStmt(s, open, &out)
				continue
			}
			if f.divergentIf(s, open, &out) {
				cur = nil
				continue
			}
			if s.Init != nil && !f.isUniformStmt(s.Init) {
				f.fail(s.Pos(), "a barrier in an if whose init statement is not the same in every thread of the block")
			}
			if !f.uniformExpr(s.Cond) {
				f.fail(s.Cond.Pos(), "a barrier or warp operation under a condition that is not the same in every thread of the block (a barrier there is undefined on a GPU; a warp operation there takes only the lanes on its side, which the block loops do not track)")
			}
			if f.hasColl(s.Cond) {
				f.reduceOnly(s.Cond)
				if s.Init != nil {
					f.fail(s.Pos(), "a reducing barrier in the condition of an if with an init statement")
				}
				wrap := &ast.ExprStmt{X: s.Cond}
				f.gather(wrap, open(), &out)
				s.Cond = wrap.X
			}
			n := &ifElseNode{s: s, then: f.list(s.Body.List)}
			switch e := s.Else.(type) {
			case *ast.BlockStmt:
				n.els = f.list(e.List)
			case *ast.IfStmt:
				n.els = f.list([]ast.Stmt{e})
			}
			cur = nil
			out = append(out, n)
		case *ast.BlockStmt:
			cur = nil
			out = append(out, &blockNode{f.list(s.List)})
		default:
			f.fail(s.Pos(), "a barrier or warp operation inside a %s", stmtKind(s))
		}
	}
	return out
}

// isConstOrType reports whether s declares constants or types, which need
// no thread.
func isConstOrType(s ast.Stmt) bool {
	ds, ok := s.(*ast.DeclStmt)
	if !ok {
		return false
	}
	gd, ok := ds.Decl.(*ast.GenDecl)
	return ok && (gd.Tok == token.CONST || gd.Tok == token.TYPE)
}

func stmtKind(s ast.Stmt) string {
	switch s.(type) {
	case *ast.SwitchStmt, *ast.TypeSwitchStmt:
		return "switch (write it as if and else)"
	case *ast.SelectStmt:
		return "select"
	case *ast.ReturnStmt:
		return "return statement"
	}
	return fmt.Sprintf("%T", s)
}

// reduceOnly rejects warp operations in a condition around barriers:
// their results differ from thread to thread.
func (f *fissioner) reduceOnly(cond ast.Expr) {
	ast.Inspect(cond, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if k, name := f.g.collective(call); k != collNone && k != collReduce {
				f.fail(call.Pos(), "%s in a condition around barriers", name)
			}
		}
		return true
	})
}

// checkBranches rejects break and continue statements that would leave a
// loop around barriers from inside one thread's region.
func (f *fissioner) checkBranches(body *ast.BlockStmt) {
	var walk func(n ast.Node, inLoop, inSwitch bool)
	walk = func(n ast.Node, inLoop, inSwitch bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if c == n {
				return true
			}
			if s, ok := c.(ast.Stmt); ok && (f.isUniformCompound(s) || f.blockBranch(s)) {
				return false // runs once per block: its branches are the block's
			}
			switch c := c.(type) {
			case *ast.ForStmt:
				if f.hasColl(c) {
					return false // checked on its own
				}
				walk(c.Body, true, inSwitch)
				return false
			case *ast.RangeStmt:
				if f.hasColl(c) {
					return false
				}
				walk(c.Body, true, inSwitch)
				return false
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				walk(c, inLoop, true)
				return false
			case *ast.BranchStmt:
				switch {
				case c.Label != nil && c.Tok != token.GOTO:
					f.fail(c.Pos(), "a labeled %s in a loop around barriers", c.Tok)
				case c.Tok == token.CONTINUE && !inLoop, c.Tok == token.BREAK && !inLoop && !inSwitch:
					f.fail(c.Pos(), "%s in a loop around barriers", c.Tok)
				}
			}
			return true
		})
	}
	walk(body, false, false)
}

// collectiveStmt splits a statement that calls warp operations or reducing
// barriers: their operands are evaluated in the region before (open), the
// exchange runs between the regions, and the statement itself, reading
// the results, starts the next region, or runs once per block when it is
// uniform. It returns the region now open.
func (f *fissioner) collectiveStmt(s ast.Stmt, open func() *region, out *[]node) *region {
	uniform := f.isUniformStmt(s)
	f.gather(s, open(), out)
	if es, ok := s.(*ast.ExprStmt); ok {
		if _, ok := es.X.(*ast.Ident); ok {
			return nil // the call's result is not used
		}
	}
	if uniform {
		*out = append(*out, &stmtNode{s})
		return nil
	}
	next := &region{id: len(f.regions)}
	f.regions = append(f.regions, next)
	*out = append(*out, next)
	next.pieces = append(next.pieces, piece{stmt: s})
	return next
}

// gather moves the operands of the warp operations and reducing barriers
// in n into region r, appends their exchanges to out, and replaces the
// calls in n by their results. n's root is never such a call (callers wrap
// a bare expression in a statement first).
func (f *fissioner) gather(n ast.Node, r *region, out *[]node) {
	var calls []*ast.CallExpr
	var find func(n ast.Node)
	find = func(n ast.Node) {
		ast.Inspect(n, func(c ast.Node) bool {
			switch c := c.(type) {
			case *ast.BinaryExpr:
				if (c.Op == token.LAND || c.Op == token.LOR) && f.hasColl(c.Y) {
					f.fail(c.Y.Pos(), "a warp operation or reducing barrier on the right of %s, which not every thread evaluates", c.Op)
				}
			case *ast.CallExpr:
				switch k, name := f.g.collective(c); k {
				case collNone:
					return true
				case collBarrier, collGrid:
					f.fail(c.Pos(), "%s inside an expression", name)
				default:
					for _, a := range c.Args {
						if f.hasColl(a) {
							f.fail(a.Pos(), "a warp operation or reducing barrier in the operands of another")
						}
					}
					calls = append(calls, c)
					return false
				}
			}
			return true
		})
	}
	find(n)
	var posts []string
	var postPos []token.Pos
	repl := map[*ast.CallExpr]string{}
	for _, c := range calls {
		k, name := f.g.collective(c)
		switch k {
		case collReduce:
			cnt := f.name("nugoCount")
			r.prelude = append(r.prelude, piece{text: cnt + " := 0"})
			switch name {
			case "SyncThreadsAnd":
				arr := f.name("nugoArrived")
				r.prelude = append(r.prelude, piece{text: arr + " := 0"})
				r.pieces = append(r.pieces, piece{text: "if %s {\n" + cnt + "++\n}\n" + arr + "++", exprs: []ast.Expr{c.Args[0]}})
				repl[c] = "(" + cnt + " == " + arr + ")"
			case "SyncThreadsOr":
				r.pieces = append(r.pieces, piece{text: "if %s {\n" + cnt + "++\n}", exprs: []ast.Expr{c.Args[0]}})
				repl[c] = "(" + cnt + " > 0)"
			default:
				r.pieces = append(r.pieces, piece{text: "if %s {\n" + cnt + "++\n}", exprs: []ast.Expr{c.Args[0]}})
				repl[c] = cnt
			}
		case collShuffle:
			if !f.isThread(c.Args[0]) {
				f.fail(c.Pos(), "%s of a Thread other than the kernel's parameter", name)
			}
			typ := f.info.TypeOf(c)
			vs, ls, rs := f.scratchOf("nugoVal", typ), f.scratchOf("nugoLane", types.Typ[types.Int]), f.scratchOf("nugoShfl", typ)
			op := &shuffleOp{
				kind: map[string]string{"ShflSync": "ShuffleIdx", "ShflDownSync": "ShuffleDown", "ShflUpSync": "ShuffleUp", "ShflXorSync": "ShuffleXor"}[name],
				vals: vs, lanes: ls, out: rs, val: c.Args[1], lane: c.Args[2],
			}
			f.shuffles = append(f.shuffles, op)
			r.pieces = append(r.pieces, piece{shfl: op})
			*out = append(*out, &textNode{shfl: op, pos: c.Pos()})
			repl[c] = rs + "[" + f.ti + "]"
		case collMasked:
			posts = append(posts, f.gatherMasked(n, c, name, r, repl))
			postPos = append(postPos, c.Pos())
		case collVote:
			if !f.isThread(c.Args[0]) {
				f.fail(c.Pos(), "%s of a Thread other than the kernel's parameter", name)
			}
			ps := f.scratchOf("nugoPred", types.Typ[types.Bool])
			if name == "ActiveMask" {
				r.pieces = append(r.pieces, piece{text: ps + "[" + f.ti + "] = true"})
			} else {
				r.pieces = append(r.pieces, piece{text: ps + "[" + f.ti + "] = %s", exprs: []ast.Expr{c.Args[1]}})
			}
			fn, typ := "BlockBallot", types.Type(types.Typ[types.Uint32])
			switch name {
			case "AnySync":
				fn, typ = "BlockAny", types.Typ[types.Bool]
			case "AllSync":
				fn, typ = "BlockAll", types.Typ[types.Bool]
			}
			rs := f.scratchOf("nugoVote", typ)
			posts = append(posts, fmt.Sprintf("%%[1]s.%s(%s, %s, %%[2]s)", fn, rs, ps))
			postPos = append(postPos, c.Pos())
			repl[c] = rs + "[" + f.ti + "]"
		}
	}
	for i, p := range posts {
		*out = append(*out, &textNode{text: p, pos: postPos[i]})
	}
	astutil.Apply(n, func(c *astutil.Cursor) bool {
		if call, ok := c.Node().(*ast.CallExpr); ok {
			if text, ok := repl[call]; ok {
				c.Replace(&ast.Ident{Name: text})
				return false
			}
		}
		return true
	}, nil)
}

// scratchOf adds a per-worker slice of one element per thread.
func (f *fissioner) scratchOf(base string, elem types.Type) string {
	n := f.name(base)
	f.scratch = append(f.scratch, scratchVar{name: n, typ: elem})
	return n
}

// topDef is the statement at the top of a region that declares a variable.
type topDef struct {
	r    *region
	stmt ast.Stmt
}

// regionVars returns the local variables, other than uniform ones, that a
// region's pieces refer to.
func (f *fissioner) regionVars(r *region, effective bool) map[*types.Var]bool {
	vars := map[*types.Var]bool{}
	visit := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v := f.varOf(id); v != nil && f.local[v] && !f.uniform[v] {
					vars[v] = true
				}
			}
			return true
		})
	}
	for _, p := range r.pieces {
		if p.stmt != nil {
			visit(p.stmt)
		}
		for _, e := range p.exprs {
			visit(e)
		}
		if op := p.shfl; op != nil {
			if !effective || op.valArray == "" {
				visit(op.val)
			}
			if !effective || !op.laneConst {
				visit(op.lane)
			}
		}
	}
	return vars
}

// defRHS returns the expression a declaring statement gives v, or nil.
func (f *fissioner) defRHS(s ast.Stmt, v *types.Var) ast.Expr {
	switch s := s.(type) {
	case *ast.AssignStmt:
		for i, l := range s.Lhs {
			if f.info.Defs[l.(*ast.Ident)] == v {
				if len(s.Rhs) == len(s.Lhs) {
					return s.Rhs[i]
				}
				return s.Rhs[0]
			}
		}
	case *ast.DeclStmt:
		for _, sp := range s.Decl.(*ast.GenDecl).Specs {
			vs := sp.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if f.info.Defs[id] == v {
					switch {
					case len(vs.Values) == len(vs.Names):
						return vs.Values[i]
					case len(vs.Values) == 1:
						return vs.Values[0]
					}
				}
			}
		}
	}
	return nil
}

// defNames returns the identifiers a declaring statement declares.
func defNames(s ast.Stmt) []*ast.Ident {
	var ids []*ast.Ident
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			for _, l := range s.Lhs {
				ids = append(ids, l.(*ast.Ident))
			}
		}
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				ids = append(ids, sp.(*ast.ValueSpec).Names...)
			}
		}
	}
	return ids
}

// emit classifies the variables that live across barriers and writes the
// registration.
func (f *fissioner) emit(body []node) string {
	for v := range f.params {
		if v != f.thread && len(f.assigns[v]) > 0 {
			f.fail(v.Pos(), "assigns to parameter %s, which the block's threads would share", v.Name())
		}
	}
	defs := map[*types.Var]topDef{}
	for _, r := range f.regions {
		for _, p := range r.pieces {
			if p.stmt == nil {
				continue
			}
			for _, id := range defNames(p.stmt) {
				if v, ok := f.info.Defs[id].(*types.Var); ok {
					defs[v] = topDef{r, p.stmt}
				}
			}
		}
	}
	refs := map[*types.Var][]*region{}
	regionRefs := make([]map[*types.Var]bool, len(f.regions))
	for i, r := range f.regions {
		regionRefs[i] = f.regionVars(r, false)
		for v := range regionRefs[i] {
			refs[v] = append(refs[v], r)
		}
	}
	// Variables that are functions of the thread's position.
	f.rematVars = map[*types.Var]bool{}
	for v, d := range defs {
		if f.single[v] && f.defRHS(d.stmt, v) != nil {
			f.rematVars[v] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for v := range f.rematVars {
			if !f.posExpr(f.defRHS(defs[v].stmt, v)) {
				delete(f.rematVars, v)
				changed = true
			}
		}
	}
	arrays := map[*types.Var]string{}
	var arrayOrder []*types.Var
	for v, rs := range refs {
		if len(rs) < 2 || f.rematVars[v] {
			continue
		}
		if f.addr[v] {
			f.fail(v.Pos(), "the address of %s, which lives across a barrier, is taken", v.Name())
		}
		if _, ok := defs[v]; !ok {
			f.fail(v.Pos(), "%s lives across a barrier but is not declared at the top of a region", v.Name())
		}
		if why := f.g.unwritable(v.Type()); why != "" {
			f.fail(v.Pos(), "%s lives across a barrier: %s", v.Name(), why)
		}
		arrayOrder = append(arrayOrder, v)
	}
	slices.SortFunc(arrayOrder, varOrder)
	for _, v := range arrayOrder {
		arrays[v] = f.name("nugoV" + strings.ToUpper(v.Name()[:1]) + v.Name()[1:])
		f.scratch = append(f.scratch, scratchVar{arrays[v], v.Type()})
	}
	// Shuffles read the per-thread array of a variable that has one, and
	// take a uniform lane as one number.
	for _, op := range f.shuffles {
		if id, ok := ast.Unparen(op.val).(*ast.Ident); ok {
			if v := f.varOf(id); v != nil {
				op.valArray = arrays[v]
			}
		}
		op.laneConst = f.uniformExpr(op.lane)
	}
	for i, r := range f.regions {
		regionRefs[i] = f.regionVars(r, true)
	}
	f.planWarps(body, defs, regionRefs, arrays)
	warps := false
	var walk func([]node)
	walk = func(ns []node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *textNode:
				warps = true
			case *forNode:
				walk(n.body)
			case *ifElseNode:
				walk(n.then)
				walk(n.els)
			case *blockNode:
				walk(n.body)
			}
		}
	}
	walk(body)
	returns := false
	for _, r := range f.regions {
		for _, p := range r.pieces {
			if p.stmt == nil {
				continue
			}
			ast.Inspect(p.stmt, func(n ast.Node) bool {
				if _, ok := n.(*ast.ReturnStmt); ok {
					r.returns = true
				}
				return true
			})
		}
		returns = returns || r.returns
	}
	useExited := returns && (len(f.regions) > 1 || warps || f.gridSyncs > 0)
	if useExited {
		f.exited = f.name("nugoExited")
		f.scratch = append(f.scratch, scratchVar{f.exited, types.Typ[types.Bool]})
	}

	// From here on nothing fails: rename the packages the body refers to
	// as the generated file imports them.
	f.cuda = f.g.importName(cudaPath, "cuda")
	declared := map[string]bool{}
	for v := range f.local {
		declared[v.Name()] = true
	}
	for v := range f.params {
		declared[v.Name()] = true
	}
	if declared[f.cuda] {
		f.fail(f.fd.Pos(), "a variable named %s hides the package", f.cuda)
	}
	ast.Inspect(f.fd.Body, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				if pn, ok := f.info.Uses[x].(*types.PkgName); ok {
					x.Name = f.g.importName(pn.Imported().Path(), pn.Imported().Name())
					if declared[x.Name] {
						f.fail(x.Pos(), "a variable named %s hides the package", x.Name)
					}
				}
			}
		}
		return true
	})

	f.localAtomics()
	var w bytes.Buffer
	f.emitRegistration(&w, body, defs, regionRefs, arrays)
	return w.String()
}

func (f *fissioner) print(n ast.Node) string {
	n, undo := f.flatten(n)
	defer undo()
	defer f.pointerCalls(n)()
	var b bytes.Buffer
	if err := printer.Fprint(&b, f.g.pkg.Fset, n); err != nil {
		f.fail(n.Pos(), "printing: %v", err)
	}
	return b.String()
}

// printLines prints a statement of the kernel with a //line directive
// before each statement in it that starts a line, so that positions in
// the generated file (a panic's, a debugger's) are those of the kernel's
// source.
func (f *fissioner) printLines(s ast.Stmt) string {
	n, undo := f.flatten(s)
	defer undo()
	defer f.pointerCalls(n)()
	s = n.(ast.Stmt)
	fset := f.g.pkg.Fset
	var comments []*ast.CommentGroup
	last := -1
	ast.Inspect(s, func(n ast.Node) bool {
		st, ok := n.(ast.Stmt)
		if !ok || !st.Pos().IsValid() {
			return true
		}
		if _, isBlock := st.(*ast.BlockStmt); isBlock {
			return true
		}
		p := fset.Position(st.Pos())
		if p.Line == last {
			return true
		}
		last = p.Line
		tf := fset.File(st.Pos())
		comments = append(comments, &ast.CommentGroup{List: []*ast.Comment{{
			Slash: tf.LineStart(p.Line),
			Text:  fmt.Sprintf("//line %s:%d", shortFile(p.Filename), p.Line),
		}}})
		return true
	})
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, &printer.CommentedNode{Node: s, Comments: comments}); err != nil {
		f.fail(s.Pos(), "printing: %v", err)
	}
	text := b.String()
	if !strings.HasPrefix(text, "//line") && len(comments) > 0 {
		text = comments[0].List[0].Text + "\n" + text
	}
	return "\n" + text
}

func (f *fissioner) typ(t types.Type) string { return types.TypeString(t, f.g.qualifier) }

// emitRegistration writes the RegisterBlockLoop call.
func (f *fissioner) emitRegistration(w *bytes.Buffer, body []node, defs map[*types.Var]topDef, regionRefs []map[*types.Var]bool, arrays map[*types.Var]string) {
	sig := f.g.signature(f.fd)
	args := f.name("nugoArgs")
	f.tname = f.name("nugoT")
	if f.thread != nil {
		f.tname = f.thread.Name()
	}
	fmt.Fprintf(w, "%s.RegisterBlockLoop(%s, %q, func(%s []any) func() %s.BlockLoop {\n", f.cuda, f.fd.Name.Name, f.hash, args, f.cuda)
	var names, asserts []string
	for i := 1; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if p.Name() == "_" || p.Name() == "" {
			continue
		}
		names = append(names, p.Name())
		asserts = append(asserts, fmt.Sprintf("%s[%d].(%s)", args, i-1, f.typ(p.Type())))
	}
	if len(names) > 0 {
		fmt.Fprintf(w, "%s := %s\n", strings.Join(names, ", "), strings.Join(asserts, ", "))
		fmt.Fprintf(w, "%s = %s\n", strings.Repeat("_, ", len(names)-1)+"_", strings.Join(names, ", "))
	} else {
		fmt.Fprintf(w, "_ = %s\n", args)
	}
	// The regions first: they may add scratch slices (fission_interchange.go).
	var regions bytes.Buffer
	e := &emitter{f: f, w: &regions, defs: defs, regionRefs: regionRefs, arrays: arrays}
	e.nodes(body)
	fmt.Fprintf(w, "return func() %s.BlockLoop {\n", f.cuda)
	for _, s := range append(f.scratch, f.sharedBufs...) {
		fmt.Fprintf(w, "var %s []%s\n", s.name, f.typ(s.typ))
	}
	fmt.Fprintf(w, "return func(%s *%s.Block) {\n", f.blk, f.cuda)
	fmt.Fprintf(w, "%s := %s.Size()\n_ = %s\n", f.n, f.blk, f.n)
	for _, s := range f.scratch {
		// A local copy: the loops then keep the slice in registers, not
		// reloading the closure's variable after every store.
		fmt.Fprintf(w, "if cap(%s) < %s {\n%s = make([]%s, %s)\n}\n%s := %s[:%s]\n_ = %s\n", s.name, f.n, s.name, f.typ(s.typ), f.n, s.name, s.name, f.n, s.name)
	}
	if f.exited != "" {
		fmt.Fprintf(w, "clear(%s)\n", f.exited)
	}
	fmt.Fprintf(w, "%s := %s.Thread(0)\n_ = %s\n", f.tname, f.blk, f.tname)
	fmt.Fprintf(w, "%s, %s := %s.Flat(), %s.X0()\n_, _ = %s, %s\n", f.flat, f.x0, f.blk, f.blk, f.flat, f.x0)
	w.Write(regions.Bytes())
	fmt.Fprintf(w, "}\n}\n}%s)\n", inlinedArgs(f.inlined))
}

type emitter struct {
	f          *fissioner
	w          *bytes.Buffer
	defs       map[*types.Var]topDef
	regionRefs []map[*types.Var]bool
	arrays     map[*types.Var]string
}

// lineAt writes a //line directive naming pos's line for the next line,
// if pos is known.
func (e *emitter) lineAt(pos token.Pos) {
	if pos.IsValid() {
		p := e.f.g.pkg.Fset.Position(pos)
		fmt.Fprintf(e.w, "//line %s:%d\n", shortFile(p.Filename), p.Line)
	}
}

func (e *emitter) nodes(ns []node) {
	f, w := e.f, e.w
	for _, n := range ns {
		switch n := n.(type) {
		case *region:
			e.region(n)
		case *stmtNode:
			fmt.Fprintf(w, "%s\n", f.printLines(n.stmt))
		case *textNode:
			// A failure in the check or the exchange (a mask's) names the
			// operation's line, as the goroutine path and ptxsim do.
			e.lineAt(n.pos)
			if e.branchCheck(n) {
				e.lineAt(n.pos)
			}
			exited := "nil"
			if f.exited != "" {
				exited = f.exited
			}
			if fu := f.fused[n]; fu != nil {
				e.fusedExchange(fu)
				continue
			}
			if op := n.shfl; op != nil {
				vals := op.vals
				if op.valArray != "" {
					vals = op.valArray
				}
				if op.laneConst {
					fmt.Fprintf(w, "%s.BlockShuffleConst(%s.%s, %s, %s, int(%s), %s)\n", f.cuda, f.cuda, op.kind, op.out, vals, f.print(op.lane), exited)
				} else {
					fmt.Fprintf(w, "%s.BlockShuffle(%s.%s, %s, %s, %s, %s)\n", f.cuda, f.cuda, op.kind, op.out, vals, op.lanes, exited)
				}
				continue
			}
			fmt.Fprintf(w, n.text+"\n", f.cuda, exited)
		case *breakNode:
			e.lineAt(n.cond.Pos())
			fmt.Fprintf(w, "if !(%s) {\nbreak\n}\n", f.print(n.cond))
		case *gridNode:
			e.gridSync(n)
		case *blockNode:
			w.WriteString("{\n")
			e.nodes(n.body)
			w.WriteString("}\n")
		case *forNode:
			// A shuffle tree may get an unrolled form first (fission_tree.go).
			e.lineAt(n.loop.Pos()) // a panic in the header names its line
			unrolled := e.unrolledTree(n)
			if l := f.labelOf[n.loop]; l != "" {
				fmt.Fprintf(w, "%s:\n", l)
			}
			switch l := n.loop.(type) {
			case *ast.ForStmt:
				opt := func(n ast.Node) string {
					if n == nil || n == ast.Node((*ast.BlockStmt)(nil)) {
						return ""
					}
					return f.print(n)
				}
				var init, cond, post string
				if l.Init != nil {
					init = opt(l.Init)
				}
				if l.Cond != nil && !n.noCond {
					cond = opt(l.Cond)
				}
				if l.Post != nil {
					post = opt(l.Post)
				}
				fmt.Fprintf(w, "for %s; %s; %s {\n", init, cond, post)
			case *ast.RangeStmt:
				if l.Key == nil {
					fmt.Fprintf(w, "for range %s {\n", f.print(l.X))
				} else {
					fmt.Fprintf(w, "for %s %s range %s {\n", f.print(l.Key), l.Tok, f.print(l.X))
				}
			}
			e.nodes(n.body)
			w.WriteString("}\n")
			if unrolled {
				w.WriteString("}\n")
			}
		case *ifElseNode:
			if n.div != nil {
				e.divergent(n)
				continue
			}
			e.lineAt(n.s.Pos()) // a panic in the condition names its line
			w.WriteString("if ")
			if n.s.Init != nil {
				fmt.Fprintf(w, "%s; ", f.print(n.s.Init))
			}
			fmt.Fprintf(w, "%s {\n", f.print(n.s.Cond))
			e.nodes(n.then)
			if n.s.Else != nil {
				w.WriteString("} else {\n")
				e.nodes(n.els)
			}
			w.WriteString("}\n")
		}
	}
}

// region writes one region: its uniform prelude, then the loop over the
// block's threads.
func (e *emitter) region(r *region) {
	e.regionLoops(r)
	if e.f.exited != "" {
		// The block-level code after the loops names, in a panic, the
		// first thread that has not returned (cuda.Block.Lead); when all
		// have, the block has left the kernel. In a divergent arm the
		// flags are the arm's off flags (fission_divergent.go): the
		// threads of the other arm go on.
		if d := e.f.div; d == nil || len(d.arms) == 0 {
			fmt.Fprintf(e.w, "if !%s.Lead(%s) {\nreturn\n}\n", e.f.blk, e.f.exited)
		} else {
			fmt.Fprintf(e.w, "%s.Lead(%s)\n", e.f.blk, e.f.exited)
		}
	}
}

// regionLoops writes region r's prelude and its loops over the threads.
func (e *emitter) regionLoops(r *region) {
	f, w := e.f, e.w
	for _, p := range r.prelude {
		e.piece(p)
	}
	effective := 0
	for _, p := range r.pieces {
		if p.shfl == nil || p.shfl.valArray == "" || !p.shfl.laneConst {
			effective++
		}
	}
	if effective == 0 {
		return
	}
	refs := e.regionRefs[r.id]
	// The position variables to recompute, with those they read.
	need := map[*types.Var]bool{}
	var add func(v *types.Var)
	add = func(v *types.Var) {
		if need[v] || e.defs[v].r == r {
			return
		}
		need[v] = true
		ast.Inspect(f.defRHS(e.defs[v].stmt, v), func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if u := f.varOf(id); u != nil && f.rematVars[u] {
					add(u)
				}
			}
			return true
		})
	}
	live := e.usedVars(r)
	for v := range refs {
		if f.rematVars[v] && live[v] {
			add(v)
		}
	}
	var stmts []ast.Stmt
	for v := range need {
		if s := e.defs[v].stmt; !slices.Contains(stmts, s) {
			stmts = append(stmts, s)
		}
	}
	slices.SortFunc(stmts, stmtOrder)
	var loads, stores []*types.Var
	for v := range refs {
		if _, ok := e.arrays[v]; ok {
			stores = append(stores, v)
			if e.defs[v].r != r {
				loads = append(loads, v)
			}
		}
	}
	slices.SortFunc(loads, varOrder)
	slices.SortFunc(stores, varOrder)
	// A name declared at the top of the region must not be one the
	// region's head declares for another variable.
	head := map[string]bool{f.tname: true}
	for v := range need {
		head[v.Name()] = true
	}
	for _, v := range loads {
		head[v.Name()] = true
	}
	for _, p := range r.pieces {
		if p.stmt == nil {
			continue
		}
		for _, id := range defNames(p.stmt) {
			v, _ := f.info.Defs[id].(*types.Var)
			if v != nil && head[id.Name] && !need[v] && !slices.Contains(loads, v) {
				f.fail(id.Pos(), "%s is declared again in a scope whose loop also declares it; rename one", id.Name)
			}
		}
	}
	// The region's own declarations of position variables that only other
	// regions read are dropped (those regions recompute them).
	used := live
	// The pieces as both loops write them; a return becomes a continue of
	// the loop's label (renamed for the second loop).
	var label string
	if r.returns {
		label = f.name("nugoRegion")
	}
	var pieces []piece
	var conts []*ast.Ident
	for _, p := range r.pieces {
		if p.stmt != nil && e.isRematDef(p.stmt, r) {
			kept := false
			for _, id := range defNames(p.stmt) {
				if v, ok := f.info.Defs[id].(*types.Var); ok && used[v] {
					kept = true
				}
			}
			if !kept {
				continue
			}
			p.stmt = e.remat(p.stmt, used)
		}
		if p.stmt != nil && r.returns {
			p.stmt = e.returns(p.stmt, label, &conts)
		}
		pieces = append(pieces, p)
	}
	// A region made of one if lane == 0 visits lane 0 of each warp
	// (fission_warp.go); a lane computed from ThreadIdx().X is the lane
	// only in flat blocks.
	laneOnly, laneFlatOnly := e.laneStep(r)
	loop := func(lo, hi, thread string, flat bool) {
		// A region that can be jammed runs its threads in groups first
		// (fission_jam.go); the plain loop runs those left.
		lo = e.jam(&jamRegion{r, stmts, need, loads, stores, pieces, laneOnly}, lo, hi, thread)
		w.WriteString("{\n")
		// The label must sit right before its loop (the innermost).
		label := func() {
			if r.label != "" {
				w.WriteString(r.label + ":\n")
			}
		}
		closing, carries := "}\n", false
		switch {
		case laneOnly && (flat || !laneFlatOnly) && lo == "0" && hi == f.n:
			label()
			fmt.Fprintf(w, "for %s := 0; %s < %s; %s += %d {\n", f.ti, f.ti, f.n, f.ti, warpLanes)
		case !flat && lo == "0" && hi == f.n:
			// Every thread: a loop per dimension, carrying the thread's
			// position (flatten) and its linear index.
			fmt.Fprintf(w, "%s := %s.Dim()\n%s := 0\n", f.dim, f.blk, f.ti)
			fmt.Fprintf(w, "for %s := 0; %s < %s.Z; %s++ {\n", f.tz, f.tz, f.dim, f.tz)
			fmt.Fprintf(w, "for %s := 0; %s < %s.Y; %s++ {\n", f.ty, f.ty, f.dim, f.ty)
			label()
			fmt.Fprintf(w, "for %s := 0; %s < %s.X; %s, %s = %s+1, %s+1 {\n", f.tx, f.tx, f.dim, f.tx, f.ti, f.tx, f.ti)
			closing = "}\n}\n}\n"
			carries = true
		case !flat:
			// From a thread other than the first: the loop steps the
			// thread's position (flatten) with its linear index.
			fmt.Fprintf(w, "%s, %s, %s := %s.Pos(%s)\n", f.tx, f.ty, f.tz, f.blk, lo)
			label()
			fmt.Fprintf(w, "for %s := %s; %s < %s; %s, %s, %s, %s = %s.Step(%s, %s, %s, %s) {\n",
				f.ti, lo, f.ti, hi, f.ti, f.tx, f.ty, f.tz, f.blk, f.ti, f.tx, f.ty, f.tz)
			carries = true
		default:
			label()
			fmt.Fprintf(w, "for %s := %s; %s < %s; %s++ {\n", f.ti, lo, f.ti, hi, f.ti)
		}
		if carries {
			fmt.Fprintf(w, "%s := %s.ThreadAt(%s, %s, %s, %s)\n_ = %s\n", f.tname, f.blk, f.ti, f.tx, f.ty, f.tz, f.tname)
			f.gridMode = true
			defer func() { f.gridMode = false }()
		} else {
			fmt.Fprintf(w, "%s := %s.%s(%s)\n_ = %s\n", f.tname, f.blk, thread, f.ti, f.tname)
		}
		if f.exited != "" {
			fmt.Fprintf(w, "if %s[%s] {\ncontinue\n}\n", f.exited, f.ti)
		}
		for _, s := range stmts {
			fmt.Fprintf(w, "%s\n", f.printLines(e.remat(s, need)))
		}
		for _, v := range loads {
			fmt.Fprintf(w, "%s := %s[%s]\n", v.Name(), e.arrays[v], f.ti)
		}
		for _, p := range pieces {
			e.piece(p)
		}
		for _, v := range stores {
			fmt.Fprintf(w, "%s[%s] = %s\n", e.arrays[v], f.ti, v.Name())
		}
		w.WriteString(closing + "}\n")
	}
	// Flat blocks: the thread's x index is the loop's index.
	fmt.Fprintf(w, "if %s {\n", f.flat)
	r.label = label
	lo, hi, ok := e.bounds(r)
	if ok {
		l, h := f.name("nugoLo"), f.name("nugoHi")
		fmt.Fprintf(w, "%s, %s := %s, %s\n", l, h, lo, hi)
		lo, hi = l, h
	} else if h, ok := e.restrictedHi(r); ok {
		lo, hi = "0", h
	} else {
		lo, hi = "0", f.n
	}
	f.flatMode = true
	loop(lo, hi, "FlatThread", true)
	f.flatMode = false
	w.WriteString("} else {\n")
	if label != "" {
		r.label = f.name("nugoRegion")
		for _, id := range conts {
			id.Name = strings.ReplaceAll(id.Name, "continue "+label, "continue "+r.label)
		}
	}
	loop("0", f.n, "Thread", false)
	w.WriteString("}\n")
}

// isRematDef reports whether s, a statement of region r, declares only
// position variables (recomputed wherever they are read).
func (e *emitter) isRematDef(s ast.Stmt, r *region) bool {
	ids := defNames(s)
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		v, ok := e.f.info.Defs[id].(*types.Var)
		if id.Name != "_" && (!ok || !e.f.rematVars[v]) {
			return false
		}
	}
	return true
}

// bounds returns the range of linear thread indices that can do anything
// in a region made of one if whose condition compares the thread's x
// index with a uniform value (if tid < s, if tid == 0): the loop then
// visits those threads only, in one-dimensional blocks, where the linear
// index is x.
func (e *emitter) bounds(r *region) (lo, hi string, ok bool) {
	f := e.f
	if len(r.pieces) != 1 || r.pieces[0].stmt == nil {
		return "", "", false
	}
	is, isIf := r.pieces[0].stmt.(*ast.IfStmt)
	if !isIf || is.Init != nil || is.Else != nil {
		return "", "", false
	}
	op, u, ok := e.tidCompare(is.Cond)
	if !ok || !f.uniformExpr(u) {
		return "", "", false
	}
	clamp := func(v string) string { return fmt.Sprintf("min(max(%s, 0), %s)", v, f.n) }
	us := f.print(u)
	switch op {
	case token.LSS:
		return "0", clamp(us), true
	case token.LEQ:
		return "0", clamp("(" + us + ")+1"), true
	case token.EQL:
		return clamp(us), clamp("(" + us + ")+1"), true
	case token.GTR:
		return clamp("(" + us + ")+1"), f.n, true
	case token.GEQ:
		return clamp(us), f.n, true
	}
	return "", "", false
}

// tidCompare reads cond as a comparison of the thread's x index with
// another operand, tid op u (k < tid is read as tid > k).
func (e *emitter) tidCompare(cond ast.Expr) (op token.Token, u ast.Expr, ok bool) {
	be, isBin := ast.Unparen(cond).(*ast.BinaryExpr)
	if !isBin {
		return 0, nil, false
	}
	x, u, op := be.X, be.Y, be.Op
	if !e.isTid(x) {
		x, u = u, x
		op = map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ, token.GEQ: token.LEQ, token.EQL: token.EQL, token.NEQ: token.NEQ}[op]
	}
	return op, u, e.isTid(x)
}

// isTid reports whether x is the thread's x index: t.ThreadIdx().X, or a
// variable recomputed as that.
func (e *emitter) isTid(x ast.Expr) bool {
	x, ok := e.positionDef(x)
	return ok && e.f.isThreadX(x)
}

// positionDef returns x unparenthesised or, when x names a position
// variable (one recomputed in each region) declared with one value per
// variable, the expression it is declared with; ok is false for an
// identifier of any other variable.
func (e *emitter) positionDef(x ast.Expr) (def ast.Expr, ok bool) {
	f := e.f
	x = ast.Unparen(x)
	id, isID := x.(*ast.Ident)
	if !isID {
		return x, true
	}
	v := f.varOf(id)
	if v == nil || !f.rematVars[v] {
		return nil, false
	}
	d, found := e.defs[v]
	if !found {
		return nil, false
	}
	if as, isAssign := d.stmt.(*ast.AssignStmt); isAssign && len(as.Rhs) != len(as.Lhs) {
		return nil, false
	}
	return ast.Unparen(f.defRHS(d.stmt, v)), true
}

// remat returns declaring statement s with the variables not needed
// renamed to _.
func (e *emitter) remat(s ast.Stmt, need map[*types.Var]bool) ast.Stmt {
	blank := func(id *ast.Ident) *ast.Ident {
		if v, ok := e.f.info.Defs[id].(*types.Var); ok && need[v] {
			return id
		}
		return ast.NewIdent("_")
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		c := *s
		c.Lhs = nil
		for _, l := range s.Lhs {
			c.Lhs = append(c.Lhs, blank(l.(*ast.Ident)))
		}
		return &c
	case *ast.DeclStmt:
		gd := *s.Decl.(*ast.GenDecl)
		gd.Specs = nil
		for _, sp := range s.Decl.(*ast.GenDecl).Specs {
			vs := *sp.(*ast.ValueSpec)
			vs.Names = nil
			keep := false
			for _, id := range sp.(*ast.ValueSpec).Names {
				b := blank(id)
				keep = keep || b == id
				vs.Names = append(vs.Names, b)
			}
			if keep {
				gd.Specs = append(gd.Specs, &vs)
			}
		}
		return &ast.DeclStmt{Decl: &gd}
	}
	return s
}

// returns replaces the return statements of s: the thread leaves the
// block, and the region's loop goes on with the next thread. It adds to
// conts the identifiers whose text names the label.
func (e *emitter) returns(s ast.Stmt, label string, conts *[]*ast.Ident) ast.Stmt {
	text := "continue " + label
	if marks := e.f.exitMarks(); len(marks) > 0 {
		text = "{\n"
		for _, m := range marks {
			text += fmt.Sprintf("%s[%s] = true\n", m, e.f.ti)
		}
		text += "continue " + label + "\n}"
	}
	cont := func() ast.Stmt {
		id := &ast.Ident{Name: text}
		*conts = append(*conts, id)
		return &ast.ExprStmt{X: id}
	}
	if _, ok := s.(*ast.ReturnStmt); ok {
		return cont()
	}
	return astutil.Apply(s, func(c *astutil.Cursor) bool {
		if _, ok := c.Node().(*ast.ReturnStmt); ok {
			c.Replace(cont())
		}
		return true
	}, nil).(ast.Stmt)
}

func (e *emitter) piece(p piece) {
	if buf, ok := e.f.shared[p.stmt]; ok {
		as := p.stmt.(*ast.AssignStmt)
		call := as.Rhs[0].(*ast.CallExpr)
		if fn := e.f.g.callee(call); fn.Name() != "SharedArray" {
			// SharedArray2, SharedArray3: BlockShared2, BlockShared3.
			dims := make([]string, len(call.Args)-1)
			for i, a := range call.Args[1:] {
				dims[i] = e.f.print(a)
			}
			fmt.Fprintf(e.w, "%s := %s.BlockShared%s(&%s, %s)\n", e.f.print(as.Lhs[0]), e.f.cuda, strings.TrimPrefix(fn.Name(), "SharedArray"), buf.name, strings.Join(dims, ", "))
			return
		}
		n := call.Args[1]
		if size, ok := e.f.fixedShared(p.stmt); ok {
			fmt.Fprintf(e.w, "%s := (*[%s]%s)(%s.BlockShared(&%s, %s))\n", e.f.print(as.Lhs[0]), size, e.f.typ(buf.typ), e.f.cuda, buf.name, size)
			return
		}
		fmt.Fprintf(e.w, "%s := %s.BlockShared(&%s, %s)\n", e.f.print(as.Lhs[0]), e.f.cuda, buf.name, e.f.print(n))
		return
	}
	if p.stmt != nil {
		fmt.Fprintf(e.w, "%s\n", e.f.printLines(p.stmt))
		return
	}
	if op := p.shfl; op != nil {
		if op.valArray == "" {
			fmt.Fprintf(e.w, "%s[%s] = %s\n", op.vals, e.f.ti, e.f.print(op.val))
		}
		if !op.laneConst {
			fmt.Fprintf(e.w, "%s[%s] = int(%s)\n", op.lanes, e.f.ti, e.f.print(op.lane))
		}
		return
	}
	args := make([]any, len(p.exprs))
	for i, x := range p.exprs {
		args[i] = e.f.print(x)
	}
	fmt.Fprintf(e.w, p.text+"\n", args...)
}
