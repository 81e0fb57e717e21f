package cuda

import (
	"fmt"
	"strings"
	"unsafe"
)

// Strided views of device arrays, as NumPy's basic indexing: d[1:5, ::-2],
// d[3], d.T. A strided view records the byte offset of its first element
// (index 0 in every dimension) and a stride in elements per dimension,
// which may be negative; the memory it covers runs from its lowest element
// to its highest (span). Kernels receive such a view as an Array2 or
// Array3 with the same strides, without a copy; copies to and from the host
// gather and scatter the elements in row-major order through one copy of
// the span.

// Span selects the indices of one dimension for DeviceArray.Sub, as one
// entry of a NumPy index does: a range with a step, every index, or a
// single index (which drops the dimension). Make it with Range,
// StepRange, All, Every or Index.
type Span struct {
	lo, hi, step int
	kind         spanKind
}

type spanKind int

const (
	spanRange spanKind = iota // [lo, hi) by step
	spanAll                   // every index, by step
	spanIndex                 // the one index lo; the dimension is dropped
)

// Range selects the indices lo, lo+1, ..., hi-1, as NumPy's lo:hi (and
// Go's [lo:hi]): 0 <= lo <= hi <= the dimension; lo == hi selects none.
func Range(lo, hi int) Span { return Span{lo: lo, hi: hi, step: 1} }

// StepRange selects lo, lo+step, lo+2*step, ... up to hi, exclusive, as
// NumPy's lo:hi:step. A positive step counts up, and needs
// 0 <= lo <= hi <= the dimension; a negative one counts down from lo, and
// needs -1 <= hi <= lo < the dimension (hi == -1 runs to index 0, where
// NumPy would write lo::step). A step of 0 is an error.
func StepRange(lo, hi, step int) Span { return Span{lo: lo, hi: hi, step: step} }

// All selects every index, as NumPy's ":".
func All() Span { return Span{step: 1, kind: spanAll} }

// Every selects every step-th index, as NumPy's "::step": from the first
// index when step is positive, from the last one down when it is negative
// (Every(-1) reverses the dimension).
func Every(step int) Span { return Span{step: step, kind: spanAll} }

// Index selects the one index i and drops the dimension, as an integer in
// a NumPy index does: 0 <= i < the dimension.
func Index(i int) Span { return Span{lo: i, kind: spanIndex} }

// String writes the span as NumPy writes it in an index ("1:5:2", "::-1",
// "3").
func (s Span) String() string {
	switch s.kind {
	case spanIndex:
		return fmt.Sprint(s.lo)
	case spanAll:
		if s.step == 1 {
			return ":"
		}
		return fmt.Sprintf("::%d", s.step)
	}
	if s.step == 1 {
		return fmt.Sprintf("%d:%d", s.lo, s.hi)
	}
	return fmt.Sprintf("%d:%d:%d", s.lo, s.hi, s.step)
}

// resolve applies the span to a dimension of n elements: the first index,
// the number of indices selected and the step; drop is true for Index.
func (s Span) resolve(n int) (first, count, step int, drop bool, err error) {
	switch s.kind {
	case spanIndex:
		if s.lo < 0 || s.lo >= n {
			return 0, 0, 0, false, fmt.Errorf("index %d is out of range for a dimension of %d", s.lo, n)
		}
		return s.lo, 1, 1, true, nil
	case spanAll:
		switch {
		case s.step > 0:
			return 0, (n + s.step - 1) / s.step, s.step, false, nil
		case s.step < 0:
			if n == 0 {
				return 0, 0, s.step, false, nil
			}
			return n - 1, (n - s.step - 1) / -s.step, s.step, false, nil
		}
		return 0, 0, 0, false, fmt.Errorf("the step is 0")
	}
	switch {
	case s.step > 0:
		switch {
		case s.lo < 0:
			return 0, 0, 0, false, fmt.Errorf("the low bound %d is negative", s.lo)
		case s.hi < s.lo:
			return 0, 0, 0, false, fmt.Errorf("the low bound %d is above the high one %d", s.lo, s.hi)
		case s.hi > n:
			return 0, 0, 0, false, fmt.Errorf("the high bound %d is past the end (at most %d)", s.hi, n)
		}
		return s.lo, (s.hi - s.lo + s.step - 1) / s.step, s.step, false, nil
	case s.step < 0:
		switch {
		case s.hi < -1:
			return 0, 0, 0, false, fmt.Errorf("the stop %d is below -1 (a negative step stops after index 0 at -1)", s.hi)
		case s.lo < s.hi:
			return 0, 0, 0, false, fmt.Errorf("the start %d is below the stop %d with a negative step", s.lo, s.hi)
		case s.lo == s.hi:
			return 0, 0, s.step, false, nil // empty, wherever it is
		case s.lo >= n:
			return 0, 0, 0, false, fmt.Errorf("the start %d is past the end (at most %d)", s.lo, n-1)
		}
		return s.lo, (s.lo - s.hi - s.step - 1) / -s.step, s.step, false, nil
	}
	return 0, 0, 0, false, fmt.Errorf("the step is 0")
}

