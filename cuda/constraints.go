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

// Number is the set of element types of slices, arrays and device arrays
// that kernels take.
type Number interface {
	Integer | Float
}

// Element is the set of element types of Array2, Array3 and shared
// arrays: the numbers and Float16. (Float16 is not a Number: it has no Go
// operators, so generic code that computes with a Number's +, < ... could
// not take it.)
type Element interface {
	Number | Float16
}

// AtomicNumber is the set of numbers the arithmetic atomics (AtomicAdd,
// AtomicMax, AtomicCAS, ...) work on: the 32- and 64-bit types that CUDA's
// atomic instructions support.
type AtomicNumber interface {
	~int32 | ~int64 | ~int | ~uint32 | ~uint64 | ~uint | ~float32 | ~float64
}

// AtomicElement is the set of types AtomicAdd, AtomicSub, AtomicMax,
// AtomicMin, AtomicExch and AtomicCAS work on: the AtomicNumbers and
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
