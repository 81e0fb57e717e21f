package vectorize

import "github.com/nugo-dev/nugo/cuda"

// ufunc1.go to ufunc4.go are one pattern written out for each arity;
// change them together.

// Ufunc4 is a 4-ary ufunc: a scalar function func(T, U, V, W) R applied element
// by element. Make one with New4; it is safe for concurrent use.
type Ufunc4[T, U, V, W, R Element] struct {
	f   func(T, U, V, W) R
	key loopKey // f's key in the compiled-loop registry
	cfg config
	k   *mapKernels // shared with the copies that On makes
}

// New4 makes a ufunc of f, a function of 4 numbers (complex too) or bools:
//
//	lerp := vectorize.New4(func(a, b, t float64, n int) float64 { ... })
//
// opts choose the target (default Auto) and the name used in errors.
// Problems with f or opts are reported by every call.
func New4[T, U, V, W, R Element](f func(T, U, V, W) R, opts ...Option) *Ufunc4[T, U, V, W, R] {
	return &Ufunc4[T, U, V, W, R]{f: f, key: keyOf(f), cfg: newConfig(f, opts), k: new(mapKernels)}
}

// Name is the name errors use for the function.
func (u *Ufunc4[T, U, V, W, R]) Name() string { return u.cfg.name }

// Target is the target the ufunc was made for (Auto unless an option
// chose one).
func (u *Ufunc4[T, U, V, W, R]) Target() Target { return u.cfg.target }

// On returns the ufunc with its calls on stream s (see Stream), sharing
// u's kernels: u.On(s).CallInto(out, ...) is Numba's ufunc(..., out=out,
// stream=s). On(nil) makes them synchronous.
func (u *Ufunc4[T, U, V, W, R]) On(s *cuda.Stream) *Ufunc4[T, U, V, W, R] {
	c := *u
	c.cfg.stream = s
	return &c
}

// Apply applies the function to slices of equal length (or length 1,
// broadcast) and returns the results in a new slice.
func (u *Ufunc4[T, U, V, W, R]) Apply(a []T, b []U, c []V, d []W) ([]R, error) {
	r, err := u.Call(Slice(a), Slice(b), Slice(c), Slice(d))
	return r.Data, err
}

// Into applies the function to slices of equal length (or length 1,
// broadcast) and writes the results into out, which must be as long as the
// longest. out may be one of the operands or overlap them: the results
// are computed from the operands as they were before the call.
func (u *Ufunc4[T, U, V, W, R]) Into(out []R, a []T, b []U, c []V, d []W) error {
	return u.CallInto(Slice(out), Slice(a), Slice(b), Slice(c), Slice(d))
}

// Call applies the function to N-d operands, broadcast together, and
// returns the result as a new host array of the broadcast shape.
func (u *Ufunc4[T, U, V, W, R]) Call(a Operand[T], b Operand[U], c Operand[V], d Operand[W]) (Array[R], error) {
	oa, ob, oc, od := get(a), get(b), get(c), get(d)
	shape, err := u.cfg.shape(nil, []error{oa.check("operand 1"), ob.check("operand 2"), oc.check("operand 3"), od.check("operand 4")}, oa.shape, ob.shape, oc.shape, od.shape)
	if err != nil {
		return Array[R]{}, err
	}
	out, err := zeros[R](shape)
	if err != nil {
		return Array[R]{}, err
	}
	if err := u.run(out.operand(), oa, ob, oc, od); err != nil {
		return Array[R]{}, err
	}
	return out, nil
}

// CallInto applies the function to N-d operands, broadcast together, and
// writes the result into out, whose shape must be the broadcast shape. A
// device array output stays on the device.
func (u *Ufunc4[T, U, V, W, R]) CallInto(out Operand[R], a Operand[T], b Operand[U], c Operand[V], d Operand[W]) error {
	oo, oa, ob, oc, od := get(out), get(a), get(b), get(c), get(d)
	_, err := u.cfg.shape(&oo.shape, []error{oo.check("output"), oa.check("operand 1"), ob.check("operand 2"), oc.check("operand 3"), od.check("operand 4")}, oa.shape, ob.shape, oc.shape, od.shape)
	if err != nil {
		return err
	}
	oa = unalias(oo, oa)
	ob = unalias(oo, ob)
	oc = unalias(oo, oc)
	od = unalias(oo, od)
	return partial(u.run(oo, oa, ob, oc, od))
}

func (u *Ufunc4[T, U, V, W, R]) run(out opnd[R], a opnd[T], b opnd[U], c opnd[V], d opnd[W]) error {
	t, err := u.cfg.resolve(out.dev != nil || a.dev != nil || b.dev != nil || c.dev != nil || d.dev != nil)
	if err != nil {
		return err
	}
	if t == CUDA {
		return u.launch(out, a, b, c, d)
	}
	p := newPlan(out.shape, a.shape, b.shape, c.shape, d.shape)
	f, o, da, db, dc, dd := u.f, out.data, a.data, b.data, c.data, d.data
	if loop := compiledLoop[func([]R, []T, []U, []V, []W)](u.key); loop != nil && p.contiguous() {
		return u.cfg.exec(t, &p, func(off int, offs *[maxArity]int, n int) {
			loop(span(o, off, n), span(da, offs[0], n), span(db, offs[1], n), span(dc, offs[2], n), span(dd, offs[3], n))
		})
	}
	return u.cfg.exec(t, &p, func(off int, offs *[maxArity]int, n int) {
		loop4(f, o, da, db, dc, dd, off, offs[0], offs[1], offs[2], offs[3], p.inc[0], p.inc[1], p.inc[2], p.inc[3], n)
	})
}

// kernels makes the CUDA target's kernels on first use; each launch
// passes them the function.
func (u *Ufunc4[T, U, V, W, R]) kernels() *mapKernels {
	u.k.once.Do(func() {
		u.k.flat = cuda.Jit(map4Kernel[T, U, V, W, R])
		u.k.broadcast = cuda.Jit(map4BroadcastKernel[T, U, V, W, R])
	})
	return u.k
}

// launch runs the call on the CUDA target.
func (u *Ufunc4[T, U, V, W, R]) launch(out opnd[R], a opnd[T], b opnd[U], c opnd[V], d opnd[W]) error {
	k := u.kernels()
	n := size(out.shape)
	if n == 0 {
		return nil
	}
	lc := u.cfg.launch(n)
	var err error
	if equalShape(a.shape, out.shape) && equalShape(b.shape, out.shape) && equalShape(c.shape, out.shape) && equalShape(d.shape, out.shape) {
		err = k.flat.LaunchWith(lc, u.f, out.arg(), a.arg(), b.arg(), c.arg(), d.arg())
	} else {
		shape := kernelShape(out.shape)
		err = k.broadcast.LaunchWith(lc, u.f, out.arg(), a.arg(), b.arg(), c.arg(), d.arg(), cuda.In(shape), cuda.In(stridesFor(a.shape, shape)), cuda.In(stridesFor(b.shape, shape)), cuda.In(stridesFor(c.shape, shape)), cuda.In(stridesFor(d.shape, shape)))
	}
	if err != nil {
		return u.cfg.launchError(err)
	}
	return nil
}
