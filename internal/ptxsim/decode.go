package ptxsim

import (
	"slices"
	"strings"
)

// mods is an instruction's modifiers, classified.
type mods struct {
	types  []ptype
	rnd    uint8
	ftz    bool
	sat    bool
	approx bool
	full   bool
	hi     bool
	lo     bool
	wide   bool
	to     bool
	cmp    int
	sp     space
	vec    int
	words  []string // operation words (and, add, exch, finite, ...)
	// ordered: .volatile, .relaxed, .acquire or .release, a memory access
	// that may race with atomics of other threads by design.
	ordered bool
}

var ignoredMods = map[string]bool{
	"ca": true, "cg": true, "cs": true, "lu": true, "cv": true, "wb": true, "wt": true, "nc": true,
	"relaxed": true, "acquire": true, "release": true, "acq_rel": true, "sc": true, "weak": true, "mmio": true,
	"cta": true, "gpu": true, "sys": true, "gl": true, "cluster": true, "aligned": true, "uni": true, "volatile": true,
	"sync": true, "noftz": true,
}

var rndNames = map[string]uint8{
	"rn": rnRN, "rz": rnRZ, "rm": rnRM, "rp": rnRP, "rni": rnRNI, "rzi": rnRZI, "rmi": rnRMI, "rpi": rnRPI,
}

func parseMods(parts []string) mods {
	m := mods{cmp: -1, sp: spNone, vec: 1}
	for _, w := range parts {
		if t, ok := typeNames[w]; ok {
			m.types = append(m.types, t)
			continue
		}
		if r, ok := rndNames[w]; ok {
			m.rnd = r
			continue
		}
		if s, ok := spaceNames[w]; ok {
			m.sp = s
			continue
		}
		switch w {
		case "ftz":
			m.ftz = true
		case "sat":
			m.sat = true
		case "approx":
			m.approx = true
		case "full":
			m.full = true
		case "hi":
			m.hi = true
		case "lo":
			m.lo = true
		case "wide":
			m.wide = true
		case "to":
			m.to = true
		case "v2":
			m.vec = 2
		case "v4":
			m.vec = 4
		case "volatile", "relaxed", "acquire", "release":
			m.ordered = true
		default:
			if c, ok := cmpNames[w]; ok && m.cmp < 0 {
				m.cmp = int(c)
				continue
			}
			if !ignoredMods[w] {
				m.words = append(m.words, w)
			}
		}
	}
	return m
}

type decoder struct {
	p      *parser
	fs     *fnState
	f      *function
	consts map[uint64]int32
	ri     *rawInst
}

func (d *decoder) errf(format string, args ...any) error {
	return d.p.errf(d.ri.line, format, args...)
}

func (d *decoder) constSlot(bits uint64) int32 {
	if bits == 1 {
		return slotTrue
	}
	if bits == 0 {
		return slotFalse
	}
	if s, ok := d.consts[bits]; ok {
		return s
	}
	s := int32(len(d.f.template))
	d.f.template = append(d.f.template, bits)
	d.consts[bits] = s
	return s
}

func (d *decoder) relocSlot(v *variable, add int64) int32 {
	s := int32(len(d.f.template))
	d.f.template = append(d.f.template, 0)
	d.f.relocs = append(d.f.relocs, reloc{slot: s, v: v, add: add})
	return s
}

// symAddr returns a register holding the address of a non-frame symbol, in
// the symbol's own state space.
func (d *decoder) symAddr(o operand) (int32, error) {
	r := o.sym
	if r.frame {
		return 0, d.errf("address of a .local/.param variable used as a value operand; only mov and ld/st take it")
	}
	if r.p != nil { // entry parameter: offset in the parameter buffer
		return d.constSlot(uint64(int64(r.p.off) + o.off)), nil
	}
	switch r.v.sp {
	case spShared:
		return d.constSlot(uint64(int64(r.v.off) + o.off)), nil
	case spGlobal, spConst:
		return d.relocSlot(r.v, o.off), nil
	}
	return 0, d.errf("cannot take the address of %s", r.v.name)
}

// src returns the register index for a source operand interpreted as type ty.
func (d *decoder) src(o operand, ty ptype) (int32, error) {
	switch o.kind {
	case okReg:
		if o.not {
			return 0, d.errf("'!' is only allowed on a predicate source of setp/selp/set")
		}
		return o.reg, nil
	case okImm:
		bits, err := immBits(o, ty)
		if err != nil {
			return 0, d.errf("%v", err)
		}
		return d.constSlot(bits), nil
	case okSym:
		return d.symAddr(o)
	case okName:
		return 0, d.errf("unknown name %s", o.name)
	}
	return 0, d.errf("unsupported operand form")
}

func (d *decoder) dst(o operand) (int32, error) {
	if o.kind == okSink {
		return -1, nil
	}
	if o.kind != okReg || o.not {
		return 0, d.errf("destination must be a register")
	}
	if o.reg < numFixedSlots {
		return 0, d.errf("special registers are read-only")
	}
	return o.reg, nil
}

