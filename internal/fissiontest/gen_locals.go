package fissiontest

import (
	"fmt"
	"strings"
)

// localsShape writes, in place of a uniform variable's update, one of the
// forms that internal/loopgen/fission_locals.go takes: an assignment of a
// value the same in every thread to the kernel's parameter p (which the
// block loop keeps in a local copy per block), or, at the level where a
// uniform variable was declared, the assignment of a thread's value to
// it, after which it is a thread's variable (the block loop splits it
// into one variable per definition). It reports whether it wrote one.
func (g *gen) localsShape() bool {
	// p only in lists that every thread runs through (the body, the
	// bodies of loops around barriers): in an if that also does a
	// thread's work, p's assignment would make p a thread's variable for
	// the conditions around barriers before it too (one verdict per
	// variable), and the kernel would keep goroutines.
	if g.chance(40) && g.inBranch == 0 && g.depth == g.uloops {
		switch g.pick(3) {
		case 0:
			g.line("p = p%%3 + 1")
		case 1:
			g.line("p = min(p+%d, 4)", 1+g.pick(2))
		default:
			g.line("p = max(p-1, nt%%2)")
		}
		return true
	}
	top := 0
	if len(g.uscopes) > 0 {
		top = g.uscopes[len(g.uscopes)-1]
	}
	var c []int
	for i := top; i < len(g.uvars); i++ {
		if strings.HasPrefix(g.uvars[i], "u") {
			c = append(c, i)
		}
	}
	if len(c) == 0 {
		return false
	}
	i := c[g.pick(len(c))]
	name := g.uvars[i]
	g.uvars = append(g.uvars[:i:i], g.uvars[i+1:]...)
	g.line("%s = %s", name, []string{
		fmt.Sprintf("%s*3 + tid", name),
		fmt.Sprintf("(%s + gi) %% %d", name, 2+g.pick(6)),
		"tid ^ bid",
	}[g.pick(3)])
	v := &gvar{name: name, t: "int", slot: g.nint}
	g.nint++
	g.vars = append(g.vars, v)
	return true
}
