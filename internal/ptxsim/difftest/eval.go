package difftest

import (
	"fmt"
	"math"
)

// val is a value of generated code: canonical integer bits in i (see
// normalize), or a float in f (a float32 held exactly).
type val struct {
	i uint64
	f float64
}

// evalState evaluates a program for one thread with Go's semantics.
type evalState struct {
	p      *program
	env    map[*gvar]val
	arrays map[*garray]*[4]val
}

// evalAll runs the program for every thread: the reference result.
func (p *program) evalAll(in []int64, fin []float64) (out []int64, fout []float64) {
	no, nfo := p.outputs()
	out = make([]int64, genThreads*no)
	fout = make([]float64, genThreads*nfo)
	states := make([]*evalState, genThreads)
	for i := range states {
		st := &evalState{p: p, env: map[*gvar]val{}, arrays: map[*garray]*[4]val{}}
		ni, nf := 0, 0
		for _, v := range p.locals {
			if v.t.isFloat() {
				st.env[v] = convFloat(v.t, fin[i*max(p.nFIn, 1)+nf])
				nf++
			} else {
				st.env[v] = val{i: normalize(v.t, uint64(in[i*max(p.nIn, 1)+ni]))}
				ni++
			}
		}
		for _, a := range p.arrays {
			st.arrays[a] = &[4]val{}
		}
		states[i] = st
	}
	// Statements run in lock step over the threads at the top level, so
	// that shared-memory exchanges see every thread's value; nested
	// statements have no barriers and run per thread.
	for _, s := range p.body {
		if sh, ok := s.(*sShared); ok {
			vals := make([]int64, genThreads)
			for i, st := range states {
				vals[i] = int64(st.eval(sh.src).i)
			}
			for i, st := range states {
				blk, tid := i/genBlock, i%genBlock
				src := vals[blk*genBlock+(tid+sh.shift)%genBlock]
				st.env[sh.dst] = st.convert(sh.dst.t, gI64, val{i: uint64(src)})
			}
			continue
		}
		for _, st := range states {
			st.exec(s)
		}
	}
	for i, st := range states {
		oi, of := 0, 0
		put := func(t gtype, v val) {
			if t.isFloat() {
				fout[i*nfo+of] = v.f
				of++
			} else {
				out[i*no+oi] = int64(v.i)
				oi++
			}
		}
		for _, v := range p.locals {
			put(v.t, st.env[v])
		}
		for _, a := range p.arrays {
			for j := 0; j < 4; j++ {
				put(a.t, st.arrays[a][j])
			}
		}
		fout[i*nfo+of] = math.Abs(float64(i) - 0.5)
	}
	return out, fout
}

func convFloat(t gtype, f float64) val {
	if t == gF32 {
		return val{f: float64(float32(f))}
	}
	return val{f: f}
}

// flow is how a statement list ended.
type flow uint8

const (
	flowNext flow = iota
	flowBreak
	flowContinue
)

func (st *evalState) execList(ss []stmt) flow {
	for _, s := range ss {
		if f := st.exec(s); f != flowNext {
			return f
		}
	}
	return flowNext
}

func (st *evalState) exec(s stmt) flow {
	switch s := s.(type) {
	case *sAssign:
		st.env[s.v] = st.eval(s.e)
	case *sMulti:
		a, b := st.eval(s.ea), st.eval(s.eb)
		st.env[s.a], st.env[s.b] = a, b
	case *sArrSet:
		idx := st.index(s.idx)
		st.arrays[s.arr][idx] = st.eval(s.e)
	case *sPick:
		dst := s.b
		if st.eval(s.cond).i != 0 {
			dst = s.a
		}
		st.env[dst] = st.eval(s.e)
	case *sDeep:
		if s.arr != nil {
			idx := st.index(s.idx)
			st.arrays[s.arr][idx] = st.eval(s.e)
			break
		}
		st.env[s.v] = st.eval(s.e)
	case *sSwap:
		x := st.eval(s.e)
		old := st.env[s.v]
		st.env[s.v] = binop("+", s.v.t, old, x)
		st.env[s.w] = old
	case *sIf:
		body := s.els
		if st.eval(s.cond).i != 0 {
			body = s.then
		}
		return st.execList(body)
	case *sJump:
		if st.eval(s.cond).i != 0 {
			if s.isBreak {
				return flowBreak
			}
			return flowContinue
		}
	case *sFor:
		for k := 0; k < s.n; k++ {
			st.env[s.k] = val{i: uint64(k)}
			if st.execList(s.body) == flowBreak {
				break
			}
		}
	default:
		panic(fmt.Sprintf("exec: %T", s))
	}
	return flowNext
}

// index is uint(e) % 4 for an integer expression.
func (st *evalState) index(e expr) int {
	return int(st.eval(e).i % 4) // canonical bits are the uint conversion
}

func b2v(b bool) val {
	if b {
		return val{i: 1}
	}
	return val{}
}