func (d *decoder) regType(r int32) ptype {
	if r >= numFixedSlots && int(r-numFixedSlots) < len(d.fs.regTypes) {
		return d.fs.regTypes[r-numFixedSlots]
	}
	return tU32
}

func maskOf(bits int) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(bits) - 1
}

func (p *parser) decodeFunction(fs *fnState) error {
	f := fs.f
	f.template = make([]uint64, numFixedSlots+len(fs.regTypes))
	f.template[slotTrue] = 1
	// A register read before it is written holds garbage on a GPU; a
	// pattern (predicates aside, which hold 0 or 1) keeps code that relies
	// on zeros from passing here.
	for i, t := range fs.regTypes {
		if t != tPred {
			f.template[numFixedSlots+i] = 0xDBDBDBDBDBDBDBDB
		}
	}
	d := &decoder{p: p, fs: fs, f: f, consts: map[uint64]int32{}}
	f.code = make([]inst, 0, len(fs.raw)+1)
	for i := range fs.raw {
		d.ri = &fs.raw[i]
		in, err := d.decode()
		if err != nil {
			return err
		}
		in.line = int32(d.ri.line)
		in.text = d.ri.text
		in.g = d.ri.guard
		if d.ri.gneg {
			in.gx = 1
		}
		f.code = append(f.code, in)
	}
	// implicit return at the end
	f.code = append(f.code, inst{op: opRet, g: slotTrue, line: -1, text: "(end of function)"})
	f.nregs = len(f.template)
	// resolve branch targets
	for i := range f.code {
		in := &f.code[i]
		if in.op == opBra {
			name := fs.raw[i].ops[0].name
			tgt, ok := fs.labels[name]
			if !ok {
				d.ri = &fs.raw[i]
				return d.errf("undefined label %s", name)
			}
			in.tgt = int32(tgt)
		}
	}
	return nil
}

func (d *decoder) need(n int) error {
	if len(d.ri.ops) != n {
		return d.errf("%s takes %d operands, found %d", d.ri.opcode, n, len(d.ri.ops))
	}
	return nil
}

func (d *decoder) oneType(m mods) (ptype, error) {
	if len(m.types) != 1 {
		return 0, d.errf("%s needs exactly one type", d.ri.opcode)
	}
	return m.types[0], nil
}

func (d *decoder) noWords(m mods) error {
	if len(m.words) > 0 {
		return d.errf("unsupported modifier .%s on %s", m.words[0], strings.SplitN(d.ri.opcode, ".", 2)[0])
	}
	return nil
}

