package compiler

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// cudaCall lowers the kernel-side API of package cuda.
func (f *fnState) cudaCall(in *ssa.Call, fn *ssa.Function, name string) {
	args := in.Call.Args
	if recv := fn.Signature.Recv(); recv != nil {
		switch {
		case isNamed(recv.Type(), "Thread"):
			f.threadCall(in, name)
		case isNamed(recv.Type(), "Array2"):
			f.arrayCall(in, name, 2)
		case isNamed(recv.Type(), "Array3"):
			f.arrayCall(in, name, 3)
		case isFloat16(recv.Type()):
			f.halfMethod(in, name)
		default:
			f.errorf("cuda method %s is not supported in kernels", name)
		}
		return
	}
	if halfFuncs[name] {
		f.halfCall(in, name)
		return
	}
	switch name {
	case "SharedArray":
		f.sharedArray(in)
	case "SharedArray2":
		f.sharedArrayN(in, 2)
	case "SharedArray3":
		f.sharedArrayN(in, 3)
	case "DynamicSharedArray":
		f.dynamicSharedArray(in)
	case "Printf":
		f.printfCall(in)
	case "MustView2":
		f.mustView(in, 2)
	case "MustView3":
		f.mustView(in, 3)
	case "AtomicAdd", "AtomicSub", "AtomicMax", "AtomicMin", "AtomicNanMax", "AtomicNanMin", "AtomicExch", "AtomicCAS", "AtomicAnd", "AtomicOr", "AtomicXor", "AtomicInc", "AtomicDec":
		f.atomic(in, name)
	case "AtomicAddComplex":
		f.atomicAddComplex(in)
	case "ShflSync", "ShflDownSync", "ShflUpSync", "ShflXorSync",
		"ShflSyncMask", "ShflDownSyncMask", "ShflUpSyncMask", "ShflXorSyncMask":
		f.shfl(in, name)
	case "AllSync", "AnySync", "UniSync", "BallotSync",
		"AllSyncMask", "AnySyncMask", "UniSyncMask", "BallotSyncMask":
		f.vote(in, name)
	case "MatchAnySync", "MatchAllSync", "MatchAnySyncMask", "MatchAllSyncMask":
		f.match(in, name)
	case "ActiveMask":
		d := f.newReg(sU32)
		f.p.Emit("activemask.b32", d)
		f.bind(in, []string{d})
	case "ThreadFence":
		f.p.Emit("membar.gl")
	case "ThreadFenceBlock":
		f.p.Emit("membar.cta")
	case "ThreadFenceSystem":
		f.p.Emit("membar.sys")
	case "Nanosleep":
		f.nanosleep(in)
	default:
		_ = args
		f.errorf("cuda.%s cannot be called in a kernel", name)
	}
}

// nanosleepMinSM is the oldest compute capability with nanosleep.
const nanosleepMinSM = 70

// nanosleep lowers cuda.Nanosleep to nanosleep.u32, which suspends the
// thread for about ns nanoseconds (PTX allows anything from 0 to 2·ns, at
// most a millisecond).
func (f *fnState) nanosleep(in *ssa.Call) {
	if sm := f.m.target.sm(); sm < nanosleepMinSM {
		f.errorf("cuda.Nanosleep needs compute capability 7.0 (sm_70) or later (PTX nanosleep), but the target is sm_%d; leave it out for older GPUs (a sleep is only a hint: it may last anything from 0 to twice the time asked)", sm)
	}
	f.p.Emit("nanosleep.u32", f.one(in.Call.Args[0]))
}

func isNamed(t types.Type, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == name
}

// special reads a 32-bit special register and widens it to int.
func (f *fnState) special(reg string) string {
	r := f.p.NewReg(ptx.B32).String()
	f.p.Emit("mov.u32", r, reg)
	w := f.p.NewReg(ptx.B64).String()
	f.p.Emit("cvt.u64.u32", w, r)
	return w
}

// globalIndex computes ctaid.d*ntid.d + tid.d in 64 bits.
func (f *fnState) globalIndex(d string) string {
	c, n, t := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
	f.p.Emit("mov.u32", c, "%ctaid."+d)
	f.p.Emit("mov.u32", n, "%ntid."+d)
	f.p.Emit("mov.u32", t, "%tid."+d)
	w := f.p.NewReg(ptx.B64).String()
	f.p.Emit("mul.wide.u32", w, c, n)
	t64 := f.p.NewReg(ptx.B64).String()
	f.p.Emit("cvt.u64.u32", t64, t)
	r := f.p.NewReg(ptx.B64).String()
	f.p.Emit("add.s64", r, w, t64)
	return r
}

