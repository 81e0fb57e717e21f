package compiler

import (
	"fmt"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// sharedBuf is one static .shared buffer: its symbol and its size in
// bytes, a multiple of 16.
type sharedBuf struct {
	sym  string
	size int64
}

// zeroShared puts a prologue at the start of the kernel that zeroes its
// shared memory, static buffers and the dynamic area, with all the
// block's threads storing 16 bytes each in turn, then waits at a barrier.
// nugo promises what Go does, memory that starts zeroed (the CPU backend
// makes each block's shared arrays anew), while a GPU leaves in shared
// memory whatever the multiprocessor's previous block wrote.
func (m *modState) zeroShared(kf *ptx.Func) {
	if len(m.shared) == 0 && !m.dynShared {
		return
	}
	body := kf.Body
	kf.Body = nil
	r32 := func() string { return kf.NewReg(ptx.B32).String() }
	r64 := func() string { return kf.NewReg(ptx.B64).String() }
	tid, ntid := [3]string{r32(), r32(), r32()}, [3]string{r32(), r32(), r32()}
	for i, d := range []string{"x", "y", "z"} {
		kf.Emit("mov.u32", tid[i], "%tid."+d)
		kf.Emit("mov.u32", ntid[i], "%ntid."+d)
	}
	lin, n := r32(), r32()
	kf.Emit("mad.lo.u32", lin, tid[2], ntid[1], tid[1])
	kf.Emit("mad.lo.u32", lin, lin, ntid[0], tid[0])
	kf.Emit("mul.lo.u32", n, ntid[0], ntid[1])
	kf.Emit("mul.lo.u32", n, n, ntid[2])
	lin64, first, step, zero := r64(), r64(), r64(), r64()
	kf.Emit("cvt.u64.u32", lin64, lin)
	kf.Emit("shl.b64", first, lin64, "4")
	kf.Emit("cvt.u64.u32", step, n)
	kf.Emit("shl.b64", step, step, "4")
	kf.Emit("mov.u64", zero, "0")
	p := kf.NewReg(ptx.Pred).String()
	// zeroRange stores zeros over [base, base+limit) in 16-byte units,
	// thread i taking units i, i+n, i+2n, ...
	zeroRange := func(base, limit string) {
		off, at := r64(), r64()
		loop, done := m.label("zero_shared"), m.label("zero_shared_done")
		kf.Emit("mov.u64", off, first)
		kf.Label(loop)
		kf.Emit("setp.ge.u64", p, off, limit)
		kf.EmitIf(p, "bra.uni", done)
		kf.Emit("add.u64", at, base, off)
		kf.Emit("st.shared.v2.u64", "["+at+"]", "{"+zero+", "+zero+"}")
		kf.Emit("add.u64", off, off, step)
		kf.Emit("bra.uni", loop)
		kf.Label(done)
	}
	for _, b := range m.shared {
		base := r64()
		kf.Emit("mov.u64", base, b.sym)
		zeroRange(base, fmt.Sprint(b.size))
	}
	if m.dynShared {
		// The dynamic area's size is the launch's, any number of bytes:
		// whole units first, then the last few bytes one per thread.
		base, size, units, rest, at := r64(), r64(), r64(), r64(), r64()
		size32 := r32()
		kf.Emit("mov.u64", base, "__nugo_dynshared")
		kf.Emit("mov.u32", size32, "%dynamic_smem_size")
		kf.Emit("cvt.u64.u32", size, size32)
		kf.Emit("and.b64", units, size, "-16")
		zeroRange(base, units)
		kf.Emit("sub.u64", rest, size, units)
		kf.Emit("setp.lt.u64", p, lin64, rest)
		kf.Emit("add.u64", at, base, units)
		kf.Emit("add.u64", at, at, lin64)
		zero32 := r32()
		kf.Emit("mov.u32", zero32, "0")
		kf.EmitIf(p, "st.shared.u8", "["+at+"]", zero32)
	}
	kf.Emit("bar.sync", "0")
	kf.Body = append(kf.Body, body...)
}

// label is a module-unique label for code the module adds outside any
// function's lowering.
func (m *modState) label(hint string) string {
	m.nlabel++
	return fmt.Sprintf("$L_%s_%d", hint, m.nlabel)
}