// decode turns one raw instruction into an inst.
func (d *decoder) decode() (inst, error) {
	parts := strings.Split(d.ri.opcode, ".")
	base := parts[0]
	m := parseMods(parts[1:])
	in := inst{d2: -1}
	ops := d.ri.ops
	var err error

	// operands decodes ops[0] as the destination and ops[1:] as sources of
	// the given types, into in.a, in.b, in.c and in.e in that order.
	operands := func(types ...ptype) error {
		if err := d.need(len(types) + 1); err != nil {
			return err
		}
		var err error
		if in.d, err = d.dst(ops[0]); err != nil {
			return err
		}
		srcs := [...]*int32{&in.a, &in.b, &in.c, &in.e}
		for i, ty := range types {
			if *srcs[i], err = d.src(ops[i+1], ty); err != nil {
				return err
			}
		}
		return nil
	}
	unary := func(ty ptype) error { return operands(ty) }
	binary := func(ty, tyb ptype) error { return operands(ty, tyb) }
	ternary := func(ty, tyc ptype) error { return operands(ty, ty, tyc) }
	setType := func(ty ptype) {
		in.ty = ty
		in.sh = uint8(64 - ty.bits())
		in.mask = maskOf(ty.bits())
		if ty.signed() {
			in.flags |= flSigned
		}
		if ty == tPred {
			in.sh = 63
			in.mask = 1
		}
	}
	floatOp := func(ty ptype, fop uint8, fast32, fast64 opcode) {
		setType(ty)
		in.rnd = m.rnd
		in.op = opFloat
		in.fop = fop
		if m.ftz {
			in.flags |= flFtz
		}
		if m.sat {
			in.flags |= flSat
		}
		if m.approx || m.full {
			in.flags |= flApprox
		}
		plain := !m.ftz && !m.sat && (m.rnd == rnDefault || m.rnd == rnRN)
		if plain && ty == tF32 && fast32 != opNop && !(fop == fDiv && (m.approx || m.full)) {
			in.op = fast32
		}
		if plain && ty == tF64 && fast64 != opNop {
			in.op = fast64
		}
	}
	intOnly := func(ty ptype) error {
		if !ty.isInt() {
			return d.errf("%s: type %s not supported", base, ty)
		}
		return nil
	}

	switch base {
	case "mov":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		if err := d.need(2); err != nil {
			return in, err
		}
		setType(ty)
		if ops[1].kind == okVec { // pack
			in.op = opMovPack
			if in.d, err = d.dst(ops[0]); err != nil {
				return in, err
			}
			n := len(ops[1].elems)
			if n != 2 && n != 4 {
				return in, d.errf("mov pack needs 2 or 4 elements")
			}
			in.vec = uint8(n)
			for i, e := range ops[1].elems {
				if in.v[i], err = d.src(e, tU32); err != nil {
					return in, err
				}
			}
			in.sh2 = uint8(ty.bits() / n)
			return in, nil
		}
		if ops[0].kind == okVec { // unpack
			in.op = opMovUnpack
			n := len(ops[0].elems)
			if n != 2 && n != 4 {
				return in, d.errf("mov unpack needs 2 or 4 elements")
			}
			in.vec = uint8(n)
			for i, e := range ops[0].elems {
				if in.v[i], err = d.dst(e); err != nil {
					return in, err
				}
			}
			in.a, err = d.src(ops[1], ty)
			in.sh2 = uint8(ty.bits() / n)
			return in, err
		}
		if in.d, err = d.dst(ops[0]); err != nil {
			return in, err
		}
		if ops[1].kind == okName && strings.HasPrefix(ops[1].name, "%") {
			in.op = opClock
			in.fop = 0
			if strings.HasPrefix(ops[1].name, "%globaltimer") {
				in.fop = 1
			}
			return in, nil
		}
		if ops[1].kind == okSym && ops[1].sym.frame {
			in.op = opMovFrame
			in.off = ops[1].off + int64(frameOff(ops[1].sym))
			return in, nil
		}
		in.op = opMov
		in.a, err = d.src(ops[1], ty)
		return in, err

	case "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max", "abs", "neg", "mul24", "mad24", "sad",
		"sqrt", "rcp", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "copysign":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		if err := d.noWords(m); err != nil {
			return in, err
		}
		if ty.isFloat() {
			if ty == tF16 {
				return in, d.decodeHalf(&in, base, m)
			}
			switch base {
			case "add":
				floatOp(ty, fAdd, opAddF32, opAddF64)
				return in, binary(ty, ty)
			case "sub":
				floatOp(ty, fSub, opSubF32, opSubF64)
				return in, binary(ty, ty)
			case "mul":
				floatOp(ty, fMul, opMulF32, opMulF64)
				return in, binary(ty, ty)
			case "fma", "mad":
				floatOp(ty, fFma, opFmaF32, opFmaF64)
				return in, ternary(ty, ty)
			case "div":
				floatOp(ty, fDiv, opDivF32, opDivF64)
				return in, binary(ty, ty)
			case "min":
				floatOp(ty, fMin, opNop, opNop)
				return in, binary(ty, ty)
			case "max":
				floatOp(ty, fMax, opNop, opNop)
				return in, binary(ty, ty)
			case "copysign":
				floatOp(ty, fCopysign, opNop, opNop)
				return in, binary(ty, ty)
			}
			fops := map[string]uint8{"abs": fAbs, "neg": fNeg, "sqrt": fSqrt, "rcp": fRcp, "rsqrt": fRsqrt,
				"ex2": fEx2, "lg2": fLg2, "sin": fSin, "cos": fCos, "tanh": fTanh}
			fop, ok := fops[base]
			if !ok {
				return in, d.errf("%s: float type not supported", base)
			}
			floatOp(ty, fop, opNop, opNop)
			return in, unary(ty)
		}
		if err := intOnly(ty); err != nil {
			return in, err
		}
		setType(ty)
		if m.sat {
			if ty != tS32 || (base != "add" && base != "sub" && base != "mad") {
				return in, d.errf("%s: .sat only applies to .s32 add/sub/mad", base)
			}
			in.flags |= flSat
		}
		switch base {
		case "add", "sub":
			in.op = opAdd
			if base == "sub" {
				in.op = opSub
			}
			return in, binary(ty, ty)
		case "mul", "mad":
			wide := m.wide
			switch {
			case m.hi:
				in.op = opMulHi
			case wide:
				in.op = opMulWide
				if ty.bits() > 32 {
					return in, d.errf("%s.wide needs a 16- or 32-bit type", base)
				}
				in.mask = maskOf(2 * ty.bits())
			default:
				in.op = opMulLo
			}
			if base == "mad" {
				in.op += opMadLo - opMulLo
				if in.op == opMadLo && m.hi {
					in.op = opMadHi
				}
				ct := ty
				if wide {
					ct = wideType(ty)
				}
				return in, ternary(ty, ct)
			}
			return in, binary(ty, ty)
		case "mul24", "mad24":
			if ty.bits() != 32 {
				return in, d.errf("%s needs a 32-bit type", base)
			}
			in.op = opMul24
			if m.hi {
				in.flags |= flHiHalf
			}
			if base == "mad24" {
				in.op = opMad24
				return in, ternary(ty, ty)
			}
			in.c = slotFalse
			return in, binary(ty, ty)
		case "sad":
			in.op = opSad
			return in, ternary(ty, ty)
		case "div":
			in.op = opDiv
			return in, binary(ty, ty)
		case "rem":
			in.op = opRem
			return in, binary(ty, ty)
		case "min":
			in.op = opMin
			return in, binary(ty, ty)
		case "max":
			in.op = opMax
			return in, binary(ty, ty)
		case "abs":
			in.op = opAbs
			return in, unary(ty)
		case "neg":
			in.op = opNeg
			return in, unary(ty)
		}
		return in, d.errf("%s: integer type not supported", base)

	case "and", "or", "xor", "not", "cnot":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		setType(ty)
		switch base {
		case "and":
			in.op = opAnd
		case "or":
			in.op = opOr
		case "xor":
			in.op = opXor
		case "not":
			in.op = opNot
			return in, unary(ty)
		case "cnot":
			in.op = opCnot
			return in, unary(ty)
		}
		return in, binary(ty, ty)

	case "shl", "shr":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		if err := intOnly(ty); err != nil {
			return in, err
		}
		setType(ty)
		in.op = opShl
		if base == "shr" {
			in.op = opShr
		}
		return in, binary(ty, tU32)

	case "clz", "popc", "brev":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		setType(ty)
		switch base {
		case "clz":
			in.op = opClz
		case "popc":
			in.op = opPopc
		default:
			in.op = opBrev
		}
		return in, unary(ty)

	case "bfe":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		setType(ty)
		in.op = opBfe
		return in, operands(ty, tU32, tU32)

	case "bfi":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		setType(ty)
		in.op = opBfi
		return in, operands(ty, ty, tU32, tU32)

	case "prmt":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		if len(m.words) > 0 {
			return in, d.errf("prmt mode .%s is not supported", m.words[0])
		}
		setType(ty)
		in.op = opPrmt
		return in, ternary(ty, tU32)

	case "testp":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		classes := map[string]uint8{"finite": tpFinite, "infinite": tpInfinite, "number": tpNumber,
			"notanumber": tpNotANumber, "normal": tpNormal, "subnormal": tpSubnormal}
		if len(m.words) != 1 {
			return in, d.errf("testp needs one class")
		}
		cl, ok := classes[m.words[0]]
		if !ok {
			return in, d.errf("testp class .%s is not supported", m.words[0])
		}
		setType(ty)
		in.op = opFloat
		in.fop = fTestp
		in.cmp = cl
		return in, unary(ty)

	case "setp", "set":
		if m.cmp < 0 && m.lo {
			m.cmp = int(cmpLO)
		}
		if m.cmp < 0 && m.hi {
			m.cmp = int(cmpHI)
		}
		if m.cmp < 0 {
			return in, d.errf("%s needs a comparison operator", base)
		}
		in.cmp = uint8(m.cmp)
		for _, w := range m.words {
			switch w {
			case "and":
				in.bop = bopAnd
			case "or":
				in.bop = bopOr
			case "xor":
				in.bop = bopXor
			default:
				return in, d.errf("unsupported modifier .%s on %s", w, base)
			}
		}
		var cty ptype
		if base == "setp" {
			if len(m.types) != 1 {
				return in, d.errf("setp needs one type")
			}
			cty = m.types[0]
		} else {
			if len(m.types) != 2 {
				return in, d.errf("set needs a destination and a source type")
			}
			cty = m.types[1]
			setType(m.types[0])
			in.op = opSet
			if !m.types[0].isFloat() {
				in.flags |= flIntDst
			}
		}
		in.ty2 = cty
		in.sh2 = uint8(64 - cty.bits())
		if cty.signed() {
			in.flags |= flSigned
		}
		if m.ftz {
			in.flags |= flFtz
		}
		if base == "setp" {
			in.ty = tPred
			in.mask = 1
			switch cty {
			case tF32:
				in.op = opSetpF32
			case tF64:
				in.op = opSetpF64
			case tF16:
				if in.cmp > cmpGE || in.bop != bopNone || m.ftz {
					return in, d.errf("setp: only the ordered comparisons eq, ne, lt, le, gt, ge of .f16 are supported")
				}
				in.op = opSetpF16
			default:
				in.op = opSetp
			}
		} else if cty == tF32 {
			in.flags |= flF32Src
		} else if cty == tF64 {
			in.flags |= flF64Src
		}
		if in.cmp >= cmpEQU && !cty.isFloat() {
			return in, d.errf("%s: unordered comparison on an integer type", base)
		}
		if (in.cmp >= cmpLO && in.cmp <= cmpHS) && cty.isFloat() {
			return in, d.errf("%s: unsigned comparison on a float type", base)
		}
		// operands: d[|d2], a, b [, {!}c]
		i := 0
		if in.d, err = d.dst(ops[0]); err != nil {
			return in, err
		}
		i = 1
		if d.ri.pipe {
			if len(ops) < 2 {
				return in, d.errf("setp p|q needs two destinations")
			}
			if in.d2, err = d.dst(ops[1]); err != nil {
				return in, err
			}
			i = 2
		}
		rest := ops[i:]
		if len(rest) != 2 && len(rest) != 3 {
			return in, d.errf("%s: wrong number of operands", base)
		}
		if in.a, err = d.src(rest[0], cty); err != nil {
			return in, err
		}
		if in.b, err = d.src(rest[1], cty); err != nil {
			return in, err
		}
		in.e = slotTrue
		if len(rest) == 3 {
			if in.bop == bopNone {
				return in, d.errf("%s with a predicate operand needs .and/.or/.xor", base)
			}
			c := rest[2]
			if c.not {
				in.flags |= flVolatile // reused: negate c
				c.not = false
			}
			if in.e, err = d.src(c, tPred); err != nil {
				return in, err
			}
		} else if in.bop != bopNone {
			return in, d.errf("%s.%s needs a predicate operand", base, []string{"", "and", "or", "xor"}[in.bop])
		}
		return in, nil

	case "selp":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		setType(ty)
		in.op = opSelp
		if err := d.need(4); err != nil {
			return in, err
		}
		if in.d, err = d.dst(ops[0]); err != nil {
			return in, err
		}
		if in.a, err = d.src(ops[1], ty); err != nil {
			return in, err
		}
		if in.b, err = d.src(ops[2], ty); err != nil {
			return in, err
		}
		c := ops[3]
		if c.not {
			// selp with !p: swap a and b
			in.a, in.b = in.b, in.a
			c.not = false
		}
		in.c, err = d.src(c, tPred)
		return in, err

	case "slct":
		if len(m.types) != 2 {
			return in, d.errf("slct needs two types")
		}
		setType(m.types[0])
		in.op = opSlct
		in.ty2 = m.types[1]
		if m.types[1] == tF32 {
			in.flags |= flF32Src
		}
		if m.ftz {
			in.flags |= flFtz
		}
		return in, operands(m.types[0], m.types[0], m.types[1])

	case "cvt":
		if len(m.types) != 2 {
			return in, d.errf("cvt needs a destination and a source type")
		}
		if err := d.noWords(m); err != nil {
			return in, err
		}
		dt, st := m.types[0], m.types[1]
		if dt == tF16 || st == tF16 {
			return in, d.decodeCvtHalf(&in, dt, st, m)
		}
		if dt == tPred || st == tPred {
			return in, d.errf("cvt between %s and %s is not supported", dt, st)
		}
		setType(dt)
		in.ty2 = st
		in.sh2 = uint8(64 - st.bits())
		in.flags &^= flSigned
		if st.signed() {
			in.flags |= flSigned
		}
		if dt.signed() {
			in.flags |= flSigned2
		}
		if m.ftz {
			in.flags |= flFtz
		}
		if m.sat {
			in.flags |= flSat
		}
		in.rnd = m.rnd
		if err := unary(st); err != nil {
			return in, err
		}
		// the destination register may be wider than the type: extend into it
		if rb := d.regType(in.d).bits(); rb > dt.bits() && dt.isInt() {
			in.mask = maskOf(rb)
		}
		in.op = opCvt
		if dt.isInt() && st.isInt() && !m.sat {
			in.op = opCvtII
			if m.rnd != rnDefault {
				return in, d.errf("cvt: rounding modifier on an integer conversion")
			}
		}
		if dt.isFloat() && st.isFloat() && dt.bits() < st.bits() && (m.rnd < rnRN || m.rnd > rnRP) {
			return in, d.errf("cvt: narrowing float conversion needs .rn/.rz/.rm/.rp")
		}
		if dt.isInt() && st.isFloat() && (m.rnd < rnRNI) {
			return in, d.errf("cvt: float-to-integer conversion needs .rni/.rzi/.rmi/.rpi")
		}
		return in, nil

	case "cvta":
		if err := d.noWords(m); err != nil {
			return in, err
		}
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		setType(ty)
		in.op = opCvta
		var base uint64
		switch m.sp {
		case spGlobal:
			base = 0
		case spShared:
			base = sharedWindow
		case spLocal:
			base = localWindow
		case spConst:
			base = constWindow
		default:
			return in, d.errf("cvta: unsupported state space")
		}
		if m.to {
			base = -base
		}
		in.off = int64(base)
		if err := d.need(2); err != nil {
			return in, err
		}
		if in.d, err = d.dst(ops[0]); err != nil {
			return in, err
		}
		if ops[1].kind == okSym && ops[1].sym.frame {
			return in, d.errf("cvta of a .local variable symbol: mov its address to a register first")
		}
		in.a, err = d.src(ops[1], ty)
		return in, err

	case "ld", "ldu", "st":
		if err := d.noWords(m); err != nil {
			return in, err
		}
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		if ty == tF16 || ty == tPred {
			return in, d.errf("%s: type %s not supported", base, ty)
		}
		setType(ty)
		in.vec = uint8(m.vec)
		in.sp = m.sp
		if in.sp == spNone {
			in.sp = spGeneric
		}
		if m.ordered {
			in.flags |= flOrdered
		}
		if err := d.need(2); err != nil {
			return in, err
		}
		addrOp, valOp := ops[1], ops[0]
		in.op = opLd
		if base == "st" {
			in.op = opSt
			addrOp, valOp = ops[0], ops[1]
		}
		if err := d.addr(&in, addrOp); err != nil {
			return in, err
		}
		var vals []operand
		if m.vec > 1 {
			if valOp.kind != okVec || len(valOp.elems) != m.vec {
				return in, d.errf("%s.v%d needs a vector of %d registers", base, m.vec, m.vec)
			}
			vals = valOp.elems
		} else {
			vals = []operand{valOp}
		}
		for i, v := range vals {
			if in.op == opLd {
				if in.v[i], err = d.dst(v); err != nil {
					return in, err
				}
			} else if in.v[i], err = d.src(v, ty); err != nil {
				return in, err
			}
		}
		if in.op == opLd {
			// sign/zero extend into the destination register
			rb := ty.bits()
			if in.v[0] >= 0 {
				if b := d.regType(in.v[0]).bits(); b > rb {
					rb = b
				}
			}
			in.mask = maskOf(rb)
		}
		return in, nil

	case "atom", "red":
		ty, err := d.oneType(m)
		if err != nil {
			return in, err
		}
		setType(ty)
		in.op = opAtom
		in.sp = m.sp
		if in.sp == spNone {
			in.sp = spGeneric
		}
		if in.sp != spGeneric && in.sp != spGlobal && in.sp != spShared {
			return in, d.errf("%s: state space %s not supported", base, in.sp)
		}
		atomOps := map[string]uint8{"add": atAdd, "min": atMin, "max": atMax, "exch": atExch, "cas": atCas,
			"and": atAnd, "or": atOr, "xor": atXor, "inc": atInc, "dec": atDec}
		if len(m.words) != 1 {
			return in, d.errf("%s needs one operation (.add, .cas, ...)", base)
		}
		aop, ok := atomOps[m.words[0]]
		if !ok {
			return in, d.errf("%s operation .%s is not supported", base, m.words[0])
		}
		in.fop = aop
		if m.cmp >= 0 {
			return in, d.errf("%s: unexpected comparison modifier", base)
		}
		// 16 bits: atom.add.noftz.f16 and atom.cas.b16 (sm_70) only
		if half := ty == tF16 && aop == atAdd || ty == tB16 && aop == atCas; ty.bits() < 32 && !half {
			return in, d.errf("%s: type %s not supported", base, ty)
		}
		if ty.isFloat() && aop != atAdd && aop != atExch && aop != atCas {
			return in, d.errf("%s.%s is not defined for %s", base, m.words[0], ty)
		}
		if (aop == atInc || aop == atDec) && ty != tU32 {
			return in, d.errf("%s.%s needs .u32", base, m.words[0])
		}
		i := 0
		in.d = -1
		if base == "atom" {
			if in.d, err = d.dst(ops[0]); err != nil {
				return in, err
			}
			i = 1
		} else {
			in.flags |= flNoRet
		}
		rest := ops[i:]
		want := 2
		if aop == atCas {
			want = 3
		}
		if len(rest) != want {
			return in, d.errf("%s: wrong number of operands", base)
		}
		if err := d.addr(&in, rest[0]); err != nil {
			return in, err
		}
		if in.b, err = d.src(rest[1], ty); err != nil {
			return in, err
		}
		in.c = slotFalse
		if aop == atCas {
			in.c, err = d.src(rest[2], ty)
		}
		return in, err

	case "bra", "brx":
		if base == "brx" {
			return in, d.errf("brx.idx is not supported")
		}
		if err := d.need(1); err != nil {
			return in, err
		}
		if ops[0].kind != okName {
			return in, d.errf("bra needs a label")
		}
		in.op = opBra
		return in, nil

	case "shfl", "vote", "activemask", "match":
		return in, d.decodeWarp(&in, base, m)
	case "bar", "barrier":
		if len(parts) > 1 && (parts[1] == "warp") {
			return in, d.decodeWarp(&in, "bar.warp", m)
		}
		if slices.Contains(m.words, "red") {
			return in, d.decodeBarRed(&in, base, m)
		}
		if len(m.words) > 0 {
			return in, d.errf("%s.%s is not supported", base, m.words[0])
		}
		if len(ops) < 1 || len(ops) > 2 {
			return in, d.errf("%s needs a barrier number", base)
		}
		if in.a, err = d.src(ops[0], tU32); err != nil {
			return in, err
		}
		in.b = -1
		if len(ops) == 2 {
			if in.b, err = d.src(ops[1], tU32); err != nil {
				return in, err
			}
		}
		d.f.usesBar = true
		in.op = opBar
		return in, nil

	case "nanosleep":
		in.op = opYield
		return in, nil
	case "membar", "fence", "pmevent", "prefetch", "prefetchu", "discard":
		in.op = opNop
		return in, nil

	case "exit":
		in.op = opExit
		return in, nil
	case "ret":
		in.op = opRet
		return in, nil
	case "trap", "brkpt":
		in.op = opTrap
		return in, nil

	case "call":
		return in, d.decodeCall(&in)
	}
	return in, d.errf("unsupported instruction %s", d.ri.opcode)
}

