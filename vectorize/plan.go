package vectorize

import (
	"errors"
	"fmt"
	"sync"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/cpu"
)

// maxArity is the most operands a ufunc takes.
const maxArity = 4

// plan is how an element-wise call walks its output: out is contiguous
// with shape shape, and operand k's element for output position (i0..id)
// is at sum(i*strides[k]).
type plan struct {
	shape   []int
	n       int
	ops     int
	strides [maxArity][]int
	// inc is each operand's step along the last dimension: 1 or 0 (broadcast).
	inc [maxArity]int
	// flat plans have one dimension: every operand is as large as the
	// output or has a single element.
	flat bool
}

func newPlan(out []int, ins ...[]int) plan {
	p := plan{shape: out, n: size(out), ops: len(ins), flat: true}
	for _, s := range ins {
		if size(s) != 1 && !equalShape(s, out) {
			p.flat = false
		}
	}
	if p.flat || len(out) == 0 {
		p.flat = true
		p.shape = []int{p.n}
		for k, s := range ins {
			if size(s) == p.n && p.n != 1 {
				p.inc[k] = 1
			}
			p.strides[k] = []int{p.inc[k]}
		}
		return p
	}
	for k, s := range ins {
		p.strides[k] = stridesFor(s, out)
		p.inc[k] = p.strides[k][len(out)-1]
	}
	return p
}

// segment is called on runs of the output that are contiguous in the
// output: n elements from output offset o, operand k starting at offs[k]
// and stepping by plan.inc[k].
type segment func(o int, offs *[maxArity]int, n int)

// walk calls body on the segments that cover output positions [lo, hi).
func (p *plan) walk(lo, hi int, body segment) {
	var offs [maxArity]int
	if p.flat {
		for k := range p.ops {
			offs[k] = lo * p.inc[k]
		}
		body(lo, &offs, hi-lo)
		return
	}
	nd := len(p.shape)
	last := p.shape[nd-1]
	for pos := lo; pos < hi; {
		col := pos % last
		for k := range p.ops {
			off, r, st := 0, pos, p.strides[k]
			for d := nd - 1; d >= 0; d-- {
				off += r % p.shape[d] * st[d]
				r /= p.shape[d]
			}
			offs[k] = off
		}
		n := min(last-col, hi-pos)
		body(pos, &offs, n)
		pos += n
	}
}

// Chunking of the Parallel target: calls below parallelMin elements run on
// one goroutine; larger ones are split in chunks of parallelChunk output
// elements, handed out to GOMAXPROCS workers.
const (
	parallelMin   = 1 << 15
	parallelChunk = 1 << 16
)

// exec runs body over every output position on the target (CPU or
// Parallel), turning a panic of the scalar function into an error.
func (c *config) exec(t Target, p *plan, body segment) error {
	return c.run(t, p.n, func(lo, hi int) { p.walk(lo, hi, body) })
}

// run calls work on ranges that cover [0, n): one range on the CPU target
// or for small n, chunks spread over all cores on the Parallel target.
func (c *config) run(t Target, n int, work func(lo, hi int)) error {
	if n <= 0 {
		return nil
	}
	if t != Parallel || n < parallelMin || cpu.Workers() == 1 {
		return c.safe(func() { work(0, n) })
	}
	chunks := (n + parallelChunk - 1) / parallelChunk
	return cpu.Run(chunks, 0, func() func(int) error {
		return func(i int) error {
			lo := i * parallelChunk
			return c.safe(func() { work(lo, min(lo+parallelChunk, n)) })
		}
	})
}

// runEach calls work(i) for i in [0, parts): on one goroutine, or spread
// over all cores on the Parallel target.
func (c *config) runEach(t Target, parts int, work func(i int)) error {
	if parts <= 0 {
		return nil
	}
	if t != Parallel || parts == 1 {
		return c.safe(func() {
			for i := range parts {
				work(i)
			}
		})
	}
	return cpu.Run(parts, 0, func() func(int) error {
		return func(i int) error { return c.safe(func() { work(i) }) }
	})
}

// safe runs fn and returns a panic of the scalar function as an error.
func (c *config) safe(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{fmt.Errorf("vectorize %s: the function panicked: %v", c.name, r)}
		}
	}()
	fn()
	return nil
}

// panicError is a panic of the scalar function, as safe reports it.
type panicError struct{ error }

func (e *panicError) Unwrap() error { return e.error }

// partial adds to the error of a call that writes into outputs the
// caller owns (CallInto, Into) that they may hold some results: the
// function failed (a panic on the host, a failed thread on the cuda
// target) after others had written theirs. Refused calls write nothing
// and keep their error as it is.
func partial(err error) error {
	var pe *panicError
	var ke *cuda.KernelError
	if errors.As(err, &pe) || errors.As(err, &ke) {
		return fmt.Errorf("%w (the outputs may be partially written)", err)
	}
	return err
}

// mapKernels are a ufunc's CUDA-target kernels, made at its first CUDA call.
type mapKernels struct {
	once      sync.Once
	flat      *cuda.Kernel
	broadcast *cuda.Kernel
}

// grid is the launch shape for n threads, one per element.
func (c *config) grid(n int) (grid, block cuda.Dim3) {
	return cuda.Dim1((n + c.block - 1) / c.block), cuda.Dim1(c.block)
}

// kernelShape is the output shape as the broadcast kernels take it: a 0-d
// output is one element of shape (1,).
func kernelShape(shape []int) []int {
	if len(shape) == 0 {
		return []int{1}
	}
	return shape
}

// shape checks a call's operands: the first error of errs, then that the
// input shapes broadcast, then (when out is not nil) that *out is the
// broadcast shape. It returns the broadcast shape.
func (c *config) shape(out *[]int, errs []error, ins ...[]int) ([]int, error) {
	if c.err != nil {
		return nil, c.err
	}
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("vectorize %s: %w", c.name, err)
		}
	}
	shape, err := broadcast(ins...)
	if err != nil {
		return nil, fmt.Errorf("vectorize %s: %w", c.name, err)
	}
	if _, ok := checkedSize(shape); !ok {
		return nil, fmt.Errorf("vectorize %s: the operands broadcast to a %w", c.name, tooLarge(shape))
	}
	if out != nil && !equalShape(*out, shape) {
		return nil, fmt.Errorf("vectorize %s: output of shape %s for operands that broadcast to shape %s: %w", c.name, shapeString(*out), shapeString(shape), ErrShape)
	}
	return shape, nil
}

// workers is the number of goroutines of the Parallel target.
func workers() int { return cpu.Workers() }
