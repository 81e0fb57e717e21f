package cuda

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/half"
)

// The atomics operate on one element of a slice, array or shared array,
// given by its address (&data[i]), and return the value it held before.
// They are atomic with respect to every other atomic on the same element,
// from any thread of any block. On a GPU they compile to atom instructions
// on global or shared memory.
//
// Float16 has AtomicAdd, AtomicSub, AtomicMax, AtomicMin, AtomicNanMax,
// AtomicNanMin, AtomicExch and AtomicCAS (the AtomicElement types), as CUDA has atomicAdd(__half*) and
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
	switch size, float := unsafe.Sizeof(val), isFloatType[T](); {
	case size == 2:
		return as[T](addHalf(ptrAs[Float16](addr), as[Float16](val)))
	case size == 4 && float:
		return as[T](numAdd(ptrAs[float32](addr), as[float32](val)))
	case size == 4:
		v := as[uint32](val) // two's complement: one add for both signs
		return as[T](atomic.AddUint32(ptrAs[uint32](addr), v) - v)
	case float:
		return as[T](numAdd(ptrAs[float64](addr), as[float64](val)))
	}
	v := as[uint64](val)
	return as[T](atomic.AddUint64(ptrAs[uint64](addr), v) - v)
}

// AtomicAddComplex adds val to the complex number *addr part by part: the
// real part of val to its real part and the imaginary part to its
// imaginary part, each part atomically, as CUDA code does with two
// atomicAdd on the parts of a float2 or double2 (Numba's atomic.add takes
// no complex arrays; Go cannot take the address of a complex's part). It
// returns the old value, the parts as each held them before its own add.
// The two adds are separate atomics: a thread that reads the element
// while another adds to it may see one part updated and not yet the
// other, but once every thread's adds are done the element holds the sum
// of them all. On a GPU they compile to atom.add.f32 or atom.add.f64 on
// the two parts, in global or shared memory. Subtract with
// AtomicAddComplex(addr, -val).
func AtomicAddComplex[T Complex](addr *T, val T) (old T) {
	if unsafe.Sizeof(val) == 8 {
		p, v := ptrAs[[2]float32](addr), as[complex64](val)
		re := numAdd(&p[0], real(v))
		im := numAdd(&p[1], imag(v))
		return as[T](complex(re, im))
	}
	p, v := ptrAs[[2]float64](addr), as[complex128](val)
	re := numAdd(&p[0], real(v))
	im := numAdd(&p[1], imag(v))
	return as[T](complex(re, im))
}

// AtomicSub subtracts val from *addr and returns the old value. For floats
// (Float16 too) it adds -val, which rounds exactly as subtracting val does.
func AtomicSub[T AtomicElement](addr *T, val T) (old T) {
	switch size, float := unsafe.Sizeof(val), isFloatType[T](); {
	case size == 2:
		return as[T](addHalf(ptrAs[Float16](addr), HNeg(as[Float16](val))))
	case size == 4 && float:
		return as[T](numAdd(ptrAs[float32](addr), -as[float32](val)))
	case size == 4:
		v := -as[uint32](val)
		return as[T](atomic.AddUint32(ptrAs[uint32](addr), v) - v)
	case float:
		return as[T](numAdd(ptrAs[float64](addr), -as[float64](val)))
	}
	v := -as[uint64](val)
	return as[T](atomic.AddUint64(ptrAs[uint64](addr), v) - v)
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
	switch size, float := unsafe.Sizeof(val), isFloatType[T](); {
	case size == 2:
		return as[T](maxHalf(ptrAs[Float16](addr), as[Float16](val)))
	case size == 4 && float:
		return as[T](numMax(ptrAs[float32](addr), as[float32](val)))
	case float:
		return as[T](numMax(ptrAs[float64](addr), as[float64](val)))
	case size == 4 && isSignedType[T]():
		return as[T](numMax(ptrAs[int32](addr), as[int32](val)))
	case size == 4:
		return as[T](numMax(ptrAs[uint32](addr), as[uint32](val)))
	case isSignedType[T]():
		return as[T](numMax(ptrAs[int64](addr), as[int64](val)))
	}
	return as[T](numMax(ptrAs[uint64](addr), as[uint64](val)))
}

