package vectorize

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// The CUDA target of a gufunc on the compiled backends (gpu, ptxsim).
//
// Its kernel's signature depends on the function's: one slice parameter
// per operand, of the operand's element type, and the function itself as
// a func parameter, which the compiler binds to the function and calls
// directly. Go cannot instantiate a generic kernel for types known only at
// run time, so the kernel is written out as Go source for the function's
// signature (GUfunc.source) and registered with the front end for the type of
// a reflect.MakeFunc value, which is what package cuda launches; the
// compiled backends compile the registered source, never calling the Go
// value. On the cpu backend the CUDA target keeps the kernel of gurun.go,
// which takes every kind of operand and function.

// guKernelName is the name of every generated gufunc kernel.
const guKernelName = "guKernel"

// compiledErr says why the compiled backends cannot run the gufunc's CUDA
// target, or nil. They take a top-level function of 1-D cores ([]E), 2-D
// and 3-D cores (cuda.Array2[E], cuda.Array3[E]), scalars (() inputs) and
// pointers (() outputs) of Go's predeclared numeric, complex and bool
// types and of cuda.Float16.
func (g *GUfunc) compiledErr() error {
	for k, p := range g.ops {
		what := fmt.Sprintf("%s %s", p.what(k, len(g.lay.ins)), coreString(p.dims))
		switch {
		case p.info == nil || p.elem.PkgPath() != "" && p.elem != float16Type || (p.rank() <= 1 && p.typ.PkgPath() != "" && p.typ != float16Type):
			return fmt.Errorf("%s has type %s; the compiled gufunc kernels take Go's predeclared numeric, complex and bool types and cuda.Float16, not named types", what, p.typ)
		}
	}
	return topLevelErr(g.fn.Interface())
}

// compiledKernel is a gufunc's CUDA-target kernel for the compiled
// backends, made at its first launch there.
type compiledKernel struct {
	once sync.Once
	k    *cuda.Kernel
	fn   reflect.Value // the function, as a value of its unnamed func type
	err  error
}

// compiled returns the gufunc's compiled-backend kernel, making and
// registering it on first use.
func (g *GUfunc) compiled() (*compiledKernel, error) {
	c := g.compiledK
	c.once.Do(func() {
		ft := g.fn.Type()
		c.fn = g.fn.Convert(reflect.FuncOf(ins(ft), nil, false))
		kt := g.compiledKernelType()
		if err := frontend.RegisterSource(kt, guKernelName, []byte(g.source())); err != nil {
			c.err = err
			return
		}
		c.k = cuda.Jit(g.makeCompiledKernel(kt).Interface())
	})
	return c, c.err
}

// compiledKernelType is the generated kernel's type: func(cuda.Thread,
// f, a0 []E0, ..., loops int, shape, strides []int, n0, ... int), with
// one n per core dimension of each operand, in order.
func (g *GUfunc) compiledKernelType() reflect.Type {
	intT, intsT := reflect.TypeFor[int](), reflect.TypeFor[[]int]()
	in := []reflect.Type{reflect.TypeFor[cuda.Thread](), reflect.FuncOf(ins(g.fn.Type()), nil, false)}
	for _, p := range g.ops {
		in = append(in, reflect.SliceOf(p.elem))
	}
	in = append(in, intT, intsT, intsT)
	for _, p := range g.ops {
		for range p.rank() {
			in = append(in, intT)
		}
	}
	return reflect.FuncOf(in, nil, false)
}

