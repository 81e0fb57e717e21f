package difftest

import (
	"fmt"
	"strconv"
	"strings"
)

// The random kernel generator of FuzzCompiledMatchesNative: a small typed
// AST of Go code that can be printed as a kernel's source and evaluated
// with Go's semantics by eval.go, without compiling it into the test.

// gtype is a Go scalar type of generated code.
type gtype uint8

const (
	gI8 gtype = iota
	gI16
	gI32
	gI64
	gInt
	gU8
	gU16
	gU32
	gU64
	gUint
	gF32
	gF64
	numGTypes
)

var gNames = [...]string{"int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64", "uint", "float32", "float64"}

// String is the type's Go name.
func (t gtype) String() string { return gNames[t] }
func (t gtype) isFloat() bool  { return t == gF32 || t == gF64 }
func (t gtype) signed() bool   { return t <= gInt }
func (t gtype) bits() int {
	switch t {
	case gI8, gU8:
		return 8
	case gI16, gU16:
		return 16
	case gI32, gU32, gF32:
		return 32
	}
	return 64
}

// gvar is a variable: a kernel local, a loop counter, or a function parameter.
type gvar struct {
	name     string
	t        gtype
	readOnly bool
}

// garray is a local array of 4 elements.
type garray struct {
	name string
	t    gtype
}

// gfunc is a device function of two parameters returning one value.
type gfunc struct {
	name   string
	params [2]*gvar
	ret    gtype
	body   expr
}

type expr interface {
	typ() gtype
	isConst() bool
}

type (
	eVar struct{ v *gvar }
	// eConst holds canonical bits: sign-extended for signed integers,
	// zero-extended for unsigned ones; f for floats.
	eConst struct {
		t gtype
		i uint64
		f float64
	}
	eBin struct {
		op   string // + - * & | ^ &^ / % (integer / and % go through nz)
		t    gtype
		a, b expr
	}
	eShift struct {
		op string // << >>
		a  expr
		s  expr // any integer type; the count is uint(s) % 70
	}
	eUn struct {
		op string // - ^
		a  expr
	}
	eConv struct {
		t gtype
		a expr
	}
	eCall struct {
		f    *gfunc
		args [2]expr
	}
	eMath struct {
		fn string // "sqrt" (of |x|), "abs"
		a  expr
	}
	eMinMax struct {
		op   string // min max
		a, b expr
	}
	// eIndex reads arr[uint(idx)%4], directly or, with viaPtr, as
	// *elemPtr_T(&arr, ...): a pointer into a local array returned by a
	// device function.
	eIndex struct {
		arr    *garray
		idx    expr
		viaPtr bool
	}
	// eNew is *newVal_T(a): the address of a device function's own
	// variable, returned and dereferenced by the caller.
	eNew struct{ a expr }
	eCmp struct {
		op   string // == != < <= > >=
		a, b expr
	}
	eLogic struct {
		op   string // && || !
		a, b expr
	}
)

func (e *eVar) typ() gtype    { return e.v.t }
func (e *eConst) typ() gtype  { return e.t }
func (e *eBin) typ() gtype    { return e.t }
func (e *eShift) typ() gtype  { return e.a.typ() }
func (e *eUn) typ() gtype     { return e.a.typ() }
func (e *eConv) typ() gtype   { return e.t }
func (e *eCall) typ() gtype   { return e.f.ret }
func (e *eMath) typ() gtype   { return e.a.typ() }
func (e *eMinMax) typ() gtype { return e.a.typ() }
func (e *eIndex) typ() gtype  { return e.arr.t }
func (e *eNew) typ() gtype    { return e.a.typ() }
func (e *eCmp) typ() gtype    { return numGTypes } // bool
func (e *eLogic) typ() gtype  { return numGTypes }

