package fissiontest

import "fmt"

// divergentWarp writes an if whose condition differs from thread to
// thread, with warp operations on its sides and no barrier (a divergent
// if): the lanes below k and the others, each side with its own member
// mask (and, inside, its even lanes with theirs); whole warps, with the
// full warp's operations; or ActiveMask once on each side of a parity
// split. Every mask holds only lanes on its side (or lanes that returned),
// so the program is defined on a GPU. ActiveMask comes only before any
// early return: after `if c { return }` the lanes that stay never
// reconverge on ptxsim (the branch's post-dominator is the exit), and
// which of them run together is the scheduler's choice (docs/backends.md).
func (g *gen) divergentWarp() {
	k := g.pick(3)
	if k == 2 && g.returns > 0 {
		k = g.pick(2)
	}
	switch k {
	case 0:
		k := []int{8, 16, 24}[g.pick(3)]
		lo := uint32(1)<<k - 1
		g.line("if t.LaneID() < %d {", k)
		g.divSide(lo, true)
		if g.chance(70) {
			g.line("} else {")
			g.divSide(^lo, true)
		}
		g.line("}")
	case 1:
		conds := []string{"tid/32 == 0", "tid/32%2 == 1", fmt.Sprintf("tid/32 != %d", g.pick(4)), "(tid/32+bid)%2 == 0"}
		g.line("if %s {", conds[g.pick(len(conds))])
		g.divSide(0xffffffff, false)
		if g.chance(50) {
			g.line("} else {")
			g.divSide(0xffffffff, false)
		}
		g.line("}")
	default:
		v := g.varOf("uint32", true)
		if v == nil {
			v = g.newVar("uint32", "0")
		}
		g.line("if tid%%2 == %d {", g.pick(2))
		g.line("\t%s ^= cuda.ActiveMask(t)", v.name)
		g.line("} else {")
		g.line("\t%s += cuda.ActiveMask(t) >> %d", v.name, g.pick(3))
		g.line("}")
	}
}

// divSide writes one side of a divergent if whose lanes are those of
// mask: warp operations among them, thread statements and early returns;
// nest adds, at most once, an if over the side's even lanes.
func (g *gen) divSide(mask uint32, nest bool) {
	g.open()
	for i := 0; i < 1+g.pick(3); i++ {
		switch k := g.pick(10); {
		case k < 2:
			g.threadStmt(1)
		case k < 3 && g.returns < 2:
			g.earlyReturn()
		case k < 4 && nest:
			nest = false
			g.line("if t.LaneID()%%2 == 0 {")
			g.open()
			g.divWarpOp(mask & 0x55555555)
			g.close()
			g.line("}")
		default:
			g.divWarpOp(mask)
		}
	}
	g.close()
}

// divWarpOp writes a warp operation among the lanes of mask (the full
// warp's form too when mask is full).
func (g *gen) divWarpOp(mask uint32) {
	m := fmt.Sprintf("%#x", mask)
	v := g.anyVar(true)
	op := "^="
	if isFloat(v.t) {
		op = "+="
	}
	switch g.pick(5) {
	case 0, 1:
		fns := []string{"ShflDownSyncMask", "ShflUpSyncMask", "ShflXorSyncMask"}
		g.line("%s %s cuda.%s(t, %s, %s, %d)", v.name, op, fns[g.pick(len(fns))], m, v.name, 1+g.pick(15))
	case 2:
		lanes := []string{fmt.Sprintf("%d", g.pick(32)), "(tid+1)%32", fmt.Sprintf("int(%s&31)", g.atom("uint32"))}
		if mask == 0xffffffff && g.chance(50) {
			g.line("%s = cuda.ShflSync(t, %s, %s)", v.name, v.name, lanes[g.pick(len(lanes))])
			return
		}
		g.line("%s = cuda.ShflSyncMask(t, %s, %s, %s)", v.name, m, v.name, lanes[g.pick(len(lanes))])
	case 3:
		u := g.varOf("uint32", true)
		if u == nil {
			u = g.newVar("uint32", "0")
		}
		if mask == 0xffffffff && g.chance(50) {
			g.line("%s ^= cuda.BallotSync(t, %s)", u.name, g.cond())
			return
		}
		g.line("%s ^= cuda.BallotSyncMask(t, %s, %s)", u.name, m, g.cond())
	default:
		fn := []string{"Any", "All", "Uni"}[g.pick(3)]
		g.line("if cuda.%sSyncMask(t, %s, %s) {", fn, m, g.cond())
		g.line("\t%s = %s", v.name, g.expr(v.t, 1))
		g.line("}")
	}
}
