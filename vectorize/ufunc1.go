package vectorize

import "github.com/nugo-dev/nugo/cuda"

// ufunc1.go to ufunc4.go are one pattern written out for each arity;
// change them together.

// Ufunc1 is a unary ufunc: a scalar function func(T) R applied element
// by element. Make one with New1; it is safe for concurrent use.
type Ufunc1[T, R Element] struct {
	f   func(T) R
	key loopKey // f's key in the compiled-loop registry
	cfg config
	k   *mapKernels // shared with the copies that On makes
}

// New1 makes a ufunc of f, a function of 1 number (complex too) or bool:
//
//	sqrt := vectorize.New1(math.Sqrt)
//
// opts choose the target (default Auto) and the name used in errors.
// Problems with f or opts are reported by every call.
func New1[T, R Element](f func(T) R, opts ...Option) *Ufunc1[T, R] {
	return &Ufunc1[T, R]{f: f, key: keyOf(f), cfg: newConfig(f, opts), k: new(mapKernels)}
}

// Name is the name errors use for the function.
func (u *Ufunc1[T, R]) Name() string { return u.cfg.name }

// Target is the target the ufunc was made for (Auto unless an option
// chose one).
func (u *Ufunc1[T, R]) Target() Target { return u.cfg.target }

// On returns the ufunc with its calls on stream s (see Stream), sharing
// u's kernels: u.On(s).CallInto(out, ...) is Numba's ufunc(..., out=out,
// stream=s). On(nil) makes them synchronous.
func (u *Ufunc1[T, R]) On(s *cuda.Stream) *Ufunc1[T, R] {
	c := *u
	c.cfg.stream = s
	return &c
}

// Apply applies the function to slices of equal length (or length 1,
// broadcast) and returns the results in a new slice.
func (u *Ufunc1[T, R]) Apply(a []T) ([]R, error) {
	r, err := u.Call(Slice(a))
	return r.Data, err
}

// Into applies the function to slices of equal length (or length 1,
// broadcast) and writes the results into out, which must be as long as the
// longest. out may be one of the operands or overlap them: the results
// are computed from the operands as they were before the call.
func (u *Ufunc1[T, R]) Into(out []R, a []T) error {
	return u.CallInto(Slice(out), Slice(a))
}

// Call applies the function to N-d operands, broadcast together, and
// returns the result as a new host array of the broadcast shape.
func (u *Ufunc1[T, R]) Call(a Operand[T]) (Array[R], error) {
	oa := get(a)
	shape, err := u.cfg.shape(nil, []error{oa.check("operand 1")}, oa.shape)
	if err != nil {
		return Array[R]{}, err
	}
	out, err := zeros[R](shape)
	if err != nil {
		return Array[R]{}, err
	}
	if err := u.run(out.operand(), oa); err != nil {
		return Array[R]{}, err
	}
	return out, nil
}

// CallInto applies the function to N-d operands, broadcast together, and
// writes the result into out, whose shape must be the broadcast shape. A
// device array output stays on the device.
func (u *Ufunc1[T, R]) CallInto(out Operand[R], a Operand[T]) error {
	oo, oa := get(out), get(a)
	_, err := u.cfg.shape(&oo.shape, []error{oo.check("output"), oa.check("operand 1")}, oa.shape)
	if err != nil {
		return err
	}
	oa = unalias(oo, oa)
	return partial(u.run(oo, oa))
}

func (u *Ufunc1[T, R]) run(out opnd[R], a opnd[T]) error {
	t, err := u.cfg.resolve(out.dev != nil || a.dev != nil)
	if err != nil {
		return err
	}
	if t == CUDA {
		return u.launch(out, a)
	}
	p := newPlan(out.shape, a.shape)
	f, o, da := u.f, out.data, a.data
	if loop := compiledLoop[func([]R, []T)](u.key); loop != nil && p.contiguous() {
		return u.cfg.exec(t, &p, func(off int, offs *[maxArity]int, n int) {
			loop(span(o, off, n), span(da, offs[0], n))
		})
	}
	return u.cfg.exec(t, &p, func(off int, offs *[maxArity]int, n int) {
		loop1(f, o, da, off, offs[0], p.inc[0], n)
	})
}

// kernels makes the CUDA target's kernels on first use; each launch
// passes them the function.
func (u *Ufunc1[T, R]) kernels() *mapKernels {
	u.k.once.Do(func() {
		u.k.flat = cuda.Jit(map1Kernel[T, R])
		u.k.broadcast = cuda.Jit(map1BroadcastKernel[T, R])
	})
	return u.k
}

// launch runs the call on the CUDA target.
func (u *Ufunc1[T, R]) launch(out opnd[R], a opnd[T]) error {
	k := u.kernels()
	n := size(out.shape)
	if n == 0 {
		return nil
	}
	lc := u.cfg.launch(n)
	var err error
	if equalShape(a.shape, out.shape) {
		err = k.flat.LaunchWith(lc, u.f, out.arg(), a.arg())
	} else {
		shape := kernelShape(out.shape)
		err = k.broadcast.LaunchWith(lc, u.f, out.arg(), a.arg(), cuda.In(shape), cuda.In(stridesFor(a.shape, shape)))
	}
	if err != nil {
		return u.cfg.launchError(err)
	}
	return nil
}