func (e *eVar) isConst() bool    { return false }
func (e *eConst) isConst() bool  { return true }
func (e *eBin) isConst() bool    { return e.a.isConst() && e.b.isConst() }
func (e *eShift) isConst() bool  { return e.a.isConst() && e.s.isConst() }
func (e *eUn) isConst() bool     { return e.a.isConst() }
func (e *eConv) isConst() bool   { return e.a.isConst() }
func (e *eCall) isConst() bool   { return false }
func (e *eMath) isConst() bool   { return false }
func (e *eMinMax) isConst() bool { return e.a.isConst() && e.b.isConst() }
func (e *eIndex) isConst() bool  { return false }
func (e *eNew) isConst() bool    { return false }
func (e *eCmp) isConst() bool    { return e.a.isConst() && e.b.isConst() }
func (e *eLogic) isConst() bool  { return false }

type stmt interface{}

type (
	sAssign struct {
		v *gvar
		e expr
	}
	// sArrSet is arr[uint(idx)%4] = e, or with viaPtr
	// *elemPtr_T(&arr, uint(idx)) = e.
	sArrSet struct {
		arr    *garray
		idx    expr
		e      expr
		viaPtr bool
	}
	// sPick is *pick_T(&a, &b, cond) = e: a device function choosing
	// between two pointers to the caller's variables.
	sPick struct {
		a, b *gvar
		cond expr
		e    expr
	}
	// sDeep is setDeep_T(&v, e, n) or setDeep_T(&arr[uint(idx)%4], e, n):
	// a recursive device function (a real call, never inlined) that
	// stores through a pointer into the caller's locals.
	sDeep struct {
		v   *gvar
		arr *garray // instead of v when set
		idx expr
		e   expr
		n   int
	}
	// sSwap is w = swapAdd_T(&v, e): the function adds e to *v through
	// the pointer and returns the old value (w may be v itself).
	sSwap struct {
		w, v *gvar
		e    expr
	}
	sIf struct {
		cond      expr
		then, els []stmt
	}
	sFor struct {
		k    *gvar
		n    int
		body []stmt
	}
	// sMulti is a parallel assignment "a, b = ea, eb": both sides are
	// evaluated before either variable changes (phi copies in loops).
	sMulti struct {
		a, b   *gvar
		ea, eb expr
	}
	// sJump is "if cond { break }" or "if cond { continue }" in a loop.
	sJump struct {
		cond    expr
		isBreak bool
	}
	// sShared publishes src in a shared array, synchronises the block and
	// reads a neighbour's value into dst.
	sShared struct {
		src   expr
		dst   *gvar
		shift int
	}
)

// program is a generated kernel.
type program struct {
	funcs    []*gfunc
	locals   []*gvar // initialised from the inputs, written to the outputs
	arrays   []*garray
	body     []stmt
	ptrTypes map[gtype]bool // types whose pointer helpers the program uses
	nIn      int            // int64 inputs per thread
	nFIn     int            // float64 inputs per thread
}

// Launch shape of generated kernels: every thread has its inputs, no guard.
const (
	genBlock   = 64
	genBlocks  = 2
	genThreads = genBlock * genBlocks
)

// source is the randomness of the generator: the fuzzer's bytes, then a
// generator seeded by them.
type source struct {
	data []byte
	pos  int
	x    uint64
}

func newSource(data []byte) *source {
	s := &source{data: data, x: 0x9E3779B97F4A7C15}
	for _, b := range data {
		s.x = (s.x ^ uint64(b)) * 0x100000001B3
	}
	return s
}

func (s *source) intn(n int) int {
	if n <= 1 {
		return 0
	}
	if s.pos < len(s.data) {
		b := s.data[s.pos]
		s.pos++
		return int(b) % n
	}
	s.x ^= s.x << 13
	s.x ^= s.x >> 7
	s.x ^= s.x << 17
	return int(s.x % uint64(n))
}

func (s *source) u64() uint64 {
	var v uint64
	for i := 0; i < 8; i++ {
		v = v<<8 | uint64(s.intn(256))
	}
	return v
}

type gen struct {
	src    *source
	p      *program
	scope  []*gvar
	inFunc bool
	nvars  int
	loops  int // enclosing loops of the statement being generated
}

