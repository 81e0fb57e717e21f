package vectorize

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"unsafe"

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

	kernel struct {
		once sync.Once
		k    *cuda.Kernel
	}
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
// for any numeric E (2-D and 3-D cores need one of Go's predeclared
// numeric types). A layout that cannot be parsed or does not match fn is
// an error wrapping ErrLayout that says which parameter and why.
func GU(layoutText string, fn any, opts ...Option) (*GUfunc, error) {
	g := &GUfunc{cfg: newConfig(fn, opts)}
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
		if !isNumber(t) {
			return errors.New("takes a number")
		}
		p.elem = t
	case p.rank() == 0:
		if t.Kind() != reflect.Pointer || !isNumber(t.Elem()) {
			return errors.New("is written through a pointer to a number")
		}
		p.elem = t.Elem()
	case p.rank() == 1:
		if t.Kind() != reflect.Slice || !isNumber(t.Elem()) {
			return errors.New("takes a slice of numbers")
		}
		p.elem = t.Elem()
	case p.rank() <= 3:
		e, ok := coreTypes[t]
		want := fmt.Sprintf("cuda.Array%d", p.rank())
		if !ok || (p.rank() == 2) != (t == e.array2) {
			return fmt.Errorf("takes a %s of a predeclared numeric type", want)
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
// *cuda.DeviceArray[E] (CUDA target), or for a "()" input a number, which
// is converted to E if that loses nothing. Core dimensions with the same
// name must agree; the inputs' loop dimensions broadcast, and every
// output's loop dimensions must be the broadcast shape.
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
	return g.run(bound, loop)
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
		a, data := p.info.newArray(shape)
		outs = append(outs, a)
		bound[k] = guArg{data: data, shape: shape, loop: loop, core: shape[len(loop):]}
	}
	if err := g.run(bound, loop); err != nil {
		return nil, err
	}
	return outs, nil
}

// bind checks argument a against operand k.
func (g *GUfunc) bind(k int, a any) (guArg, error) {
	p := g.ops[k]
	v := reflect.ValueOf(a)
	var b guArg
	switch {
	case !v.IsValid():
		return b, errors.New("got nil")
	case v.Type() == reflect.SliceOf(p.elem):
		b.data, b.shape = v, []int{v.Len()}
	case p.info != nil && (v.Type() == p.info.array || v.Type() == p.info.array2 || v.Type() == p.info.array3):
		b.data, b.shape, _ = p.info.parts(a)
		if n := size(b.shape); b.data.Len() != n {
			return b, fmt.Errorf("%d elements for shape %s: %w", b.data.Len(), shapeString(b.shape), ErrShape)
		}
	case p.info != nil && v.Type() == p.info.device:
		if v.IsNil() {
			return b, errors.New("got a nil device array")
		}
		b.dev = a
		b.shape = v.MethodByName("Shape").Call(nil)[0].Interface().([]int)
	case isNumber(v.Type()) && p.rank() == 0 && !p.out:
		c, err := convertNumber(v, p.elem)
		if err != nil {
			return b, err
		}
		b.data = reflect.MakeSlice(reflect.SliceOf(p.elem), 1, 1)
		b.data.Index(0).Set(c)
		b.shape = []int{}
	default:
		want := fmt.Sprintf("a []%[1]s, vectorize.Array[%[1]s], cuda.Array2[%[1]s], cuda.Array3[%[1]s] or *cuda.DeviceArray[%[1]s]", p.elem)
		if p.rank() == 0 && !p.out {
			want += " or a number"
		}
		return b, fmt.Errorf("got %s; pass %s", v.Type(), want)
	}
	r := p.rank()
	if len(b.shape) < r {
		return b, fmt.Errorf("shape %s has fewer than the %d core dimensions: %w", shapeString(b.shape), r, ErrShape)
	}
	b.loop, b.core = b.shape[:len(b.shape)-r], b.shape[len(b.shape)-r:]
	return b, nil
}

