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

// loopLabel is the label of a uniform loop around barriers, written
// before the loop once a branch names it (Go refuses unused labels).
type loopLabel struct {
	name string
	at   int // where the loop's text starts in g.w
	ind  int
	used bool
}

// openLabel gives the uniform loop that starts here a label, more often
// than not, or returns nil.
func (g *gen) openLabel() *loopLabel {
	if !g.chance(60) {
		return nil
	}
	l := &loopLabel{name: g.fresh("L"), at: g.w.Len(), ind: g.ind}
	g.labels = append(g.labels, l)
	return l
}

// closeLabel ends the loop of l, writing l before it if a branch named it.
func (g *gen) closeLabel(l *loopLabel) {
	if l == nil {
		return
	}
	g.labels = g.labels[:len(g.labels)-1]
	if !l.used {
		return
	}
	s := g.w.String()
	g.w.Reset()
	g.w.WriteString(s[:l.at])
	g.w.WriteString(strings.Repeat("\t", l.ind) + l.name + ":\n")
	g.w.WriteString(s[l.at:])
}

// branchTo returns a break or continue of the innermost uniform loop
// around barriers, or, half the time where there are labeled ones, of a
// labeled one.
func (g *gen) branchTo() string {
	tok := []string{"break", "continue"}[g.pick(2)]
	if len(g.labels) == 0 || g.chance(30) {
		return tok
	}
	l := g.labels[g.pick(len(g.labels))]
	l.used = true
	return tok + " " + l.name
}

// labeledExit writes, at the end of a uniform loop's body, where every
// shared array is clean, a break or continue of a labeled loop around it
// (or of itself) under a condition the same in every thread.
func (g *gen) labeledExit() {
	if len(g.labels) == 0 || g.dirty() || !g.chance(50) {
		return
	}
	l := g.labels[g.pick(len(g.labels))]
	l.used = true
	// Not the u variables: one assigned in an if that also does a
	// thread's work is uniform only where a head around barriers reads it
	// (promoteIfs).
	u := []string{"p", "bid"}
	for _, x := range g.uvars {
		if !strings.HasPrefix(x, "u") {
			u = append(u, x)
		}
	}
	g.line("if (%s)%%%d == %d {", u[g.pick(len(u))], 2+g.pick(3), g.pick(2))
	g.line("\t%s %s", []string{"break", "continue"}[g.pick(2)], l.name)
	g.line("}")
}