// generate builds a random well-typed program.
func generate(data []byte) *program {
	g := &gen{src: newSource(data), p: &program{ptrTypes: map[gtype]bool{}}}
	r := g.src
	// device functions first: they see only their parameters
	for i, n := 0, r.intn(3); i < n; i++ {
		f := &gfunc{name: fmt.Sprintf("f%d", i), ret: gtype(r.intn(int(numGTypes)))}
		for j := range f.params {
			f.params[j] = &gvar{name: fmt.Sprintf("p%d", j), t: gtype(r.intn(int(numGTypes))), readOnly: true}
		}
		if f.params[0].t.isFloat() { // keep an integer in scope
			f.params[0].t = gI32
		}
		g.scope = f.params[:]
		g.inFunc = true
		f.body = g.expr(f.ret, 3, false)
		g.inFunc = false
		g.p.funcs = append(g.p.funcs, f)
	}
	g.scope = nil
	for i, n := 0, 3+r.intn(6); i < n; i++ {
		v := &gvar{name: fmt.Sprintf("v%d", i), t: gtype(r.intn(int(numGTypes)))}
		if i == 0 && v.t.isFloat() { // keep an integer in scope
			v.t = gI64
		}
		if v.t.isFloat() {
			g.p.nFIn++
		} else {
			g.p.nIn++
		}
		g.p.locals = append(g.p.locals, v)
		g.scope = append(g.scope, v)
	}
	for i, n := 0, r.intn(3); i < n; i++ {
		g.p.arrays = append(g.p.arrays, &garray{name: fmt.Sprintf("a%d", i), t: gtype(r.intn(int(numGTypes)))})
	}
	g.p.body = g.stmts(2+r.intn(8), 2, true)
	return g.p
}

func (g *gen) writable() []*gvar {
	var out []*gvar
	for _, v := range g.scope {
		if !v.readOnly {
			out = append(out, v)
		}
	}
	return out
}

func (g *gen) stmts(n, depth int, top bool) []stmt {
	var out []stmt
	r := g.src
	for i := 0; i < n; i++ {
		k := r.intn(15)
		switch {
		case k == 12:
			ws := g.writable()
			a := ws[r.intn(len(ws))]
			var same []*gvar
			for _, w := range ws {
				if w.t == a.t {
					same = append(same, w)
				}
			}
			b := same[r.intn(len(same))] // may be a itself
			g.p.ptrTypes[a.t] = true
			out = append(out, &sPick{a: a, b: b, cond: g.cond(1), e: g.expr(a.t, 2, false)})
		case k == 13:
			d := &sDeep{n: r.intn(3)}
			var t gtype
			if len(g.p.arrays) > 0 && r.intn(2) == 0 {
				d.arr = g.p.arrays[r.intn(len(g.p.arrays))]
				d.idx = g.intExpr(1)
				t = d.arr.t
			} else {
				ws := g.writable()
				d.v = ws[r.intn(len(ws))]
				t = d.v.t
			}
			d.e = g.expr(t, 2, false)
			g.p.ptrTypes[t] = true
			out = append(out, d)
		case k == 14:
			ws := g.writable()
			v := ws[r.intn(len(ws))]
			w := v
			if r.intn(2) == 0 {
				w = ws[r.intn(len(ws))]
			}
			if w.t != v.t {
				w = v
			}
			g.p.ptrTypes[v.t] = true
			out = append(out, &sSwap{w: w, v: v, e: g.expr(v.t, 2, false)})
		case k == 10:
			ws := g.writable()
			a, b := ws[r.intn(len(ws))], ws[r.intn(len(ws))]
			if a == b {
				continue
			}
			out = append(out, &sMulti{a: a, b: b, ea: g.expr(a.t, 2, false), eb: g.expr(b.t, 2, false)})
		case k == 11:
			if g.loops > 0 {
				out = append(out, &sJump{cond: g.cond(1), isBreak: r.intn(2) == 0})
			}
		case k < 4 || depth == 0:
			ws := g.writable()
			v := ws[r.intn(len(ws))]
			out = append(out, &sAssign{v: v, e: g.expr(v.t, 3, false)})
		case k < 5 && len(g.p.arrays) > 0:
			a := g.p.arrays[r.intn(len(g.p.arrays))]
			s := &sArrSet{arr: a, idx: g.intExpr(2), e: g.expr(a.t, 2, false), viaPtr: r.intn(3) == 0}
			if s.viaPtr {
				g.p.ptrTypes[a.t] = true
			}
			out = append(out, s)
		case k < 7:
			s := &sIf{cond: g.cond(2), then: g.stmts(1+r.intn(3), depth-1, false)}
			if r.intn(2) == 0 {
				s.els = g.stmts(1+r.intn(2), depth-1, false)
			}
			out = append(out, s)
		case k < 9:
			g.nvars++
			kv := &gvar{name: fmt.Sprintf("k%d", g.nvars), t: gInt, readOnly: true}
			g.scope = append(g.scope, kv)
			g.loops++
			s := &sFor{k: kv, n: 1 + r.intn(4), body: g.stmts(1+r.intn(3), depth-1, false)}
			g.loops--
			g.scope = g.scope[:len(g.scope)-1]
			out = append(out, s)
		case top:
			ws := g.writable()
			out = append(out, &sShared{src: g.expr(gI64, 2, false), dst: ws[r.intn(len(ws))], shift: 1 + r.intn(genBlock-1)})
		}
	}
	return out
}

