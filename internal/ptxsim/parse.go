package ptxsim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

type okind uint8

const (
	okReg  okind = iota // register (or special register slot)
	okImm               // numeric literal
	okSym               // variable or parameter (address-valued)
	okName              // unresolved name: label or function
	okAddr              // [base+off]
	okVec               // {a, b, ...}
	okList              // (a, b, ...)
	okSink              // _
)

type operand struct {
	kind  okind
	reg   int32
	not   bool // !%p
	num   string
	neg   bool // -literal
	sym   *symRef
	name  string
	base  *operand // okAddr: register, symbol or nil (absolute)
	off   int64    // okAddr / okSym offset
	elems []operand
}

type symRef struct {
	v *variable // module or function variable
	p *param    // parameter (entry param or function .param)
	// frame-resident (function .param, call-scope .param, .local var)
	frame bool
}

type rawInst struct {
	line   int
	text   string
	guard  int32
	gneg   bool
	opcode string
	ops    []operand
	pipe   bool // setp p|q
}

type fnState struct {
	f        *function
	regs     map[string]int32
	regTypes []ptype
	scopes   []map[string]*symRef
	raw      []rawInst
	labels   map[string]int
}

type parser struct {
	toks  []token
	pos   int
	src   []string // source lines, for error text
	m     *Module
	mvars map[string]*symRef
	fs    []*fnState
}

// ParseError is a syntax or decoding error with its PTX line.
type ParseError struct {
	Line int
	Text string // the offending source line, trimmed
	Msg  string
}

// Error gives the line, the message and the source line.
func (e *ParseError) Error() string {
	if e.Text != "" {
		return fmt.Sprintf("ptx line %d: %s (in %q)", e.Line, e.Msg, e.Text)
	}
	return fmt.Sprintf("ptx line %d: %s", e.Line, e.Msg)
}

func (p *parser) errf(line int, format string, args ...any) error {
	text := ""
	if line >= 1 && line <= len(p.src) {
		text = strings.TrimSpace(p.src[line-1])
	}
	return &ParseError{Line: line, Text: text, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) peek() token { return p.toks[p.pos] }

// peekAt is the token i places ahead (EOF past the end).
func (p *parser) peekAt(i int) token { return p.toks[min(p.pos+i, len(p.toks)-1)] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tkEOF {
		p.pos++
	}
	return t
}
func (p *parser) is(s string) bool {
	t := p.toks[p.pos]
	return (t.kind == tkPunct || t.kind == tkWord) && t.text == s
}
func (p *parser) accept(s string) bool {
	if p.is(s) {
		p.pos++
		return true
	}
	return false
}
func (p *parser) expect(s string) error {
	t := p.next()
	if (t.kind == tkPunct || t.kind == tkWord) && t.text == s {
		return nil
	}
	return p.errf(t.line, "expected %q, found %s", s, t)
}

func (p *parser) skipLine(line int) {
	for p.peek().kind != tkEOF && p.peek().line == line {
		p.pos++
	}
}

// parseFileDirective records `.file N "name"` (and skips a timestamp and
// size after it): the file that .loc directives call N.
func (p *parser) parseFileDirective(line int) {
	defer p.skipLine(line)
	n, name := p.peek(), p.peekAt(1)
	if n.kind != tkNum || n.line != line || name.kind != tkStr || name.line != line {
		return
	}
	id, err := strconv.Atoi(n.text)
	if err != nil {
		return
	}
	if p.m.files == nil {
		p.m.files = map[int]string{}
	}
	if s, err := strconv.Unquote(`"` + name.text + `"`); err == nil {
		p.m.files[id] = s
	} else {
		p.m.files[id] = name.text
	}
}

// parseLoc records `.loc file line col` (and skips the inlining
// information PTX allows after it) as the source of the code after it.
func (p *parser) parseLoc(fs *fnState, line int) {
	defer p.skipLine(line)
	var nums [3]int
	for i := range nums {
		t := p.peekAt(i)
		if t.kind != tkNum || t.line != line {
			if i < 2 {
				return // no file and line: not a position
			}
			break
		}
		nums[i], _ = strconv.Atoi(t.text)
	}
	fs.f.locs = append(fs.f.locs, srcLoc{ptxLine: line, file: nums[0], line: nums[1], col: nums[2]})
}

// resolveLocs names the files of the .loc directives, once every .file
// has been read.
func (p *parser) resolveLocs() {
	for _, fs := range p.fs {
		for i := range fs.f.locs {
			l := &fs.f.locs[i]
			name, ok := p.m.files[l.file]
			if !ok || l.line <= 0 {
				continue
			}
			l.pos = fmt.Sprintf("%s:%d", name, l.line)
			if l.col > 0 {
				l.pos += fmt.Sprintf(":%d", l.col)
			}
		}
	}
}

func (p *parser) skipTo(s string) {
	for p.peek().kind != tkEOF && !p.is(s) {
		p.pos++
	}
	p.accept(s)
}

// Parse parses and pre-decodes PTX source.
func Parse(src string) (m *Module, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("ptxsim: internal error while parsing: %v", r)
		}
	}()
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, src: strings.Split(src, "\n"), m: &Module{funcs: map[string]*function{}, sharedAlign: 16}, mvars: map[string]*symRef{}}
	if err := p.parseModule(); err != nil {
		return nil, err
	}
	p.layoutModule()
	p.resolveLocs()
	for _, fs := range p.fs {
		if err := p.decodeFunction(fs); err != nil {
			return nil, err
		}
	}
	if p.m.usesActivemask() {
		for _, f := range p.m.funcs {
			f.trackDivergence()
		}
	}
	return p.m, nil
}

