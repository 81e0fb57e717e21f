package cuda

import (
	"fmt"
	"unsafe"
)

// Views of device arrays, as Numba's d[lo:hi] and d.reshape(...): arrays
// over the same device memory, made without copying. A view records the
// byte offset of its first element; copies and launches add it to the
// memory's address (on the GPU, base pointer plus offset). Views share the
// deviceBuffer of the array they come from, never a pointer to that
// array, so that the memory outlives an array dropped while a view of it
// is in use.

// Slice returns a 1-D view of the elements [lo, hi) of the array, counted
// in row-major order whatever its shape, as Go slices a slice: the view
// shares the array's memory, so writes through either are seen through the
// other. The bounds must satisfy 0 <= lo <= hi <= Len.
//
// A view can be passed to kernels, copied to and from, sliced and reshaped
// like any device array. It keeps the memory alive while it is reachable;
// Free of the array it was made from makes it fail with ErrFreed, and Free
// of the view only detaches the view (see Free).
func (d *DeviceArray[T]) Slice(lo, hi int) (*DeviceArray[T], error) {
	if d == nil {
		return nil, fmt.Errorf("Slice: %w", errNilArray)
	}
	if _, err := d.mem(); err != nil {
		return nil, fmt.Errorf("Slice [%d:%d]: %w", lo, hi, err)
	}
	if lo < 0 || hi < lo || hi > d.n {
		return nil, fmt.Errorf("Slice [%d:%d] of a device array of %d elements: %s", lo, hi, d.n, boundsProblem(lo, hi, d.n))
	}
	if !d.contiguous() {
		if len(d.shape) == 1 {
			return d.Sub(Range(lo, hi))
		}
		return nil, fmt.Errorf("Slice [%d:%d] of a strided %v view: its elements are not contiguous; use Sub, or copy it into a new array first", lo, hi, d.shape)
	}
	var zero T
	return d.viewOf([]int{hi - lo}, hi-lo, d.off+lo*int(unsafe.Sizeof(zero))), nil
}

// boundsProblem says which of 0 <= lo <= hi <= n a slice expression breaks.
func boundsProblem(lo, hi, n int) string {
	switch {
	case lo < 0:
		return "the low bound is negative"
	case hi < lo:
		return "the low bound is above the high one"
	}
	return fmt.Sprintf("the high bound is past the end (at most %d)", n)
}

// Reshape returns a view of the array with another shape of one to three
// dimensions and the same number of elements, in the same row-major order.
// One dimension may be -1: it is then inferred from the others, as NumPy
// does. The view shares the array's memory (see Slice for what a view is).
func (d *DeviceArray[T]) Reshape(shape ...int) (*DeviceArray[T], error) {
	if d == nil {
		return nil, fmt.Errorf("Reshape: %w", errNilArray)
	}
	if _, err := d.mem(); err != nil {
		return nil, fmt.Errorf("Reshape to %v: %w", shape, err)
	}
	if len(shape) == 0 || len(shape) > 3 {
		return nil, fmt.Errorf("Reshape to %v: %d dimensions; a device array has 1 to 3", shape, len(shape))
	}
	if !d.contiguous() {
		return nil, fmt.Errorf("Reshape to %v of a strided %v view: its elements are not contiguous; copy it into a new array first", shape, d.shape)
	}
	shape = append([]int(nil), shape...)
	if err := inferDim(shape, d.n); err != nil {
		return nil, fmt.Errorf("Reshape to %v of a device array of %d elements: %w", shape, d.n, err)
	}
	var zero T
	n, ok := elements(int(unsafe.Sizeof(zero)), shape...)
	if !ok || n != d.n {
		for _, x := range shape {
			if x < 0 {
				return nil, fmt.Errorf("Reshape to %v: negative dimension", shape)
			}
		}
		if !ok {
			return nil, fmt.Errorf("Reshape to %v of a device array of %d elements: the shape's size overflows int", shape, d.n)
		}
		return nil, fmt.Errorf("Reshape to %v (%d elements) of a device array of %d elements: the element counts differ", shape, n, d.n)
	}
	return d.viewOf(shape, n, d.off), nil
}

// inferDim replaces a -1 in shape by the dimension that makes n elements.
func inferDim(shape []int, n int) error {
	at := -1
	rest := 1
	for i, x := range shape {
		switch {
		case x == -1 && at >= 0:
			return fmt.Errorf("more than one dimension is -1")
		case x == -1:
			at = i
		case x >= 0:
			if x != 0 && rest > n/x+1 {
				rest = n + 1 // larger than n: cannot divide it
			} else {
				rest *= x
			}
		}
	}
	if at < 0 {
		return nil
	}
	if rest == 0 || n%rest != 0 {
		return fmt.Errorf("no size for the -1 dimension makes %d elements", n)
	}
	shape[at] = n / rest
	return nil
}

// viewOf makes a view of d's memory with the given shape, n elements,
// starting off bytes into the memory.
func (d *DeviceArray[T]) viewOf(shape []int, n, off int) *DeviceArray[T] {
	return &DeviceArray[T]{be: d.be, shape: shape, n: n, off: off, buf: d.buf, view: true}
}