func (g *gen) intExpr(depth int) expr {
	t := gtype(g.src.intn(int(gU64) + 2))
	if t > gUint {
		t = gUint
	}
	return g.expr(t, depth, true) // uint(constant) may not compile
}

func (g *gen) cond(depth int) expr {
	r := g.src
	switch r.intn(6) {
	case 0:
		return &eLogic{op: "&&", a: g.cond(depth - 1), b: g.cond(depth - 1)}
	case 1:
		return &eLogic{op: "||", a: g.cond(depth - 1), b: g.cond(depth - 1)}
	case 2:
		if depth > 0 {
			return &eLogic{op: "!", a: g.cond(depth - 1)}
		}
	}
	t := gtype(r.intn(int(numGTypes)))
	ops := []string{"==", "!=", "<", "<=", ">", ">="}
	return &eCmp{op: ops[r.intn(len(ops))], a: g.expr(t, 2, true), b: g.expr(t, 2, false)}
}

var floatConsts = []float64{0, 1, -1, 0.5, 2.5, -3.25, 1024, 0.125, 3, 7, 1e10, -65536}

// nearWrapConsts are the points where integer conversions wrap: 2^63, 2^31,
// 2^32 and their negations.
var nearWrapConsts = []uint64{1 << 63, 1 << 31, 1 << 32, 1<<64 - 1<<31, 1<<64 - 1<<32, 1 << 62, 1<<64 - 1<<62}

func (g *gen) constant(t gtype) *eConst {
	r := g.src
	if t.isFloat() {
		return &eConst{t: t, f: floatConsts[r.intn(len(floatConsts))]}
	}
	var v uint64
	switch r.intn(5) {
	case 0:
		v = uint64(r.intn(10))
	case 1:
		v = uint64(int64(r.intn(10)) - 5)
	case 2:
		// Near 2^63 and 2^31, where conversions wrap (issue 21 item 0).
		v = nearWrapConsts[r.intn(len(nearWrapConsts))] + uint64(int64(r.intn(5))-2)
	default:
		v = r.u64()
	}
	if !t.signed() && int64(v) < 0 && r.intn(2) == 0 {
		v = -v
	}
	return &eConst{t: t, i: normalize(t, v)}
}

