package compiler

import (
	"go/constant"
	"go/token"
	"go/types"
	"math/rand"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/frontend"
)

// The interval analysis is checked against executions: a small interpreter
// runs the SSA of integer kernels on random inputs and thread indices, and
// every integer value it computes must lie in the value's interval, and in
// the refined interval of every block that uses it.

const rangeProgs = `package k

import "github.com/nugo-dev/nugo/cuda"

func loops(t cuda.Thread, out []int64, n int, m int32) {
	s := int64(0)
	for k := 0; k < 16; k++ {
		s += int64(k)
	}
	for k := range 9 {
		for j := k; j >= 0; j -= 3 {
			s += int64(j * k)
		}
	}
	for k := 100; k > 0; k >>= 1 {
		s ^= int64(k)
	}
	for k := n; k < n+5 && k < 20; k++ {
		s += int64(k)
	}
	i := 0
	for {
		i += 7
		if i > 50 {
			break
		}
		if i%3 == 0 {
			continue
		}
		s -= int64(i)
	}
	var u uint = uint(m)
	for u > 3 {
		u = u/2 - 1
	}
	out[0] = s + int64(u)
}

func threads(t cuda.Thread, out []int64, n int) {
	tid := t.ThreadIdx().X
	ty := t.ThreadIdx().Y
	b := t.BlockIdx().X
	l := ty*t.BlockDim().X + tid
	g := t.Grid1()
	_, gy := t.Grid2()
	s := tid*3 - l + b%5
	if tid < n && n < 300 {
		s += n - tid
	}
	if g == 7 || gy < 2 {
		s += g * 2
	}
	if s >= -3 {
		s = min(s, 1000)
	}
	for k := tid; k < 64; k += 32 {
		s += k * (k - 1) / 2 % 9
	}
	out[0] = int64(s) + int64(int8(s)) + int64(uint16(s*s))
}

func narrow(t cuda.Thread, out []int64, a int8, b uint16, c int32) {
	x := a*3 + 1
	y := b*b - 7
	z := c/3 + int32(a)
	w := int(z) << 3 >> 1
	var acc int64
	for k := int8(-5); k < 5; k += 2 {
		acc += int64(k * a)
	}
	for k := uint16(0); k != 10; k++ {
		acc += int64(k + b)
	}
	out[0] = int64(x) + int64(y) + int64(z) + int64(w) + acc
}
`

// interp executes one function's SSA on integers.
type interp struct {
	t    *testing.T
	rnd  *rand.Rand
	f    *fnState
	vals map[ssa.Value][]int64
}