// AtomicMin stores val in *addr if it is less than the value there and
// returns the old value. For floats (Float16 too) a NaN val is never
// stored, and a NaN there is never replaced.
func AtomicMin[T AtomicElement](addr *T, val T) (old T) {
	switch size, float := unsafe.Sizeof(val), isFloatType[T](); {
	case size == 2:
		return as[T](minHalf(ptrAs[Float16](addr), as[Float16](val)))
	case size == 4 && float:
		return as[T](numMin(ptrAs[float32](addr), as[float32](val)))
	case float:
		return as[T](numMin(ptrAs[float64](addr), as[float64](val)))
	case size == 4 && isSignedType[T]():
		return as[T](numMin(ptrAs[int32](addr), as[int32](val)))
	case size == 4:
		return as[T](numMin(ptrAs[uint32](addr), as[uint32](val)))
	case isSignedType[T]():
		return as[T](numMin(ptrAs[int64](addr), as[int64](val)))
	}
	return as[T](numMin(ptrAs[uint64](addr), as[uint64](val)))
}

// AtomicNanMax stores val in *addr if it is greater than the value there
// or that value is a NaN, and returns the old value: Numba's
// cuda.atomic.nanmax, which treats a NaN as a missing value. A NaN val is
// never stored, and a NaN there is replaced by the first val that is not
// one; -0 and +0 tie, so neither replaces the other. On integers it is
// AtomicMax.
func AtomicNanMax[T AtomicElement](addr *T, val T) (old T) {
	switch size, float := unsafe.Sizeof(val), isFloatType[T](); {
	case size == 2:
		return as[T](nanMinMaxHalf(ptrAs[Float16](addr), as[Float16](val), true))
	case size == 4 && float:
		return as[T](numNanMax(ptrAs[float32](addr), as[float32](val)))
	case float:
		return as[T](numNanMax(ptrAs[float64](addr), as[float64](val)))
	}
	return AtomicMax(addr, val)
}

// AtomicNanMin stores val in *addr if it is less than the value there or
// that value is a NaN, and returns the old value: Numba's
// cuda.atomic.nanmin, the mirror of AtomicNanMax. On integers it is
// AtomicMin.
func AtomicNanMin[T AtomicElement](addr *T, val T) (old T) {
	switch size, float := unsafe.Sizeof(val), isFloatType[T](); {
	case size == 2:
		return as[T](nanMinMaxHalf(ptrAs[Float16](addr), as[Float16](val), false))
	case size == 4 && float:
		return as[T](numNanMin(ptrAs[float32](addr), as[float32](val)))
	case float:
		return as[T](numNanMin(ptrAs[float64](addr), as[float64](val)))
	}
	return AtomicMin(addr, val)
}

// AtomicExch stores val in *addr and returns the old value.
func AtomicExch[T AtomicElement](addr *T, val T) (old T) {
	p := unsafe.Pointer(addr)
	switch unsafe.Sizeof(val) {
	case 2:
		return as[T](exchHalf(ptrAs[Float16](addr), as[Float16](val)))
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
		return as[T](casHalf((*Float16)(p), as[Float16](compare), as[Float16](val)))
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

// The exported atomics take the struct Float16 too, so they cannot use
// + or < on T: they run an operator-using helper instantiated for a type
// of T's size and kind (2 bytes is Float16, the only one that small),
// on T's memory. Size and float-ness fold to constants in each
// instantiation; signedness, which only AtomicMax and AtomicMin need, is
// T's reflect.Kind (a type switch on T costs several times more).

// isFloatType reports whether T is a 4- or 8-byte float: with all its bits
// set a float is a NaN, which != itself, an integer -1 or its maximum.
func isFloatType[T AtomicElement]() bool {
	var x T
	switch unsafe.Sizeof(x) {
	case 4:
		*(*uint32)(unsafe.Pointer(&x)) = ^uint32(0)
	case 8:
		*(*uint64)(unsafe.Pointer(&x)) = ^uint64(0)
	default:
		return false
	}
	return x != x
}

// isSignedType reports whether the integer type T is signed.
func isSignedType[T AtomicElement]() bool {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int, reflect.Int32, reflect.Int64:
		return true
	}
	return false
}

// as reinterprets v's bits as a U of the same size, and ptrAs a pointer
// to T as one to U (for additions, uint32 and uint64 stand for the signed
// types too: two's complement gives the same bits).
func as[U, T any](v T) U { return *(*U)(unsafe.Pointer(&v)) }

func ptrAs[U, T any](p *T) *U { return (*U)(unsafe.Pointer(p)) }

// numAdd adds by compare-and-swap; integers add with AddUint32/64 instead.
func numAdd[T AtomicNumber](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		if atomicCAS(addr, old, old+val) {
			return old
		}
	}
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

// numNanMax and numNanMin stop if val is a NaN or does not beat an old
// value that is a number (old != old only for a NaN).
func numNanMax[T AtomicNumber](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		if val != val || !(val > old || old != old) || atomicCAS(addr, old, val) {
			return old
		}
	}
}