func (g *gen) leaf(t gtype, nonConst bool) expr {
	var same, ints []*gvar
	for _, v := range g.scope {
		if v.t == t {
			same = append(same, v)
		}
		if !v.t.isFloat() {
			ints = append(ints, v)
		}
	}
	if len(same) > 0 && (nonConst || g.src.intn(3) != 0) {
		return &eVar{v: same[g.src.intn(len(same))]}
	}
	if nonConst || len(same) == 0 && g.src.intn(2) == 0 {
		// a variable of another type, converted: integer conversions are
		// defined for every value (the generator keeps an integer in scope)
		return &eConv{t: t, a: &eVar{v: ints[g.src.intn(len(ints))]}}
	}
	return g.constant(t)
}

// floatToInt converts a float expression of type ft to the integer type t
// the one way Go defines for every input: through int32, of a value known
// to be small (a converted int16 times a small constant).
func (g *gen) floatToInt(t, ft gtype) expr {
	i16 := g.leaf(gI16, true)
	small := &eBin{op: "*", t: ft, a: &eConv{t: ft, a: i16}, b: &eConst{t: ft, f: []float64{0.5, 1.25, -3}[g.src.intn(3)]}}
	var e expr = &eConv{t: gI32, a: small}
	if t != gI32 {
		e = &eConv{t: t, a: e}
	}
	return e
}

// expr generates an expression of type t; nonConst forbids constant
// expressions (whose overflow Go rejects at compile time).
func (g *gen) expr(t gtype, depth int, nonConst bool) expr {
	r := g.src
	if depth <= 0 {
		return g.leaf(t, nonConst)
	}
	k := r.intn(12)
	if t.isFloat() {
		switch k {
		case 0, 1, 2, 3:
			ops := []string{"+", "-", "*", "/"}
			a := g.expr(t, depth-1, true)
			return &eBin{op: ops[r.intn(4)], t: t, a: a, b: g.expr(t, depth-1, false)}
		case 4:
			return &eUn{op: "-", a: g.expr(t, depth-1, true)}
		case 5:
			src := gtype(r.intn(int(numGTypes)))
			return &eConv{t: t, a: g.expr(src, depth-1, true)}
		case 6:
			return &eMath{fn: []string{"sqrt", "abs"}[r.intn(2)], a: g.expr(t, depth-1, false)}
		case 7:
			return &eMinMax{op: []string{"min", "max"}[r.intn(2)], a: g.expr(t, depth-1, true), b: g.expr(t, depth-1, false)}
		case 8:
			if f := g.pickFunc(t); f != nil {
				return g.call(f, depth)
			}
		case 9:
			if a := g.pickArray(t); a != nil {
				return g.index(a, depth)
			}
		case 10:
			if !g.inFunc {
				g.p.ptrTypes[t] = true
				return &eNew{a: g.expr(t, depth-1, false)}
			}
		}
		return g.leaf(t, nonConst)
	}
	switch k {
	case 0, 1, 2:
		ops := []string{"+", "-", "*", "&", "|", "^", "&^"}
		return &eBin{op: ops[r.intn(len(ops))], t: t, a: g.expr(t, depth-1, true), b: g.expr(t, depth-1, false)}
	case 3:
		return &eBin{op: []string{"/", "%"}[r.intn(2)], t: t, a: g.expr(t, depth-1, true), b: g.expr(t, depth-1, false)}
	case 4:
		return &eShift{op: []string{"<<", ">>"}[r.intn(2)], a: g.expr(t, depth-1, true), s: g.intExpr(depth - 1)}
	case 5:
		return &eUn{op: []string{"-", "^"}[r.intn(2)], a: g.expr(t, depth-1, true)}
	case 6:
		src := gtype(r.intn(int(numGTypes)))
		if src.isFloat() {
			return g.floatToInt(t, src)
		}
		return &eConv{t: t, a: g.expr(src, depth-1, true)}
	case 7:
		return &eMinMax{op: []string{"min", "max"}[r.intn(2)], a: g.expr(t, depth-1, true), b: g.expr(t, depth-1, false)}
	case 8:
		if f := g.pickFunc(t); f != nil {
			return g.call(f, depth)
		}
	case 9:
		if a := g.pickArray(t); a != nil {
			return g.index(a, depth)
		}
	case 10:
		if !g.inFunc {
			g.p.ptrTypes[t] = true
			return &eNew{a: g.expr(t, depth-1, false)}
		}
	}
	return g.leaf(t, nonConst)
}

