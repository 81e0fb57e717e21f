package cuda

// The atomics of block loops on shared memory. A block loop (`nugo gen`'s
// barrier fission) runs a whole block on one goroutine, and a shared array
// it hoists (BlockShared) belongs to that goroutine alone: an atomic on one
// of its elements needs no atomic instruction. nugo gen writes these in
// place of AtomicAdd, AtomicSub, AtomicMax, AtomicMin, AtomicExch,
// AtomicAnd, AtomicOr and AtomicXor there, for the number types (Float16
// keeps the atomic). Each returns the old value and stores what its atomic
// stores; atomics on global memory stay atomic.

// BlockAtomicAdd is AtomicAdd on memory only the calling goroutine uses.
func BlockAtomicAdd[T AtomicNumber](addr *T, val T) (old T) {
	old = *addr
	*addr = old + val
	return old
}

// BlockAtomicSub is AtomicSub on memory only the calling goroutine uses.
func BlockAtomicSub[T AtomicNumber](addr *T, val T) (old T) {
	old = *addr
	*addr = old - val
	return old
}

// BlockAtomicMax is AtomicMax on memory only the calling goroutine uses: a
// NaN val is never stored, and a NaN there is never replaced.
func BlockAtomicMax[T AtomicNumber](addr *T, val T) (old T) {
	old = *addr
	if val > old {
		*addr = val
	}
	return old
}

// BlockAtomicMin is AtomicMin on memory only the calling goroutine uses,
// as BlockAtomicMax.
func BlockAtomicMin[T AtomicNumber](addr *T, val T) (old T) {
	old = *addr
	if val < old {
		*addr = val
	}
	return old
}

// BlockAtomicExch is AtomicExch on memory only the calling goroutine uses.
func BlockAtomicExch[T AtomicNumber](addr *T, val T) (old T) {
	old = *addr
	*addr = val
	return old
}

// BlockAtomicAnd is AtomicAnd on memory only the calling goroutine uses.
func BlockAtomicAnd[T AtomicInteger](addr *T, val T) (old T) {
	old = *addr
	*addr = old & val
	return old
}

// BlockAtomicOr is AtomicOr on memory only the calling goroutine uses.
func BlockAtomicOr[T AtomicInteger](addr *T, val T) (old T) {
	old = *addr
	*addr = old | val
	return old
}

// BlockAtomicXor is AtomicXor on memory only the calling goroutine uses.
func BlockAtomicXor[T AtomicInteger](addr *T, val T) (old T) {
	old = *addr
	*addr = old ^ val
	return old
}
