package vectorize

import (
	"reflect"
	"unsafe"

	"github.com/nugo-dev/nugo/cuda"
)

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
// index. On the compiled backends the kernel is generated for the
// function (gucompiled.go). On the cpu backend it takes each operand as a
// slice (a device array stays on the device), a table of the operands'
// core offsets per loop index, and the core shapes.
func (g *GUfunc) launch(args []guArg, p guPlan, n int) error {
	if b, err := cuda.CurrentBackend(); err == nil && b != cuda.CPU {
		return g.launchCompiled(args, p, n)
	}
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
	launchArgs = append(launchArgs, cuda.In(offs), cuda.In(cores))
	if err := g.kernel.k.LaunchWith(g.cfg.launch(n), launchArgs...); err != nil {
		return g.cfg.launchError(err)
	}
	return nil
}

// makeKernel builds the CUDA-target kernel, a func(cuda.Thread, []E1, ...,
// []Ek, offs, cores []int) that calls the function for loop index
// t.Grid1(). Its signature depends on the operands' element types, so it
// is made with reflect.MakeFunc, and it calls the function through
// reflect, so that it takes any function; it runs on the cpu backend of
// package cuda only.
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
