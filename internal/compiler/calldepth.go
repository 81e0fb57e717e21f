package compiler

import (
	"fmt"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// MaxCallDepth is the deepest nesting of recursive device-function calls a
// thread may reach (cuda.MaxCallDepth, the same on every backend). A
// recursive function takes the depth of its call as an extra .b32
// parameter: a call from outside its cycle passes 1, a call within the
// cycle the caller's depth plus one, checked first; beyond the limit the
// thread fails with a KernelError ("call depth exceeds 4096") instead of
// overflowing its stack, which on a GPU is a fault that loses the context.
const MaxCallDepth = 4096

// callDepthMsg is the failure's message, the cpu backend's too.
var callDepthMsg = fmt.Sprintf("call depth exceeds %d", MaxCallDepth)

// depthParam declares a recursive device function's depth parameter and
// loads it (params calls it after the function's own parameters).
func (f *fnState) depthParam() {
	if f.kernel || !f.m.recursive(f.fn) {
		return
	}
	name := f.p.Name + "_depth"
	f.p.Params = append(f.p.Params, ptx.Param{Name: name, Type: ".b32"})
	f.depth = f.p.NewReg(ptx.B32).String()
	f.p.Emit("ld.param.b32", f.depth, "["+name+"]")
}

// depthArg returns the depth to pass to callee, a recursive function,
// checking it against MaxCallDepth when the call stays within a cycle.
func (f *fnState) depthArg(callee *ssa.Function) string {
	if f.depth == "" || !f.m.reaches(callee, f.fn) {
		return "1"
	}
	next := f.p.NewReg(ptx.B32).String()
	f.p.Emit("add.s32", next, f.depth, "1")
	p := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("setp.gt.s32", p, next, fmt.Sprint(MaxCallDepth))
	label := f.newLabel("depth")
	f.p.EmitIf(p, "bra", label)
	site := len(f.m.out.Sites)
	if site >= MaxSites {
		f.errorf("more than %d checks and panics in one kernel", MaxSites)
	}
	f.m.out.Sites = append(f.m.out.Sites, Site{Kind: errKinds[ErrPanic], Pos: f.sitePos(), Func: f.fn.String(), Msg: callDepthMsg})
	f.m.errorRecord = true
	f.tail = append(f.tail, func() { f.errorPath(label, ErrPanic, site, false, nil, "") })
	return next
}

// reaches reports whether from can reach to through static calls.
func (m *modState) reaches(from, to *ssa.Function) bool {
	key := [2]*ssa.Function{from, to}
	if r, ok := m.reach[key]; ok {
		return r
	}
	seen := map[*ssa.Function]bool{from: true}
	stack := []*ssa.Function{from}
	r := false
	for len(stack) > 0 && !r {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				c := call.Common().StaticCallee()
				if c == nil || len(c.Blocks) == 0 {
					continue
				}
				if c == to {
					r = true
				}
				if !seen[c] {
					seen[c] = true
					stack = append(stack, c)
				}
			}
		}
	}
	m.reach[key] = r
	return r
}