func (g *gen) pickFunc(t gtype) *gfunc {
	if g.inFunc {
		return nil
	}
	for _, f := range g.p.funcs {
		if f.ret == t {
			return f
		}
	}
	return nil
}

func (g *gen) pickArray(t gtype) *garray {
	if g.inFunc {
		return nil
	}
	for _, a := range g.p.arrays {
		if a.t == t {
			return a
		}
	}
	return nil
}

// index reads an element of a local array, directly or through a pointer
// returned by a device function.
func (g *gen) index(a *garray, depth int) expr {
	e := &eIndex{arr: a, idx: g.intExpr(depth - 1), viaPtr: g.src.intn(3) == 0}
	if e.viaPtr {
		g.p.ptrTypes[a.t] = true
	}
	return e
}

func (g *gen) call(f *gfunc, depth int) expr {
	c := &eCall{f: f}
	for i, p := range f.params {
		c.args[i] = g.expr(p.t, depth-1, false)
	}
	return c
}

// normalize truncates x to t's width and extends it canonically.
func normalize(t gtype, x uint64) uint64 {
	w := t.bits()
	if w == 64 || t.isFloat() {
		return x
	}
	if t.signed() {
		return uint64(int64(x<<(64-w)) >> (64 - w))
	}
	return x & (1<<w - 1)
}

// Source prints the program as the Go source of package fuzzkernel with
// kernel "kernel".
func (p *program) Source() string {
	var b strings.Builder
	b.WriteString("package fuzzkernel\n\nimport (\n\t\"math\"\n\n\t\"github.com/nugo-dev/nugo/cuda\"\n)\n\n")
	for _, t := range gNames[:gF32] {
		fmt.Fprintf(&b, "func nz_%s(v %s) %s {\n\tif v == 0 {\n\t\treturn 1\n\t}\n\treturn v\n}\n\n", t, t, t)
	}
	for _, f := range p.funcs {
		fmt.Fprintf(&b, "func %s(p0 %s, p1 %s) %s {\n\treturn %s\n}\n\n", f.name, f.params[0].t, f.params[1].t, f.ret, printExpr(f.body))
	}
	for t := range numGTypes {
		if p.ptrTypes[t] {
			fmt.Fprintf(&b, ptrHelpers, t)
		}
	}
	b.WriteString("func kernel(t cuda.Thread, in []int64, fin []float64, out []int64, fout []float64) {\n\ti := t.Grid1()\n")
	ni, nf := 0, 0
	for _, v := range p.locals {
		if v.t.isFloat() {
			fmt.Fprintf(&b, "\t%s := %s(fin[i*%d+%d])\n", v.name, v.t, max(p.nFIn, 1), nf)
			nf++
		} else {
			fmt.Fprintf(&b, "\t%s := %s(in[i*%d+%d])\n", v.name, v.t, max(p.nIn, 1), ni)
			ni++
		}
	}
	for _, a := range p.arrays {
		fmt.Fprintf(&b, "\tvar %s [4]%s\n", a.name, a.t)
	}
	printStmts(&b, p.body, 1)
	no, nfo := p.outputs()
	oi, of := 0, 0
	for _, v := range p.locals {
		if v.t.isFloat() {
			fmt.Fprintf(&b, "\tfout[i*%d+%d] = float64(%s)\n", nfo, of, v.name)
			of++
		} else {
			fmt.Fprintf(&b, "\tout[i*%d+%d] = int64(%s)\n", no, oi, v.name)
			oi++
		}
	}
	for _, a := range p.arrays {
		for j := 0; j < 4; j++ {
			if a.t.isFloat() {
				fmt.Fprintf(&b, "\tfout[i*%d+%d] = float64(%s[%d])\n", nfo, of, a.name, j)
				of++
			} else {
				fmt.Fprintf(&b, "\tout[i*%d+%d] = int64(%s[%d])\n", no, oi, a.name, j)
				oi++
			}
		}
	}
	fmt.Fprintf(&b, "\tfout[i*%d+%d] = math.Abs(float64(i) - 0.5)\n}\n", nfo, of)
	return b.String()
}

