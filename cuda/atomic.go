package cuda

import (
	"reflect"
	"sync/atomic"
	"unsafe"
)

// The atomics operate on one element of a slice, array or shared array,
// given by its address (&data[i]), and return the value it held before.
// They are atomic with respect to every other atomic on the same element,
// from any thread of any block. On a GPU they compile to atom instructions
// on global or shared memory.
//
// Float16 has AtomicAdd, AtomicSub, AtomicMax, AtomicMin, AtomicExch and
// AtomicCAS (the AtomicElement types), as CUDA has atomicAdd(__half*) and
// a 16-bit atomicCAS. On a GPU they need compute capability 7.0 (sm_70) or
// later (PTX atom.add.noftz.f16 and atom.cas.b16); compiling one for an
// older target is a *CompileError. Go has no 16-bit atomics, so the CPU
// backend updates a Float16 with a compare-and-swap of the aligned 32-bit
// word that holds it (and its neighbour): under the race detector a plain
// write to the neighbour made while another thread updates the element
// can be reported as a race, although on a GPU there is none.

// AtomicAdd adds val to *addr and returns the old value. A Float16 sum is
// rounded to nearest even, as HAdd rounds it.
func AtomicAdd[T AtomicElement](addr *T, val T) (old T) {
	switch kindOf[T]() {
	case kindFloat16:
		return via(addHalf, addr, val)
	case kindInt32, kindUint32:
		return via(numAdd[uint32], addr, val)
	case kindInt64, kindUint64:
		return via(numAdd[uint64], addr, val)
	case kindFloat32:
		return via(numAdd[float32], addr, val)
	}
	return via(numAdd[float64], addr, val)
}

// AtomicSub subtracts val from *addr and returns the old value. For floats
// (Float16 too) it adds -val, which rounds exactly as subtracting val does.
func AtomicSub[T AtomicElement](addr *T, val T) (old T) {
	switch kindOf[T]() {
	case kindFloat16:
		return via(subHalf, addr, val)
	case kindInt32, kindUint32:
		return via(numSub[uint32], addr, val)
	case kindInt64, kindUint64:
		return via(numSub[uint64], addr, val)
	case kindFloat32:
		return via(numSub[float32], addr, val)
	}
	return via(numSub[float64], addr, val)
}

// AtomicInc counts *addr up from 0 to val and around again: it stores 0
// if the value there is val or more, else the value plus one, and returns
// the old value (CUDA's atomicInc, Numba's cuda.atomic.inc; PTX atom.inc
// for 32 bits).
func AtomicInc[T AtomicUnsigned](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		next := old + 1
		if old >= val {
			next = 0
		}
		if atomicCAS(addr, old, next) {
			return old
		}
	}
}

// AtomicDec counts *addr down from val to 0 and around again: it stores
// val if the value there is 0 or more than val, else the value minus one,
// and returns the old value (CUDA's atomicDec, Numba's cuda.atomic.dec;
// PTX atom.dec for 32 bits).
func AtomicDec[T AtomicUnsigned](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		next := old - 1
		if old == 0 || old > val {
			next = val
		}
		if atomicCAS(addr, old, next) {
			return old
		}
	}
}

// AtomicMax stores val in *addr if it is greater than the value there and
// returns the old value. For floats (Float16 too) a NaN val is never
// stored, and a NaN there is never replaced.
func AtomicMax[T AtomicElement](addr *T, val T) (old T) {
	switch kindOf[T]() {
	case kindFloat16:
		return via(maxHalf, addr, val)
	case kindInt32:
		return via(numMax[int32], addr, val)
	case kindInt64:
		return via(numMax[int64], addr, val)
	case kindUint32:
		return via(numMax[uint32], addr, val)
	case kindUint64:
		return via(numMax[uint64], addr, val)
	case kindFloat32:
		return via(numMax[float32], addr, val)
	}
	return via(numMax[float64], addr, val)
}

// AtomicMin stores val in *addr if it is less than the value there and
// returns the old value. For floats (Float16 too) a NaN val is never
// stored, and a NaN there is never replaced.
func AtomicMin[T AtomicElement](addr *T, val T) (old T) {
	switch kindOf[T]() {
	case kindFloat16:
		return via(minHalf, addr, val)
	case kindInt32:
		return via(numMin[int32], addr, val)
	case kindInt64:
		return via(numMin[int64], addr, val)
	case kindUint32:
		return via(numMin[uint32], addr, val)
	case kindUint64:
		return via(numMin[uint64], addr, val)
	case kindFloat32:
		return via(numMin[float32], addr, val)
	}
	return via(numMin[float64], addr, val)
}

