package fissiontest

import "fmt"

// uniformShape writes one of the shapes the flow-aware uniformity
// analysis takes (internal/loopgen/fission_uniform.go): a variable the
// same in every thread assigned inside an if without barriers, or summed
// in a loop without barriers, which later loops and ifs around barriers
// may use; or, inside a loop around barriers and with every shared array
// clean, a break or continue on a condition the same in every thread.
func (g *gen) uniformShape() {
	u := []string{"p", "nt", "bid", "nt / 3", "p * 2"}
	u = append(u, g.uvars...)
	ue := func() string {
		e := u[g.pick(len(u))]
		if g.chance(50) {
			e = fmt.Sprintf("%s + %s", e, u[g.pick(len(u))])
		}
		return e
	}
	uc := func() string {
		c := []string{"bid%2 == 0", "p > 1", fmt.Sprintf("nt > %d", g.pick(100)), "bid == 0", "t.BlockIdx().X == 1"}
		c = append(c, fmt.Sprintf("(%s)%%%d == %d", ue(), 2+g.pick(3), g.pick(2)))
		return c[g.pick(len(c))]
	}
	if g.chance(15) && g.depth < 2 && g.budget > 3 {
		g.uniformSwitch()
		return
	}
	switch k := g.pick(10); {
	case k < 2 && g.uloops > 0 && !g.dirty():
		// Every iteration ends clean (uniformLoop), so leaving it here
		// leaves no shared array half written.
		g.line("if %s {", uc())
		g.line("\t%s", g.branchTo())
		g.line("}")
		return
	case k < 4 && g.uloops > 0 && !g.dirty():
		// A break or continue with a thread's work before it.
		g.line("if %s {", uc())
		g.threadWork()
		g.line("\t%s", g.branchTo())
		g.line("}")
		return
	case k < 7:
		name := g.fresh("u")
		g.line("%s := %s", name, ue())
		g.line("if %s {", uc())
		if g.chance(40) {
			// A thread's work too: the if is promoted (promoteIfs).
			g.threadWork()
		}
		g.line("\t%s = %s", name, ue())
		if g.chance(40) {
			g.line("} else if %s {", uc())
			g.line("\t%s += %d", name, 1+g.pick(3))
		} else if g.chance(40) {
			g.line("} else {")
			g.line("\t%s++", name)
		}
		g.line("}")
		g.line("_ = %s", name)
		g.uvars = append(g.uvars, name)
	default:
		name, k := g.fresh("u"), g.fresh("k")
		g.line("%s := 0", name)
		g.line("for %s := range (%s) %% 5 {", k, ue())
		g.line("\tif %s%%2 == %d {", k, g.pick(2))
		g.line("\t\t%s += %s", name, k)
		g.line("\t}")
		g.line("}")
		g.line("_ = %s", name)
		g.uvars = append(g.uvars, name)
	}
}

// threadWork writes, one level in, an update of a thread's variable that
// touches no shared array and declares nothing.
func (g *gen) threadWork() {
	v := g.anyVar(true)
	op := "+="
	if !isFloat(v.t) && g.chance(50) {
		op = "^="
	}
	g.line("\t%s %s %s", v.name, op, g.expr(v.t, 1))
}

// uniformSwitch writes a switch on a value the same in every thread with
// block-level statements in its cases (an if-else chain to the
// transform). The shared arrays' states merge as in branches; a break in
// a case would leave the switch, which the transform refuses, so none is
// written there.
func (g *gen) uniformSwitch() {
	u := append([]string{"p", "bid", "nt"}, g.uvars...)
	type st struct{ w, r bool }
	before := make([]st, len(g.shared))
	merged := make([]st, len(g.shared))
	for i, s := range g.shared {
		before[i] = st{s.written, s.readOthers}
	}
	g.line("switch (%s) %% 3 {", u[g.pick(len(u))])
	loops, labels := g.uloops, g.labels
	g.uloops, g.labels = 0, nil // a labeled break would keep the switch
	g.depth++
	cases := []string{"case 0:", "case 1, 2:"}
	if g.chance(50) {
		cases = []string{"case 1:", "default:"}
	}
	for _, c := range cases {
		for i, s := range g.shared {
			s.written, s.readOthers = before[i].w, before[i].r
		}
		g.line("%s", c)
		g.open()
		g.block(1 + g.pick(2))
		g.close()
		for i, s := range g.shared {
			merged[i].w = merged[i].w || s.written
			merged[i].r = merged[i].r || s.readOthers
		}
	}
	for i, s := range g.shared {
		s.written = merged[i].w || before[i].w
		s.readOthers = merged[i].r || before[i].r
	}
	g.depth--
	g.uloops, g.labels = loops, labels
	g.line("}")
}
