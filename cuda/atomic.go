package cuda

import (
	"sync/atomic"
	"unsafe"
)

// The atomics operate on one element of a slice, array or shared array,
// given by its address (&data[i]), and return the value it held before.
// They are atomic with respect to every other atomic on the same element,
// from any thread of any block. On a GPU they compile to atom instructions
// on global or shared memory.

// AtomicAdd adds val to *addr and returns the old value.
func AtomicAdd[T AtomicNumber](addr *T, val T) (old T) {
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

// AtomicSub subtracts val from *addr and returns the old value.
func AtomicSub[T AtomicNumber](addr *T, val T) (old T) {
	if isFloat[T]() {
		return AtomicAdd(addr, -val)
	}
	var zero T
	return AtomicAdd(addr, zero-val)
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
// returns the old value. For floats a NaN val is never stored.
func AtomicMax[T AtomicNumber](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		if !(val > old) || atomicCAS(addr, old, val) {
			return old
		}
	}
}

// AtomicMin stores val in *addr if it is less than the value there and
// returns the old value. For floats a NaN val is never stored.
func AtomicMin[T AtomicNumber](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		if !(val < old) || atomicCAS(addr, old, val) {
			return old
		}
	}
}

// AtomicExch stores val in *addr and returns the old value.
func AtomicExch[T AtomicNumber](addr *T, val T) (old T) {
	p := unsafe.Pointer(addr)
	if unsafe.Sizeof(val) == 4 {
		return fromBits32[T](atomic.SwapUint32((*uint32)(p), bits32(val)))
	}
	return fromBits64[T](atomic.SwapUint64((*uint64)(p), bits64(val)))
}

// AtomicCAS stores val in *addr if the value there is compare, and returns
// the old value either way; the store happened if old == compare. Floats
// are compared by their bits, as CUDA's atomicCAS does.
func AtomicCAS[T AtomicNumber](addr *T, compare, val T) (old T) {
	for {
		old = atomicLoad(addr)
		if !sameBits(old, compare) || atomicCAS(addr, old, val) {
			return old
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

// isFloat reports whether T is a floating-point type; it folds to a
// constant in each instantiation.
func isFloat[T AtomicNumber]() bool {
	var one T = 1
	return one/2 != 0
}

func bits32[T any](v T) uint32 { return *(*uint32)(unsafe.Pointer(&v)) }
func bits64[T any](v T) uint64 { return *(*uint64)(unsafe.Pointer(&v)) }

func fromBits32[T any](b uint32) T { return *(*T)(unsafe.Pointer(&b)) }
func fromBits64[T any](b uint64) T { return *(*T)(unsafe.Pointer(&b)) }

func sameBits[T AtomicNumber](a, b T) bool {
	if unsafe.Sizeof(a) == 4 {
		return bits32(a) == bits32(b)
	}
	return bits64(a) == bits64(b)
}

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
