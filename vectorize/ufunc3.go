package vectorize

import "github.com/nugo-dev/nugo/cuda"

// ufunc1.go to ufunc4.go are one pattern written out for each arity;
// change them together.

// Ufunc3 is a ternary ufunc: a scalar function func(T, U, V) R applied element
// by element. Make one with New3; it is safe for concurrent use.
type Ufunc3[T, U, V, R Element] struct {
	f   func(T, U, V) R
	key loopKey // f's key in the compiled-loop registry
	cfg config
	k   *mapKernels // shared with the copies that On makes
}

// New3 makes a ufunc of f, a function of 3 numbers (complex too) or bools:
//
//	fma := vectorize.New3(math.FMA)
//
// opts choose the target (default Auto) and the name used in errors.
// Problems with f or opts are reported by every call.
func New3[T, U, V, R Element](f func(T, U, V) R, opts ...Option) *Ufunc3[T, U, V, R] {
	return &Ufunc3[T, U, V, R]{f: f, key: keyOf(f), cfg: newConfig(f, opts), k: new(mapKernels)}
}

// Name is the name errors use for the function.
func (u *Ufunc3[T, U, V, R]) Name() string { return u.cfg.name }

// Target is the target the ufunc was made for (Auto unless an option
// chose one).
func (u *Ufunc3[T, U, V, R]) Target() Target { return u.cfg.target }

// On returns the ufunc with its calls on stream s (see Stream), sharing
// u's kernels: u.On(s).CallInto(out, ...) is Numba's ufunc(..., out=out,
// stream=s). On(nil) makes them synchronous.
func (u *Ufunc3[T, U, V, R]) On(s *cuda.Stream) *Ufunc3[T, U, V, R] {
	c := *u
	c.cfg.stream = s
	return &c
}

// Apply applies the function to slices of equal length (or length 1,
// broadcast) and returns the results in a new slice.
func (u *Ufunc3[T, U, V, R]) Apply(a []T, b []U, c []V) ([]R, error) {
	r, err := u.Call(Slice(a), Slice(b), Slice(c))
	return r.Data, err
}

// Into applies the function to slices of equal length (or length 1,
// broadcast) and writes the results into out, which must be as long as the
// longest. out may be one of the operands or overlap them: the results
// are computed from the operands as they were before the call.
func (u *Ufunc3[T, U, V, R]) Into(out []R, a []T, b []U, c []V) error {
	return u.CallInto(Slice(out), Slice(a), Slice(b), Slice(c))
}

// Call applies the function to N-d operands, broadcast together, and
// returns the result as a new host array of the broadcast shape.
func (u *Ufunc3[T, U, V, R]) Call(a Operand[T], b Operand[U], c Operand[V]) (Array[R], error) {
	oa, ob, oc := get(a), get(b), get(c)
	shape, err := u.cfg.shape(nil, []error{oa.check("operand 1"), ob.check("operand 2"), oc.check("operand 3")}, oa.shape, ob.shape, oc.shape)
	if err != nil {
		return Array[R]{}, err
	}
	out, err := zeros[R](shape)
	if err != nil {
		return Array[R]{}, err
	}
	if err := u.run(out.operand(), oa, ob, oc); err != nil {
		return Array[R]{}, err
	}
	return out, nil
}

// CallInto applies the function to N-d operands, broadcast together, and
// writes the result into out, whose shape must be the broadcast shape. A
// device array output stays on the device.
func (u *Ufunc3[T, U, V, R]) CallInto(out Operand[R], a Operand[T], b Operand[U], c Operand[V]) error {
	oo, oa, ob, oc := get(out), get(a), get(b), get(c)
	_, err := u.cfg.shape(&oo.shape, []error{oo.check("output"), oa.check("operand 1"), ob.check("operand 2"), oc.check("operand 3")}, oa.shape, ob.shape, oc.shape)
	if err != nil {
		return err
	}
	oa = unalias(oo, oa)
	ob = unalias(oo, ob)
	oc = unalias(oo, oc)
	return partial(u.run(oo, oa, ob, oc))
}

func (u *Ufunc3[T, U, V, R]) run(out opnd[R], a opnd[T], b opnd[U], c opnd[V]) error {
	t, err := u.cfg.resolve(out.dev != nil || a.dev != nil || b.dev != nil || c.dev != nil)
	if err != nil {
		return err
	}
	if t == CUDA {
		return u.launch(out, a, b, c)
	}
	p := newPlan(out.shape, a.shape, b.shape, c.shape)
	f, o, da, db, dc := u.f, out.data, a.data, b.data, c.data
	if loop := compiledLoop[func([]R, []T, []U, []V)](u.key); loop != nil && p.contiguous() {
		return u.cfg.exec(t, &p, func(off int, offs *[maxArity]int, n int) {
			loop(span(o, off, n), span(da, offs[0], n), span(db, offs[1], n), span(dc, offs[2], n))
		})
	}
	return u.cfg.exec(t, &p, func(off int, offs *[maxArity]int, n int) {
		loop3(f, o, da, db, dc, off, offs[0], offs[1], offs[2], p.inc[0], p.inc[1], p.inc[2], n)
	})
}

// kernels makes the CUDA target's kernels on first use; each launch
// passes them the function.
func (u *Ufunc3[T, U, V, R]) kernels() *mapKernels {
	u.k.once.Do(func() {
		u.k.flat = cuda.Jit(map3Kernel[T, U, V, R])
		u.k.broadcast = cuda.Jit(map3BroadcastKernel[T, U, V, R])
	})
	return u.k
}

// launch runs the call on the CUDA target.
func (u *Ufunc3[T, U, V, R]) launch(out opnd[R], a opnd[T], b opnd[U], c opnd[V]) error {
	k := u.kernels()
	n := size(out.shape)
	if n == 0 {
		return nil
	}
	lc := u.cfg.launch(n)
	var err error
	if equalShape(a.shape, out.shape) && equalShape(b.shape, out.shape) && equalShape(c.shape, out.shape) {
		err = k.flat.LaunchWith(lc, u.f, out.arg(), a.arg(), b.arg(), c.arg())
	} else {
		shape := kernelShape(out.shape)
		err = k.broadcast.LaunchWith(lc, u.f, out.arg(), a.arg(), b.arg(), c.arg(), cuda.In(shape), cuda.In(stridesFor(a.shape, shape)), cuda.In(stridesFor(b.shape, shape)), cuda.In(stridesFor(c.shape, shape)))
	}
	if err != nil {
		return u.cfg.launchError(err)
	}
	return nil
}