func (in *interp) val(v ssa.Value) []int64 {
	if c, ok := v.(*ssa.Const); ok {
		if c.Value == nil {
			return []int64{0}
		}
		if c.Value.Kind() == constant.Bool {
			return []int64{b2i64(constant.BoolVal(c.Value))}
		}
		if isUnsigned(c.Type()) {
			return []int64{int64(c.Uint64())}
		}
		return []int64{c.Int64()}
	}
	return in.vals[v]
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// check asserts that x, the value of v, is in v's interval as seen in b.
func (in *interp) check(v ssa.Value, x int64, b *ssa.BasicBlock, what string) {
	if _, isInt := typeRange(v.Type()); !isInt {
		return
	}
	r, ok := in.f.rangeAt(v, b)
	if !ok {
		in.t.Fatalf("%s %s = %d executed in %s but has no interval (bottom)", what, v.Name(), x, b)
	}
	if isUnsigned(v.Type()) && !r.nonNeg() {
		return // no claim
	}
	if x < r.lo || x > r.hi {
		in.t.Fatalf("%s %s = %s: value %d outside %v in block %d", what, v.Name(), v, x, r, b.Index)
	}
}

func (in *interp) run(fn *ssa.Function, args map[*ssa.Parameter][]int64) {
	for p, a := range args {
		in.vals[p] = a
	}
	b := fn.Blocks[0]
	var prev *ssa.BasicBlock
	for steps := 0; steps < 100000; steps++ {
		// Phis read their edges in parallel.
		phis := map[ssa.Value][]int64{}
		for _, instr := range b.Instrs {
			phi, ok := instr.(*ssa.Phi)
			if !ok {
				break
			}
			for i, p := range b.Preds {
				if p == prev {
					x := in.val(phi.Edges[i])
					if x != nil {
						in.check(phi.Edges[i], x[0], p, "phi edge")
					}
					phis[phi] = x
				}
			}
		}
		for v, x := range phis {
			in.vals[v] = x
		}
		var next *ssa.BasicBlock
		for _, instr := range b.Instrs {
			for _, op := range instr.Operands(nil) {
				if _, isPhi := instr.(*ssa.Phi); isPhi || *op == nil {
					continue
				}
				if x := in.val(*op); len(x) == 1 {
					in.check(*op, x[0], b, "operand")
				}
			}
			switch i := instr.(type) {
			case *ssa.BinOp:
				x, y := in.val(i.X)[0], in.val(i.Y)[0]
				if cmp, ok := cmpOps[i.Op]; ok {
					in.vals[i] = []int64{b2i64(compareInts(cmp, x, y, isUnsigned(i.X.Type())))}
					break
				}
				r, ok := evalOp(i.Op, x, y, i.Type())
				if !ok {
					in.t.Fatalf("%s: cannot evaluate %d %s %d", i, x, i.Op, y)
				}
				in.vals[i] = []int64{r}
			case *ssa.UnOp:
				x := in.val(i.X)
				if i.Op == token.NOT {
					in.vals[i] = []int64{1 - x[0]}
				} else if i.Op == token.SUB {
					r, _ := evalOp(token.SUB, 0, x[0], i.Type())
					in.vals[i] = []int64{r}
				}
			case *ssa.Convert:
				r, _ := evalOp(token.ADD, in.val(i.X)[0], 0, i.Type())
				if isUnsigned(i.X.Type()) && !isUnsigned(i.Type()) {
					r, _ = evalOp(token.ADD, in.val(i.X)[0], 0, i.Type())
				}
				in.vals[i] = []int64{r}
			case *ssa.Call:
				if rs := threadRanges(i); rs != nil {
					out := make([]int64, len(rs))
					for k, r := range rs {
						out[k] = r.lo + in.rnd.Int63n(min(r.hi-r.lo+1, 1<<40))
						if in.rnd.Intn(4) == 0 {
							out[k] = r.hi
						}
					}
					in.vals[i] = out
				} else if bi, ok := i.Call.Value.(*ssa.Builtin); ok && (bi.Name() == "min" || bi.Name() == "max") {
					r := in.val(i.Call.Args[0])[0]
					for _, a := range i.Call.Args[1:] {
						if bi.Name() == "min" {
							r = min(r, in.val(a)[0])
						} else {
							r = max(r, in.val(a)[0])
						}
					}
					in.vals[i] = []int64{r}
				}
			case *ssa.Field:
				in.vals[i] = []int64{in.val(i.X)[i.Field]}
			case *ssa.Extract:
				in.vals[i] = []int64{in.val(i.Tuple)[i.Index]}
			case *ssa.If:
				if in.val(i.Cond)[0] != 0 {
					next = b.Succs[0]
				} else {
					next = b.Succs[1]
				}
			case *ssa.Jump:
				next = b.Succs[0]
			case *ssa.Return:
				return
			}
			if v, ok := instr.(ssa.Value); ok {
				if x := in.vals[v]; len(x) == 1 {
					in.check(v, x[0], nil, "value")
				}
			}
		}
		prev, b = b, next
	}
	in.t.Fatalf("%s: too many steps", fn.Name())
}

func compareInts(cmp string, x, y int64, uns bool) bool {
	lt := x < y
	if uns {
		lt = uint64(x) < uint64(y)
	}
	switch cmp {
	case "eq":
		return x == y
	case "ne":
		return x != y
	case "lt":
		return lt
	case "le":
		return lt || x == y
	case "gt":
		return !lt && x != y
	}
	return !lt
}

func TestRangesHoldOnExecutions(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	for _, name := range []string{"loops", "threads", "narrow"} {
		k, err := frontend.LoadSource("kernel.go", []byte(rangeProgs), name)
		if err != nil {
			t.Fatal(err)
		}
		f := &fnState{fn: k.Func, ranges: analyzeRanges(k.Func)}
		if f.ranges == nil {
			t.Fatalf("%s: the analysis did not converge", name)
		}
		narrowed := 0
		for v, r := range f.ranges.r {
			if r.within(r32) && (!isUnsigned(v.Type()) || r.nonNeg()) {
				narrowed++
			}
		}
		if narrowed == 0 {
			t.Errorf("%s: no value proven to fit in 32 bits", name)
		}
		for run := 0; run < 300; run++ {
			args := map[*ssa.Parameter][]int64{}
			for _, p := range k.Func.Params[2:] {
				tr, _ := typeRange(p.Type())
				var x int64
				if span := tr.hi - tr.lo; span >= 0 && span < 1<<20 {
					x = tr.lo + rnd.Int63n(span+1)
				} else {
					x = rnd.Int63n(1<<21) - 1<<20
					if isUnsigned(p.Type()) {
						x = rnd.Int63n(1 << 20)
					}
				}
				if rnd.Intn(3) == 0 {
					x = rnd.Int63n(60) - 30
					x, _ = evalOp(token.ADD, x, 0, p.Type())
				}
				args[p] = []int64{x}
			}
			(&interp{t: t, rnd: rnd, f: f, vals: map[ssa.Value][]int64{}}).run(k.Func, args)
		}
	}
	_ = types.Typ
}
