package ptxsim

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/half"
)

const (
	stRun uint8 = iota
	stBar
	stWarp // parked at a warp-level instruction (warp.go)
	stExit
	stFault
)

const maxCallDepth = 4096

type worker struct {
	ls      *launchState
	shared  []byte
	threads []thread
	slab    []uint64
	last    *region
	instrs  int64
	block   [3]int
	clock   uint64
	// spins counts the yields (nanosleep) of the block's spinning thread
	// since the block last met at a barrier, from when another block of a
	// cooperative launch had finished (see yield).
	spins int
}

type frame struct {
	fn   *function
	code []inst
	regs []uint64
	pc   int
	fb   int
	rtop int
	call *callInfo
}

type thread struct {
	w      *worker
	fn     *function
	code   []inst
	regs   []uint64
	pc     int
	fb     int
	sp     int
	stack  []byte
	frames []frame
	rstack []uint64
	rtop   int
	state  uint8
	tid    [3]int
	steps  int64
	err    *ExecError
	warpIn *inst // the warp-level instruction the thread is parked at
	// div and divRoot are the branches and calls the thread is inside and
	// its count of splits outside them, in modules that track divergence
	// (diverge.go).
	div     []divEntry
	divRoot int32
	barIn   *inst // the bar.sync or bar.red the thread waits at
}

// fillLeftovers fills a thread's fresh local frame with a pattern: on a GPU
// local memory holds whatever was there, and code that reads it before
// writing must not pass the tests by finding zeros.
func fillLeftovers(b []byte) {
	for i := range b {
		b[i] = 0xDB
	}
}

func newWorker(ls *launchState) *worker {
	w := &worker{ls: ls}
	w.threads = make([]thread, ls.nthreads)
	w.slab = make([]uint64, ls.nthreads*ls.fn.nregs)
	w.shared = make([]byte, ls.shared)
	for i := range w.threads {
		t := &w.threads[i]
		t.w = w
		t.regs = w.slab[i*ls.fn.nregs : (i+1)*ls.fn.nregs : (i+1)*ls.fn.nregs]
	}
	return w
}

func (w *worker) runBlock(b int) {
	ls := w.ls
	defer func() {
		if r := recover(); r != nil {
			ls.fail(&ExecError{Kernel: ls.fn.name, Block: w.block, Msg: fmt.Sprintf("internal error: %v", r)})
		}
	}()
	g := ls.grid
	w.block = [3]int{b % g[0], (b / g[0]) % g[1], b / (g[0] * g[1])}
	w.spins = 0
	// Shared memory starts with leftovers on a GPU, not zeros: a pattern
	// that varies by block makes code that reads it before writing show.
	for i := range w.shared {
		w.shared[i] = byte(0xA5 ^ b ^ i>>4)
	}
	f := ls.fn
	tmpl := ls.prog.templates[f]
	bd := ls.block
	nwarps := (ls.nthreads + 31) / 32
	frameTop := align(f.frameSize, 16)
	for i := range w.threads {
		t := &w.threads[i]
		t.tid = [3]int{i % bd[0], (i / bd[0]) % bd[1], i / (bd[0] * bd[1])}
		r := w.slab[i*f.nregs : (i+1)*f.nregs : (i+1)*f.nregs]
		t.regs = r
		copy(r, tmpl)
		r[slotTidX], r[slotTidY], r[slotTidZ] = uint64(t.tid[0]), uint64(t.tid[1]), uint64(t.tid[2])
		r[slotNtidX], r[slotNtidY], r[slotNtidZ] = uint64(bd[0]), uint64(bd[1]), uint64(bd[2])
		r[slotCtaidX], r[slotCtaidY], r[slotCtaidZ] = uint64(w.block[0]), uint64(w.block[1]), uint64(w.block[2])
		r[slotNctaidX], r[slotNctaidY], r[slotNctaidZ] = uint64(g[0]), uint64(g[1]), uint64(g[2])
		r[slotLaneid], r[slotWarpid], r[slotNwarpid] = uint64(i%32), uint64(i/32), uint64(nwarps)
		r[slotDynSmem], r[slotTotalSmem] = uint64(ls.dynShared), uint64(ls.shared)
		eq := uint32(1) << (i % 32)
		r[slotLanemaskEq], r[slotLanemaskLt], r[slotLanemaskLe] = uint64(eq), uint64(eq-1), uint64(eq|(eq-1))
		r[slotLanemaskGt], r[slotLanemaskGe] = uint64(^(eq | (eq - 1))), uint64(^(eq - 1))
		t.fn, t.code, t.pc, t.fb, t.sp = f, f.code, 0, 0, frameTop
		if frameTop > 0 {
			t.growStack(frameTop)
			fillLeftovers(t.stack[:frameTop])
		}
		t.frames = t.frames[:0]
		t.div, t.divRoot = t.div[:0], 0
		t.rtop = 0
		t.state = stRun
		t.steps = 0
		t.err = nil
	}
	for {
		waiting, warpWaiting := false, false
		for i := range w.threads {
			t := &w.threads[i]
			if t.state == stRun {
				t.run()
				if t.state == stFault {
					ls.fail(t.err)
					return
				}
			}
			switch t.state {
			case stBar:
				waiting = true
			case stWarp:
				warpWaiting = true
			}
		}
		if ls.failed.Load() {
			return
		}
		if warpWaiting {
			// Warps whose live threads all wait at a warp-level
			// instruction go on; if none can, the block is stuck.
			if w.releaseWarps() {
				continue
			}
			t := w.stuckThread()
			t.faultKind(FaultOther, t.warpIn, 0, false, "deadlock: a warp-level instruction that not every live thread of the warp reaches (the others wait at bar.sync)")
			ls.fail(t.err)
			return
		}
		if !waiting {
			w.stopSpinning()
			return
		}
		w.stopSpinning()
		w.releaseBarrier()
	}
}