// AtomicExch stores val in *addr and returns the old value.
func AtomicExch[T AtomicElement](addr *T, val T) (old T) {
	p := unsafe.Pointer(addr)
	switch unsafe.Sizeof(val) {
	case 2:
		return via(exchHalf, addr, val)
	case 4:
		return fromBits32[T](atomic.SwapUint32((*uint32)(p), bits32(val)))
	}
	return fromBits64[T](atomic.SwapUint64((*uint64)(p), bits64(val)))
}

// AtomicCAS stores val in *addr if the value there is compare, and returns
// the old value either way; the store happened if old == compare. Floats
// are compared by their bits, as CUDA's atomicCAS does: -0 is not +0, and
// a NaN matches a NaN of the same bits.
func AtomicCAS[T AtomicElement](addr *T, compare, val T) (old T) {
	p := unsafe.Pointer(addr)
	switch unsafe.Sizeof(val) {
	case 2:
		c, v := bits16(compare), bits16(val)
		return fromBits16[T](updateHalf((*Float16)(p), func(old uint16) (uint16, bool) { return v, old == c }))
	case 4:
		c, v := bits32(compare), bits32(val)
		for {
			o := atomic.LoadUint32((*uint32)(p))
			if o != c || atomic.CompareAndSwapUint32((*uint32)(p), o, v) {
				return fromBits32[T](o)
			}
		}
	}
	c, v := bits64(compare), bits64(val)
	for {
		o := atomic.LoadUint64((*uint64)(p))
		if o != c || atomic.CompareAndSwapUint64((*uint64)(p), o, v) {
			return fromBits64[T](o)
		}
	}
}

// AtomicAnd stores *addr & val and returns the old value.
func AtomicAnd[T AtomicInteger](addr *T, val T) (old T) {
	p := unsafe.Pointer(addr)
	if unsafe.Sizeof(val) == 4 {
		return fromBits32[T](atomic.AndUint32((*uint32)(p), bits32(val)))
	}
	return fromBits64[T](atomic.AndUint64((*uint64)(p), bits64(val)))
}

// AtomicOr stores *addr | val and returns the old value.
func AtomicOr[T AtomicInteger](addr *T, val T) (old T) {
	p := unsafe.Pointer(addr)
	if unsafe.Sizeof(val) == 4 {
		return fromBits32[T](atomic.OrUint32((*uint32)(p), bits32(val)))
	}
	return fromBits64[T](atomic.OrUint64((*uint64)(p), bits64(val)))
}

// AtomicXor stores *addr ^ val and returns the old value.
func AtomicXor[T AtomicInteger](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		if atomicCAS(addr, old, old^val) {
			return old
		}
	}
}

// atomicKind says which instantiation of the operator-using helpers an
// AtomicElement type runs on: the AtomicElement set holds the struct
// Float16, so the exported functions cannot use + or < on T themselves.
type atomicKind uint8

const (
	kindInt32 atomicKind = iota
	kindInt64
	kindUint32
	kindUint64
	kindFloat32
	kindFloat64
	kindFloat16
)

// kindOf classifies T: the predeclared types by a type switch (cheap), a
// defined type such as type Count int32 by its reflect.Kind.
func kindOf[T AtomicElement]() atomicKind {
	switch any((*T)(nil)).(type) {
	case *int32:
		return kindInt32
	case *uint32:
		return kindUint32
	case *int64:
		return kindInt64
	case *uint64:
		return kindUint64
	case *float32:
		return kindFloat32
	case *float64:
		return kindFloat64
	case *Float16:
		return kindFloat16
	case *int:
		if unsafe.Sizeof(int(0)) == 4 {
			return kindInt32
		}
		return kindInt64
	case *uint:
		if unsafe.Sizeof(uint(0)) == 4 {
			return kindUint32
		}
		return kindUint64
	}
	var v T
	switch k := reflect.TypeFor[T]().Kind(); {
	case k == reflect.Float32:
		return kindFloat32
	case k == reflect.Float64:
		return kindFloat64
	case k == reflect.Int32 || k == reflect.Int && unsafe.Sizeof(v) == 4:
		return kindInt32
	case k == reflect.Int || k == reflect.Int64:
		return kindInt64
	case k == reflect.Uint32 || k == reflect.Uint && unsafe.Sizeof(v) == 4:
		return kindUint32
	}
	return kindUint64
}

// via runs op, the instantiation for U, on T's memory and bits: U is T's
// underlying type, or one of the same size whose arithmetic gives the
// same bits (uint32 addition for int32).
func via[U, T AtomicElement](op func(*U, U) U, addr *T, val T) T {
	r := op((*U)(unsafe.Pointer(addr)), *(*U)(unsafe.Pointer(&val)))
	return *(*T)(unsafe.Pointer(&r))
}