// strideList is the array's strides in elements (row-major ones for a
// contiguous array).
func (d *DeviceArray[T]) strideList() []int {
	if d.strides != nil {
		return d.strides
	}
	st := make([]int, len(d.shape))
	n := 1
	for i := len(d.shape) - 1; i >= 0; i-- {
		st[i] = n
		n *= d.shape[i]
	}
	return st
}

// contiguous reports whether the elements lie in row-major order with no
// gaps, so that the array is the n elements from its first one.
func (d *DeviceArray[T]) contiguous() bool {
	return d.strides == nil || contiguous(d.shape, d.strides)
}

// Contiguous reports whether the array's elements lie in row-major order
// with no gaps between them: true for arrays that NewDeviceArray, ToDevice,
// Slice and Reshape make, and for strided views that happen to be so.
// Slice and Reshape of a view that is not, and launches that pass it
// for a slice parameter, are errors; Array2 and Array3 parameters take it
// as it is.
func (d *DeviceArray[T]) Contiguous() bool { return d != nil && d.contiguous() }

// Strides returns the distance in elements between consecutive indices of
// each dimension (NumPy's strides, in elements rather than bytes).
func (d *DeviceArray[T]) Strides() []int {
	if d == nil {
		return nil
	}
	return append([]int(nil), d.strideList()...)
}

// span is the byte offset of the lowest element and the bytes from it to
// the end of the highest one (0 for an empty array).
func (d *DeviceArray[T]) span() (lo, n int) {
	if d.n == 0 {
		return d.off, 0
	}
	var zero T
	es := int(unsafe.Sizeof(zero))
	lo, hi := d.off, d.off
	for i, st := range d.strideList() {
		ext := (d.shape[i] - 1) * st * es
		if ext < 0 {
			lo += ext
		} else {
			hi += ext
		}
	}
	return lo, hi - lo + es
}

// elementOffsets calls f with the byte offset from the lowest element of
// each element, in row-major order.
func (d *DeviceArray[T]) elementOffsets(f func(i, off int)) {
	if d.n == 0 {
		return
	}
	var zero T
	es := int(unsafe.Sizeof(zero))
	lo, _ := d.span()
	st := d.strideList()
	idx := make([]int, len(d.shape))
	off := d.off - lo
	for i := 0; i < d.n; i++ {
		f(i, off)
		// Odometer: the last index moves fastest.
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			off += st[k] * es
			if idx[k] < d.shape[k] {
				break
			}
			off -= idx[k] * st[k] * es
			idx[k] = 0
		}
	}
}

// hostSync waits for stream s (nil: nothing to wait for), so that a copy
// through host memory that follows sees the work queued on it.
func hostSync(s *Stream) error {
	if s == nil {
		return nil
	}
	return s.Synchronize()
}

// readSpan waits for stream s (nil: nothing to wait for) and copies the
// memory the array's elements span, from its lowest element (at byte lo
// of m) to its highest, to the host.
func (d *DeviceArray[T]) readSpan(s *Stream, m memory) (span []byte, lo int, err error) {
	if err := hostSync(s); err != nil {
		return nil, 0, err
	}
	lo, n := d.span()
	span = make([]byte, n)
	if err := d.be.copyToHost(nil, span, m, lo); err != nil {
		return nil, 0, err
	}
	return span, lo, nil
}

// gather copies a non-contiguous array into dst in row-major order: one
// copy of its span to the host, then element by element there. On a
// stream it waits for the stream first, so dst is ready when it returns.
func (d *DeviceArray[T]) gather(s *Stream, m memory, dst []T) error {
	tmp, _, err := d.readSpan(s, m)
	if err != nil {
		return err
	}
	var zero T
	es := int(unsafe.Sizeof(zero))
	out := bytesOf(dst)
	d.elementOffsets(func(i, off int) { copy(out[i*es:(i+1)*es], tmp[off:off+es]) })
	return nil
}