// releaseBarrier resumes the threads that wait at a barrier, which are then
// every thread that has not exited. Those at a bar.red get the reduction of
// the predicates of all threads at a bar.red: the count of true ones, or
// whether all or any are true.
func (w *worker) releaseBarrier() {
	var trues, arrived int
	for i := range w.threads {
		t := &w.threads[i]
		if t.state == stBar && t.barIn.op == opBarRed {
			arrived++
			if (t.regs[t.barIn.c]&1 != 0) != (t.barIn.flags&flNegSrc != 0) {
				trues++
			}
		}
	}
	for i := range w.threads {
		t := &w.threads[i]
		if t.state != stBar {
			continue
		}
		if in := t.barIn; in.op == opBarRed && in.d >= 0 {
			var r uint64
			switch in.fop {
			case redPopc:
				r = uint64(trues)
			case redAnd:
				r = b2u(trues == arrived)
			case redOr:
				r = b2u(trues > 0)
			}
			t.regs[in.d] = r
		}
		t.barIn = nil
		t.state = stRun
	}
}

func (t *thread) growStack(n int) {
	if n <= len(t.stack) {
		return
	}
	ns := make([]byte, max(n, 2*len(t.stack), 256))
	copy(ns, t.stack)
	t.stack = ns
}

// fault records a fault at in: an address fault when hasAddr, else
// FaultOther.
func (t *thread) fault(in *inst, addr uint64, hasAddr bool, format string, args ...any) {
	kind := FaultOther
	if hasAddr {
		kind = FaultAddress
	}
	t.faultKind(kind, in, addr, hasAddr, format, args...)
}

func (t *thread) faultKind(kind FaultKind, in *inst, addr uint64, hasAddr bool, format string, args ...any) {
	t.err = &ExecError{Kernel: t.w.ls.fn.name, Func: t.fn.name, Line: int(in.line), Inst: in.text,
		Block: t.w.block, Thread: t.tid, Addr: addr, HasAddr: hasAddr, Kind: kind, Msg: fmt.Sprintf(format, args...),
		Source: t.fn.sourceAt(int(in.line))}
	t.state = stFault
}

func sx(v uint64, sh uint8) int64 { return int64(v<<sh) >> sh }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func f32(v uint64) float32  { return math.Float32frombits(uint32(v)) }
func f64(v uint64) float64  { return math.Float64frombits(v) }
func u32f(f float32) uint64 { return uint64(math.Float32bits(f)) }
func u64f(f float64) uint64 { return math.Float64bits(f) }