func numAdd[T AtomicNumber](addr *T, val T) (old T) {
	if isFloat[T]() {
		for {
			old = atomicLoad(addr)
			if atomicCAS(addr, old, old+val) {
				return old
			}
		}
	}
	p := unsafe.Pointer(addr)
	if unsafe.Sizeof(val) == 4 {
		v := bits32(val)
		return fromBits32[T](atomic.AddUint32((*uint32)(p), v) - v)
	}
	v := bits64(val)
	return fromBits64[T](atomic.AddUint64((*uint64)(p), v) - v)
}

func numSub[T AtomicNumber](addr *T, val T) (old T) {
	if isFloat[T]() {
		return numAdd(addr, -val)
	}
	var zero T
	return numAdd(addr, zero-val)
}

// numMax and numMin stop unless val beats old: !(val > old) holds when
// either is NaN, so a NaN is neither stored nor replaced.
func numMax[T AtomicNumber](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		if !(val > old) || atomicCAS(addr, old, val) {
			return old
		}
	}
}

func numMin[T AtomicNumber](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		if !(val < old) || atomicCAS(addr, old, val) {
			return old
		}
	}
}

func addHalf(addr *Float16, val Float16) Float16 {
	return Float16{updateHalf(addr, func(old uint16) (uint16, bool) { return HAdd(Float16{old}, val).bits, true })}
}

func subHalf(addr *Float16, val Float16) Float16 { return addHalf(addr, HNeg(val)) }

func maxHalf(addr *Float16, val Float16) Float16 {
	return Float16{updateHalf(addr, func(old uint16) (uint16, bool) { return val.bits, HGt(val, Float16{old}) })}
}

func minHalf(addr *Float16, val Float16) Float16 {
	return Float16{updateHalf(addr, func(old uint16) (uint16, bool) { return val.bits, HLt(val, Float16{old}) })}
}

func exchHalf(addr *Float16, val Float16) Float16 {
	return Float16{updateHalf(addr, func(uint16) (uint16, bool) { return val.bits, true })}
}

// updateHalf replaces the bits of *p by next(old) when next says so, as
// one atomic step, and returns the old bits. Go has no 16-bit atomics: it
// compare-and-swaps the aligned 32-bit word that holds *p, in which *p is
// either half; the swap writes the other half back unchanged, or fails
// and retries if it changed. The word cannot fault: it lies in the 8-byte
// granule that holds *p, and Go allocates memory in such granules (size
// classes of 8 bytes and more, tiny objects packed in 16-byte blocks), as
// the driver and mmap do in pages.
func updateHalf(p *Float16, next func(old uint16) (uint16, bool)) uint16 {
	off := uintptr(unsafe.Pointer(p)) & 3
	w := (*uint32)(unsafe.Add(unsafe.Pointer(p), -int(off)))
	for {
		ow := atomic.LoadUint32(w)
		nw := ow
		// the half at byte offset off of the word, whatever the byte order
		old := *(*uint16)(unsafe.Add(unsafe.Pointer(&ow), off))
		v, store := next(old)
		if !store {
			return old
		}
		*(*uint16)(unsafe.Add(unsafe.Pointer(&nw), off)) = v
		if atomic.CompareAndSwapUint32(w, ow, nw) {
			return old
		}
	}
}

// isFloat reports whether T is a floating-point type; it folds to a
// constant in each instantiation.
func isFloat[T AtomicNumber]() bool {
	var one T = 1
	return one/2 != 0
}

func bits16[T any](v T) uint16 { return *(*uint16)(unsafe.Pointer(&v)) }
func bits32[T any](v T) uint32 { return *(*uint32)(unsafe.Pointer(&v)) }
func bits64[T any](v T) uint64 { return *(*uint64)(unsafe.Pointer(&v)) }

func fromBits16[T any](b uint16) T { return *(*T)(unsafe.Pointer(&b)) }
func fromBits32[T any](b uint32) T { return *(*T)(unsafe.Pointer(&b)) }
func fromBits64[T any](b uint64) T { return *(*T)(unsafe.Pointer(&b)) }

func atomicLoad[T AtomicNumber](addr *T) T {
	if unsafe.Sizeof(*addr) == 4 {
		return fromBits32[T](atomic.LoadUint32((*uint32)(unsafe.Pointer(addr))))
	}
	return fromBits64[T](atomic.LoadUint64((*uint64)(unsafe.Pointer(addr))))
}

// atomicCAS compares and swaps by bits.
func atomicCAS[T AtomicNumber](addr *T, old, val T) bool {
	if unsafe.Sizeof(old) == 4 {
		return atomic.CompareAndSwapUint32((*uint32)(unsafe.Pointer(addr)), bits32(old), bits32(val))
	}
	return atomic.CompareAndSwapUint64((*uint64)(unsafe.Pointer(addr)), bits64(old), bits64(val))
}
