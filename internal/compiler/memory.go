package compiler

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// space is the PTX state space a pointer value points into.
type space int

const (
	spaceNone    space = iota // no pointer, or not known yet (nil)
	spaceGlobal               // kernel parameters: device memory
	spaceShared               // cuda.SharedArray, cuda.DynamicSharedArray
	spaceLocal                // the thread's own arrays and structs
	spaceGeneric              // mixed or unknown: device function parameters, loaded pointers
)

// suffix is the state-space qualifier of ld/st/atom.
func (s space) suffix() string {
	switch s {
	case spaceGlobal:
		return ".global"
	case spaceShared:
		return ".shared"
	case spaceLocal:
		return ".local"
	}
	return ""
}

func join(a, b space) space {
	switch {
	case a == spaceNone:
		return b
	case b == spaceNone || a == b:
		return a
	}
	return spaceGeneric
}

func hasPointer(t types.Type) bool {
	ls, err := leaves(t)
	if err != nil {
		return false
	}
	for _, s := range ls {
		if s == sPtr {
			return true
		}
	}
	return false
}

// computeSpaces finds the state space of every pointer-holding value of the
// function, iterating to a fixed point over phis.
func (f *fnState) computeSpaces() {
	var vals []ssa.Value
	for _, p := range f.fn.Params {
		vals = append(vals, p)
	}
	for _, b := range f.fn.Blocks {
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok && hasPointer(v.Type()) {
				vals = append(vals, v)
			}
			for _, op := range instr.Operands(nil) {
				if g, ok := (*op).(*ssa.Global); ok {
					f.spaces[g] = spaceGlobal
				}
			}
		}
	}
	for iter := 0; iter < 10; iter++ {
		changed := false
		for _, v := range vals {
			s := f.ruleSpace(v)
			if s != f.spaces[v] {
				f.spaces[v] = s
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

func (f *fnState) spaceOf(v ssa.Value) space {
	if s, ok := f.spaces[v]; ok {
		return s
	}
	if !hasPointer(v.Type()) {
		return spaceNone
	}
	return f.ruleSpace(v)
}

func (f *fnState) phiSpace(phi *ssa.Phi) space { return f.spaceOf(phi) }

func (f *fnState) ruleSpace(v ssa.Value) space {
	if !hasPointer(v.Type()) {
		return spaceNone
	}
	get := func(x ssa.Value) space { return f.spaces[x] }
	switch v := v.(type) {
	case *ssa.Parameter:
		if f.inl != nil {
			return f.inl.paramSpace[v]
		}
		if f.kernel {
			return spaceGlobal
		}
		return spaceGeneric
	case *ssa.Alloc, *ssa.MakeSlice:
		return spaceLocal
	case *ssa.Global:
		return spaceGlobal
	case *ssa.Call:
		if fn := v.Call.StaticCallee(); fn != nil && len(fn.Blocks) == 0 {
			switch calleeName(fn) {
			case "SharedArray", "DynamicSharedArray", "SharedArray2", "SharedArray3":
				return spaceShared
			case "Data", "MustView2", "MustView3", "T":
				return get(v.Call.Args[0])
			}
		}
		return spaceGeneric
	case *ssa.IndexAddr:
		return get(v.X)
	case *ssa.FieldAddr:
		return get(v.X)
	case *ssa.Slice:
		return get(v.X)
	case *ssa.Field:
		return get(v.X)
	case *ssa.Index:
		return get(v.X)
	case *ssa.ChangeType:
		return get(v.X)
	case *ssa.Convert:
		return get(v.X)
	case *ssa.SliceToArrayPointer:
		return get(v.X)
	case *ssa.Extract:
		return get(v.Tuple)
	case *ssa.Phi:
		s := spaceNone
		for _, e := range v.Edges {
			s = join(s, get(e))
		}
		return s
	case *ssa.Const:
		return spaceNone
	}
	return spaceGeneric
}

func (f *fnState) toGeneric(reg string, from space) string {
	t := f.p.NewReg(ptx.B64).String()
	f.p.Emit("cvta"+from.suffix()+".u64", t, reg)
	return t
}

// addr formats an address operand.
func addr(base string, off int64) string {
	if off == 0 {
		return "[" + base + "]"
	}
	return fmt.Sprintf("[%s+%d]", base, off)
}

// alloc gives a local variable its own zeroed .local memory.
func (f *fnState) alloc(in *ssa.Alloc) {
	elem := in.Type().(*types.Pointer).Elem()
	f.bind(in, []string{f.localBuffer(elem, 1)})
}

// MaxLocalBytes is the local memory a CUDA thread may have (512 KiB on
// every architecture nugo targets); one function's variables beyond it
// are refused when compiling, instead of failing at load or launch.
const MaxLocalBytes = 512 << 10

// localBuffer declares zeroed .local memory for n values of type elem and
// returns a register with its address.
func (f *fnState) localBuffer(elem types.Type, n int64) string {
	size := sizes.Sizeof(elem) * n
	align := sizes.Alignof(elem)
	if align < 4 {
		align = 4
	}
	if size%align != 0 {
		size += align - size%align
	}
	if size == 0 {
		size = align
	}
	if total := f.m.localSize[f.p] + size; total > MaxLocalBytes {
		f.errorf("the local variables of %s take %d bytes, more than the %d bytes (512 KiB) of local memory a CUDA thread may have; use shared memory (cuda.SharedArray) or a slice parameter in global memory", f.fn.Name(), total, MaxLocalBytes)
	}
	f.m.localSize[f.p] += size
	sym := fmt.Sprintf("__local_%s_%d", f.p.Name, len(f.p.Locals))
	f.p.AddLocal(fmt.Sprintf(".local .align %d .b8 %s[%d]", align, sym, size))
	r := f.p.NewReg(ptx.B64).String()
	f.p.Emit("mov.u64", r, sym)
	f.zero(r, size, align)
	return r
}

// zero stores zeros over size bytes at base (local memory).
func (f *fnState) zero(base string, size, align int64) {
	w, typ := int64(4), ".u32"
	if align >= 8 && size%8 == 0 {
		w, typ = 8, ".u64"
	}
	if size/w <= 16 {
		for off := int64(0); off < size; off += w {
			f.p.Emit("st.local"+typ, addr(base, off), "0")
		}
		return
	}
	// A loop for large arrays.
	p := f.p.NewReg(ptx.B64).String()
	end := f.p.NewReg(ptx.B64).String()
	cond := f.p.NewReg(ptx.Pred).String()
	loop := f.newLabel("zero")
	f.p.Emit("mov.u64", p, base)
	f.p.Emit("add.s64", end, base, fmt.Sprint(size))
	f.p.Label(loop)
	f.p.Emit("st.local"+typ, addr(p, 0), "0")
	f.p.Emit("add.s64", p, p, fmt.Sprint(w))
	f.p.Emit("setp.lt.u64", cond, p, end)
	f.p.EmitIf(cond, "bra", loop)
}

// load lowers *ptr.
func (f *fnState) load(in *ssa.UnOp) {
	elem := in.Type()
	ls, err := leaves(elem)
	if err != nil {
		f.errorf("%v", err)
	}
	offs := leafOffsets(elem)
	base := f.reg(in.X)
	sp := f.spaceOf(in.X)
	nc := f.nonCoherentOK(in.X)
	out := make([]string, len(ls))
	for i, s := range ls {
		if nc {
			out[i] = f.loadNC(s, base, offs[i])
			continue
		}
		out[i] = f.loadScalar(s, sp, base, offs[i])
	}
	f.bind(in, out)
}

// loadNC loads through the read-only data cache.
func (f *fnState) loadNC(s scalar, base string, off int64) string {
	r := f.newReg(s)
	if s == sBool {
		t := f.p.NewReg(ptx.B32).String()
		f.p.Emit("ld.global.nc.u8", t, addr(base, off))
		f.p.Emit("setp.ne.b32", r, t, "0")
		return r
	}
	f.p.Emit("ld.global.nc"+s.mem(), r, addr(base, off))
	return r
}

func (f *fnState) loadScalar(s scalar, sp space, base string, off int64) string {
	r := f.newReg(s)
	op := "ld" + sp.suffix()
	if s == sBool {
		t := f.p.NewReg(ptx.B32).String()
		f.p.Emit(op+".u8", t, addr(base, off))
		f.p.Emit("setp.ne.b32", r, t, "0")
		return r
	}
	f.p.Emit(op+s.mem(), r, addr(base, off))
	return r
}

// store lowers *addr = val.
func (f *fnState) store(in *ssa.Store) {
	elem := in.Val.Type()
	ls, err := leaves(elem)
	if err != nil {
		f.errorf("%v", err)
	}
	offs := leafOffsets(elem)
	base := f.reg(in.Addr)
	sp := f.spaceOf(in.Addr)
	vals := f.getAs(in.Val, spaceGeneric) // pointers in memory are generic
	for i, s := range ls {
		f.storeScalar(s, sp, base, offs[i], vals[i])
	}
}

func (f *fnState) storeScalar(s scalar, sp space, base string, off int64, v string) {
	op := "st" + sp.suffix()
	if s == sBool {
		t := f.p.NewReg(ptx.B32).String()
		f.p.Emit("selp.b32", t, "1", "0", v)
		f.p.Emit(op+".u8", addr(base, off), t)
		return
	}
	f.p.Emit(op+s.mem(), addr(base, off), v)
}

// fieldAddr lowers &x.f.
func (f *fnState) fieldAddr(in *ssa.FieldAddr) {
	st := in.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	fields := make([]*types.Var, st.NumFields())
	for i := range fields {
		fields[i] = st.Field(i)
	}
	off := sizes.Offsetsof(fields)[in.Field]
	base := f.reg(in.X)
	r := f.p.NewReg(ptx.B64).String()
	f.p.Emit("add.s64", r, base, fmt.Sprint(off))
	f.bind(in, []string{r})
}

// index64 returns an index value widened to 64 bits (register or immediate)
// and whether it is signed.
func (f *fnState) index64(v ssa.Value) string {
	s := f.scalar(v.Type())
	o := f.one(v)
	if s.is64() || isImmediate(o) {
		return o
	}
	r := f.p.NewReg(ptx.B64).String()
	if s.signed() {
		f.p.Emit("cvt.s64.s32", r, o)
	} else {
		f.p.Emit("cvt.u64.u32", r, o)
	}
	return r
}

// elemAddr computes base + idx*size.
func (f *fnState) elemAddr(base string, idx ssa.Value, size int64) string {
	r := f.p.NewReg(ptx.B64).String()
	if c, ok := idx.(*ssa.Const); ok {
		off := c.Int64() * size
		f.p.Emit("add.s64", r, base, fmt.Sprint(off))
		return r
	}
	s := f.scalar(idx.Type())
	i := f.one(idx)
	t := f.p.NewReg(ptx.B64).String()
	if f.fits32(idx, f.block) {
		s, i = sI32, f.narrowOperand(idx)
		if ir, _ := f.rangeAt(idx, f.block); ir.nonNeg() && size&(size-1) == 0 {
			// A non-negative index: zero-extended and shifted, which
			// ptxas folds into scaled addressing ([R.X8]).
			w := f.p.NewReg(ptx.B64).String()
			f.p.Emit("cvt.u64.u32", w, regOr(f, i, sI32))
			f.p.Emit("shl.b64", t, w, fmt.Sprint(log2(size)))
			f.p.Emit("add.s64", r, base, t)
			return r
		}
	}
	switch {
	case !s.is64() && s.signed():
		f.p.Emit("mul.wide.s32", t, i, fmt.Sprint(size))
	case !s.is64():
		f.p.Emit("mul.wide.u32", t, i, fmt.Sprint(size))
	case size&(size-1) == 0:
		f.p.Emit("shl.b64", t, i, fmt.Sprint(log2(size)))
	default:
		f.p.Emit("mul.lo.s64", t, i, fmt.Sprint(size))
	}
	f.p.Emit("add.s64", r, base, t)
	return r
}

func log2(n int64) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// indexAddr lowers &a[i] for slices and pointers to arrays.
func (f *fnState) indexAddr(in *ssa.IndexAddr) {
	var base, length string
	var elem types.Type
	switch t := in.X.Type().Underlying().(type) {
	case *types.Slice:
		parts := f.get(in.X)
		base, length = parts[0], parts[1]
		elem = t.Elem()
	case *types.Pointer:
		arr, ok := t.Elem().Underlying().(*types.Array)
		if !ok {
			f.errorf("cannot index %s", in.X.Type())
		}
		base = f.reg(in.X)
		length = fmt.Sprint(arr.Len())
		elem = arr.Elem()
	default:
		f.errorf("cannot index %s in a kernel", in.X.Type())
	}
	if isImmediate(base) {
		f.errorf("index of a nil slice")
	}
	if f.m.target.Debug {
		f.boundsCheck(in.Index, length, ErrIndex)
	}
	f.bind(in, []string{f.elemAddr(base, in.Index, sizes.Sizeof(elem))})
}

// field lowers x.f of a struct value.
func (f *fnState) field(in *ssa.Field) {
	st := in.X.Type().Underlying().(*types.Struct)
	lo, hi, err := fieldLeafRange(st, in.Field)
	if err != nil {
		f.errorf("%v", err)
	}
	f.bindCopy(in, f.get(in.X)[lo:hi])
}

// index lowers a[i] of an array value: a constant index picks leaves, a
// variable one selects among them.
func (f *fnState) index(in *ssa.Index) {
	arr, ok := in.X.Type().Underlying().(*types.Array)
	if !ok {
		f.errorf("cannot index %s in a kernel", in.X.Type())
	}
	el, err := leaves(arr.Elem())
	if err != nil {
		f.errorf("%v", err)
	}
	n := len(el)
	parts := f.get(in.X)
	if c, ok := in.Index.(*ssa.Const); ok {
		i := int(c.Int64())
		f.bindCopy(in, parts[i*n:(i+1)*n])
		return
	}
	if arr.Len() > 64 {
		f.errorf("indexing an array value of %d elements with a variable; index a variable holding the array (var a [N]T) instead", arr.Len())
	}
	if f.m.target.Debug {
		f.boundsCheck(in.Index, fmt.Sprint(arr.Len()), ErrIndex)
	}
	idx, eq := "", "setp.eq.s64"
	if f.fits32(in.Index, f.block) {
		idx, eq = regOr(f, f.narrowOperand(in.Index), sI32), "setp.eq.s32"
	} else {
		idx = f.index64(in.Index)
	}
	out := make([]string, n)
	for k := 0; k < n; k++ {
		out[k] = f.newReg(el[k])
		f.mov(el[k], out[k], parts[k])
	}
	p := f.p.NewReg(ptx.Pred).String()
	for i := 1; i < int(arr.Len()); i++ {
		f.p.Emit(eq, p, idx, fmt.Sprint(i))
		for k := 0; k < n; k++ {
			src := parts[i*n+k]
			f.p.EmitIf(p, "mov"+el[k].movType(), out[k], src)
		}
	}
	f.bind(in, out)
}

// extract lowers the i-th value of a tuple.
func (f *fnState) extract(in *ssa.Extract) {
	tup := in.Tuple.Type().(*types.Tuple)
	lo := 0
	for i := 0; i < in.Index; i++ {
		l, _ := leaves(tup.At(i).Type())
		lo += len(l)
	}
	l, _ := leaves(tup.At(in.Index).Type())
	f.bind(in, f.get(in.Tuple)[lo:lo+len(l)])
}

// makeSlice lowers make([]T, n, m) with constant sizes to thread-local memory.
func (f *fnState) makeSlice(in *ssa.MakeSlice) {
	l, ok1 := in.Len.(*ssa.Const)
	c, ok2 := in.Cap.(*ssa.Const)
	if !ok1 || !ok2 {
		f.errorf("make with a size not known at compile time allocates on the heap, which kernels cannot do; use a fixed-size array or cuda.SharedArray")
	}
	elem := in.Type().Underlying().(*types.Slice).Elem()
	n := c.Int64()
	if n > 1<<16 {
		f.errorf("make of %d elements is too large for a thread's local memory; use shared or global memory", n)
	}
	base := f.localBuffer(elem, n)
	f.bind(in, []string{base, fmt.Sprint(l.Int64()), fmt.Sprint(n)})
}

func (f *fnState) sliceToArrayPointer(in *ssa.SliceToArrayPointer) {
	parts := f.get(in.X)
	n := in.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array).Len()
	if f.m.target.Debug {
		f.checkLE(fmt.Sprint(n), parts[1], ErrConvert, false)
	}
	f.bindCopy(in, parts[:1])
}
