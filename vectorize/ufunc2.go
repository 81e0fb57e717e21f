package vectorize

import "github.com/nugo-dev/nugo/cuda"

// ufunc1.go to ufunc4.go are one pattern written out for each arity;
// change them together.

// Ufunc2 is a binary ufunc: a scalar function func(T, U) R applied element
// by element. Make one with New2; it is safe for concurrent use.
type Ufunc2[T, U, R Element] struct {
	f   func(T, U) R
	key loopKey // f's key in the compiled-loop registry
	cfg config
	k   *mapKernels // shared with the copies that On makes
	id  identity[R]
	red *reduceKernels
}

// New2 makes a ufunc of f, a function of 2 numbers (complex too) or bools:
//
//	add := vectorize.New2(func(x, y float64) float64 { return x + y })
//
// opts choose the target (default Auto) and the name used in errors.
// Problems with f or opts are reported by every call.
func New2[T, U, R Element](f func(T, U) R, opts ...Option) *Ufunc2[T, U, R] {
	return &Ufunc2[T, U, R]{f: f, key: keyOf(f), cfg: newConfig(f, opts), k: new(mapKernels), red: new(reduceKernels)}
}

// Name is the name errors use for the function.
func (u *Ufunc2[T, U, R]) Name() string { return u.cfg.name }

// Target is the target the ufunc was made for (Auto unless an option
// chose one).
func (u *Ufunc2[T, U, R]) Target() Target { return u.cfg.target }

// On returns the ufunc with its calls on stream s (see Stream), sharing
// u's kernels: u.On(s).CallInto(out, ...) is Numba's ufunc(..., out=out,
// stream=s). On(nil) makes them synchronous.
func (u *Ufunc2[T, U, R]) On(s *cuda.Stream) *Ufunc2[T, U, R] {
	c := *u
	c.cfg.stream = s
	return &c
}

// Apply applies the function to slices of equal length (or length 1,
// broadcast) and returns the results in a new slice.
func (u *Ufunc2[T, U, R]) Apply(a []T, b []U) ([]R, error) {
	r, err := u.Call(Slice(a), Slice(b))
	return r.Data, err
}

// Into applies the function to slices of equal length (or length 1,
// broadcast) and writes the results into out, which must be as long as the
// longest. out may be one of the operands or overlap them: the results
// are computed from the operands as they were before the call.
func (u *Ufunc2[T, U, R]) Into(out []R, a []T, b []U) error {
	return u.CallInto(Slice(out), Slice(a), Slice(b))
}

// Call applies the function to N-d operands, broadcast together, and
// returns the result as a new host array of the broadcast shape.
func (u *Ufunc2[T, U, R]) Call(a Operand[T], b Operand[U]) (Array[R], error) {
	oa, ob := get(a), get(b)
	shape, err := u.cfg.shape(nil, []error{oa.check("operand 1"), ob.check("operand 2")}, oa.shape, ob.shape)
	if err != nil {
		return Array[R]{}, err
	}
	out, err := zeros[R](shape)
	if err != nil {
		return Array[R]{}, err
	}
	if err := u.run(out.operand(), oa, ob); err != nil {
		return Array[R]{}, err
	}
	return out, nil
}

// CallInto applies the function to N-d operands, broadcast together, and
// writes the result into out, whose shape must be the broadcast shape. A
// device array output stays on the device.
func (u *Ufunc2[T, U, R]) CallInto(out Operand[R], a Operand[T], b Operand[U]) error {
	oo, oa, ob := get(out), get(a), get(b)
	_, err := u.cfg.shape(&oo.shape, []error{oo.check("output"), oa.check("operand 1"), ob.check("operand 2")}, oa.shape, ob.shape)
	if err != nil {
		return err
	}
	oa = unalias(oo, oa)
	ob = unalias(oo, ob)
	return partial(u.run(oo, oa, ob))
}

func (u *Ufunc2[T, U, R]) run(out opnd[R], a opnd[T], b opnd[U]) error {
	t, err := u.cfg.resolve(out.dev != nil || a.dev != nil || b.dev != nil)
	if err != nil {
		return err
	}
	if t == CUDA {
		return u.launch(out, a, b)
	}
	p := newPlan(out.shape, a.shape, b.shape)
	f, o, da, db := u.f, out.data, a.data, b.data
	if loop := compiledLoop[func([]R, []T, []U)](u.key); loop != nil && p.contiguous() {
		return u.cfg.exec(t, &p, func(off int, offs *[maxArity]int, n int) {
			loop(span(o, off, n), span(da, offs[0], n), span(db, offs[1], n))
		})
	}
	return u.cfg.exec(t, &p, func(off int, offs *[maxArity]int, n int) {
		loop2(f, o, da, db, off, offs[0], offs[1], p.inc[0], p.inc[1], n)
	})
}

// kernels makes the CUDA target's kernels on first use; each launch
// passes them the function.
func (u *Ufunc2[T, U, R]) kernels() *mapKernels {
	u.k.once.Do(func() {
		u.k.flat = cuda.Jit(map2Kernel[T, U, R])
		u.k.broadcast = cuda.Jit(map2BroadcastKernel[T, U, R])
	})
	return u.k
}

// launch runs the call on the CUDA target.
func (u *Ufunc2[T, U, R]) launch(out opnd[R], a opnd[T], b opnd[U]) error {
	k := u.kernels()
	n := size(out.shape)
	if n == 0 {
		return nil
	}
	lc := u.cfg.launch(n)
	var err error
	if equalShape(a.shape, out.shape) && equalShape(b.shape, out.shape) {
		err = k.flat.LaunchWith(lc, u.f, out.arg(), a.arg(), b.arg())
	} else {
		shape := kernelShape(out.shape)
		err = k.broadcast.LaunchWith(lc, u.f, out.arg(), a.arg(), b.arg(), cuda.In(shape), cuda.In(stridesFor(a.shape, shape)), cuda.In(stridesFor(b.shape, shape)))
	}
	if err != nil {
		return u.cfg.launchError(err)
	}
	return nil
}