// scatter writes src, in row-major order, into a non-contiguous array:
// the span is read, its elements replaced and written back, so the
// memory between the elements keeps its contents (unless a kernel writes
// it meanwhile: the copy is not atomic with respect to running kernels).
func (d *DeviceArray[T]) scatter(s *Stream, m memory, src []T) error {
	tmp, lo, err := d.readSpan(s, m)
	if err != nil {
		return err
	}
	var zero T
	es := int(unsafe.Sizeof(zero))
	in := bytesOf(src)
	d.elementOffsets(func(i, off int) { copy(tmp[off:off+es], in[i*es:(i+1)*es]) })
	return d.be.copyToDevice(nil, m, lo, tmp)
}

// Sub returns a view of part of the array, selected per dimension as
// NumPy's basic indexing d[lo:hi:step, i, ...] does: spans[k] applies to
// dimension k, the dimensions without a span are taken whole, and an
// Index span drops its dimension (so d.Sub(Index(i)) of a 1-D array is a
// 0-d array of one element). Steps may be negative; the view then runs
// backwards through the memory. Nothing is copied: the view shares the
// array's memory (see Slice for what a view is), and a kernel given it for
// an Array2 or Array3 parameter reads and writes that memory through its
// strides. An empty selection is an empty array, not an error; bounds
// outside the array are an error that names the dimension.
func (d *DeviceArray[T]) Sub(spans ...Span) (*DeviceArray[T], error) {
	if d == nil {
		return nil, fmt.Errorf("Sub: %w", errNilArray)
	}
	if _, err := d.mem(); err != nil {
		return nil, fmt.Errorf("Sub%s: %w", indexString(spans), err)
	}
	if len(spans) > len(d.shape) {
		return nil, fmt.Errorf("Sub%s: %d spans for a %d-D array", indexString(spans), len(spans), len(d.shape))
	}
	var zero T
	es := int(unsafe.Sizeof(zero))
	st := d.strideList()
	off := d.off
	var shape, strides []int
	n := 1
	for k, dim := range d.shape {
		s := All()
		if k < len(spans) {
			s = spans[k]
		}
		first, count, step, drop, err := s.resolve(dim)
		if err != nil {
			return nil, fmt.Errorf("Sub%s of a %v array: dimension %d: %w", indexString(spans), d.shape, k, err)
		}
		if count > 0 {
			off += first * st[k] * es
		}
		if drop {
			continue
		}
		shape = append(shape, count)
		strides = append(strides, st[k]*step)
		n *= count
	}
	if shape == nil {
		shape = []int{}
	}
	v := d.viewOf(shape, n, off)
	v.strides = strides
	if strides == nil {
		v.strides = []int{}
	}
	if n == 0 {
		v.off = d.off // an empty view has no element to point at
	}
	return v, nil
}