// access returns the n bytes at addr in the instruction's state space, or
// nil after recording a fault.
func (t *thread) access(in *inst, sp space, addr uint64, n int, write bool) []byte {
	un := uint64(n)
	switch sp {
	case spGlobal:
		r := t.w.last
		if r == nil || addr-r.base >= uint64(len(r.data)) || addr-r.base+un > uint64(len(r.data)) {
			r = findRegion(t.w.ls.regions, addr, un)
			if r == nil {
				t.fault(in, addr, true, "%d-byte %s outside any global allocation", n, rw(write))
				return nil
			}
			t.w.last = r
		}
		off := addr - r.base
		return r.data[off : off+un]
	case spShared:
		if addr+un < addr || addr+un > uint64(len(t.w.shared)) {
			t.fault(in, addr, true, "%d-byte shared %s outside the block's %d bytes of shared memory", n, rw(write), len(t.w.shared))
			return nil
		}
		return t.w.shared[addr : addr+un]
	case spFrame:
		addr += uint64(t.fb)
		fallthrough
	case spLocal:
		if addr+un < addr || addr+un > uint64(t.sp) {
			t.fault(in, addr, true, "%d-byte local %s outside the thread's %d-byte stack", n, rw(write), t.sp)
			return nil
		}
		return t.stack[addr : addr+un]
	case spParam:
		if write {
			t.fault(in, addr, true, "store to kernel parameter space")
			return nil
		}
		p := t.w.ls.params
		if addr+un < addr || addr+un > uint64(len(p)) {
			t.fault(in, addr, true, "%d-byte parameter read outside the %d-byte parameter buffer", n, len(p))
			return nil
		}
		return p[addr : addr+un]
	case spConst:
		if write {
			t.fault(in, addr, true, "store to constant memory")
			return nil
		}
		c := t.w.ls.prog.constImg
		if addr+un < addr || addr+un > uint64(len(c)) {
			t.fault(in, addr, true, "%d-byte const read outside the module's %d bytes of constant memory", n, len(c))
			return nil
		}
		return c[addr : addr+un]
	case spGeneric:
		if addr >= windowBase && addr < windowEnd {
			switch {
			case addr < localWindow:
				return t.access(in, spShared, addr-sharedWindow, n, write)
			case addr < constWindow:
				return t.access(in, spLocal, addr-localWindow, n, write)
			default:
				return t.access(in, spConst, addr-constWindow, n, write)
			}
		}
		return t.access(in, spGlobal, addr, n, write)
	}
	t.fault(in, addr, true, "unsupported state space")
	return nil
}

func rw(write bool) string {
	if write {
		return "store"
	}
	return "load"
}

