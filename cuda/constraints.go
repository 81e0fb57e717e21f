package cuda

// Integer is the set of integer types a kernel may compute with.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Float is the set of floating-point types a kernel may compute with.
type Float interface {
	~float32 | ~float64
}

// Complex is the set of complex types a kernel may compute with: held as
// two floats, real part first, laid out as Go lays them out (complex64 is
// two float32s aligned to 4 bytes, complex128 two float64s aligned to 8).
type Complex interface {
	~complex64 | ~complex128
}

// Number is the set of real number types: integers and floats, the types
// that are ordered (<, Max, Min) and that atomics and warp shuffles take.
type Number interface {
	Integer | Float
}

// Element is the set of element types of Array2, Array3 and shared
// arrays: the numbers, the complex types, Float16 and bool. Slices and
// device arrays take the same, and structs of them. (Float16 is not a
// Number: it has no Go operators; complex numbers are not ordered and have
// no atomics on the GPU; bool is no number; so none of them is a Number,
// whose +, < ... generic code may use.)
type Element interface {
	Number | Complex | Float16 | ~bool
}

// AtomicNumber is the set of numbers the arithmetic atomics (AtomicAdd,
// AtomicMax, AtomicCAS, ...) work on: the 32- and 64-bit types that CUDA's
// atomic instructions support.
type AtomicNumber interface {
	~int32 | ~int64 | ~int | ~uint32 | ~uint64 | ~uint | ~float32 | ~float64
}

// AtomicElement is the set of types AtomicAdd, AtomicSub, AtomicMax,
// AtomicMin, AtomicNanMax, AtomicNanMin, AtomicExch and AtomicCAS work on: the AtomicNumbers and
// Float16 (CUDA's atomicAdd(__half*) and 16-bit atomicCAS, sm_70 and
// later). It is apart from AtomicNumber as Element is apart from Number:
// Float16 has no Go operators. AtomicSub is AtomicAdd of the negation,
// exact for floats, so it takes Float16 as it takes float32; the wrapping
// counters (AtomicInc, AtomicDec) and the bitwise atomics (AtomicAnd,
// AtomicOr, AtomicXor) mean nothing on a float and take none.
type AtomicElement interface {
	AtomicNumber | Float16
}

// AtomicInteger is the set of types the bitwise atomics (AtomicAnd,
// AtomicOr, AtomicXor) work on.
type AtomicInteger interface {
	~int32 | ~int64 | ~int | ~uint32 | ~uint64 | ~uint
}

// AtomicUnsigned is the set of types the wrapping counters (AtomicInc,
// AtomicDec) work on.
type AtomicUnsigned interface {
	~uint32 | ~uint64 | ~uint
}