// source is the generated kernel's Go source: one thread per loop index
// finds each operand's offset from the loop shape and the operands'
// strides over it, and calls f with a 1-D core as a sub-slice, a 2-D or
// 3-D core as a cuda.MustView2/MustView3 of one, an () input as its value
// and an () output as a pointer to it. It depends on
// the kernel's type only (fn's parameter types say each operand's kind),
// not on the layout's names, as RegisterSource requires.
func (g *GUfunc) source() string {
	nops := len(g.ops)
	var params, offs, steps, call []string
	// reflect spells a type argument with its package path
	// (cuda.Array2[github.com/nugo-dev/nugo/cuda.Float16]); the source
	// names package cuda as cuda.
	ft := strings.ReplaceAll(reflect.FuncOf(ins(g.fn.Type()), nil, false).String(), float16Type.PkgPath()+".", "cuda.")
	params = append(params, "t cuda.Thread", "f "+ft)
	var cores, lens []string
	for k, p := range g.ops {
		params = append(params, fmt.Sprintf("a%d []%s", k, p.elem))
		offs = append(offs, fmt.Sprintf("o%d", k))
		if k == 0 {
			steps = append(steps, "\t\to0 += x * strides[d]")
		} else {
			steps = append(steps, fmt.Sprintf("\t\to%d += x * strides[%d*nd+d]", k, k))
		}
		switch r := p.rank(); {
		case r == 1:
			cores = append(cores, fmt.Sprintf("n%d int", k))
			call = append(call, fmt.Sprintf("a%[1]d[o%[1]d:o%[1]d+n%[1]d:o%[1]d+n%[1]d]", k))
		case r > 1:
			// n2_0, n2_1 int: the core's dimensions; len2 their product.
			dims := make([]string, r)
			for d := range dims {
				dims[d] = fmt.Sprintf("n%d_%d", k, d)
			}
			cores = append(cores, strings.Join(dims, ", ")+" int")
			lens = append(lens, fmt.Sprintf("\tlen%d := %s\n", k, strings.Join(dims, " * ")))
			call = append(call, fmt.Sprintf("cuda.MustView%[1]d(a%[2]d[o%[2]d:o%[2]d+len%[2]d:o%[2]d+len%[2]d], %[3]s)", r, k, strings.Join(dims, ", ")))
		case p.out:
			call = append(call, fmt.Sprintf("&a%d[o%d]", k, k))
		default:
			call = append(call, fmt.Sprintf("a%d[o%d]", k, k))
		}
	}
	params = append(params, "loops int", "shape, strides []int")
	params = append(params, cores...)
	zeros := strings.TrimSuffix(strings.Repeat("0, ", nops), ", ")
	return fmt.Sprintf(`package vectorize

import "github.com/nugo-dev/nugo/cuda"

// %[1]s calls f for loop index t.Grid1() of a gufunc.
func %[1]s(%[2]s) {
	i := t.Grid1()
	if i >= loops {
		return
	}
	nd := len(shape)
	%[3]s := %[4]s
	for d := nd - 1; d >= 0; d-- {
		q := i / shape[d]
		x := i - q*shape[d]
		i = q
%[5]s
	}
%[6]s	f(%[7]s)
}
`, guKernelName, strings.Join(params, ", "), strings.Join(offs, ", "), zeros, strings.Join(steps, "\n"), strings.Join(lens, ""), strings.Join(call, ", "))
}

// makeCompiledKernel makes the Go value of the generated kernel, of type
// kt. The compiled backends compile the registered source instead of
// calling it; it does the same as the source, through the function's Go
// value, so that it is correct on any backend.
func (g *GUfunc) makeCompiledKernel(kt reflect.Type) reflect.Value {
	nops := len(g.ops)
	return reflect.MakeFunc(kt, func(vals []reflect.Value) []reflect.Value {
		i := vals[0].Interface().(cuda.Thread).Grid1()
		rest := vals[2+nops:]
		if i >= int(rest[0].Int()) {
			return nil
		}
		shape, strides := rest[1].Interface().([]int), rest[2].Interface().([]int)
		ns := rest[3:]
		args := make([]guArg, nops)
		for k, p := range g.ops {
			args[k].core = make([]int, p.rank())
			for d := range args[k].core {
				args[k].core[d], ns = int(ns[0].Int()), ns[1:]
			}
		}
		g.newCaller(args, vals[2:2+nops]).call(func(k int) int {
			return offset(i, shape, strides[k*len(shape):(k+1)*len(shape)])
		})
		return nil
	})
}

// launchCompiled runs the call on the CUDA target of a compiled backend.
func (g *GUfunc) launchCompiled(args []guArg, p guPlan, n int) error {
	c, err := g.compiled()
	if err != nil {
		return g.cfg.errorf("target cuda: %w", err)
	}
	launchArgs := make([]any, 0, 2*len(args)+5)
	launchArgs = append(launchArgs, c.fn.Interface())
	for _, a := range args {
		if a.dev != nil {
			launchArgs = append(launchArgs, a.dev)
		} else {
			launchArgs = append(launchArgs, a.data.Interface())
		}
	}
	strides := make([]int, 0, len(args)*len(p.loop))
	for _, st := range p.strides {
		strides = append(strides, st...)
	}
	launchArgs = append(launchArgs, n, cuda.In(p.loop), cuda.In(strides))
	for _, a := range args {
		for _, n := range a.core {
			launchArgs = append(launchArgs, n)
		}
	}
	if err := c.k.LaunchWith(g.cfg.launch(n), launchArgs...); err != nil {
		return g.cfg.launchError(err)
	}
	return nil
}