// indexString writes spans as a NumPy index: "[1:5, ::-1]".
func indexString(spans []Span) string {
	s := make([]string, len(spans))
	for i, x := range spans {
		s[i] = x.String()
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// T returns the transpose, as NumPy's d.T: a view with the dimensions in
// reverse order, sharing the array's memory (nothing is copied). A kernel
// given it for an Array2 parameter sees element (j, i) where the array has
// (i, j). T of a nil array is nil; T of a freed one fails when used.
func (d *DeviceArray[T]) T() *DeviceArray[T] {
	if d == nil {
		return nil
	}
	axes := make([]int, len(d.shape))
	for i := range axes {
		axes[i] = len(axes) - 1 - i
	}
	v, _ := d.transpose(axes) // a reversal is always a permutation
	return v
}

// Transpose returns a view with the dimensions permuted, as NumPy's
// d.transpose(axes): dimension i of the view is dimension axes[i] of the
// array. With no axes it reverses them, as T does.
func (d *DeviceArray[T]) Transpose(axes ...int) (*DeviceArray[T], error) {
	if d == nil {
		return nil, fmt.Errorf("Transpose: %w", errNilArray)
	}
	if len(axes) == 0 {
		return d.T(), nil
	}
	return d.transpose(axes)
}

func (d *DeviceArray[T]) transpose(axes []int) (*DeviceArray[T], error) {
	if len(axes) != len(d.shape) {
		return nil, fmt.Errorf("Transpose%v: %d axes for a %d-D array", axes, len(axes), len(d.shape))
	}
	seen := make([]bool, len(axes))
	st := d.strideList()
	shape := make([]int, len(axes))
	strides := make([]int, len(axes))
	for i, a := range axes {
		if a < 0 || a >= len(axes) || seen[a] {
			return nil, fmt.Errorf("Transpose%v: not a permutation of the axes 0 to %d", axes, len(axes)-1)
		}
		seen[a] = true
		shape[i], strides[i] = d.shape[a], st[a]
	}
	v := d.viewOf(shape, d.n, d.off)
	v.strides = strides
	return v, nil
}

// elemOffset is the byte offset of element idx, or why idx is not one.
func (d *DeviceArray[T]) elemOffset(fn string, idx []int) (int, error) {
	if len(idx) != len(d.shape) {
		return 0, fmt.Errorf("%s%v: %d indices for a %d-D array", fn, idx, len(idx), len(d.shape))
	}
	var zero T
	es := int(unsafe.Sizeof(zero))
	st := d.strideList()
	off := d.off
	for k, i := range idx {
		if i < 0 || i >= d.shape[k] {
			return 0, fmt.Errorf("%s%v: index %d is out of range for dimension %d of shape %v", fn, idx, i, k, d.shape)
		}
		off += i * st[k] * es
	}
	return off, nil
}

// At copies the element at idx (one index per dimension; none for a 0-d
// array) to the host, as NumPy's d[i, j] does. Each call is a copy from
// the device: read many elements with CopyToHost instead.
func (d *DeviceArray[T]) At(idx ...int) (T, error) {
	var v T
	if d == nil {
		return v, fmt.Errorf("At: %w", errNilArray)
	}
	m, err := d.mem()
	if err != nil {
		return v, fmt.Errorf("At%v: %w", idx, err)
	}
	off, err := d.elemOffset("At", idx)
	if err != nil {
		return v, err
	}
	buf := []T{v}
	if err := d.be.copyToHost(nil, bytesOf(buf), m, off); err != nil {
		return v, fmt.Errorf("At%v: %w", idx, err)
	}
	return buf[0], nil
}

// Set copies v to the element at idx, as NumPy's d[i, j] = v does.
func (d *DeviceArray[T]) Set(v T, idx ...int) error {
	if d == nil {
		return fmt.Errorf("Set: %w", errNilArray)
	}
	m, err := d.mem()
	if err != nil {
		return fmt.Errorf("Set%v: %w", idx, err)
	}
	off, err := d.elemOffset("Set", idx)
	if err != nil {
		return err
	}
	if err := d.be.copyToDevice(nil, m, off, bytesOf([]T{v})); err != nil {
		return fmt.Errorf("Set%v: %w", idx, err)
	}
	return nil
}

// Fill sets every element of the array (of a view: of its elements only)
// to v, as NumPy's d[...] = v or d.fill(v).
func (d *DeviceArray[T]) Fill(v T) error {
	if d == nil {
		return fmt.Errorf("Fill: %w", errNilArray)
	}
	m, err := d.mem()
	if err != nil {
		return fmt.Errorf("Fill: %w", err)
	}
	if d.n == 0 {
		return nil
	}
	if d.contiguous() {
		if f, ok := d.be.(memsetter); ok {
			if size, pattern, ok := memsetPattern(bytesOf([]T{v})); ok {
				done, err := f.memset(m, d.off, pattern, size, d.Bytes()/size)
				if err != nil {
					return fmt.Errorf("Fill: %w", err)
				}
				if done {
					return nil
				}
			}
		}
	}
	src := make([]T, d.n)
	for i := range src {
		src[i] = v
	}
	if err := d.copyFrom(src, nil); err != nil {
		return fmt.Errorf("Fill: %w", err)
	}
	return nil
}

// memsetter is a backend that sets memory to a repeated 1-, 2- or 4-byte
// pattern (cuMemsetD8, D16, D32), after the work queued before; it
// reports false, doing nothing, for a pattern size it cannot set.
type memsetter interface {
	memset(m memory, off int, pattern uint32, size, count int) (bool, error)
}

// memsetPattern finds the shortest of 1, 2 or 4 bytes whose repetition is
// the value v (the bytes of one element), if there is one.
func memsetPattern(v []byte) (size int, pattern uint32, ok bool) {
	for _, size := range []int{1, 2, 4} {
		if len(v)%size != 0 {
			continue
		}
		same := true
		for i := size; i < len(v) && same; i++ {
			same = v[i] == v[i%size]
		}
		if !same {
			continue
		}
		for i := size - 1; i >= 0; i-- {
			pattern = pattern<<8 | uint32(v[i])
		}
		return size, pattern, true
	}
	return 0, 0, false
}

// ToDeviceScalar copies v into a new 0-d device array (shape [], one
// element), as cuda.to_device of a NumPy scalar; read it back with At().
func ToDeviceScalar[T any](v T) (*DeviceArray[T], error) {
	d, err := newDeviceArray[T](nil, 1)
	if err != nil {
		return nil, err
	}
	d.shape = []int{}
	if err := d.copyFrom([]T{v}, nil); err != nil {
		d.Free()
		return nil, err
	}
	return d, nil
}