func numNanMin[T AtomicNumber](addr *T, val T) (old T) {
	for {
		old = atomicLoad(addr)
		if val != val || !(val < old || old != old) || atomicCAS(addr, old, val) {
			return old
		}
	}
}

func addHalf(addr *Float16, val Float16) Float16 {
	w, off := halfWord(addr)
	for {
		ow := atomic.LoadUint32(w)
		old := halfIn(ow, off)
		if atomic.CompareAndSwapUint32(w, ow, withHalf(ow, off, half.Add(old, val.bits))) {
			return Float16{old}
		}
	}
}

// maxHalf and minHalf store val only if it beats the old value (ordered:
// never a NaN, never over a NaN), as numMax and numMin do.
func maxHalf(addr *Float16, val Float16) Float16 {
	w, off := halfWord(addr)
	for {
		ow := atomic.LoadUint32(w)
		old := halfIn(ow, off)
		if !half.Compare(half.GT, val.bits, old) || atomic.CompareAndSwapUint32(w, ow, withHalf(ow, off, val.bits)) {
			return Float16{old}
		}
	}
}

func minHalf(addr *Float16, val Float16) Float16 {
	w, off := halfWord(addr)
	for {
		ow := atomic.LoadUint32(w)
		old := halfIn(ow, off)
		if !half.Compare(half.LT, val.bits, old) || atomic.CompareAndSwapUint32(w, ow, withHalf(ow, off, val.bits)) {
			return Float16{old}
		}
	}
}

// nanMinMaxHalf is AtomicNanMax (isMax) or AtomicNanMin of a Float16.
func nanMinMaxHalf(addr *Float16, val Float16, isMax bool) Float16 {
	op := half.GT
	if !isMax {
		op = half.LT
	}
	w, off := halfWord(addr)
	for {
		ow := atomic.LoadUint32(w)
		old := halfIn(ow, off)
		if half.IsNaN(val.bits) || !(half.Compare(op, val.bits, old) || half.IsNaN(old)) ||
			atomic.CompareAndSwapUint32(w, ow, withHalf(ow, off, val.bits)) {
			return Float16{old}
		}
	}
}

func exchHalf(addr *Float16, val Float16) Float16 {
	w, off := halfWord(addr)
	for {
		ow := atomic.LoadUint32(w)
		if atomic.CompareAndSwapUint32(w, ow, withHalf(ow, off, val.bits)) {
			return Float16{halfIn(ow, off)}
		}
	}
}

func casHalf(addr *Float16, compare, val Float16) Float16 {
	w, off := halfWord(addr)
	for {
		ow := atomic.LoadUint32(w)
		old := halfIn(ow, off)
		if old != compare.bits || atomic.CompareAndSwapUint32(w, ow, withHalf(ow, off, val.bits)) {
			return Float16{old}
		}
	}
}

// halfWord returns the aligned 32-bit word that holds *p, and *p's byte
// offset in it. Go has no 16-bit atomics: the Float16 atomics
// compare-and-swap that word, in which *p is either half, writing the
// other half back unchanged (or failing and retrying if it changed). The
// word cannot fault: it lies in the 8-byte granule that holds *p, and Go
// allocates memory in such granules (size classes of 8 bytes and more,
// tiny objects packed in 16-byte blocks), as the driver and mmap do in
// pages.
func halfWord(p *Float16) (w *uint32, off uintptr) {
	off = uintptr(unsafe.Pointer(p)) & 3
	return (*uint32)(unsafe.Add(unsafe.Pointer(p), -int(off))), off
}

// halfIn and withHalf read and replace the half at byte offset off of a
// word, whatever the machine's byte order.
func halfIn(w uint32, off uintptr) uint16 { return *(*uint16)(unsafe.Add(unsafe.Pointer(&w), off)) }

func withHalf(w uint32, off uintptr, h uint16) uint32 {
	*(*uint16)(unsafe.Add(unsafe.Pointer(&w), off)) = h
	return w
}

func bits32[T any](v T) uint32 { return *(*uint32)(unsafe.Pointer(&v)) }
func bits64[T any](v T) uint64 { return *(*uint64)(unsafe.Pointer(&v)) }

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