func (st *evalState) eval(e expr) val {
	switch e := e.(type) {
	case *eVar:
		return st.env[e.v]
	case *eConst:
		if e.t.isFloat() {
			return convFloat(e.t, e.f)
		}
		return val{i: e.i}
	case *eBin:
		return binop(e.op, e.t, st.eval(e.a), st.eval(e.b))
	case *eShift:
		x := st.eval(e.a)
		s := st.eval(e.s).i % 70
		t := e.typ()
		if e.op == "<<" {
			if s >= 64 {
				return val{}
			}
			return val{i: normalize(t, x.i<<s)}
		}
		if t.signed() {
			return val{i: uint64(int64(x.i) >> min(s, 63))}
		}
		if s >= 64 {
			return val{}
		}
		return val{i: x.i >> s}
	case *eUn:
		x := st.eval(e.a)
		t := e.typ()
		if t.isFloat() {
			return convFloat(t, -x.f)
		}
		if e.op == "-" {
			return val{i: normalize(t, -x.i)}
		}
		return val{i: normalize(t, ^x.i)}
	case *eConv:
		return st.convert(e.t, e.a.typ(), st.eval(e.a))
	case *eCall:
		fe := &evalState{p: st.p, env: map[*gvar]val{}}
		for i, p := range e.f.params {
			fe.env[p] = st.eval(e.args[i])
		}
		return fe.eval(e.f.body)
	case *eMath:
		x := st.eval(e.a)
		r := math.Abs(x.f)
		if e.fn == "sqrt" {
			r = math.Sqrt(r)
		}
		return convFloat(e.typ(), r)
	case *eMinMax:
		a, b := st.eval(e.a), st.eval(e.b)
		t := e.typ()
		isMin := e.op == "min"
		switch {
		case t == gF32:
			x, y := float32(a.f), float32(b.f)
			if isMin {
				return val{f: float64(min(x, y))}
			}
			return val{f: float64(max(x, y))}
		case t == gF64:
			if isMin {
				return val{f: min(a.f, b.f)}
			}
			return val{f: max(a.f, b.f)}
		case t.signed():
			if (int64(a.i) < int64(b.i)) == isMin {
				return a
			}
			return b
		}
		if (a.i < b.i) == isMin {
			return a
		}
		return b
	case *eIndex:
		return st.arrays[e.arr][st.index(e.idx)]
	case *eNew:
		return st.eval(e.a)
	case *eCmp:
		a, b := st.eval(e.a), st.eval(e.b)
		t := e.a.typ()
		var c int // -1, 0, 1; 2 for unordered
		switch {
		case t.isFloat():
			switch {
			case a.f != a.f || b.f != b.f:
				c = 2
			case a.f < b.f:
				c = -1
			case a.f > b.f:
				c = 1
			}
		case t.signed():
			switch {
			case int64(a.i) < int64(b.i):
				c = -1
			case int64(a.i) > int64(b.i):
				c = 1
			}
		default:
			switch {
			case a.i < b.i:
				c = -1
			case a.i > b.i:
				c = 1
			}
		}
		switch e.op {
		case "==":
			return b2v(c == 0)
		case "!=":
			return b2v(c != 0)
		case "<":
			return b2v(c == -1)
		case "<=":
			return b2v(c == -1 || c == 0)
		case ">":
			return b2v(c == 1)
		}
		return b2v(c == 1 || c == 0)
	case *eLogic:
		switch e.op {
		case "!":
			return b2v(st.eval(e.a).i == 0)
		case "&&":
			return b2v(st.eval(e.a).i != 0 && st.eval(e.b).i != 0)
		}
		return b2v(st.eval(e.a).i != 0 || st.eval(e.b).i != 0)
	}
	panic(fmt.Sprintf("eval: %T", e))
}

func binop(op string, t gtype, a, b val) val {
	if t.isFloat() {
		if t == gF32 {
			x, y := float32(a.f), float32(b.f)
			var r float32
			switch op {
			case "+":
				r = x + y
			case "-":
				r = x - y
			case "*":
				r = x * y
			case "/":
				r = x / y
			}
			return val{f: float64(r)}
		}
		switch op {
		case "+":
			return val{f: a.f + b.f}
		case "-":
			return val{f: a.f - b.f}
		case "*":
			return val{f: a.f * b.f}
		}
		return val{f: a.f / b.f}
	}
	x, y := a.i, b.i
	var r uint64
	switch op {
	case "+":
		r = x + y
	case "-":
		r = x - y
	case "*":
		r = x * y
	case "&":
		r = x & y
	case "|":
		r = x | y
	case "^":
		r = x ^ y
	case "&^":
		r = x &^ y
	case "/", "%":
		if y == 0 { // the generated code divides by nz(y)
			y = 1
		}
		if t.signed() {
			if op == "/" {
				r = uint64(int64(x) / int64(y))
			} else {
				r = uint64(int64(x) % int64(y))
			}
		} else if op == "/" {
			r = x / y
		} else {
			r = x % y
		}
	}
	return val{i: normalize(t, r)}
}

// convert is Go's conversion from type from to type t.
func (st *evalState) convert(t, from gtype, v val) val {
	switch {
	case from.isFloat() && t.isFloat():
		return convFloat(t, v.f)
	case from.isFloat(): // the generator only converts small values
		return val{i: normalize(t, uint64(int64(v.f)))}
	case t.isFloat():
		var f float64
		if t == gF32 {
			if from.signed() {
				f = float64(float32(int64(v.i)))
			} else {
				f = float64(float32(v.i))
			}
		} else if from.signed() {
			f = float64(int64(v.i))
		} else {
			f = float64(v.i)
		}
		return val{f: f}
	}
	return val{i: normalize(t, v.i)}
}