// decodeBarRed decodes bar.red.popc.u32 d, a{, b}, {!}c and
// bar.red.{and,or}.pred p, a{, b}, {!}c: a barrier that also reduces the
// predicate c over the threads that arrive.
func (d *decoder) decodeBarRed(in *inst, base string, m mods) error {
	ops := d.ri.ops
	var mode []string
	for _, w := range m.words {
		if w != "red" {
			mode = append(mode, w)
		}
	}
	modes := map[string]uint8{"popc": redPopc, "and": redAnd, "or": redOr}
	op, ok := modes[strings.Join(mode, ".")]
	if !ok {
		return d.errf("%s.red needs one of .popc, .and, .or", base)
	}
	in.fop = op
	want := tPred
	if in.fop == redPopc {
		want = tU32
	}
	if len(m.types) != 1 || m.types[0] != want {
		return d.errf("%s.red.popc needs type .u32, .and and .or type .pred", base)
	}
	if len(ops) != 3 && len(ops) != 4 {
		return d.errf("%s takes 3 or 4 operands, found %d", d.ri.opcode, len(ops))
	}
	var err error
	if in.d, err = d.dst(ops[0]); err != nil {
		return err
	}
	if in.a, err = d.src(ops[1], tU32); err != nil {
		return err
	}
	in.b = -1
	if len(ops) == 4 {
		if in.b, err = d.src(ops[2], tU32); err != nil {
			return err
		}
	}
	c := ops[len(ops)-1]
	if c.kind == okReg && c.not {
		c.not = false
		in.flags |= flNegSrc
	}
	if in.c, err = d.src(c, tPred); err != nil {
		return err
	}
	d.f.usesBar = true
	in.op = opBarRed
	return nil
}

