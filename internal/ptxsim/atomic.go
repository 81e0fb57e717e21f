package ptxsim

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/half"
)

// atomStripes serialise atomics on global memory whose host buffer is not
// naturally aligned (registered buffers of odd alignment).
var atomStripes [64]sync.Mutex

// atomNew computes the value an atomic operation stores, given the old one.
func atomNew(in *inst, old, b, c uint64) uint64 {
	switch in.fop {
	case atAdd:
		switch in.ty {
		case tF16:
			return uint64(half.Add(uint16(old), uint16(b)))
		case tF32:
			return u32f(ftz32(ftz32(f32(old)) + ftz32(f32(b))))
		case tF64:
			return u64f(f64(old) + f64(b))
		}
		return (old + b) & in.mask
	case atMin, atMax:
		var less bool
		if in.flags&flSigned != 0 {
			less = sx(old, in.sh) < sx(b, in.sh)
		} else {
			less = old < b
		}
		if less == (in.fop == atMin) {
			return old
		}
		return b
	case atExch:
		return b
	case atCas:
		if old == b {
			return c
		}
		return old
	case atAnd:
		return old & b
	case atOr:
		return old | b
	case atXor:
		return old ^ b
	case atInc:
		if old >= b {
			return 0
		}
		return old + 1
	case atDec:
		if old == 0 || old > b {
			return b
		}
		return old - 1
	}
	return old
}

// atom executes atom/red; false after a fault.
func (t *thread) atom(in *inst, regs []uint64) bool {
	addr := regs[in.a] + uint64(in.off)
	size := in.ty.size()
	if addr%uint64(size) != 0 {
		t.faultKind(FaultMisaligned, in, addr, true, "misaligned %d-byte atomic", size)
		return false
	}
	sp := in.sp
	a := addr
	if sp == spGeneric {
		switch {
		case addr >= sharedWindow && addr < localWindow:
			sp, a = spShared, addr-sharedWindow
		case addr >= windowBase:
			t.fault(in, addr, true, "atomic on a generic address outside global and shared memory")
			return false
		default:
			sp = spGlobal
		}
	}
	mem := t.access(in, sp, a, size, true)
	if mem == nil {
		return false
	}
	b, c := regs[in.b]&in.mask, regs[in.c]&in.mask
	var old uint64
	if sp == spShared {
		// the threads of a block run one at a time: plain read-modify-write is atomic
		old = loadN(mem, size)
		storeN(mem, size, atomNew(in, old, b, c))
	} else if ptr := unsafe.Pointer(&mem[0]); uintptr(ptr)%uintptr(size) == 0 {
		old = hostAtomic(in, ptr, size, b, c)
	} else {
		mu := &atomStripes[(addr/8)%uint64(len(atomStripes))]
		mu.Lock()
		old = loadN(mem, size)
		storeN(mem, size, atomNew(in, old, b, c))
		mu.Unlock()
	}
	if in.d >= 0 {
		regs[in.d] = old
	}
	return true
}

func hostAtomic(in *inst, ptr unsafe.Pointer, size int, b, c uint64) uint64 {
	if size == 2 {
		return uint64(updateHalfWord(ptr, func(old uint16) uint16 { return uint16(atomNew(in, uint64(old), b, c)) }))
	}
	if size == 4 {
		p := (*uint32)(ptr)
		switch {
		case in.fop == atExch:
			return uint64(atomic.SwapUint32(p, uint32(b)))
		case in.fop == atAdd && in.ty.isInt():
			return uint64(atomic.AddUint32(p, uint32(b)) - uint32(b))
		}
		for {
			old := atomic.LoadUint32(p)
			nw := uint32(atomNew(in, uint64(old), b, c))
			if nw == old || atomic.CompareAndSwapUint32(p, old, nw) {
				return uint64(old)
			}
		}
	}
	p := (*uint64)(ptr)
	switch {
	case in.fop == atExch:
		return atomic.SwapUint64(p, b)
	case in.fop == atAdd && in.ty.isInt():
		return atomic.AddUint64(p, b) - b
	}
	for {
		old := atomic.LoadUint64(p)
		nw := atomNew(in, old, b, c)
		if nw == old || atomic.CompareAndSwapUint64(p, old, nw) {
			return old
		}
	}
}

// updateHalfWord replaces the 2 bytes at ptr (2-byte aligned) by next of
// them, atomically, and returns the old ones. The host has no 16-bit
// atomics: it compare-and-swaps the aligned 32-bit word that holds them,
// writing the other half back unchanged. That word lies in the 8-byte
// granule of ptr, inside memory Go or the driver allocated, so it cannot
// fault.
func updateHalfWord(ptr unsafe.Pointer, next func(old uint16) uint16) uint16 {
	off := uintptr(ptr) & 3
	w := (*uint32)(unsafe.Add(ptr, -int(off)))
	for {
		ow := atomic.LoadUint32(w)
		nw := ow
		old := *(*uint16)(unsafe.Add(unsafe.Pointer(&ow), off)) // either byte order
		v := next(old)
		*(*uint16)(unsafe.Add(unsafe.Pointer(&nw), off)) = v
		if v == old || atomic.CompareAndSwapUint32(w, ow, nw) {
			return old
		}
	}
}

// loadHalfWord reads the 2 bytes at ptr (2-byte aligned) with an atomic
// load of the 32-bit word that holds them.
func loadHalfWord(ptr unsafe.Pointer) uint16 {
	off := uintptr(ptr) & 3
	w := atomic.LoadUint32((*uint32)(unsafe.Add(ptr, -int(off))))
	return *(*uint16)(unsafe.Add(unsafe.Pointer(&w), off))
}