// ptrHelpers are the device functions of type %[1]s that take and return
// pointers into the caller's locals (issue 21, item 1).
const ptrHelpers = `func elemPtr_%[1]s(a *[4]%[1]s, i uint) *%[1]s {
	return &a[i%%4]
}

func newVal_%[1]s(v %[1]s) *%[1]s {
	x := v
	return &x
}

func pick_%[1]s(a, b *%[1]s, first bool) *%[1]s {
	if first {
		return a
	}
	return b
}

func setDeep_%[1]s(p *%[1]s, v %[1]s, n int) {
	if n > 0 {
		setDeep_%[1]s(p, v, n-1)
		return
	}
	*p = v
}

func swapAdd_%[1]s(p *%[1]s, x %[1]s) %[1]s {
	old := *p
	*p = old + x
	return old
}

`

// outputs is the number of int64 and float64 results per thread.
func (p *program) outputs() (int, int) {
	no, nf := 0, 1 // the last float output uses math
	for _, v := range p.locals {
		if v.t.isFloat() {
			nf++
		} else {
			no++
		}
	}
	for _, a := range p.arrays {
		if a.t.isFloat() {
			nf += 4
		} else {
			no += 4
		}
	}
	return max(no, 1), nf
}

func printStmts(b *strings.Builder, ss []stmt, ind int) {
	tab := strings.Repeat("\t", ind)
	for _, s := range ss {
		switch s := s.(type) {
		case *sAssign:
			fmt.Fprintf(b, "%s%s = %s\n", tab, s.v.name, printExpr(s.e))
		case *sArrSet:
			if s.viaPtr {
				fmt.Fprintf(b, "%s*elemPtr_%s(&%s, uint(%s)) = %s\n", tab, s.arr.t, s.arr.name, printExpr(s.idx), printExpr(s.e))
				break
			}
			fmt.Fprintf(b, "%s%s[uint(%s)%%4] = %s\n", tab, s.arr.name, printExpr(s.idx), printExpr(s.e))
		case *sPick:
			fmt.Fprintf(b, "%s*pick_%s(&%s, &%s, %s) = %s\n", tab, s.a.t, s.a.name, s.b.name, printExpr(s.cond), printExpr(s.e))
		case *sDeep:
			if s.arr != nil {
				fmt.Fprintf(b, "%ssetDeep_%s(&%s[uint(%s)%%4], %s, %d)\n", tab, s.arr.t, s.arr.name, printExpr(s.idx), printExpr(s.e), s.n)
				break
			}
			fmt.Fprintf(b, "%ssetDeep_%s(&%s, %s, %d)\n", tab, s.v.t, s.v.name, printExpr(s.e), s.n)
		case *sSwap:
			fmt.Fprintf(b, "%s%s = swapAdd_%s(&%s, %s)\n", tab, s.w.name, s.v.t, s.v.name, printExpr(s.e))
		case *sIf:
			fmt.Fprintf(b, "%sif %s {\n", tab, printExpr(s.cond))
			printStmts(b, s.then, ind+1)
			if len(s.els) > 0 {
				fmt.Fprintf(b, "%s} else {\n", tab)
				printStmts(b, s.els, ind+1)
			}
			fmt.Fprintf(b, "%s}\n", tab)
		case *sFor:
			fmt.Fprintf(b, "%sfor %s := 0; %s < %d; %s++ {\n", tab, s.k.name, s.k.name, s.n, s.k.name)
			printStmts(b, s.body, ind+1)
			fmt.Fprintf(b, "%s}\n", tab)
		case *sMulti:
			fmt.Fprintf(b, "%s%s, %s = %s, %s\n", tab, s.a.name, s.b.name, printExpr(s.ea), printExpr(s.eb))
		case *sJump:
			word := "continue"
			if s.isBreak {
				word = "break"
			}
			fmt.Fprintf(b, "%sif %s {\n%s\t%s\n%s}\n", tab, printExpr(s.cond), tab, word, tab)
		case *sShared:
			fmt.Fprintf(b, "%s{\n%s\tsh := cuda.SharedArray[int64](t, %d)\n%s\ttid := t.ThreadIdx().X\n", tab, tab, genBlock, tab)
			fmt.Fprintf(b, "%s\tsh[tid] = %s\n%s\tt.SyncThreads()\n", tab, printExpr(s.src), tab)
			fmt.Fprintf(b, "%s\t%s = %s(sh[(tid+%d)%%%d])\n%s}\n", tab, s.dst.name, s.dst.t, s.shift, genBlock, tab)
		}
	}
}