func wideType(t ptype) ptype {
	switch t {
	case tU16:
		return tU32
	case tS16:
		return tS32
	case tU32:
		return tU64
	case tS32:
		return tS64
	}
	return t
}

func frameOff(r *symRef) int {
	if r.p != nil {
		return r.p.off
	}
	return int(r.v.off)
}

// addr decodes an address operand into in.a (base register), in.off and,
// where the operand names a variable, the state space.
func (d *decoder) addr(in *inst, o operand) error {
	switch o.kind {
	case okAddr:
	case okSym, okReg:
		// "ld.param.u64 %rd, [name]" is the usual form; also accept bare operands
		base := o
		o = operand{kind: okAddr, base: &base}
	default:
		return d.errf("expected an address operand [...]")
	}
	in.off = o.off
	in.a = slotFalse
	if o.base == nil {
		return nil
	}
	b := *o.base
	if b.kind == okReg {
		in.a = b.reg
		in.flags |= flRegAddr
		return nil
	}
	r := b.sym
	in.off += b.off
	switch {
	case r.frame:
		if in.sp != spParam && in.sp != spLocal {
			return d.errf("a .local/.param variable needs ld/st.local or .param")
		}
		in.sp = spFrame
		in.off += int64(frameOff(r))
	case r.p != nil: // kernel parameter
		if in.sp != spParam {
			return d.errf("kernel parameter %s needs ld.param", r.p.name)
		}
		in.off += int64(r.p.off)
	default:
		v := r.v
		switch v.sp {
		case spShared:
			switch in.sp {
			case spShared:
				in.off += int64(v.off)
			case spGeneric:
				in.off += int64(v.off + sharedWindow)
			default:
				return d.errf("shared variable %s accessed as %s", v.name, in.sp)
			}
		case spGlobal, spConst:
			if in.sp != v.sp && in.sp != spGeneric {
				return d.errf("%s variable %s accessed as %s", v.sp, v.name, in.sp)
			}
			if v.sp == spConst && in.sp == spGeneric {
				return d.errf("generic access to .const variable %s: use ld.const", v.name)
			}
			in.a = d.relocSlot(v, 0)
		default:
			return d.errf("unsupported variable space for %s", v.name)
		}
	}
	return nil
}

