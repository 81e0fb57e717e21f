package vectorize

import (
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/nugo-dev/nugo/cuda"
)

// ErrLayout reports a gufunc layout that cannot be parsed or that does not
// match the function's parameters.
var ErrLayout = errors.New("layout")

// GUfunc is a generalized ufunc: a function over array slices (its core
// dimensions) called once per index of the operands' other, leading
// dimensions (its loop dimensions). Make one with GU; it is safe for
// concurrent use.
type GUfunc struct {
	fn  reflect.Value
	lay layout
	ops []guParam // inputs, then outputs
	cfg config

	// The CUDA target's kernel on the cpu backend, and on the compiled
	// backends; shared with the copies that On makes.
	kernel    *cpuKernel
	compiledK *compiledKernel
}

// cpuKernel is a gufunc's CUDA-target kernel on the cpu backend, made at
// its first launch there.
type cpuKernel struct {
	once sync.Once
	k    *cuda.Kernel
}

// guParam is one operand of a gufunc: its core dimensions and the type
// of the function's parameter that receives it.
type guParam struct {
	dims []string
	out  bool
	typ  reflect.Type // the function's parameter
	elem reflect.Type // the operand's element type
	info *elemInfo    // nil for named element types
}

func (p guParam) rank() int { return len(p.dims) }

// GU makes a generalized ufunc of fn with the given layout, NumPy's
// signature syntax: "(n),()->(n)" takes a 1-D core and a number and
// produces a 1-D core of the same length. fn takes one parameter per
// operand, inputs first, and returns nothing; a parameter's type follows
// its operand's core dimensions:
//
//	()         input: a number E; output: a pointer *E
//	(n)        a slice []E
//	(m,n)      a cuda.Array2[E]
//	(l,m,n)    a cuda.Array3[E]
//
// for any Element E: a number, complex64, complex128 or bool (2-D and
// 3-D cores need one of Go's predeclared types). A layout that cannot be parsed or does not match fn is
// an error wrapping ErrLayout that says which parameter and why.
func GU(layoutText string, fn any, opts ...Option) (*GUfunc, error) {
	g := &GUfunc{cfg: newConfig(fn, opts), kernel: new(cpuKernel), compiledK: new(compiledKernel)}
	if g.cfg.err != nil {
		return nil, g.cfg.err
	}
	fail := func(format string, args ...any) (*GUfunc, error) {
		return nil, fmt.Errorf("vectorize.GU %s: %w %q: %s", g.cfg.name, ErrLayout, layoutText, fmt.Sprintf(format, args...))
	}
	lay, err := parseLayout(layoutText)
	if err != nil {
		return nil, fmt.Errorf("vectorize.GU %s: %w", g.cfg.name, err)
	}
	g.lay = lay
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		return fail("got a %T, not a func", fn)
	}
	ft := v.Type()
	nops := len(lay.ins) + len(lay.outs)
	switch {
	case ft.NumOut() != 0:
		return fail("the function returns values; a gufunc writes its results into its output parameters")
	case ft.IsVariadic():
		return fail("the function is variadic; it must take one parameter per operand")
	case ft.NumIn() != nops:
		return fail("the layout has %d operands (%d inputs, %d outputs) but the function %s takes %d parameters", nops, len(lay.ins), len(lay.outs), ft, ft.NumIn())
	}
	g.fn = v
	for k := range nops {
		p := guParam{typ: ft.In(k)}
		if k < len(lay.ins) {
			p.dims = lay.ins[k]
		} else {
			p.dims, p.out = lay.outs[k-len(lay.ins)], true
		}
		if err := p.resolve(); err != nil {
			return fail("parameter %d has type %s, but %s %s %v", k+1, p.typ, p.what(k, len(lay.ins)), coreString(p.dims), err)
		}
		g.ops = append(g.ops, p)
	}
	g.cfg.compiled = g.compiledErr()
	return g, nil
}

// what names operand k: "input 1", "output 2".
func (p guParam) what(k, nin int) string {
	if p.out {
		return fmt.Sprintf("output %d", k-nin+1)
	}
	return fmt.Sprintf("input %d", k+1)
}

// resolve checks the parameter's type against its core dimensions and
// finds the element type.
func (p *guParam) resolve() error {
	t := p.typ
	switch {
	case p.rank() == 0 && !p.out:
		if !isElement(t) {
			return errors.New("takes a number, complex or bool")
		}
		p.elem = t
	case p.rank() == 0:
		if t.Kind() != reflect.Pointer || !isElement(t.Elem()) {
			return errors.New("is written through a pointer to a number, complex or bool")
		}
		p.elem = t.Elem()
	case p.rank() == 1:
		if t.Kind() != reflect.Slice || !isElement(t.Elem()) {
			return errors.New("takes a slice of numbers, complexes or bools")
		}
		p.elem = t.Elem()
	case p.rank() <= 3:
		e, ok := coreTypes[t]
		want := fmt.Sprintf("cuda.Array%d", p.rank())
		if !ok || (p.rank() == 2) != (t == e.array2) {
			return fmt.Errorf("takes a %s of a predeclared numeric, complex or bool type", want)
		}
		p.elem = e.elem
	default:
		return fmt.Errorf("has %d core dimensions; at most 3 are supported", p.rank())
	}
	p.info = elemTypes[p.elem]
	return nil
}

