package vectorize

import (
	"errors"
	"sync"

	"github.com/nugo-dev/nugo/cuda"
)

// ErrNoIdentity reports the reduction of an empty array by a function
// without an identity (see WithIdentity).
var ErrNoIdentity = errors.New("reduction of an empty array by a function without an identity")

// identity is a binary ufunc's identity element, if it has one.
type identity[R any] struct {
	ok bool
	v  R
}

// reduceKernels are the CUDA-target kernels of Reduce, ReduceAxis and
// Accumulate, made at their first CUDA call.
type reduceKernels struct {
	once                           sync.Once
	axis, accumulate, chunk, final *cuda.Kernel
}

// ReduceOption changes a reduction of elements of type T: Init.
type ReduceOption[T Element] func(*reduceOpts[T])

// reduceOpts are a reduction's options.
type reduceOpts[T Element] struct {
	init    T
	hasInit bool
}

func reduceOptions[T Element](opts []ReduceOption[T]) reduceOpts[T] {
	var o reduceOpts[T]
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// Init starts a reduction from v (Numba's init=): Reduce and ReduceInto
// then fold f(...f(f(v, x[0]), x[1])..., x[n-1]), and an empty x gives v,
// with or without an identity.
func Init[T Element](v T) ReduceOption[T] {
	return func(o *reduceOpts[T]) { o.init, o.hasInit = v, true }
}

// reduceChunk is how many elements one thread of the CUDA target's
// reductions folds.
const reduceChunk = 1024

// WithIdentity sets the identity of the function: the value id with
// f(id, x) == x for every x (0 for addition, 1 for multiplication). It is
// the result of reducing an empty array. It returns u, so it can follow
// New2; set it before u is used.
func (u *Ufunc2[T, U, R]) WithIdentity(id R) *Ufunc2[T, U, R] {
	u.id = identity[R]{ok: true, v: id}
	return u
}

// Identity returns the identity set by WithIdentity, and whether there is
// one.
func (u *Ufunc2[T, U, R]) Identity() (R, bool) { return u.id.v, u.id.ok }

// Outer applies the function to every pair (x, y) of an element x of a and
// an element y of b: the result has the shape of a followed by the shape
// of b, as NumPy's ufunc.outer.
func (u *Ufunc2[T, U, R]) Outer(a Operand[T], b Operand[U]) (Array[R], error) {
	oa, ob := get(a), get(b)
	if _, err := u.cfg.shape(nil, []error{oa.check("operand 1"), ob.check("operand 2")}); err != nil {
		return Array[R]{}, err
	}
	shape := append(append([]int(nil), oa.shape...), ob.shape...)
	oa.shape = append(append([]int(nil), oa.shape...), ones(len(ob.shape))...)
	out, err := zeros[R](shape)
	if err != nil {
		return Array[R]{}, err
	}
	if err := u.run(out.operand(), oa, ob); err != nil {
		return Array[R]{}, err
	}
	return out, nil
}

func ones(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// Reduce folds x with the function from the left: f(f(f(x[0], x[1]),
// x[2]), ...), or from an initial value given with Init. An empty x gives
// the initial value, else the identity, else an error wrapping
// ErrNoIdentity. The Parallel and CUDA targets fold chunks of x
// separately and then fold the chunks' results, which gives the same
// result when f is associative (as it must be for any parallel reduction;
// floating-point sums may differ in the last bits): use a ufunc with
// target CPU for a strict left fold. On the CPU and Parallel targets a
// compiled fold of f (RegisterFold, written by `nugo gen`) folds the same
// chunks in the same order, faster.
//
// Reduce returns the value, so a ufunc on a stream (Stream, On) queues
// its kernel there and then waits for the stream (Synchronize), returning
// the first error of the stream's work; ReduceInto does not wait.
func Reduce[T Element](u *Ufunc2[T, T, T], x []T, opts ...ReduceOption[T]) (T, error) {
	var zero T
	o := reduceOptions(opts)
	t, err := u.cfg.resolve(false)
	if err != nil {
		return zero, err
	}
	if len(x) == 0 {
		switch {
		case o.hasInit:
			return o.init, nil
		case u.id.ok:
			return u.id.v, nil
		}
		return zero, u.cfg.errorf("%w; give it one with WithIdentity, or an initial value with Init", ErrNoIdentity)
	}
	f := foldOf(u)
	if t == CUDA {
		f = funcFold(u.f) // the CUDA target uses no compiled code (RegisterFold)
	}
	fold := func(s []T) T { return f(s[0], span(s, 1, len(s)-1)) }
	var partial []T
	switch {
	case t == CUDA:
		partial = make([]T, (len(x)+reduceChunk-1)/reduceChunk)
		k := u.reduceKernels()
		if err := k.chunk.LaunchWith(u.cfg.launch(len(partial)), u.f, cuda.In(x), cuda.Out(partial), reduceChunk); err != nil {
			return zero, u.cfg.launchError(err)
		}
		if s := u.cfg.stream; s != nil {
			if err := s.Synchronize(); err != nil {
				return zero, u.cfg.launchError(err)
			}
		}
	case t == Parallel && len(x) >= parallelMin:
		parts := min(len(x)/(parallelMin/2), 4*workers())
		partial = make([]T, parts)
		err := u.cfg.runEach(t, parts, func(i int) {
			partial[i] = fold(x[i*len(x)/parts : (i+1)*len(x)/parts])
		})
		if err != nil {
			return zero, err
		}
	default:
		partial = x
	}
	var r T
	err = u.cfg.safe(func() {
		if o.hasInit {
			r = f(o.init, partial)
			return
		}
		r = fold(partial)
	})
	return r, err
}

// ReduceInto folds every element of x (in row-major order) as Reduce
// does, on the CUDA target, and writes the result into res, a device
// array of one element (d.Slice(i, i+1) for element i of a larger one):
// Numba's reduce(x, res=res, init=..., stream=...). x may be a host
// array or a device array, which stays on the device; the partial
// results stay on the device too. On a stream (Stream, On) the call
// queues its kernels and returns; res holds the result once the stream
// has synchronised.
func ReduceInto[T Element](u *Ufunc2[T, T, T], res *cuda.DeviceArray[T], x Operand[T], opts ...ReduceOption[T]) error {
	o := reduceOptions(opts)
	ox := get(x)
	if err := ox.check("operand"); err != nil {
		return u.cfg.errorf("%w", err)
	}
	if res == nil {
		return u.cfg.errorf("reduce into a nil device array")
	}
	if n := res.Len(); n != 1 {
		return u.cfg.errorf("reduce into a device array of %d elements; it must have one (d.Slice(i, i+1) is element i of d)", n)
	}
	if _, err := u.cfg.resolve(true); err != nil {
		return err
	}
	n := size(ox.shape)
	if n == 0 && !o.hasInit {
		if !u.id.ok {
			return u.cfg.errorf("%w; give it one with WithIdentity, or an initial value with Init", ErrNoIdentity)
		}
		o.init, o.hasInit = u.id.v, true
	}
	k := u.reduceKernels()
	var cur any = cuda.In(ox.data)
	if ox.dev != nil {
		cur = ox.dev
	}
	for ; n > reduceChunk; n = (n + reduceChunk - 1) / reduceChunk {
		partial, err := cuda.NewDeviceArray[T]((n + reduceChunk - 1) / reduceChunk)
		if err != nil {
			return u.cfg.errorf("partial results: %w", err)
		}
		if err := k.chunk.LaunchWith(u.cfg.launch(partial.Len()), u.f, cur, partial, reduceChunk); err != nil {
			return u.cfg.launchError(err)
		}
		if u.cfg.stream == nil {
			defer partial.Free() // the launches are done when ReduceInto returns
		}
		// On a stream the array is dropped: package cuda keeps its memory
		// until the kernels queued on it have run.
		cur = partial
	}
	if err := k.final.LaunchWith(u.cfg.launch(1), u.f, cur, res, o.init, o.hasInit); err != nil {
		return u.cfg.launchError(err)
	}
	return nil
}

// ReduceAxis folds x along one axis (negative axes count from the end, as
// in NumPy) and returns an array of x's shape without that axis; each
// result is a strict left fold, on every target. An empty axis gives the
// identity everywhere, or an error wrapping ErrNoIdentity.
func ReduceAxis[T Element](u *Ufunc2[T, T, T], x Operand[T], axis int) (Array[T], error) {
	ox := get(x)
	outer, n, inner, shape, err := u.axis(ox, axis)
	if err != nil {
		return Array[T]{}, err
	}
	out, err := zeros[T](shape)
	if err != nil {
		return Array[T]{}, err
	}
	t, err := u.cfg.resolve(ox.dev != nil)
	if err != nil {
		return Array[T]{}, err
	}
	if n == 0 {
		if len(out.Data) > 0 && !u.id.ok {
			return Array[T]{}, u.cfg.errorf("reduce along axis %d of shape %s: %w; give it one with WithIdentity", axis, shapeString(ox.shape), ErrNoIdentity)
		}
		for i := range out.Data {
			out.Data[i] = u.id.v
		}
		return out, nil
	}
	if len(out.Data) == 0 {
		return out, nil
	}
	if t == CUDA {
		k := u.reduceKernels()
		if err := k.axis.LaunchWith(u.cfg.launch(len(out.Data)), u.f, ox.arg(), out.Data, n, inner); err != nil {
			return Array[T]{}, u.cfg.launchError(err)
		}
		return out, nil
	}
	f, xs, o := u.f, ox.data, out.Data
	var body func(p, i0, i1 int)
	// The same calls of f in the same order whichever way: a fold of each
	// run when the axis is contiguous (inner == 1); else row by row,
	// acc[i] = f(acc[i], row[i]), in f's compiled element loop if it has
	// one.
	loop := compiledLoop[func([]T, []T, []T)](u.key)
	switch {
	case inner == 1:
		fold := foldOf(u)
		body = func(p, _, _ int) {
			o[p] = fold(xs[p*n], span(xs, p*n+1, n-1))
		}
	case loop != nil:
		body = func(p, i0, i1 int) {
			base, w := p*n*inner, i1-i0
			acc := span(o, p*inner+i0, w)
			copy(acc, xs[base+i0:base+i1])
			for j := 1; j < n; j++ {
				loop(acc, acc, span(xs, base+j*inner+i0, w))
			}
		}
	default:
		body = func(p, i0, i1 int) {
			base := p * n * inner
			acc := o[p*inner+i0 : p*inner+i1]
			copy(acc, xs[base+i0:base+i1])
			for j := 1; j < n; j++ {
				row := xs[base+j*inner+i0 : base+j*inner+i1]
				for i := range acc {
					acc[i] = f(acc[i], row[i])
				}
			}
		}
	}
	err = u.sweep(t, outer, inner, body)
	if err != nil {
		return Array[T]{}, err
	}
	return out, nil
}

// Accumulate returns the running left folds of x: x[0], f(x[0], x[1]),
// f(f(x[0], x[1]), x[2]), ... (NumPy's ufunc.accumulate).
func Accumulate[T Element](u *Ufunc2[T, T, T], x []T) ([]T, error) {
	r, err := AccumulateAxis(u, Slice(x), 0)
	return r.Data, err
}

// AccumulateAxis returns the running left folds of x along one axis, in
// an array of x's shape.
func AccumulateAxis[T Element](u *Ufunc2[T, T, T], x Operand[T], axis int) (Array[T], error) {
	ox := get(x)
	outer, n, inner, _, err := u.axis(ox, axis)
	if err != nil {
		return Array[T]{}, err
	}
	out, err := zeros[T](ox.shape)
	if err != nil {
		return Array[T]{}, err
	}
	t, err := u.cfg.resolve(ox.dev != nil)
	if err != nil {
		return Array[T]{}, err
	}
	if len(out.Data) == 0 {
		return out, nil
	}
	if t == CUDA {
		k := u.reduceKernels()
		if err := k.accumulate.LaunchWith(u.cfg.launch(outer*inner), u.f, ox.arg(), out.Data, n, inner, outer*inner); err != nil {
			return Array[T]{}, u.cfg.launchError(err)
		}
		return out, nil
	}
	f, xs, o := u.f, ox.data, out.Data
	var body func(p, i0, i1 int)
	// The same calls of f in the same order whichever way (see
	// ReduceAxis).
	loop := compiledLoop[func([]T, []T, []T)](u.key)
	switch {
	case inner == 1:
		scan := scanOf(u)
		body = func(p, _, _ int) {
			base := p * n
			o[base] = xs[base]
			scan(xs[base], span(xs, base+1, n-1), span(o, base+1, n-1))
		}
	case loop != nil:
		body = func(p, i0, i1 int) {
			base, w := p*n*inner, i1-i0
			copy(o[base+i0:base+i1], xs[base+i0:base+i1])
			for j := 1; j < n; j++ {
				row := base + j*inner + i0
				loop(span(o, row, w), span(o, row-inner, w), span(xs, row, w))
			}
		}
	default:
		body = func(p, i0, i1 int) {
			base := p * n * inner
			copy(o[base+i0:base+i1], xs[base+i0:base+i1])
			for j := 1; j < n; j++ {
				prev := o[base+(j-1)*inner+i0 : base+(j-1)*inner+i1]
				row := xs[base+j*inner+i0 : base+j*inner+i1]
				acc := o[base+j*inner+i0 : base+j*inner+i1]
				for i := range acc {
					acc[i] = f(prev[i], row[i])
				}
			}
		}
	}
	err = u.sweep(t, outer, inner, body)
	if err != nil {
		return Array[T]{}, err
	}
	return out, nil
}

// foldOf is f's compiled fold (RegisterFold), or the same left fold
// calling f through its func value.
func foldOf[T Element](u *Ufunc2[T, T, T]) func(acc T, x []T) T {
	if fold := compiled[func(T, []T) T](foldLoop, u.key); fold != nil {
		return fold
	}
	return funcFold(u.f)
}

// funcFold is the left fold of f, calling it through its func value.
func funcFold[T Element](f func(T, T) T) func(acc T, x []T) T {
	return func(acc T, x []T) T {
		for _, v := range x {
			acc = f(acc, v)
		}
		return acc
	}
}

// scanOf is f's compiled scan (RegisterScan), or the same scan calling f
// through its func value.
func scanOf[T Element](u *Ufunc2[T, T, T]) func(acc T, x, out []T) T {
	if scan := compiled[func(T, []T, []T) T](scanLoop, u.key); scan != nil {
		return scan
	}
	f := u.f
	return func(acc T, x, out []T) T {
		x = x[:len(out)]
		for i, v := range x {
			acc = f(acc, v)
			out[i] = acc
		}
		return acc
	}
}

// axis checks x and splits its shape around the axis: outer positions
// before it, its length n, inner positions after it, and the shape
// without it.
func (u *Ufunc2[T, U, R]) axis(x opnd[T], axis int) (outer, n, inner int, rest []int, err error) {
	if err := x.check("operand"); err != nil {
		return 0, 0, 0, nil, u.cfg.errorf("%w", err)
	}
	nd := len(x.shape)
	a := axis
	if a < 0 {
		a += nd
	}
	if a < 0 || a >= nd {
		return 0, 0, 0, nil, u.cfg.errorf("axis %d is out of range for an array of shape %s", axis, shapeString(x.shape))
	}
	rest = append(append([]int(nil), x.shape[:a]...), x.shape[a+1:]...)
	return size(x.shape[:a]), x.shape[a], size(x.shape[a+1:]), rest, nil
}

// sweep calls body(p, i0, i1) on pieces that cover every outer position p
// and inner range: rows of the inner dimensions are processed together, so
// that reductions along a leading axis read memory in order.
func (u *Ufunc2[T, U, R]) sweep(t Target, outer, inner int, body func(p, i0, i1 int)) error {
	const piece = 4096
	per := (inner + piece - 1) / piece
	total := outer * per
	groups := 1
	if t == Parallel {
		groups = min(total, 8*workers())
	}
	return u.cfg.runEach(t, groups, func(g int) {
		for q := g * total / groups; q < (g+1)*total/groups; q++ {
			p, c := q/per, q%per
			body(p, c*piece, min((c+1)*piece, inner))
		}
	})
}

// reduceKernels makes the reduction kernels on first use.
func (u *Ufunc2[T, U, R]) reduceKernels() *reduceKernels {
	u.red.once.Do(func() {
		u.red.axis = cuda.Jit(reduceAxisKernel[T])
		u.red.accumulate = cuda.Jit(accumulateAxisKernel[T])
		u.red.chunk = cuda.Jit(reduceChunksKernel[T])
		u.red.final = cuda.Jit(reduceFinalKernel[T])
	})
	return u.red
}