func printExpr(e expr) string {
	switch e := e.(type) {
	case *eVar:
		return e.v.name
	case *eConst:
		if e.t.isFloat() {
			return fmt.Sprintf("%s(%s)", e.t, strconv.FormatFloat(e.f, 'g', -1, 64))
		}
		if e.t.signed() {
			return fmt.Sprintf("%s(%d)", e.t, int64(e.i))
		}
		return fmt.Sprintf("%s(%d)", e.t, e.i)
	case *eBin:
		if !e.t.isFloat() && (e.op == "/" || e.op == "%") {
			// A non-zero constant divisor stays a constant, so that the
			// compiler's division by constants is fuzzed too.
			if c, ok := e.b.(*eConst); ok && c.i != 0 && !e.a.isConst() {
				return fmt.Sprintf("(%s %s %s)", printExpr(e.a), e.op, printExpr(e.b))
			}
			return fmt.Sprintf("(%s %s nz_%s(%s))", printExpr(e.a), e.op, e.t, printExpr(e.b))
		}
		return fmt.Sprintf("(%s %s %s)", printExpr(e.a), e.op, printExpr(e.b))
	case *eShift:
		return fmt.Sprintf("(%s %s (uint(%s) %% 70))", printExpr(e.a), e.op, printExpr(e.s))
	case *eUn:
		return fmt.Sprintf("(%s%s)", e.op, printExpr(e.a))
	case *eConv:
		return fmt.Sprintf("%s(%s)", e.t, printExpr(e.a))
	case *eCall:
		return fmt.Sprintf("%s(%s, %s)", e.f.name, printExpr(e.args[0]), printExpr(e.args[1]))
	case *eMath:
		inner := printExpr(e.a)
		arg := inner
		if e.a.typ() == gF32 {
			arg = "float64(" + inner + ")"
		}
		call := "math.Abs(" + arg + ")"
		if e.fn == "sqrt" {
			call = "math.Sqrt(math.Abs(" + arg + "))"
		}
		if e.a.typ() == gF32 {
			return "float32(" + call + ")"
		}
		return call
	case *eMinMax:
		return fmt.Sprintf("%s(%s, %s)", e.op, printExpr(e.a), printExpr(e.b))
	case *eIndex:
		if e.viaPtr {
			return fmt.Sprintf("(*elemPtr_%s(&%s, uint(%s)))", e.arr.t, e.arr.name, printExpr(e.idx))
		}
		return fmt.Sprintf("%s[uint(%s)%%4]", e.arr.name, printExpr(e.idx))
	case *eNew:
		return fmt.Sprintf("(*newVal_%s(%s))", e.a.typ(), printExpr(e.a))
	case *eCmp:
		return fmt.Sprintf("(%s %s %s)", printExpr(e.a), e.op, printExpr(e.b))
	case *eLogic:
		if e.op == "!" {
			return fmt.Sprintf("(!%s)", printExpr(e.a))
		}
		return fmt.Sprintf("(%s %s %s)", printExpr(e.a), e.op, printExpr(e.b))
	}
	panic(fmt.Sprintf("printExpr: %T", e))
}