func (d *decoder) decodeCall(in *inst) error {
	ops := d.ri.ops
	in.op = opCall
	i := 0
	var retOps, argOps []operand
	if i < len(ops) && ops[i].kind == okList {
		retOps = ops[i].elems
		i++
	}
	if i >= len(ops) || ops[i].kind != okName {
		return d.errf("call needs a function name")
	}
	name := ops[i].name
	i++
	if i < len(ops) && ops[i].kind == okList {
		argOps = ops[i].elems
		i++
	}
	if i != len(ops) {
		return d.errf("call: unexpected operands (indirect calls are not supported)")
	}
	callee := d.p.m.funcs[name]
	if callee == nil {
		return d.errf("call of undeclared function %s", name)
	}
	if callee.entry {
		return d.errf("call of kernel %s", name)
	}
	if callee.extern && name == "vprintf" {
		in.op = opVprintf
	} else if callee.extern {
		return d.errf("call of external function %s is not supported (only vprintf)", name)
	}
	if len(argOps) != len(callee.params) || len(retOps) != len(callee.rets) {
		return d.errf("call %s: %d arguments and %d results, function has %d and %d", name, len(argOps), len(retOps), len(callee.params), len(callee.rets))
	}
	ci := callInfo{callee: callee}
	conv := func(o operand, p param, isRet bool) (argRef, error) {
		switch {
		case o.kind == okSym && o.sym.frame && o.sym.p != nil:
			return argRef{off: o.sym.p.off, size: p.size}, nil
		case o.kind == okReg || (o.kind == okImm && !isRet):
			var r int32
			var err error
			if isRet {
				r, err = d.dst(o)
			} else {
				r, err = d.src(o, p.ty)
			}
			return argRef{isReg: true, reg: r, size: p.size}, err
		}
		return argRef{}, d.errf("call %s: unsupported argument form", name)
	}
	for k, o := range argOps {
		a, err := conv(o, callee.params[k], false)
		if err != nil {
			return err
		}
		ci.args = append(ci.args, a)
	}
	for k, o := range retOps {
		a, err := conv(o, callee.rets[k], true)
		if err != nil {
			return err
		}
		ci.rets = append(ci.rets, a)
	}
	in.tgt = int32(len(d.f.calls))
	d.f.calls = append(d.f.calls, ci)
	return nil
}