func (f *fnState) gridSize(d string) string {
	n, c := f.p.NewReg(ptx.B32).String(), f.p.NewReg(ptx.B32).String()
	f.p.Emit("mov.u32", n, "%ntid."+d)
	f.p.Emit("mov.u32", c, "%nctaid."+d)
	w := f.p.NewReg(ptx.B64).String()
	f.p.Emit("mul.wide.u32", w, n, c)
	return w
}

var dims = []string{"x", "y", "z"}

func (f *fnState) threadCall(in *ssa.Call, name string) {
	dim3 := func(reg string) {
		f.bind(in, []string{f.special(reg + ".x"), f.special(reg + ".y"), f.special(reg + ".z")})
	}
	switch name {
	case "ThreadIdx":
		dim3("%tid")
	case "BlockIdx":
		dim3("%ctaid")
	case "BlockDim":
		dim3("%ntid")
	case "GridDim":
		dim3("%nctaid")
	case "Grid1", "Grid2", "Grid3":
		n := int(name[4] - '0')
		out := make([]string, n)
		for i := range out {
			out[i] = f.globalIndex(dims[i])
		}
		f.bind(in, out)
	case "GridSize1", "GridSize2", "GridSize3":
		n := int(name[8] - '0')
		out := make([]string, n)
		for i := range out {
			out[i] = f.gridSize(dims[i])
		}
		f.bind(in, out)
	case "LaneID":
		f.bind(in, []string{f.special("%laneid")})
	case "WarpSize":
		f.bind(in, []string{"32"})
	case "LanemaskLt", "LanemaskLe", "LanemaskEq", "LanemaskGe", "LanemaskGt":
		d := f.newReg(sU32)
		f.p.Emit("mov.u32", d, "%lanemask_"+strings.ToLower(name[len("Lanemask"):]))
		f.bind(in, []string{d})
	case "SyncThreads":
		f.p.Emit("bar.sync", "0")
	case "SyncThreadsCount", "SyncThreadsAnd", "SyncThreadsOr":
		f.syncReduce(in, name)
	case "SyncGrid":
		f.gridSync()
	case "SyncWarp":
		f.p.Emit("bar.warp.sync", fullWarp)
	case "SyncWarpMask":
		f.p.Emit("bar.warp.sync", f.memberMask(in.Call.Args[1]))
	default:
		f.errorf("cuda.Thread.%s is not supported in kernels", name)
	}
}

// syncReduce lowers t.SyncThreadsCount, And and Or to bar.red on barrier 0,
// the barrier bar.sync uses: with no thread count, every non-exited thread
// of the block takes part, as in SyncThreads.
func (f *fnState) syncReduce(in *ssa.Call, name string) {
	p := regOr(f, f.pred(in.Call.Args[1]), sBool)
	if name == "SyncThreadsCount" {
		n := f.p.NewReg(ptx.B32).String()
		f.p.Emit("bar.red.popc.u32", n, "0", p)
		w := f.p.NewReg(ptx.B64).String()
		f.p.Emit("cvt.u64.u32", w, n)
		f.bind(in, []string{w})
		return
	}
	op := "and"
	if name == "SyncThreadsOr" {
		op = "or"
	}
	d := f.p.NewReg(ptx.Pred).String()
	f.p.Emit("bar.red."+op+".pred", d, "0", p)
	f.bind(in, []string{d})
}

// elemType is the type argument of a generic cuda call's result slice.
func sliceElem(t types.Type) types.Type {
	return t.Underlying().(*types.Slice).Elem()
}

// sharedArray gives each call site its own static .shared buffer.
func (f *fnState) sharedArray(in *ssa.Call) {
	c, ok := in.Call.Args[1].(*ssa.Const)
	if !ok {
		f.errorf("the size of cuda.SharedArray must be a constant (shared memory is laid out when the kernel is compiled); use cuda.DynamicSharedArray for a size chosen at launch")
	}
	n := c.Int64()
	if n <= 0 {
		f.errorf("cuda.SharedArray size must be positive, got %d", n)
	}
	r := f.declareShared("cuda.SharedArray", sliceElem(in.Type()), n)
	f.bind(in, []string{r, fmt.Sprint(n), fmt.Sprint(n)})
}