// convertNumber converts v to type to if no information is lost.
func convertNumber(v reflect.Value, to reflect.Type) (reflect.Value, error) {
	if v.Type() == to {
		return v, nil
	}
	if !v.CanConvert(to) {
		return reflect.Value{}, fmt.Errorf("cannot convert %s to %s", v.Type(), to)
	}
	c := v.Convert(to)
	back := c.Convert(v.Type())
	lossless := back.Equal(v)
	if v.CanFloat() && math.IsNaN(v.Float()) {
		lossless = true
	}
	if (v.CanInt() && v.Int() < 0) && (c.CanUint()) {
		lossless = false
	}
	if v.CanUint() && c.CanInt() && c.Int() < 0 {
		lossless = false
	}
	if !lossless {
		return reflect.Value{}, fmt.Errorf("%v (%s) does not convert to %s without loss", v, v.Type(), to)
	}
	return c, nil
}

// coreSizes binds each core dimension name to its size, from the first
// n arguments.
func (g *GUfunc) coreSizes(args []guArg, n int) map[string]int {
	dims := map[string]int{}
	for k := range n {
		for i, d := range g.ops[k].dims {
			if _, ok := dims[d]; !ok {
				dims[d] = args[k].core[i]
			}
		}
	}
	return dims
}

// shapes checks the core dimensions of the first n arguments and the loop
// shapes, and returns the broadcast loop shape.
func (g *GUfunc) shapes(args []guArg, n int) ([]int, error) {
	nin := len(g.lay.ins)
	type seen struct{ size, arg int }
	dims := map[string]seen{}
	for k := range n {
		for i, d := range g.ops[k].dims {
			s, ok := dims[d]
			if !ok {
				dims[d] = seen{args[k].core[i], k}
				continue
			}
			if s.size != args[k].core[i] {
				return nil, g.cfg.errorf("core dimension %s is %d in argument %d (shape %s) but %d in argument %d (shape %s): %w",
					d, s.size, s.arg+1, shapeString(args[s.arg].shape), args[k].core[i], k+1, shapeString(args[k].shape), ErrShape)
			}
		}
	}
	loops := make([][]int, 0, nin)
	for k := range min(n, nin) {
		loops = append(loops, args[k].loop)
	}
	loop, err := broadcast(loops...)
	if err != nil {
		return nil, g.cfg.errorf("loop dimensions: %w", err)
	}
	for k := nin; k < n; k++ {
		if !equalShape(args[k].loop, loop) {
			return nil, g.cfg.errorf("output %d has loop dimensions %s (shape %s), but the inputs' loop dimensions broadcast to %s: %w",
				k-nin+1, shapeString(args[k].loop), shapeString(args[k].shape), shapeString(loop), ErrShape)
		}
	}
	return loop, nil
}

// guPlan locates each operand's core for a loop index.
type guPlan struct {
	loop    []int   // kernelShape of the loop shape
	strides [][]int // per operand, in elements
}

func newGUPlan(args []guArg, loop []int) guPlan {
	p := guPlan{loop: kernelShape(loop), strides: make([][]int, len(args))}
	for k, a := range args {
		st := stridesFor(a.loop, p.loop)
		cs := size(a.core)
		for i := range st {
			st[i] *= cs
		}
		p.strides[k] = st
	}
	return p
}

// caller builds the function's arguments for one loop index and calls it.
// 1-D cores are passed through slice variables of its own, whose headers
// it rewrites for each call, so a call allocates nothing for them.
type caller struct {
	g    *GUfunc
	args []guArg
	data []reflect.Value // per operand: the host (or device-view) slice
	in   []reflect.Value // scratch for the call

	hdrs  []*sliceHeader // per 1-D operand: the header of its slice variable
	base  []unsafe.Pointer
	esize []uintptr
}

// sliceHeader is the layout of every Go slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

func (g *GUfunc) newCaller(args []guArg, data []reflect.Value) *caller {
	n := len(args)
	c := &caller{g: g, args: args, data: data, in: make([]reflect.Value, n),
		hdrs: make([]*sliceHeader, n), base: make([]unsafe.Pointer, n), esize: make([]uintptr, n)}
	for k, p := range g.ops {
		if p.rank() != 1 {
			continue
		}
		v := reflect.New(p.typ).Elem() // a slice variable of the parameter's type
		c.in[k] = v
		c.hdrs[k] = (*sliceHeader)(v.Addr().UnsafePointer())
		c.base[k] = data[k].UnsafePointer()
		c.esize[k] = p.elem.Size()
	}
	return c
}