// Name is the name errors use for the function.
func (g *GUfunc) Name() string { return g.cfg.name }

// Layout returns the layout the gufunc was made with.
func (g *GUfunc) Layout() string { return g.lay.text }

// On returns the gufunc with its calls on stream s (see Stream), sharing
// g's kernels: g.On(s).Into(...) is Numba's gufunc(..., stream=s).
// On(nil) makes them synchronous.
func (g *GUfunc) On(s *cuda.Stream) *GUfunc {
	c := *g
	c.cfg.stream = s
	return &c
}

// guArg is one argument of a call, checked against its operand.
type guArg struct {
	data  reflect.Value // host slice of the element type
	dev   any           // *cuda.DeviceArray[E]
	shape []int
	core  []int // the trailing rank dimensions
	loop  []int // the leading ones
}

// Into calls the function on every loop index of the arguments: the
// inputs, then the outputs, in the layout's order. An argument is a slice
// []E, a vectorize.Array[E], a cuda.Array2[E] or cuda.Array3[E], a
// *cuda.DeviceArray[E] (CUDA target), or for a "()" input a scalar, which
// is converted to E if that loses nothing (a real number converts to a
// complex E, with imaginary part 0; only a bool converts to a bool). Core dimensions with the same
// name must agree; the inputs' loop dimensions broadcast, and every
// output's loop dimensions must be the broadcast shape. Outputs may
// share memory with inputs: the function sees the inputs as they were
// before the call.
func (g *GUfunc) Into(args ...any) error {
	if len(args) != len(g.ops) {
		return g.cfg.errorf("got %d arguments; layout %q takes %d inputs and %d outputs", len(args), g.lay.text, len(g.lay.ins), len(g.lay.outs))
	}
	bound := make([]guArg, len(args))
	for k, a := range args {
		b, err := g.bind(k, a)
		if err != nil {
			return g.cfg.errorf("argument %d (%s %s): %w", k+1, g.ops[k].what(k, len(g.lay.ins)), coreString(g.ops[k].dims), err)
		}
		bound[k] = b
	}
	loop, err := g.shapes(bound, len(args))
	if err != nil {
		return err
	}
	g.unalias(bound)
	return partial(g.run(bound, loop))
}

// unalias copies every host input whose memory an output shares, so that
// the function reads the inputs as they were before any output was
// written, as NumPy does: a core function may read any element of its
// input cores after writing to its output, so even an output identical to
// an input is separated from it.
func (g *GUfunc) unalias(args []guArg) {
	nin := len(g.lay.ins)
	for k := range nin {
		in := args[k].data
		if !in.IsValid() || in.Len() == 0 {
			continue
		}
		for _, out := range args[nin:] {
			if out.data.IsValid() && out.data.Len() > 0 && overlap(in, out.data) {
				c := reflect.MakeSlice(in.Type(), in.Len(), in.Len())
				reflect.Copy(c, in)
				args[k].data = c
				break
			}
		}
	}
}

// overlap reports whether two non-empty slices share memory.
func overlap(a, b reflect.Value) bool {
	as, bs := uintptr(a.UnsafePointer()), uintptr(b.UnsafePointer())
	ae, be := as+uintptr(a.Len())*a.Type().Elem().Size(), bs+uintptr(b.Len())*b.Type().Elem().Size()
	return as < be && bs < ae
}

// Apply calls the function like Into on the inputs alone, allocating the
// outputs, which it returns as vectorize.Array[E] values (in an []any,
// one per output, to type-assert). Every core dimension of an output must
// occur in an input.
func (g *GUfunc) Apply(inputs ...any) ([]any, error) {
	nin := len(g.lay.ins)
	if len(inputs) != nin {
		return nil, g.cfg.errorf("got %d inputs; layout %q takes %d", len(inputs), g.lay.text, nin)
	}
	bound := make([]guArg, len(g.ops))
	for k, a := range inputs {
		b, err := g.bind(k, a)
		if err != nil {
			return nil, g.cfg.errorf("argument %d (%s %s): %w", k+1, g.ops[k].what(k, nin), coreString(g.ops[k].dims), err)
		}
		bound[k] = b
	}
	loop, err := g.shapes(bound, nin)
	if err != nil {
		return nil, err
	}
	dims := g.coreSizes(bound[:nin], nin)
	outs := make([]any, 0, len(g.lay.outs))
	for k := nin; k < len(g.ops); k++ {
		p := g.ops[k]
		if p.info == nil {
			return nil, g.cfg.errorf("cannot allocate output %d of element type %s; pass the outputs to Into", k-nin+1, p.elem)
		}
		shape := append([]int(nil), loop...)
		for _, d := range p.dims {
			n, ok := dims[d]
			if !ok {
				return nil, g.cfg.errorf("core dimension %s of output %d occurs in no input, so Apply cannot size it; pass the outputs to Into", d, k-nin+1)
			}
			shape = append(shape, n)
		}
		a, data, err := p.info.newArray(shape)
		if err != nil {
			return nil, g.cfg.errorf("output %d: %w", k-nin+1, err)
		}
		outs = append(outs, a)
		bound[k] = guArg{data: data, shape: shape, loop: loop, core: shape[len(loop):]}
	}
	if err := g.run(bound, loop); err != nil {
		return nil, err
	}
	return outs, nil
}