// sharedArrayN lowers cuda.SharedArray2 and SharedArray3: a row-major
// array over a block shared buffer of constant dimensions.
func (f *fnState) sharedArrayN(in *ssa.Call, rank int) {
	name := fmt.Sprintf("cuda.SharedArray%d", rank)
	dims := make([]string, rank)
	n := int64(1)
	for i := range rank {
		c, ok := in.Call.Args[1+i].(*ssa.Const)
		if !ok {
			f.errorf("the dimensions of %s must be constants (shared memory is laid out when the kernel is compiled); use cuda.DynamicSharedArray and cuda.MustView%d for sizes chosen at launch", name, rank)
		}
		d := c.Int64()
		if d <= 0 {
			f.errorf("%s dimensions must be positive, got %d", name, d)
		}
		if n > (48*1024)/d {
			f.errorf("%s of %d elements in a dimension exceeds the 48 KiB of static shared memory per block; use cuda.DynamicSharedArray and cuda.MustView%d", name, d, rank)
		}
		n *= d
		dims[i] = fmt.Sprint(d)
	}
	t, ok := types.Unalias(in.Type()).(*types.Named)
	if !ok || t.TypeArgs().Len() != 1 {
		f.errorf("cannot find the element type of %s", in.Type())
	}
	r := f.declareShared(name, t.TypeArgs().At(0), n)
	parts := append([]string{r, fmt.Sprint(n), fmt.Sprint(n)}, dims...)
	f.bind(in, append(parts, f.rowMajorStrides(dims)...))
}

// declareShared declares a block shared buffer of n elements of elem for the
// function named fn and returns a register holding its address.
func (f *fnState) declareShared(fn string, elem types.Type, n int64) string {
	size := sizes.Sizeof(elem) * n
	if size > 48*1024 {
		f.errorf("%s of %d bytes exceeds the 48 KiB of static shared memory per block; use cuda.DynamicSharedArray", fn, size)
	}
	sym := fmt.Sprintf("__shared_%d", len(f.m.names))
	sym = f.m.symbol(sym)
	// Whole 16-byte units, so that the block-start zeroing stores vectors.
	padded := (size + 15) &^ 15
	f.m.mod.Globals = append(f.m.mod.Globals, fmt.Sprintf(".shared .align 16 .b8 %s[%d];", sym, padded))
	f.m.shared = append(f.m.shared, sharedBuf{sym, padded})
	f.m.nshared += int(padded)
	r := f.p.NewReg(ptx.B64).String()
	f.p.Emit("mov.u64", r, sym)
	return r
}

// dynamicSharedArray views the launch's dynamic shared memory as []T.
func (f *fnState) dynamicSharedArray(in *ssa.Call) {
	f.m.dynShared = true
	elem := sliceElem(in.Type())
	r := f.p.NewReg(ptx.B64).String()
	f.p.Emit("mov.u64", r, "__nugo_dynshared")
	bytes := f.special("%dynamic_smem_size")
	n := f.p.NewReg(ptx.B64).String()
	es := sizes.Sizeof(elem)
	if es&(es-1) == 0 {
		f.p.Emit("shr.u64", n, bytes, fmt.Sprint(log2(es)))
	} else {
		f.p.Emit("div.u64", n, bytes, fmt.Sprint(es))
	}
	f.bind(in, []string{r, n, n})
}

// mustView lowers cuda.MustView2 and MustView3: the array is the slice's
// (ptr, len, cap) and the dimensions. Debug mode checks that no
// dimension is negative and that their product is the slice's length.
func (f *fnState) mustView(in *ssa.Call, rank int) {
	args := in.Call.Args
	s := f.get(args[0])
	parts := append([]string(nil), s[:3]...)
	for i := range rank {
		parts = append(parts, f.index64(args[1+i]))
	}
	if f.m.target.Debug {
		// The record holds len(data) and the dimensions, which the
		// CPU backend's panic prints.
		code := map[int]int{2: ErrShape2, 3: ErrShape3}[rank]
		vals := append([]string{s[1]}, parts[3:]...)
		prod := ""
		for _, d := range parts[3:] {
			if !isImmediate(d) || strings.HasPrefix(d, "-") {
				f.trapWith("setp.lt.s64", regOr(f, d, sI64), "0", code, false, vals...)
			}
			if prod == "" {
				prod = d
				continue
			}
			// The dimensions are non-negative here, so a product beyond
			// 64 bits has a non-zero high word; one beyond 63 is negative
			// and cannot equal the length.
			hi := f.p.NewReg(ptx.B64).String()
			f.p.Emit("mul.hi.u64", hi, regOr(f, prod, sI64), d)
			f.trapWith("setp.ne.s64", hi, "0", code, false, vals...)
			t := f.p.NewReg(ptx.B64).String()
			f.p.Emit("mul.lo.s64", t, regOr(f, prod, sI64), d)
			prod = t
		}
		f.trapWith("setp.ne.s64", regOr(f, s[1], sI64), prod, code, false, vals...)
	}
	parts = append(parts, f.rowMajorStrides(parts[3:])...)
	f.bindCopy(in, parts)
}

