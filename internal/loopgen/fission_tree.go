package loopgen

import (
	"fmt"
	"go/ast"
)

// Unrolled shuffle trees. A fused halving tree `for off := S; off > 0;
// off /= 2 { v op= cuda.ShflDownSync(t, v, off) }` (S a constant) whose
// lane 0 alone is read after it (so the round with offset off computes
// lanes [0, off)) does a known, short list of operations per warp. Where
// every warp of the block is whole and no thread has returned, each warp
// runs that list written out, over a pointer to its 32 lanes
// (`w[0] += w[16]; w[1] += w[17]; ...`): no loop over rounds or lanes and
// no bounds checks. The operations and their order are the loop's (lanes
// ascending within a round), so the bits are the same; other blocks run
// the loop.

// maxUnrolled bounds the operations of an unrolled tree per warp.
const maxUnrolled = 64

// unrolledTree writes `if <every warp whole> { the unrolled tree } else {`
// before tree loop n, and reports whether it did (the caller closes the
// else after the loop).
func (e *emitter) unrolledTree(n *forNode) bool {
	f, w := e.f, e.w
	fu := e.plannedTree(n)
	if fu == nil || !fu.loop || f.exited != "" || fu.op.kind != "ShuffleDown" {
		return false
	}
	loop, ok := n.loop.(*ast.ForStmt)
	if !ok {
		return false
	}
	init, ok := loop.Init.(*ast.AssignStmt)
	if !ok || len(init.Rhs) != 1 {
		return false
	}
	s, ok := e.constInt(init.Rhs[0])
	if !ok || s <= 0 {
		return false
	}
	var ops []string
	for off := s; off > 0; off /= 2 {
		d, k := int(off&(warpLanes-1)), int(min(off, warpLanes))
		for i := 0; i < k; i++ {
			j := i + d
			if j >= warpLanes {
				j = i
			}
			ops = append(ops, fmt.Sprintf("%%[1]s[%d] %s %%[1]s[%d]", i, fu.tok, j))
		}
		if len(ops) > maxUnrolled {
			return false
		}
	}
	base, lanes, t := f.name("nugoW"), f.name("nugoLanes"), f.name("nugoT")
	threads := f.n
	if fu.threads >= 0 {
		threads = fmt.Sprintf("min(%d, %s)", fu.threads, f.n)
	}
	cond := fmt.Sprintf("%s%%%d == 0", f.n, warpLanes)
	if fu.flat {
		// The lanes computed rely on a one-dimensional block.
		cond += " && " + f.blk + ".Flat()"
	}
	fmt.Fprintf(w, "if %s {\n%s := %s\n", cond, t, threads)
	fmt.Fprintf(w, "for %s := 0; %s < %s; %s += %d {\n", base, base, t, base, warpLanes)
	fmt.Fprintf(w, "%s := (*[%d]%s)(%s[%s : %s+%d])\n", lanes, warpLanes, f.typ(fu.v.Type()), fu.arr, base, base, warpLanes)
	for _, op := range ops {
		fmt.Fprintf(w, op+"\n", lanes)
	}
	w.WriteString("}\n} else {\n")
	return true
}