func loadN(b []byte, n int) uint64 {
	switch n {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func storeN(b []byte, n int, v uint64) {
	switch n {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

// orderedLoad and orderedStore access memory with host atomics where the
// size and alignment allow: a volatile or relaxed access in PTX may race
// with other threads' atomics by design (the first read of a compare-and-swap
// loop), and in the host process that must not be a data race.
func orderedLoad(b []byte, n int) uint64 {
	p := unsafe.Pointer(&b[0])
	switch {
	case n == 2 && uintptr(p)%2 == 0:
		return uint64(loadHalfWord(p))
	case n == 4 && uintptr(p)%4 == 0:
		return uint64(atomic.LoadUint32((*uint32)(p)))
	case n == 8 && uintptr(p)%8 == 0:
		return atomic.LoadUint64((*uint64)(p))
	}
	return loadN(b, n)
}

func orderedStore(b []byte, n int, v uint64) {
	p := unsafe.Pointer(&b[0])
	switch {
	case n == 2 && uintptr(p)%2 == 0:
		updateHalfWord(p, func(uint16) uint16 { return uint16(v) })
	case n == 4 && uintptr(p)%4 == 0:
		atomic.StoreUint32((*uint32)(p), uint32(v))
	case n == 8 && uintptr(p)%8 == 0:
		atomic.StoreUint64((*uint64)(p), v)
	default:
		storeN(b, n, v)
	}
}

// run executes the thread until it exits, reaches a barrier or faults.
func (t *thread) run() {
	regs := t.regs
	code := t.code
	pc := t.pc
	var n int64
	limit := t.w.ls.maxSteps
	if limit <= 0 {
		limit = math.MaxInt64
	}
	defer func() { t.w.instrs += n }()
	for {
		in := &code[pc]
		pc++
		n++
		if regs[in.g]^in.gx == 0 {
			continue
		}
		switch in.op {
		case opNop:
		case opMov:
			regs[in.d] = regs[in.a] & in.mask
		case opAdd:
			if in.flags&flSat != 0 {
				regs[in.d] = uint64(uint32(satS32(int64(int32(regs[in.a])) + int64(int32(regs[in.b])))))
			} else {
				regs[in.d] = (regs[in.a] + regs[in.b]) & in.mask
			}
		case opSub:
			if in.flags&flSat != 0 {
				regs[in.d] = uint64(uint32(satS32(int64(int32(regs[in.a])) - int64(int32(regs[in.b])))))
			} else {
				regs[in.d] = (regs[in.a] - regs[in.b]) & in.mask
			}
		case opMulLo:
			regs[in.d] = (regs[in.a] * regs[in.b]) & in.mask
		case opMadLo:
			regs[in.d] = (regs[in.a]*regs[in.b] + regs[in.c]) & in.mask
		case opMulHi, opMadHi:
			x, y := regs[in.a], regs[in.b]
			var hi uint64
			w := 64 - in.sh
			if in.flags&flSigned != 0 {
				if w == 64 {
					h, _ := bits.Mul64(x, y)
					if int64(x) < 0 {
						h -= y
					}
					if int64(y) < 0 {
						h -= x
					}
					hi = h
				} else {
					hi = uint64(sx(x, in.sh) * sx(y, in.sh) >> w)
				}
			} else {
				if w == 64 {
					hi, _ = bits.Mul64(x, y)
				} else {
					hi = (x & in.mask) * (y & in.mask) >> w
				}
			}
			if in.op == opMadHi {
				if in.flags&flSat != 0 {
					hi = uint64(uint32(satS32(int64(int32(hi)) + int64(int32(regs[in.c])))))
				} else {
					hi += regs[in.c]
				}
			}
			regs[in.d] = hi & in.mask
		case opMulWide, opMadWide:
			x, y := regs[in.a], regs[in.b]
			var p uint64
			if in.flags&flSigned != 0 {
				p = uint64(sx(x, in.sh) * sx(y, in.sh))
			} else {
				p = (x << in.sh >> in.sh) * (y << in.sh >> in.sh)
			}
			if in.op == opMadWide {
				p += regs[in.c]
			}
			regs[in.d] = p & in.mask
		case opMul24, opMad24:
			var p uint64
			if in.flags&flSigned != 0 {
				p = uint64(sx(regs[in.a], 40) * sx(regs[in.b], 40))
			} else {
				p = (regs[in.a] & 0xffffff) * (regs[in.b] & 0xffffff)
			}
			if in.flags&flHiHalf != 0 {
				p >>= 16
			}
			regs[in.d] = (p + regs[in.c]) & 0xffffffff
		case opSad:
			var dlt uint64
			if in.flags&flSigned != 0 {
				x, y := sx(regs[in.a], in.sh), sx(regs[in.b], in.sh)
				if x > y {
					dlt = uint64(x - y)
				} else {
					dlt = uint64(y - x)
				}
			} else {
				x, y := regs[in.a]&in.mask, regs[in.b]&in.mask
				if x > y {
					dlt = x - y
				} else {
					dlt = y - x
				}
			}
			regs[in.d] = (dlt + regs[in.c]) & in.mask
		case opDiv:
			if in.flags&flSigned != 0 {
				x, y := sx(regs[in.a], in.sh), sx(regs[in.b], in.sh)
				var q int64
				switch {
				case y == 0:
					q = -1
					if x < 0 {
						q = 1
					}
				case y == -1:
					q = -x
				default:
					q = x / y
				}
				regs[in.d] = uint64(q) & in.mask
			} else {
				x, y := regs[in.a]&in.mask, regs[in.b]&in.mask
				if y == 0 {
					regs[in.d] = in.mask
				} else {
					regs[in.d] = x / y
				}
			}
		case opRem:
			if in.flags&flSigned != 0 {
				x, y := sx(regs[in.a], in.sh), sx(regs[in.b], in.sh)
				var r int64
				switch {
				case y == 0:
					r = x
				case y == -1:
					r = 0
				default:
					r = x % y
				}
				regs[in.d] = uint64(r) & in.mask
			} else {
				x, y := regs[in.a]&in.mask, regs[in.b]&in.mask
				if y == 0 {
					regs[in.d] = x
				} else {
					regs[in.d] = x % y
				}
			}
		case opMin, opMax:
			x, y := regs[in.a], regs[in.b]
			var less bool
			if in.flags&flSigned != 0 {
				less = sx(x, in.sh) < sx(y, in.sh)
			} else {
				less = x&in.mask < y&in.mask
			}
			if less == (in.op == opMax) {
				x = y
			}
			regs[in.d] = x & in.mask
		case opAbs:
			x := sx(regs[in.a], in.sh)
			if x < 0 {
				x = -x
			}
			regs[in.d] = uint64(x) & in.mask
		case opNeg:
			regs[in.d] = -regs[in.a] & in.mask
		case opAnd:
			regs[in.d] = regs[in.a] & regs[in.b] & in.mask
		case opOr:
			regs[in.d] = (regs[in.a] | regs[in.b]) & in.mask
		case opXor:
			regs[in.d] = (regs[in.a] ^ regs[in.b]) & in.mask
		case opNot:
			regs[in.d] = ^regs[in.a] & in.mask
		case opCnot:
			regs[in.d] = b2u(regs[in.a]&in.mask == 0)
		case opShl:
			s := uint32(regs[in.b])
			if s >= uint32(64-in.sh) {
				regs[in.d] = 0
			} else {
				regs[in.d] = regs[in.a] << s & in.mask
			}
		case opShr:
			s := uint32(regs[in.b])
			w := uint32(64 - in.sh)
			if in.flags&flSigned != 0 {
				if s >= w {
					s = w - 1
				}
				regs[in.d] = uint64(sx(regs[in.a], in.sh)>>s) & in.mask
			} else if s >= w {
				regs[in.d] = 0
			} else {
				regs[in.d] = (regs[in.a] & in.mask) >> s
			}
		case opClz:
			regs[in.d] = uint64(bits.LeadingZeros64(regs[in.a]&in.mask) - int(in.sh))
		case opPopc:
			regs[in.d] = uint64(bits.OnesCount64(regs[in.a] & in.mask))
		case opBrev:
			regs[in.d] = bits.Reverse64(regs[in.a]) >> in.sh
		case opBfe:
			regs[in.d] = bfe(regs[in.a], uint32(regs[in.b]), uint32(regs[in.c]), 64-int(in.sh), in.flags&flSigned != 0)
		case opBfi:
			regs[in.d] = bfi(regs[in.a], regs[in.b], uint32(regs[in.c]), uint32(regs[in.e]), 64-int(in.sh))
		case opPrmt:
			regs[in.d] = prmt(uint32(regs[in.a]), uint32(regs[in.b]), uint32(regs[in.c]))

		case opAddF32:
			regs[in.d] = u32f(f32(regs[in.a]) + f32(regs[in.b]))
		case opSubF32:
			regs[in.d] = u32f(f32(regs[in.a]) - f32(regs[in.b]))
		case opMulF32:
			regs[in.d] = u32f(f32(regs[in.a]) * f32(regs[in.b]))
		case opFmaF32:
			regs[in.d] = u32f(fma32(f32(regs[in.a]), f32(regs[in.b]), f32(regs[in.c])))
		case opDivF32:
			regs[in.d] = u32f(f32(regs[in.a]) / f32(regs[in.b]))
		case opAddF64:
			regs[in.d] = u64f(f64(regs[in.a]) + f64(regs[in.b]))
		case opSubF64:
			regs[in.d] = u64f(f64(regs[in.a]) - f64(regs[in.b]))
		case opMulF64:
			regs[in.d] = u64f(f64(regs[in.a]) * f64(regs[in.b]))
		case opFmaF64:
			regs[in.d] = u64f(math.FMA(f64(regs[in.a]), f64(regs[in.b]), f64(regs[in.c])))
		case opDivF64:
			regs[in.d] = u64f(f64(regs[in.a]) / f64(regs[in.b]))
		case opFloat:
			regs[in.d] = floatOp(in, regs[in.a], regs[in.b], regs[in.c])

		case opSetp:
			x, y := regs[in.a], regs[in.b]
			var r bool
			switch in.cmp {
			case cmpEQ:
				r = x<<in.sh2 == y<<in.sh2
			case cmpNE:
				r = x<<in.sh2 != y<<in.sh2
			case cmpLO:
				r = x<<in.sh2 < y<<in.sh2
			case cmpLS:
				r = x<<in.sh2 <= y<<in.sh2
			case cmpHI:
				r = x<<in.sh2 > y<<in.sh2
			case cmpHS:
				r = x<<in.sh2 >= y<<in.sh2
			default:
				if in.flags&flSigned != 0 {
					r = cmpInt(in.cmp, sx(x, in.sh2), sx(y, in.sh2))
				} else {
					r = cmpUint(in.cmp, x<<in.sh2, y<<in.sh2)
				}
			}
			t.setp(in, regs, r)
		case opSetpF32:
			x, y := f32(regs[in.a]), f32(regs[in.b])
			if in.flags&flFtz != 0 {
				x, y = ftz32(x), ftz32(y)
			}
			t.setp(in, regs, cmpFloat(in.cmp, float64(x), float64(y)))
		case opSetpF64:
			t.setp(in, regs, cmpFloat(in.cmp, f64(regs[in.a]), f64(regs[in.b])))
		case opSetpF16:
			t.setp(in, regs, half.Compare(int(in.cmp-cmpEQ), uint16(regs[in.a]), uint16(regs[in.b])))
		case opHalf:
			regs[in.d] = uint64(halfOp(in.fop, uint16(regs[in.a]), uint16(regs[in.b]), uint16(regs[in.c])))
		case opCvtHalf:
			regs[in.d] = cvtHalf(in.fop, regs[in.a])
		case opSet:
			regs[in.d] = setOp(in, regs)
		case opSelp:
			if regs[in.c] != 0 {
				regs[in.d] = regs[in.a]
			} else {
				regs[in.d] = regs[in.b]
			}
		case opSlct:
			var ge bool
			if in.flags&flF32Src != 0 {
				c := f32(regs[in.c])
				if in.flags&flFtz != 0 {
					c = ftz32(c)
				}
				ge = c >= 0
			} else {
				ge = int32(regs[in.c]) >= 0
			}
			if ge {
				regs[in.d] = regs[in.a]
			} else {
				regs[in.d] = regs[in.b]
			}
		case opCvtII:
			v := regs[in.a] << in.sh2
			if in.flags&flSigned != 0 {
				v = uint64(int64(v) >> in.sh2)
			} else {
				v >>= in.sh2
			}
			v <<= in.sh
			if in.flags&flSigned2 != 0 {
				v = uint64(int64(v) >> in.sh)
			} else {
				v >>= in.sh
			}
			regs[in.d] = v & in.mask
		case opCvt:
			regs[in.d] = cvt(in, regs[in.a])
		case opCvta:
			regs[in.d] = (regs[in.a] + uint64(in.off)) & in.mask
		case opMovFrame:
			regs[in.d] = uint64(t.fb) + uint64(in.off)
		case opMovPack:
			w := uint(in.sh2)
			m := maskOf(int(w))
			var v uint64
			for i := 0; i < int(in.vec); i++ {
				v |= (regs[in.v[i]] & m) << (uint(i) * w)
			}
			regs[in.d] = v & in.mask
		case opMovUnpack:
			w := uint(in.sh2)
			m := maskOf(int(w))
			v := regs[in.a]
			for i := 0; i < int(in.vec); i++ {
				if in.v[i] >= 0 {
					regs[in.v[i]] = v >> (uint(i) * w) & m
				}
			}
		case opClock:
			t.w.clock += 1000
			regs[in.d] = (t.w.clock + uint64(n)) & in.mask

		case opLd:
			es := 8 - int(in.sh)/8
			addr := regs[in.a] + uint64(in.off)
			mem := t.access(in, in.sp, addr, es*int(in.vec), false)
			if mem == nil {
				t.pc = pc - 1
				return
			}
			for i := 0; i < int(in.vec); i++ {
				if in.v[i] < 0 {
					continue
				}
				var v uint64
				if in.flags&flOrdered != 0 {
					v = orderedLoad(mem[i*es:], es)
				} else {
					v = loadN(mem[i*es:], es)
				}
				if in.flags&flSigned != 0 {
					v = uint64(sx(v, in.sh))
				}
				regs[in.v[i]] = v & in.mask
			}
		case opSt:
			es := 8 - int(in.sh)/8
			addr := regs[in.a] + uint64(in.off)
			mem := t.access(in, in.sp, addr, es*int(in.vec), true)
			if mem == nil {
				t.pc = pc - 1
				return
			}
			for i := 0; i < int(in.vec); i++ {
				if in.flags&flOrdered != 0 {
					orderedStore(mem[i*es:], es, regs[in.v[i]])
				} else {
					storeN(mem[i*es:], es, regs[in.v[i]])
				}
			}
		case opAtom:
			if !t.atom(in, regs) {
				t.pc = pc - 1
				return
			}

		case opBra:
			pc = int(in.tgt)
			t.steps++
			if t.steps > limit {
				t.faultKind(FaultLimit, in, 0, false, "more than %d branches taken; infinite loop?", limit)
				return
			}
		case opBar, opBarRed:
			t.pc, t.regs, t.code = pc, regs, code
			t.barIn = in
			t.state = stBar
			return
		case opBraCond:
			taken := regs[in.a]^uint64(in.fop) != 0
			t.divBranch(int32(pc-1), int32(in.off), taken)
			if taken {
				pc = int(in.tgt)
				t.steps++
				if t.steps > limit {
					t.faultKind(FaultLimit, in, 0, false, "more than %d branches taken; infinite loop?", limit)
					return
				}
			}
		case opJoin:
			t.divJoin(int32(pc - 1))
		case opShfl, opVote, opMatch, opWarpSync:
			if m, lane := uint32(regs[in.e]), regs[slotLaneid]; m&(1<<lane) == 0 {
				t.fault(in, 0, false, warpMaskMsg, uint64(m), lane)
				return
			}
			t.pc, t.regs, t.code = pc, regs, code
			t.warpIn = in
			t.state = stWarp
			return
		case opYield:
			if msg := t.w.yield(); msg != "" {
				t.pc = pc
				t.faultKind(FaultOther, in, 0, false, "%s", msg)
				return
			}
		case opExit:
			t.state = stExit
			return
		case opRet:
			if len(t.frames) == 0 {
				t.state = stExit
				return
			}
			if t.fn.track {
				t.divReturn()
			}
			fr := &t.frames[len(t.frames)-1]
			callee := t.fn
			for k, r := range fr.call.rets {
				p := &callee.rets[k]
				t.transfer(p.isReg, regs, p.reg, t.fb+p.off, r.isReg, fr.regs, r.reg, fr.fb+r.off, p.size, p.ty)
			}
			t.sp = t.fb
			t.rtop = fr.rtop
			t.fn, code, regs, pc, t.fb = fr.fn, fr.code, fr.regs, fr.pc, fr.fb
			t.frames = t.frames[:len(t.frames)-1]
		case opCall:
			ci := &t.fn.calls[in.tgt]
			callee := ci.callee
			if len(t.frames) >= maxCallDepth {
				t.faultKind(FaultLimit, in, 0, false, "call depth exceeds %d", maxCallDepth)
				return
			}
			t.steps++
			if t.steps > limit {
				t.faultKind(FaultLimit, in, 0, false, "more than %d branches and calls; infinite recursion?", limit)
				return
			}
			nfb := align(t.sp, 16)
			nsp := nfb + callee.frameSize
			t.growStack(nsp)
			fillLeftovers(t.stack[nfb:nsp])
			tmpl := t.w.ls.prog.templates[callee]
			if t.rtop+len(tmpl) > len(t.rstack) {
				t.rstack = make([]uint64, max(2*len(t.rstack), t.rtop+len(tmpl), 256))
				t.rtop = 0 // older frames keep their slices of the old array
			}
			nregs := t.rstack[t.rtop : t.rtop+len(tmpl) : t.rtop+len(tmpl)]
			copy(nregs, tmpl)
			copy(nregs[slotTidX:numFixedSlots], regs[slotTidX:numFixedSlots])
			for k, a := range ci.args {
				p := &callee.params[k]
				t.transfer(a.isReg, regs, a.reg, t.fb+a.off, p.isReg, nregs, p.reg, nfb+p.off, p.size, p.ty)
			}
			if t.fn.track {
				t.divCall()
			}
			t.frames = append(t.frames, frame{fn: t.fn, code: code, regs: regs, pc: pc, fb: t.fb, rtop: t.rtop, call: ci})
			t.rtop += len(tmpl)
			t.fn, code, regs, pc, t.fb, t.sp = callee, callee.code, nregs, 0, nfb, nsp
		case opVprintf:
			if !t.vprintf(in, regs) {
				t.pc = pc - 1
				return
			}
		case opTrap:
			t.faultKind(FaultTrap, in, 0, false, "trap")
			return
		default:
			t.fault(in, 0, false, "internal error: opcode %d not executable", in.op)
			return
		}
	}
}

// transfer moves a parameter value between registers and stack slots.
func (t *thread) transfer(srcReg bool, sregs []uint64, sr int32, soff int, dstReg bool, dregs []uint64, dr int32, doff int, size int, ty ptype) {
	if !srcReg && !dstReg {
		copy(t.stack[doff:doff+size], t.stack[soff:soff+size])
		return
	}
	var v uint64
	if srcReg {
		v = sregs[sr]
	} else {
		v = loadN(t.stack[soff:], min(size, 8))
	}
	if dstReg {
		if dr >= 0 {
			dregs[dr] = v & maskOf(ty.bits())
		}
	} else {
		storeN(t.stack[doff:], min(size, 8), v)
	}
}

func (t *thread) setp(in *inst, regs []uint64, r bool) {
	c := regs[in.e] != 0
	if in.flags&flVolatile != 0 {
		c = !c
	}
	p, q := r, !r
	switch in.bop {
	case bopAnd:
		p, q = p && c, q && c
	case bopOr:
		p, q = p || c, q || c
	case bopXor:
		p, q = p != c, q != c
	}
	regs[in.d] = b2u(p)
	if in.d2 >= 0 {
		regs[in.d2] = b2u(q)
	}
}

func setOp(in *inst, regs []uint64) uint64 {
	x, y := regs[in.a], regs[in.b]
	var r bool
	switch {
	case in.flags&flF32Src != 0:
		a, b := f32(x), f32(y)
		if in.flags&flFtz != 0 {
			a, b = ftz32(a), ftz32(b)
		}
		r = cmpFloat(in.cmp, float64(a), float64(b))
	case in.flags&flF64Src != 0:
		r = cmpFloat(in.cmp, f64(x), f64(y))
	case in.cmp >= cmpLO && in.cmp <= cmpHS || in.cmp <= cmpNE:
		r = cmpUint(in.cmp, x<<in.sh2, y<<in.sh2)
	case in.flags&flSigned != 0:
		r = cmpInt(in.cmp, sx(x, in.sh2), sx(y, in.sh2))
	default:
		r = cmpUint(in.cmp, x<<in.sh2, y<<in.sh2)
	}
	c := regs[in.e] != 0
	if in.flags&flVolatile != 0 {
		c = !c
	}
	switch in.bop {
	case bopAnd:
		r = r && c
	case bopOr:
		r = r || c
	case bopXor:
		r = r != c
	}
	if in.flags&flIntDst != 0 {
		if r {
			return in.mask
		}
		return 0
	}
	if r {
		if in.ty == tF64 {
			return u64f(1)
		}
		return u32f(1)
	}
	return 0
}

func satS32(v int64) int32 {
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	if v < math.MinInt32 {
		return math.MinInt32
	}
	return int32(v)
}

func cmpInt(c uint8, x, y int64) bool {
	switch c {
	case cmpEQ:
		return x == y
	case cmpNE:
		return x != y
	case cmpLT:
		return x < y
	case cmpLE:
		return x <= y
	case cmpGT:
		return x > y
	case cmpGE:
		return x >= y
	}
	return cmpUint(c, uint64(x), uint64(y))
}

func cmpUint(c uint8, x, y uint64) bool {
	switch c {
	case cmpEQ:
		return x == y
	case cmpNE:
		return x != y
	case cmpLT, cmpLO:
		return x < y
	case cmpLE, cmpLS:
		return x <= y
	case cmpGT, cmpHI:
		return x > y
	case cmpGE, cmpHS:
		return x >= y
	}
	return false
}

func cmpFloat(c uint8, x, y float64) bool {
	nan := x != x || y != y
	switch c {
	case cmpEQ:
		return x == y
	case cmpNE:
		return !nan && x != y
	case cmpLT:
		return x < y
	case cmpLE:
		return x <= y
	case cmpGT:
		return x > y
	case cmpGE:
		return x >= y
	case cmpEQU:
		return nan || x == y
	case cmpNEU:
		return x != y
	case cmpLTU:
		return nan || x < y
	case cmpLEU:
		return nan || x <= y
	case cmpGTU:
		return nan || x > y
	case cmpGEU:
		return nan || x >= y
	case cmpNUM:
		return !nan
	case cmpNAN:
		return nan
	}
	return false
}

// bfe is PTX bit field extract.
func bfe(a uint64, b, c uint32, w int, signed bool) uint64 {
	pos, ln := int(b&0xff), int(c&0xff)
	msb := w - 1
	var sbit uint64
	if signed && ln != 0 {
		i := min(pos+ln-1, msb)
		sbit = a >> uint(i) & 1
	}
	var d uint64
	for i := 0; i <= msb; i++ {
		var bit uint64
		if i < ln && pos+i <= msb {
			bit = a >> uint(pos+i) & 1
		} else {
			bit = sbit
		}
		d |= bit << uint(i)
	}
	return d
}

// bfi is PTX bit field insert: a's low bits into b at [pos, pos+len).
func bfi(a, b uint64, c, d uint32, w int) uint64 {
	pos, ln := int(c&0xff), int(d&0xff)
	f := b
	for i := 0; i < ln && pos+i < w; i++ {
		bit := uint64(1) << uint(pos+i)
		if a>>uint(i)&1 != 0 {
			f |= bit
		} else {
			f &^= bit
		}
	}
	return f & maskOf(w)
}

// prmt is PTX byte permute, default mode.
func prmt(a, b, c uint32) uint64 {
	src := uint64(b)<<32 | uint64(a)
	var d uint32
	for i := 0; i < 4; i++ {
		sel := c >> (4 * uint(i)) & 0xf
		byt := uint32(src >> (8 * (sel & 7)) & 0xff)
		if sel&8 != 0 { // replicate the sign bit
			if byt&0x80 != 0 {
				byt = 0xff
			} else {
				byt = 0
			}
		}
		d |= byt << (8 * uint(i))
	}
	return uint64(d)
}
