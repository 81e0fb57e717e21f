package cuda

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// DeviceArray is an array in the memory of the device that runs kernels:
// a GPU's memory, or host memory set apart for the CPU backend. Launch
// passes it to kernels without copying. It has a shape of zero to three
// dimensions, row-major unless it is a strided view (Sub, T, Transpose);
// a kernel takes a contiguous 1-D array as a slice parameter and an n-D
// one as a slice (flat) or as an Array2/Array3 parameter of the same rank,
// which strided views are passed to as they are.
//
// Its elements are numbers, or structs of numbers (fields that are
// numbers, bools, arrays and structs of them, as kernel parameters take
// them); any other element type is refused by the functions that make
// arrays. Go's generics cannot say "struct of numbers", hence T any.
//
// Slice and Reshape make views: arrays over part or all of the same
// memory, usable wherever an array is (kernel arguments, partial copies).
// A view keeps the memory alive while it is reachable; it does not own it.
//
// Free releases the memory; it is idempotent, and using an array after
// Free is an error, never a crash. A DeviceArray is safe for concurrent use.
type DeviceArray[T any] struct {
	be    backend
	shape []int
	n     int
	off   int           // byte offset of the first element in buf's memory
	buf   *deviceBuffer // shared by an array and its views; nil in a zero DeviceArray
	view  bool          // made by Slice or Reshape: Free detaches, not releases
	// strides are the distances in elements between consecutive indices
	// of each dimension, set on the views Sub, T and Transpose make; nil
	// is row-major.
	strides []int

	detached atomic.Bool // Free was called on this view
}

// deviceBuffer is the device memory of an array and of all its views. A
// view refers to it, not to the array it was made from, so that the
// memory stays reachable (and is not released by a GC cleanup) while any
// of them is, and Free of the owning array is seen by every view.
type deviceBuffer struct {
	mu     sync.Mutex
	memory memory // nil once freed
}

// ErrFreed reports the use of a DeviceArray after Free.
var ErrFreed = errors.New("device array used after Free")

// NewDeviceArray allocates a zeroed device array with the given shape (one
// to three dimensions; none means an empty 1-D array).
func NewDeviceArray[T any](shape ...int) (*DeviceArray[T], error) {
	return newDeviceArray[T](nil, shape...)
}

// newDeviceArray allocates on be's device (nil: the current one).
func newDeviceArray[T any](be backend, shape ...int) (*DeviceArray[T], error) {
	if err := checkElem[T](); err != nil {
		return nil, fmt.Errorf("NewDeviceArray: %w", err)
	}
	if len(shape) == 0 {
		shape = []int{0}
	}
	var zero T
	n, err := shapeElements[T](shape)
	if err != nil {
		return nil, fmt.Errorf("NewDeviceArray: %w", err)
	}
	if be == nil {
		if be, err = current(); err != nil {
			return nil, fmt.Errorf("NewDeviceArray: %w", err)
		}
	}
	be = be.bound()
	m, err := be.alloc(n * int(unsafe.Sizeof(zero)))
	if err != nil {
		return nil, fmt.Errorf("NewDeviceArray(%v of %T): %w", shape, zero, err)
	}
	return &DeviceArray[T]{be: be, shape: append([]int(nil), shape...), n: n, buf: &deviceBuffer{memory: m}}, nil
}

// shapeElements returns the number of elements of a device array of T
// with the given shape, or an error that says why no array has it: more
// than three dimensions, a negative one, or a size in bytes that
// overflows int.
func shapeElements[T any](shape []int) (int, error) {
	var zero T
	if len(shape) > 3 {
		return 0, fmt.Errorf("%d dimensions; at most 3", len(shape))
	}
	n, ok := elements(int(unsafe.Sizeof(zero)), shape...)
	if !ok {
		for _, d := range shape {
			if d < 0 {
				return 0, fmt.Errorf("negative dimension in shape %v", shape)
			}
		}
		return 0, fmt.Errorf("shape %v of %T is too large: its size in bytes overflows int", shape, zero)
	}
	return n, nil
}

// DeviceArrayLike allocates a zeroed 1-D device array as long as host.
func DeviceArrayLike[T any](host []T) (*DeviceArray[T], error) {
	return NewDeviceArray[T](len(host))
}

// ToDevice copies host into a new 1-D device array.
func ToDevice[T any](host []T) (*DeviceArray[T], error) {
	return toDevice(host, nil, len(host))
}

// ToDeviceAsync copies host into a new 1-D device array on stream s; host
// must not change until the stream has reached the copy.
func ToDeviceAsync[T any](host []T, s *Stream) (*DeviceArray[T], error) {
	return toDevice(host, s, len(host))
}

// ToDevice2 copies a host 2-D array into a new 2-D device array.
func ToDevice2[T Element](host Array2[T]) (*DeviceArray[T], error) {
	return toDevice(host.data, nil, host.rows, host.cols)
}

// ToDevice3 copies a host 3-D array into a new 3-D device array.
func ToDevice3[T Element](host Array3[T]) (*DeviceArray[T], error) {
	return toDevice(host.data, nil, host.d0, host.d1, host.d2)
}