func (p *parser) parseModule() error {
	extern := false
	for p.peek().kind != tkEOF {
		t := p.next()
		if t.kind != tkWord {
			if t.kind == tkPunct && t.text == ";" {
				continue
			}
			return p.errf(t.line, "unexpected %s at module level", t)
		}
		switch t.text {
		case ".version":
			p.m.Version = p.next().text
		case ".target":
			var parts []string
			parts = append(parts, p.next().text)
			for p.accept(",") {
				parts = append(parts, p.next().text)
			}
			p.m.Target = strings.Join(parts, ",")
		case ".address_size":
			n, _ := strconv.Atoi(p.next().text)
			p.m.AddressSize = n
			if n != 64 {
				return p.errf(t.line, ".address_size %d is not supported; only 64", n)
			}
		case ".visible", ".weak", ".common":
		case ".extern":
			extern = true
			continue
		case ".entry", ".func":
			if err := p.parseFunction(t, t.text == ".entry", extern); err != nil {
				return err
			}
		case ".global", ".const", ".shared", ".local":
			if err := p.parseVarDecl(spaceNames[t.text[1:]], nil, extern, t.line); err != nil {
				return err
			}
		case ".file":
			p.parseFileDirective(t.line)
		case ".loc":
			p.skipLine(t.line)
		case ".pragma":
			p.skipTo(";")
		case ".section":
			p.skipTo("{")
			depth := 1
			for depth > 0 && p.peek().kind != tkEOF {
				if p.is("{") {
					depth++
				} else if p.is("}") {
					depth--
				}
				p.pos++
			}
		default:
			return p.errf(t.line, "unsupported module directive %s", t.text)
		}
		extern = false
	}
	return nil
}