// decodeHalf decodes the .f16 arithmetic nugo emits: add, sub, mul and fma
// with round to nearest even, computed by internal/half exactly as the CPU
// backend computes it.
func (d *decoder) decodeHalf(in *inst, base string, m mods) error {
	fops := map[string]uint8{"add": fAdd, "sub": fSub, "mul": fMul, "fma": fFma}
	fop, ok := fops[base]
	if !ok || m.ftz || m.sat || (m.rnd != rnDefault && m.rnd != rnRN) {
		return d.errf("%s: only add, sub, mul and fma of .f16, rounding to nearest, are supported", d.ri.opcode)
	}
	in.op, in.fop, in.ty = opHalf, fop, tF16
	in.mask = 0xFFFF
	n := 2
	if fop == fFma {
		n = 3
	}
	if err := d.need(n + 1); err != nil {
		return err
	}
	var err error
	if in.d, err = d.dst(d.ri.ops[0]); err != nil {
		return err
	}
	srcs := [...]*int32{&in.a, &in.b, &in.c}
	for i := 0; i < n; i++ {
		if *srcs[i], err = d.src(d.ri.ops[i+1], tB16); err != nil {
			return err
		}
	}
	return nil
}

// decodeCvtHalf decodes conversions between .f16 and .f32 or .f64.
func (d *decoder) decodeCvtHalf(in *inst, dt, st ptype, m mods) error {
	if m.ftz || m.sat {
		return d.errf("cvt: modifiers on .f16 conversions are not supported")
	}
	switch {
	case dt == tF32 && st == tF16 && m.rnd == rnDefault:
		in.fop = cvtHToF32
	case dt == tF64 && st == tF16 && m.rnd == rnDefault:
		in.fop = cvtHToF64
	case dt == tF16 && st == tF32 && m.rnd == rnRN:
		in.fop = cvtF32ToH
	case dt == tF16 && st == tF64 && m.rnd == rnRN:
		in.fop = cvtF64ToH
	default:
		return d.errf("cvt%s.%s.%s is not supported (nugo converts .f16 to and from .f32 and .f64, rounding to nearest)", map[bool]string{true: ".rn", false: ""}[m.rnd == rnRN], dt.String()[1:], st.String()[1:])
	}
	in.op, in.ty, in.ty2 = opCvtHalf, dt, st
	in.mask = maskOf(dt.bits())
	if err := d.need(2); err != nil {
		return err
	}
	var err error
	if in.d, err = d.dst(d.ri.ops[0]); err != nil {
		return err
	}
	in.a, err = d.src(d.ri.ops[1], st)
	return err
}
