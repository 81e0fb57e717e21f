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
// arrays: the numbers, Float16 and bool. (Neither Float16 nor bool is a
// Number: generic code that computes with a Number's +, < ... could not
// take them.)
type Element interface {
	Number | Float16 | ~bool
}

// AtomicNumber is the set of types the arithmetic atomics (AtomicAdd,
// AtomicMax, AtomicCAS, ...) work on: the 32- and 64-bit types that CUDA's
// atomic instructions support.
type AtomicNumber interface {
	~int32 | ~int64 | ~int | ~uint32 | ~uint64 | ~uint | ~float32 | ~float64
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