func align(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// parseParamList parses "( .param .u64 a, .reg .b32 %b, ... )".
func (p *parser) parseParamList(fs *fnState, entry bool) ([]param, error) {
	var out []param
	if err := p.expect("("); err != nil {
		return nil, err
	}
	for !p.accept(")") {
		if len(out) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		t := p.next()
		var pr param
		switch t.text {
		case ".param":
		case ".reg":
			pr.isReg = true
		default:
			return nil, p.errf(t.line, "expected .param or .reg in parameter list, found %s", t)
		}
		for {
			w := p.peek()
			if w.kind != tkWord || !strings.HasPrefix(w.text, ".") {
				break
			}
			p.pos++
			switch {
			case w.text == ".align":
				n, err := strconv.Atoi(p.next().text)
				if err != nil {
					return nil, p.errf(w.line, "bad .align")
				}
				pr.align = n
			case w.text == ".ptr" || w.text == ".global" || w.text == ".shared" || w.text == ".const" || w.text == ".local":
			default:
				ty, ok := typeNames[w.text[1:]]
				if !ok {
					return nil, p.errf(w.line, "unsupported parameter attribute %s", w.text)
				}
				pr.ty = ty
			}
		}
		if pr.ty == tNone {
			return nil, p.errf(t.line, "parameter without a type")
		}
		name := p.next()
		if name.kind != tkWord {
			return nil, p.errf(name.line, "expected parameter name, found %s", name)
		}
		pr.name = name.text
		pr.size = pr.ty.size()
		if p.accept("[") {
			n, err := strconv.Atoi(p.next().text)
			if err != nil {
				return nil, p.errf(name.line, "bad array size")
			}
			if err := p.expect("]"); err != nil {
				return nil, err
			}
			pr.size *= n
		}
		if pr.align == 0 {
			pr.align = pr.ty.size()
		}
		if pr.isReg {
			pr.reg = fs.addReg(pr.name, pr.ty)
		}
		out = append(out, pr)
	}
	return out, nil
}

func (fs *fnState) addReg(name string, ty ptype) int32 {
	idx := int32(numFixedSlots + len(fs.regTypes))
	fs.regTypes = append(fs.regTypes, ty)
	fs.regs[name] = idx
	fs.f.regNames = append(fs.f.regNames, name)
	return idx
}

func (fs *fnState) allocFrame(size, al int) int {
	if al < 1 {
		al = 1
	}
	off := align(fs.f.frameSize, al)
	fs.f.frameSize = off + size
	return off
}

func (p *parser) parseFunction(t token, entry, extern bool) error {
	f := &function{entry: entry, extern: extern, line: t.line}
	fs := &fnState{f: f, regs: map[string]int32{}, labels: map[string]int{}}
	fs.scopes = []map[string]*symRef{{}}
	var rets []param
	var err error
	if !entry && p.is("(") {
		if rets, err = p.parseParamList(fs, false); err != nil {
			return err
		}
	}
	name := p.next()
	if name.kind != tkWord {
		return p.errf(name.line, "expected function name, found %s", name)
	}
	f.name = name.text
	var params []param
	if p.is("(") {
		if params, err = p.parseParamList(fs, entry); err != nil {
			return err
		}
	}
	// layout
	if entry {
		off := 0
		for i := range params {
			off = align(off, params[i].align)
			params[i].off = off
			off += params[i].size
		}
		f.paramSize = off
	} else {
		for i := range params {
			if !params[i].isReg {
				params[i].off = fs.allocFrame(params[i].size, params[i].align)
			}
		}
		for i := range rets {
			if !rets[i].isReg {
				rets[i].off = fs.allocFrame(rets[i].size, rets[i].align)
			}
		}
	}
	f.params, f.rets = params, rets
	for i := range f.params {
		pr := &f.params[i]
		if !pr.isReg {
			fs.scopes[0][pr.name] = &symRef{p: pr, frame: !entry}
		}
	}
	for i := range f.rets {
		pr := &f.rets[i]
		if !pr.isReg {
			fs.scopes[0][pr.name] = &symRef{p: pr, frame: true}
		}
	}
	// performance directives
	for {
		w := p.peek()
		if w.kind != tkWord || !strings.HasPrefix(w.text, ".") {
			break
		}
		switch w.text {
		case ".maxntid", ".reqntid", ".minnctapersm", ".maxnreg", ".maxnctapersm", ".noreturn", ".pragma", ".explicitcluster", ".reqnctapercluster", ".maxclusterrank":
			p.pos++
			for p.peek().kind == tkNum || p.is(",") || p.peek().kind == tkStr {
				p.pos++
			}
			p.accept(";")
		default:
			return p.errf(w.line, "unsupported function directive %s", w.text)
		}
	}
	if old := p.m.funcs[f.name]; old != nil {
		// prototype followed by definition: keep one function object
		if old.defined || p.is(";") {
			if p.accept(";") {
				return nil
			}
			return p.errf(t.line, "function %s defined twice", f.name)
		}
		*old = *f
		f = old
		fs.f = f
	} else {
		p.m.funcs[f.name] = f
	}
	if p.accept(";") {
		return nil
	}
	if extern {
		return p.errf(t.line, "extern function %s has a body", f.name)
	}
	f.defined = true
	if entry {
		p.m.kernels = append(p.m.kernels, f)
	}
	if err := p.expect("{"); err != nil {
		return err
	}
	if err := p.parseBody(fs); err != nil {
		return err
	}
	p.fs = append(p.fs, fs)
	return nil
}

func (fs *fnState) lookup(name string) *symRef {
	for i := len(fs.scopes) - 1; i >= 0; i-- {
		if s := fs.scopes[i][name]; s != nil {
			return s
		}
	}
	return nil
}

func (p *parser) parseBody(fs *fnState) error {
	for {
		t := p.peek()
		if t.kind == tkEOF {
			return p.errf(t.line, "unexpected end of file in function %s", fs.f.name)
		}
		if p.accept("{") {
			fs.scopes = append(fs.scopes, map[string]*symRef{})
			continue
		}
		if p.accept("}") {
			if len(fs.scopes) == 1 {
				return nil
			}
			fs.scopes = fs.scopes[:len(fs.scopes)-1]
			continue
		}
		if p.accept(";") {
			continue
		}
		if t.kind == tkWord && p.toks[p.pos+1].kind == tkPunct && p.toks[p.pos+1].text == ":" && !strings.HasPrefix(t.text, ".") {
			p.pos += 2
			if _, dup := fs.labels[t.text]; dup {
				return p.errf(t.line, "label %s defined twice", t.text)
			}
			fs.labels[t.text] = len(fs.raw)
			continue
		}
		if t.kind == tkWord && strings.HasPrefix(t.text, ".") {
			p.pos++
			switch t.text {
			case ".reg":
				if err := p.parseRegDecl(fs, t.line); err != nil {
					return err
				}
			case ".local", ".shared", ".param", ".global", ".const":
				if err := p.parseVarDecl(spaceNames[t.text[1:]], fs, false, t.line); err != nil {
					return err
				}
			case ".loc":
				p.parseLoc(fs, t.line)
			case ".file":
				p.skipLine(t.line)
			case ".pragma":
				p.skipTo(";")
			default:
				return p.errf(t.line, "unsupported directive %s in function body", t.text)
			}
			continue
		}
		if err := p.parseInst(fs); err != nil {
			return err
		}
	}
}

func (p *parser) parseRegDecl(fs *fnState, line int) error {
	w := p.next()
	vec := 1
	if w.text == ".v2" || w.text == ".v4" {
		return p.errf(line, "vector registers (.reg %s) are not supported", w.text)
	}
	_ = vec
	ty, ok := typeNames[strings.TrimPrefix(w.text, ".")]
	if !ok || w.text[0] != '.' {
		return p.errf(line, "bad register type %s", w)
	}
	for {
		n := p.next()
		if n.kind != tkWord {
			return p.errf(n.line, "expected register name, found %s", n)
		}
		if p.accept("<") {
			cnt, err := strconv.Atoi(p.next().text)
			if err != nil || cnt < 0 || cnt > 1<<20 {
				return p.errf(n.line, "bad register count")
			}
			if err := p.expect(">"); err != nil {
				return err
			}
			for i := 0; i < cnt; i++ {
				fs.addReg(n.text+strconv.Itoa(i), ty)
			}
		} else {
			fs.addReg(n.text, ty)
		}
		if !p.accept(",") {
			break
		}
	}
	return p.expect(";")
}

// parseVarDecl parses a variable declaration after its state space keyword.
// fs is nil at module scope.
func (p *parser) parseVarDecl(sp space, fs *fnState, extern bool, line int) error {
	v := &variable{sp: sp, extern: extern, line: line}
	vecN := 1
	for {
		w := p.peek()
		if w.kind != tkWord || !strings.HasPrefix(w.text, ".") {
			break
		}
		p.pos++
		switch {
		case w.text == ".align":
			n, err := strconv.Atoi(p.next().text)
			if err != nil {
				return p.errf(w.line, "bad .align")
			}
			v.align = n
		case w.text == ".v2":
			vecN = 2
		case w.text == ".v4":
			vecN = 4
		case w.text == ".attribute":
			p.skipTo(")")
		case w.text == ".ptr":
		default:
			ty, ok := typeNames[w.text[1:]]
			if !ok {
				return p.errf(w.line, "unsupported variable attribute %s", w.text)
			}
			v.ty = ty
		}
	}
	if v.ty == tNone {
		return p.errf(line, "variable without a type")
	}
	base := *v
	for {
		v := &variable{}
		*v = base
		n := p.next()
		if n.kind != tkWord {
			return p.errf(n.line, "expected variable name, found %s", n)
		}
		v.name = n.text
		elems := vecN
		for p.accept("[") {
			if p.accept("]") {
				if sp != spShared || !v.extern {
					return p.errf(n.line, "array %s without a size", v.name)
				}
				elems = 0
				continue
			}
			cnt, err := strconv.Atoi(p.next().text)
			if err != nil {
				return p.errf(n.line, "bad array size for %s", v.name)
			}
			if err := p.expect("]"); err != nil {
				return err
			}
			elems *= cnt
		}
		v.size = elems * v.ty.size()
		if v.align == 0 {
			v.align = v.ty.size() * vecN
		}
		if p.accept("=") {
			init, err := p.parseInit(v)
			if err != nil {
				return err
			}
			v.init = init
		}
		if sp == spParam {
			if fs == nil {
				return p.errf(line, ".param variable at module scope")
			}
			pr := &param{name: v.name, ty: v.ty, size: v.size, align: v.align}
			pr.off = fs.allocFrame(pr.size, pr.align)
			fs.scopes[len(fs.scopes)-1][v.name] = &symRef{p: pr, frame: true}
		} else if sp == spLocal && fs != nil {
			v.off = uint64(fs.allocFrame(v.size, v.align))
			fs.scopes[len(fs.scopes)-1][v.name] = &symRef{v: v, frame: true}
		} else {
			if sp == spLocal {
				return p.errf(line, ".local variable %s at module scope is not supported", v.name)
			}
			ref := &symRef{v: v}
			if fs != nil {
				fs.scopes[len(fs.scopes)-1][v.name] = ref
			} else {
				if p.mvars[v.name] != nil {
					return p.errf(line, "variable %s declared twice", v.name)
				}
				p.mvars[v.name] = ref
			}
			p.m.vars = append(p.m.vars, v)
		}
		if !p.accept(",") {
			break
		}
	}
	return p.expect(";")
}

// parseInit parses a scalar or brace-list initializer into little-endian bytes.
func (p *parser) parseInit(v *variable) ([]byte, error) {
	var vals []operand
	var walk func() error
	walk = func() error {
		if p.accept("{") {
			for !p.accept("}") {
				if len(vals) > 0 && !p.is("{") {
					p.accept(",")
				}
				if p.accept("}") {
					return nil
				}
				if err := walk(); err != nil {
					return err
				}
			}
			return nil
		}
		op, err := p.parseOperand(nil)
		if err != nil {
			return err
		}
		if op.kind != okImm {
			return p.errf(p.peek().line, "initializer of %s: only numeric literals are supported", v.name)
		}
		vals = append(vals, op)
		return nil
	}
	if err := walk(); err != nil {
		return nil, err
	}
	es := v.ty.size()
	out := make([]byte, v.size)
	for i, op := range vals {
		if (i+1)*es > len(out) {
			return nil, p.errf(v.line, "too many initializers for %s", v.name)
		}
		bits, err := immBits(op, v.ty)
		if err != nil {
			return nil, p.errf(v.line, "initializer of %s: %v", v.name, err)
		}
		for k := 0; k < es; k++ {
			out[i*es+k] = byte(bits >> (8 * k))
		}
	}
	return out, nil
}

// parseInst parses "[@[!]p] opcode operands ;".
func (p *parser) parseInst(fs *fnState) error {
	start := p.peek()
	ri := rawInst{line: start.line, guard: slotTrue}
	if start.line >= 1 && start.line <= len(p.src) {
		ri.text = strings.TrimSpace(p.src[start.line-1])
	}
	if p.accept("@") {
		if p.accept("!") {
			ri.gneg = true
		}
		g := p.next()
		r, ok := fs.regs[g.text]
		if !ok || fs.regTypes[r-numFixedSlots] != tPred {
			return p.errf(g.line, "guard %s is not a predicate register", g.text)
		}
		ri.guard = r
	}
	op := p.next()
	if op.kind != tkWord {
		return p.errf(op.line, "expected instruction, found %s", op)
	}
	ri.opcode = op.text
	for !p.accept(";") {
		if len(ri.ops) > 0 {
			if p.accept("|") { // setp p|q
				ri.pipe = true
				o, err := p.parseOperand(fs)
				if err != nil {
					return err
				}
				ri.ops = append(ri.ops, o)
				continue
			}
			if err := p.expect(","); err != nil {
				return p.errf(op.line, "%s: expected ',' or ';' between operands", op.text)
			}
		}
		o, err := p.parseOperand(fs)
		if err != nil {
			return err
		}
		ri.ops = append(ri.ops, o)
	}
	fs.raw = append(fs.raw, ri)
	return nil
}

func (p *parser) parseOperand(fs *fnState) (operand, error) {
	t := p.next()
	switch {
	case t.kind == tkPunct && t.text == "[":
		o := operand{kind: okAddr}
		if p.peek().kind == tkNum {
			b, err := p.parseOperand(fs)
			if err != nil {
				return o, err
			}
			v, err := immInt(b)
			if err != nil {
				return o, p.errf(t.line, "bad address: %v", err)
			}
			o.off = v
		} else {
			b, err := p.parseOperand(fs)
			if err != nil {
				return o, err
			}
			if b.kind == okSym {
				o.off = b.off
				b.off = 0
			}
			if b.kind != okReg && b.kind != okSym {
				return o, p.errf(t.line, "unsupported address base")
			}
			o.base = &b
		}
		for p.is("+") || p.is("-") {
			neg := p.next().text == "-"
			n := p.next()
			if n.kind != tkNum {
				return o, p.errf(n.line, "expected offset after +/- in address")
			}
			v, err := immInt(operand{kind: okImm, num: n.text})
			if err != nil {
				return o, p.errf(n.line, "bad address offset: %v", err)
			}
			if neg {
				v = -v
			}
			o.off += v
		}
		return o, p.expect("]")
	case t.kind == tkPunct && (t.text == "{" || t.text == "("):
		closer := "}"
		kind := okVec
		if t.text == "(" {
			closer, kind = ")", okList
		}
		o := operand{kind: kind}
		for !p.accept(closer) {
			if len(o.elems) > 0 {
				if err := p.expect(","); err != nil {
					return o, err
				}
			}
			e, err := p.parseOperand(fs)
			if err != nil {
				return o, err
			}
			o.elems = append(o.elems, e)
		}
		return o, nil
	case t.kind == tkPunct && t.text == "!":
		o, err := p.parseOperand(fs)
		if err != nil {
			return o, err
		}
		if o.kind != okReg {
			return o, p.errf(t.line, "'!' applies to predicate registers only")
		}
		o.not = true
		return o, nil
	case t.kind == tkPunct && t.text == "-":
		n := p.next()
		if n.kind != tkNum {
			return operand{}, p.errf(n.line, "expected number after '-'")
		}
		return operand{kind: okImm, num: n.text, neg: true}, nil
	case t.kind == tkNum:
		return operand{kind: okImm, num: t.text}, nil
	case t.kind == tkWord:
		if t.text == "_" {
			return operand{kind: okSink}, nil
		}
		if t.text == "WARP_SZ" {
			return operand{kind: okImm, num: "32"}, nil
		}
		if fs != nil {
			if r, ok := fs.regs[t.text]; ok {
				return operand{kind: okReg, reg: r}, nil
			}
		}
		if r, ok := specialRegs[t.text]; ok {
			return operand{kind: okReg, reg: r}, nil
		}
		if strings.HasPrefix(t.text, "%") {
			switch t.text {
			case "%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi":
				return operand{kind: okName, name: t.text}, nil
			}
			return operand{}, p.errf(t.line, "undeclared register %s", t.text)
		}
		var ref *symRef
		if fs != nil {
			ref = fs.lookup(t.text)
		}
		if ref == nil {
			ref = p.mvars[t.text]
		}
		if ref != nil {
			o := operand{kind: okSym, sym: ref}
			if p.is("+") && p.toks[p.pos+1].kind == tkNum {
				p.pos++
				v, err := immInt(operand{kind: okImm, num: p.next().text})
				if err != nil {
					return o, p.errf(t.line, "bad offset: %v", err)
				}
				o.off = v
			}
			return o, nil
		}
		return operand{kind: okName, name: t.text}, nil
	}
	return operand{}, p.errf(t.line, "unexpected %s in operand", t)
}

// immInt converts an integer literal operand to int64 (wrapping, as PTX does).
func immInt(o operand) (int64, error) {
	s := strings.TrimSuffix(strings.TrimSuffix(o.num, "U"), "u")
	var u uint64
	var err error
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		u, err = strconv.ParseUint(s[2:], 16, 64)
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		u, err = strconv.ParseUint(s[2:], 2, 64)
	case len(s) > 1 && s[0] == '0' && !strings.ContainsAny(s, ".eE"):
		u, err = strconv.ParseUint(s[1:], 8, 64)
	default:
		u, err = strconv.ParseUint(s, 10, 64)
	}
	if err != nil {
		return 0, fmt.Errorf("bad integer literal %q", o.num)
	}
	v := int64(u)
	if o.neg {
		v = -v
	}
	return v, nil
}