// arrayCall lowers the methods of cuda.Array2 and cuda.Array3, whose values
// are (ptr, len, cap, dims..., off, strides...): element (i, j, k) lies at
// ptr + (off + i*s0 + j*s1 + k*s2) * size.
func (f *fnState) arrayCall(in *ssa.Call, name string, rank int) {
	args := in.Call.Args
	a := f.get(args[0])
	ptr, dimsRegs := a[0], a[3:3+rank]
	offReg, strides := a[3+rank], a[4+rank:4+2*rank]
	elem := in.Call.Args[0].Type()
	var et types.Type
	if n, ok := types.Unalias(elem).(*types.Named); ok && n.TypeArgs().Len() == 1 {
		et = n.TypeArgs().At(0)
	} else {
		f.errorf("cannot find the element type of %s", elem)
	}
	sp := f.spaceOf(args[0])
	switch name {
	case "Shape":
		f.bindCopy(in, dimsRegs)
	case "Strides":
		f.bindCopy(in, strides)
	case "Offset":
		f.bindCopy(in, []string{offReg})
	case "T":
		// The axes reversed: dimensions and strides swap, the memory stays.
		parts := append([]string(nil), a[:3]...)
		parts = append(parts, reversed(dimsRegs)...)
		parts = append(parts, offReg)
		parts = append(parts, reversed(strides)...)
		f.bindCopy(in, parts)
	case "Data":
		f.bindCopy(in, a[:3])
	case "Len":
		prod := dimsRegs[0]
		for _, d := range dimsRegs[1:] {
			t := f.p.NewReg(ptx.B64).String()
			f.p.Emit("mul.lo.s64", t, regOr(f, prod, sI64), d)
			prod = t
		}
		f.bindCopy(in, []string{prod})
	case "At", "Set":
		idx := make([]string, rank)
		for i := range rank {
			idx[i] = f.index64(args[1+i])
		}
		if f.m.target.Debug {
			// The record holds the indices and the shape, which the CPU
			// backend's panic prints.
			code := map[int]int{2: ErrIndex2, 3: ErrIndex3}[rank]
			vals := append(append([]string(nil), idx...), dimsRegs...)
			for i := range rank {
				f.trapWith("setp.ge.u64", regOr(f, idx[i], sI64), dimsRegs[i], code, false, vals...)
			}
		}
		// off + i*s0 + j*s1 + k*s2, in elements.
		lin := offReg
		for i := range rank {
			t := f.p.NewReg(ptx.B64).String()
			f.p.Emit("mad.lo.s64", t, regOr(f, idx[i], sI64), strides[i], lin)
			lin = t
		}
		// One leaf for most elements, two for a complex one.
		ls, err := leaves(et)
		if err != nil {
			f.errorf("%v", err)
		}
		offs := leafOffsets(et)
		es := sizes.Sizeof(et)
		off := f.p.NewReg(ptx.B64).String()
		f.p.Emit("mul.lo.s64", off, regOr(f, lin, sI64), fmt.Sprint(es))
		ad := f.p.NewReg(ptx.B64).String()
		f.p.Emit("add.s64", ad, ptr, off)
		if name == "At" {
			nc := f.nonCoherentOK(args[0])
			out := make([]string, len(ls))
			for i, s := range ls {
				if nc {
					out[i] = f.loadNC(s, ad, offs[i])
				} else {
					out[i] = f.loadScalar(s, sp, ad, offs[i])
				}
			}
			f.bind(in, out)
			return
		}
		v := f.get(args[1+rank])
		for i, s := range ls {
			f.storeScalar(s, sp, ad, offs[i], v[i])
		}
	default:
		f.errorf("cuda.Array%d.%s is not supported in kernels", rank, name)
	}
}

// reversed returns a copy of xs in reverse order.
func reversed(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

// rowMajorStrides are the (off, strides...) parts of a row-major array
// of the given dimensions: 0, then d1*d2, d2, 1 (3-D) or cols, 1 (2-D).
func (f *fnState) rowMajorStrides(dims []string) []string {
	out := []string{"0"}
	st := make([]string, len(dims))
	st[len(dims)-1] = "1"
	for i := len(dims) - 2; i >= 0; i-- {
		if st[i+1] == "1" {
			st[i] = dims[i+1]
			continue
		}
		t := f.p.NewReg(ptx.B64).String()
		f.p.Emit("mul.lo.s64", t, regOr(f, dims[i+1], sI64), st[i+1])
		st[i] = t
	}
	return append(out, st...)
}