func toDevice[T any](host []T, s *Stream, shape ...int) (*DeviceArray[T], error) {
	var be backend // the current device, or the stream's
	if s != nil && s.be != nil {
		cur, err := current()
		if err != nil {
			return nil, fmt.Errorf("NewDeviceArray: %w", err)
		}
		if s.be.root() == cur.root() {
			be = s.be
		}
	}
	return toDeviceOn(be, host, s, shape...)
}

// toDeviceOn copies host into a new array on be's device (nil: the
// current one).
func toDeviceOn[T any](be backend, host []T, s *Stream, shape ...int) (*DeviceArray[T], error) {
	d, err := newDeviceArray[T](be, shape...)
	if err != nil {
		return nil, err
	}
	if err := d.copyFrom(host, s); err != nil {
		d.Free()
		return nil, err
	}
	return d, nil
}

// checkElem refuses element types other than numbers and structs of
// numbers.
func checkElem[T any]() error {
	t := reflect.TypeFor[T]()
	if isElemType(t) {
		return nil
	}
	return fmt.Errorf("elements of type %s; device arrays hold numbers or structs of numbers (fields that are numbers, bools, arrays and structs of them)", t)
}

// elements is the number of elements of a shape whose elements are size
// bytes each; ok is false if a dimension is negative or the size in bytes
// overflows int.
func elements(size int, shape ...int) (n int, ok bool) {
	if slices.ContainsFunc(shape, func(d int) bool { return d < 0 }) {
		return 0, false
	}
	if slices.Contains(shape, 0) {
		return 0, true // empty, whatever the other dimensions
	}
	n = 1
	limit := math.MaxInt / max(size, 1)
	for _, d := range shape {
		if n > limit/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// errNilArray is the error of a nil *DeviceArray's methods.
var errNilArray = errors.New("nil *cuda.DeviceArray; make one with NewDeviceArray or ToDevice")

// Len is the number of elements (0 for a nil array).
func (d *DeviceArray[T]) Len() int {
	if d == nil {
		return 0
	}
	return d.n
}

// Shape returns the dimensions (nil for a nil array).
func (d *DeviceArray[T]) Shape() []int {
	if d == nil {
		return nil
	}
	return append([]int(nil), d.shape...)
}

// Bytes is the size of the array in bytes.
func (d *DeviceArray[T]) Bytes() int {
	if d == nil {
		return 0
	}
	var zero T
	return d.n * int(unsafe.Sizeof(zero))
}

// CopyToHost copies the array into dst, which must have Len elements. On
// a view it copies the view's part of the memory only.
func (d *DeviceArray[T]) CopyToHost(dst []T) error { return d.copyTo(dst, nil) }

// CopyToHostAsync queues a copy into dst on stream s; dst holds the data
// once the stream is synchronized.
func (d *DeviceArray[T]) CopyToHostAsync(dst []T, s *Stream) error { return d.copyTo(dst, s) }

// CopyFromHost copies src, which must have Len elements, into the array.
// On a view it writes the view's part of the memory only.
func (d *DeviceArray[T]) CopyFromHost(src []T) error { return d.copyFrom(src, nil) }

// CopyFromHostAsync queues a copy of src into the array on stream s; src
// must not change until the stream has reached the copy.
func (d *DeviceArray[T]) CopyFromHostAsync(src []T, s *Stream) error { return d.copyFrom(src, s) }

// CopyFrom copies another device array of the same length into this one,
// element by element in row-major order whatever the two shapes. Views of
// one array may overlap: the copy then behaves as Go's copy does, as if the
// source were read in full before the destination is written.
func (d *DeviceArray[T]) CopyFrom(src *DeviceArray[T]) error {
	if d == nil || src == nil {
		return fmt.Errorf("CopyFrom: %w", errNilArray)
	}
	if src.n != d.n {
		return fmt.Errorf("CopyFrom: source has %d elements, destination %d", src.n, d.n)
	}
	if !d.contiguous() || !src.contiguous() {
		// Element by element through the host, in row-major order.
		tmp, err := src.ToHost()
		if err != nil {
			return fmt.Errorf("CopyFrom: %w", err)
		}
		return d.CopyFromHost(tmp)
	}
	dm, err := d.mem()
	if err != nil {
		return err
	}
	sm, err := src.mem()
	if err != nil {
		return err
	}
	if src.be.root() != d.be.root() {
		return fmt.Errorf("CopyFrom: arrays belong to different backends")
	}
	if !sameDevice(src.be, d.be) {
		return fmt.Errorf("CopyFrom: the source is on %s, the destination on %s; copy between devices with CopyPeer", src.be.deviceName(), d.be.deviceName())
	}
	n := d.Bytes()
	if dm != sm || !rangesOverlap(d.off, n, src.off, n) {
		return d.be.copyDevice(nil, dm, d.off, sm, src.off, n)
	}
	// cuMemcpyDtoD leaves overlapping copies undefined: go through a
	// temporary, as memmove would.
	tmp, err := d.be.alloc(n)
	if err != nil {
		return fmt.Errorf("CopyFrom: the source and destination overlap, and the temporary copy failed: %w", err)
	}
	if err := d.be.copyDevice(nil, tmp, 0, sm, src.off, n); err != nil {
		_ = tmp.free()
		return err
	}
	if err := d.be.copyDevice(nil, dm, d.off, tmp, 0, n); err != nil {
		_ = tmp.free()
		return err
	}
	return tmp.free()
}

// ToHost copies the array into a new slice.
func (d *DeviceArray[T]) ToHost() ([]T, error) {
	if d == nil {
		return nil, fmt.Errorf("ToHost: %w", errNilArray)
	}
	out := make([]T, d.n)
	if err := d.CopyToHost(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Free releases the device memory. Calling it again, or on a nil array,
// does nothing. Every view of the array fails with ErrFreed from then on.
//
// On a view (made by Slice or Reshape), which does not own its memory,
// Free only detaches the view: the view fails with ErrFreed from then on,
// while the array it was made from and its other views are untouched. The
// memory is released by Free of the array that allocated it, or once it
// and all its views are unreachable.
func (d *DeviceArray[T]) Free() error {
	if d == nil || d.buf == nil {
		return nil
	}
	if d.view {
		d.detached.Store(true)
		return nil
	}
	b := d.buf
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.memory == nil {
		return nil
	}
	m := b.memory
	b.memory = nil
	return m.free()
}

func (d *DeviceArray[T]) copyTo(dst []T, s *Stream) error {
	if d == nil {
		return fmt.Errorf("CopyToHost: %w", errNilArray)
	}
	if len(dst) != d.n {
		return fmt.Errorf("CopyToHost: destination has %d elements, the device array %d", len(dst), d.n)
	}
	m, err := d.mem()
	if err != nil {
		return err
	}
	if err := d.checkStream(s); err != nil {
		return err
	}
	if !d.contiguous() {
		return d.gather(s, m, dst)
	}
	return d.be.copyToHost(s, bytesOf(dst), m, d.off)
}

func (d *DeviceArray[T]) copyFrom(src []T, s *Stream) error {
	if d == nil {
		return fmt.Errorf("CopyFromHost: %w", errNilArray)
	}
	if len(src) != d.n {
		return fmt.Errorf("CopyFromHost: source has %d elements, the device array %d", len(src), d.n)
	}
	m, err := d.mem()
	if err != nil {
		return err
	}
	if err := d.checkStream(s); err != nil {
		return err
	}
	if !d.contiguous() {
		return d.scatter(s, m, src)
	}
	return d.be.copyToDevice(s, m, d.off, bytesOf(src))
}

func (d *DeviceArray[T]) checkStream(s *Stream) error {
	switch {
	case s == nil:
	case s.be == nil:
		return errors.New("stream was not made by NewStream")
	case s.be.root() != d.be.root():
		return fmt.Errorf("stream and device array belong to different backends")
	case !sameDevice(s.be, d.be):
		return fmt.Errorf("the stream is on %s, the device array on %s", s.be.deviceName(), d.be.deviceName())
	}
	return nil
}

func (d *DeviceArray[T]) owner() backend { return d.be }

// errZeroArray is the error of a zero DeviceArray's methods.
var errZeroArray = errors.New("device array was not made by NewDeviceArray or ToDevice (a zero DeviceArray)")

// mem is the memory the array lies in (at offset d.off), or why it cannot
// be used.
func (d *DeviceArray[T]) mem() (memory, error) {
	if d.be == nil || d.buf == nil {
		return nil, errZeroArray
	}
	if d.detached.Load() {
		return nil, fmt.Errorf("%w (Free was called on this view)", ErrFreed)
	}
	d.buf.mu.Lock()
	defer d.buf.mu.Unlock()
	if d.buf.memory == nil {
		if d.view {
			return nil, fmt.Errorf("%w (the array this view was made from was freed)", ErrFreed)
		}
		return nil, ErrFreed
	}
	return d.buf.memory, nil
}

// offset is the byte offset in its memory of the array's lowest element:
// its first, unless a stride is negative.
func (d *DeviceArray[T]) offset() int {
	lo, _ := d.span()
	return lo
}

// spanBytes is the size of the memory from the lowest element to the end
// of the highest.
func (d *DeviceArray[T]) spanBytes() int {
	_, n := d.span()
	return n
}

// layout is the index of the first element from the lowest one (offset)
// and the strides in elements.
func (d *DeviceArray[T]) layout() (first int, strides []int) {
	lo, _ := d.span()
	var zero T
	return (d.off - lo) / max(int(unsafe.Sizeof(zero)), 1), d.strideList()
}

func (d *DeviceArray[T]) dims() []int { return d.shape }

func (d *DeviceArray[T]) elemType() reflect.Type { return reflect.TypeFor[T]() }

// bytesOf views a slice of numbers as bytes.
func bytesOf[T any](s []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}