// isFloatLit reports whether a literal is a float literal (0f, 0d, or decimal with . or e).
func isFloatLit(s string) bool {
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D') {
		return true
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		return false
	}
	return strings.ContainsAny(s, ".eE")
}

// immBits encodes a literal as the register bits of type ty.
func immBits(o operand, ty ptype) (uint64, error) {
	s := o.num
	if isFloatLit(s) {
		var f64 float64
		switch {
		case s[1] == 'f' || s[1] == 'F':
			u, err := strconv.ParseUint(s[2:], 16, 32)
			if err != nil {
				return 0, fmt.Errorf("bad float literal %q", s)
			}
			f32 := math.Float32frombits(uint32(u))
			if ty == tF32 || ty == tB32 || ty == tU32 || ty == tS32 {
				if o.neg {
					f32 = -f32
				}
				return uint64(math.Float32bits(f32)), nil
			}
			f64 = float64(f32)
		case s[1] == 'd' || s[1] == 'D':
			u, err := strconv.ParseUint(s[2:], 16, 64)
			if err != nil {
				return 0, fmt.Errorf("bad double literal %q", s)
			}
			f64 = math.Float64frombits(u)
		default:
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return 0, fmt.Errorf("bad float literal %q", s)
			}
			f64 = v
		}
		if o.neg {
			f64 = -f64
		}
		switch ty {
		case tF32:
			return uint64(math.Float32bits(float32(f64))), nil
		case tF64, tB64, tU64, tS64:
			return math.Float64bits(f64), nil
		}
		return 0, fmt.Errorf("float literal %q for type %s", s, ty)
	}
	v, err := immInt(o)
	if err != nil {
		return 0, err
	}
	switch ty {
	case tF32:
		return uint64(math.Float32bits(float32(v))), nil
	case tF64:
		return math.Float64bits(float64(v)), nil
	case tPred:
		if v != 0 {
			return 1, nil
		}
		return 0, nil
	}
	bits := ty.bits()
	if bits == 0 || bits >= 64 {
		return uint64(v), nil
	}
	return uint64(v) & (1<<bits - 1), nil
}

// layoutModule assigns offsets to module variables.
func (p *parser) layoutModule() {
	m := p.m
	shared, glob, cnst := 0, 0, 0
	for _, v := range m.vars {
		switch v.sp {
		case spShared:
			if v.extern {
				if v.align > m.sharedAlign {
					m.sharedAlign = v.align
				}
				continue
			}
			shared = align(shared, v.align)
			v.off = uint64(shared)
			shared += v.size
		case spGlobal:
			glob = align(glob, max(v.align, 1))
			v.off = uint64(glob)
			glob += v.size
		case spConst:
			cnst = align(cnst, max(v.align, 1))
			v.off = uint64(cnst)
			cnst += v.size
		}
	}
	m.sharedStatic = shared
	dyn := uint64(align(shared, m.sharedAlign))
	for _, v := range m.vars {
		if v.sp == spShared && v.extern {
			v.off = dyn
		}
	}
	m.globalSize, m.constSize = glob, cnst
	m.globalInit = make([]byte, glob)
	m.constInit = make([]byte, cnst)
	for _, v := range m.vars {
		switch v.sp {
		case spGlobal:
			copy(m.globalInit[v.off:], v.init)
		case spConst:
			copy(m.constInit[v.off:], v.init)
		}
	}
}