// call calls the function with operand k's core at offs(k).
func (c *caller) call(offs func(k int) int) {
	for k, p := range c.g.ops {
		off := offs(k)
		d := c.data[k]
		switch r := p.rank(); {
		case r == 0 && !p.out:
			c.in[k] = d.Index(off)
		case r == 0:
			c.in[k] = d.Index(off).Addr()
		case r == 1:
			n := c.args[k].core[0]
			h := c.hdrs[k]
			h.data = unsafe.Add(c.base[k], uintptr(off)*c.esize[k])
			h.len, h.cap = n, n
		case r == 2:
			n := size(c.args[k].core)
			c.in[k] = p.info.view2(d.Slice3(off, off+n, off+n), c.args[k].core)
		default:
			n := size(c.args[k].core)
			c.in[k] = p.info.view3(d.Slice3(off, off+n, off+n), c.args[k].core)
		}
	}
	c.g.fn.Call(c.in)
}

// run runs the call over every loop index.
func (g *GUfunc) run(args []guArg, loop []int) error {
	device := false
	for _, a := range args {
		device = device || a.dev != nil
	}
	t, err := g.cfg.resolve(device)
	if err != nil {
		return err
	}
	n := size(loop)
	if n == 0 {
		return nil
	}
	p := newGUPlan(args, loop)
	if t == CUDA {
		return g.launch(args, p, n)
	}
	data := make([]reflect.Value, len(args))
	for k, a := range args {
		data[k] = a.data
	}
	groups := 1
	if t == Parallel {
		groups = min(n, 8*workers())
	}
	return g.cfg.runEach(t, groups, func(grp int) {
		c := g.newCaller(args, data)
		for o := grp * n / groups; o < (grp+1)*n/groups; o++ {
			c.call(func(k int) int { return offset(o, p.loop, p.strides[k]) })
		}
	})
}

// launch runs the call on the CUDA target: one kernel thread per loop
// index. The kernel takes each operand as a slice (a device array stays
// on the device), a table of the operands' core offsets per loop index,
// and the core shapes.
func (g *GUfunc) launch(args []guArg, p guPlan, n int) error {
	g.kernel.once.Do(func() { g.kernel.k = cuda.Jit(g.makeKernel().Interface()) })
	launchArgs := make([]any, 0, len(args)+2)
	for _, a := range args {
		if a.dev != nil {
			launchArgs = append(launchArgs, a.dev)
		} else {
			launchArgs = append(launchArgs, a.data.Interface())
		}
	}
	nops := len(args)
	offs := make([]int, n*nops)
	for o := range n {
		for k := range nops {
			offs[o*nops+k] = offset(o, p.loop, p.strides[k])
		}
	}
	cores := []int{0}
	for _, a := range args {
		cores = append(cores, a.core...)
	}
	launchArgs = append(launchArgs, offs, cores)
	grid, block := g.cfg.grid(n)
	if err := g.kernel.k.Launch(grid, block, launchArgs...); err != nil {
		return g.cfg.launchError(err)
	}
	return nil
}

// makeKernel builds the CUDA-target kernel, a func(cuda.Thread, []E1, ...,
// []Ek, offs, cores []int) that calls the function for loop index
// t.Grid1(). Its signature depends on the operands' element types, so it
// is made with reflect.MakeFunc; it runs on the cpu backend of package
// cuda only.
func (g *GUfunc) makeKernel() reflect.Value {
	nops := len(g.ops)
	in := []reflect.Type{reflect.TypeFor[cuda.Thread]()}
	for _, p := range g.ops {
		in = append(in, reflect.SliceOf(p.elem))
	}
	intSlice := reflect.TypeFor[[]int]()
	in = append(in, intSlice, intSlice)
	ft := reflect.FuncOf(in, nil, false)
	return reflect.MakeFunc(ft, func(vals []reflect.Value) []reflect.Value {
		o := vals[0].Interface().(cuda.Thread).Grid1()
		offs := vals[nops+1].Interface().([]int)
		if o >= len(offs)/nops {
			return nil
		}
		cores := vals[nops+2].Interface().([]int)[1:]
		args := make([]guArg, nops)
		for k, p := range g.ops {
			args[k].core, cores = cores[:p.rank()], cores[p.rank():]
		}
		g.newCaller(args, vals[1:nops+1]).call(func(k int) int { return offs[o*nops+k] })
		return nil
	})
}
