package vectorize

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"

	"github.com/nugo-dev/nugo/cuda"
)

// Target is where a ufunc runs: Numba's target= argument.
type Target string

// The targets.
const (
	// Auto is CUDA when package cuda's backend is a GPU that can run the
	// ufunc kernels, and Parallel otherwise.
	Auto Target = "auto"
	// CPU runs on one goroutine.
	CPU Target = "cpu"
	// Parallel splits the work over GOMAXPROCS goroutines.
	Parallel Target = "parallel"
	// CUDA launches a kernel through package cuda on its current backend.
	CUDA Target = "cuda"
)

// ErrTargetUnavailable reports a target that cannot run here, such as the
// CUDA target on a backend whose compiler cannot take the scalar function.
var ErrTargetUnavailable = errors.New("target unavailable")

// Option configures a ufunc or gufunc. Targets are options:
// vectorize.New2(f, vectorize.Parallel).
type Option interface {
	apply(*config)
}

func (t Target) apply(c *config) { c.target = t }

type nameOption string

func (n nameOption) apply(c *config) { c.name = string(n) }

// Name sets the name that errors use for the function; by default it is
// the scalar function's Go name.
func Name(name string) Option { return nameOption(name) }

type blockOption int

func (b blockOption) apply(c *config) { c.block = int(b) }

// BlockSize sets the threads per block of the CUDA target's launches
// (default 256).
func BlockSize(threads int) Option { return blockOption(threads) }

type streamOption struct{ s *cuda.Stream }

func (o streamOption) apply(c *config) { c.stream = o.s }

// Stream makes the CUDA target's calls asynchronous on s (Numba's
// stream= argument): a call queues its copies and launches on s and
// returns, and its results are valid once s has synchronised
// (s.Synchronize, or a Query that returns true), which also returns the
// errors of the kernels. A call on a stream runs on the CUDA target (the
// Auto target chooses it on every backend, so that the call is ordered
// with the stream's other work); the CPU and Parallel targets refuse a
// stream. A nil stream is the default stream: calls are synchronous. As
// an option of New1 to New4 or GU it applies to every call; the On
// methods give a ufunc bound to another stream for some calls.
//
// Device-array operands and outputs are not copied. Host slices are
// copied as for any launch on a stream (see cuda.Pinned): straight
// between the device and memory pinned with cuda.Pin, asynchronously;
// other Go memory through a page-locked staging buffer, which the call
// fills before it returns and whose results the stream's Synchronize
// copies back. Either way, host operands must not be changed, nor host
// outputs read, until the stream has synchronised.
func Stream(s *cuda.Stream) Option { return streamOption{s} }

// config is what every ufunc and gufunc carries besides its function.
type config struct {
	name   string
	target Target
	block  int
	stream *cuda.Stream // the CUDA target's stream; nil: synchronous
	err    error        // a problem with the construction, reported by every call
	// compiled says why the CUDA target cannot run the function on the
	// compiled backends (gpu, ptxsim); nil when it can.
	compiled error
}

func newConfig(fn any, opts []Option) config {
	c := config{target: Auto, block: 256}
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	if c.name == "" {
		c.name = funcName(fn)
	}
	c.compiled = compiledErr(fn)
	switch c.target {
	case Auto, CPU, Parallel, CUDA:
	case "":
		c.target = Auto
	default:
		c.err = fmt.Errorf("vectorize %s: unknown target %q; use auto, cpu, parallel or cuda", c.name, string(c.target))
	}
	if c.block < 1 || c.block > 1024 {
		c.err = fmt.Errorf("vectorize %s: block size %d; it must be between 1 and 1024", c.name, c.block)
	}
	if v := reflect.ValueOf(fn); v.Kind() == reflect.Func && v.IsNil() {
		c.err = fmt.Errorf("vectorize %s: the scalar function is nil", c.name)
	}
	return c
}

// errorf makes an error about the function named in c.
func (c *config) errorf(format string, args ...any) error {
	return fmt.Errorf("vectorize %s: "+format, append([]any{c.name}, args...)...)
}

// resolve picks the target of one call; device says whether an operand is
// a device array. A call on a stream runs on the CUDA target, as one with
// a device array does.
func (c *config) resolve(device bool) (Target, error) {
	if c.err != nil {
		return "", c.err
	}
	t := c.target
	if device {
		if t == CPU || t == Parallel {
			return "", c.errorf("a device array operand needs the cuda or auto target, not %s; copy it to the host with ToHost", t)
		}
		t = CUDA
	}
	if c.stream != nil {
		if t == CPU || t == Parallel {
			return "", c.errorf("a call on a stream needs the cuda or auto target, not %s; drop the stream (On(nil)) to run on the host", t)
		}
		t = CUDA
	}
	if t == Auto {
		t = Parallel
		if b, err := cuda.CurrentBackend(); err == nil && b == cuda.GPU && cudaTargetRuns(b, c.compiled) == nil {
			t = CUDA
		}
	}
	if t == CUDA {
		b, err := cuda.CurrentBackend()
		if err != nil {
			return "", c.errorf("target cuda: %w", err)
		}
		if err := cudaTargetRuns(b, c.compiled); err != nil {
			return "", c.errorf("target cuda: %w", err)
		}
	}
	return t, nil
}

// cudaTargetRuns says whether the CUDA target's kernels can run on backend
// b for a function that the compiled backends cannot take for the reason
// why (nil when they can). The kernels take the scalar function as a func
// argument: the cpu backend calls any function, the compiled backends
// (gpu, ptxsim) compile the kernel for the function, which must be a
// top-level function.
func cudaTargetRuns(b cuda.Backend, why error) error {
	if b == cuda.CPU || why == nil {
		return nil
	}
	return fmt.Errorf("%w: on the %s backend, %v; use target parallel or NUGO_BACKEND=cpu", ErrTargetUnavailable, b, why)
}

// compiledErr says why the compiled backends cannot run the CUDA target's
// kernels with fn, or nil. They compile the kernels (package vectorize's
// generic kernels, instantiated with fn's element types) specialised for
// fn, so fn must be a top-level function, not a closure or a method value,
// and its element types Go's predeclared numeric types or cuda.Float16,
// which the kernels' package can name.
func compiledErr(fn any) error {
	if err := topLevelErr(fn); err != nil {
		return err
	}
	t := reflect.TypeOf(fn)
	for _, et := range append(ins(t), outs(t)...) {
		if et.PkgPath() != "" && et != float16Type {
			return fmt.Errorf("element type %s is a named type; the compiled kernels take Go's predeclared numeric types and cuda.Float16", et)
		}
	}
	return nil
}

// float16Type is cuda.Float16, the one named element type the compiled
// kernels take.
var float16Type = reflect.TypeFor[cuda.Float16]()

// topLevelErr says why fn is not a top-level function, or nil: the
// compiled backends call the function bound to a kernel's func parameter
// directly, so it cannot be a closure or a method value.
func topLevelErr(fn any) error {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return errors.New("the function is nil")
	}
	f := runtime.FuncForPC(v.Pointer())
	if f == nil {
		return errors.New("the runtime knows nothing about the function")
	}
	name := strings.ReplaceAll(f.Name(), "[...]", "")
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if strings.Count(name, ".") != 1 {
		return errors.New("the function is a closure or a method value; pass a top-level function (declared with func at package level, generic instantiations too), not a closure")
	}
	return nil
}

func ins(t reflect.Type) []reflect.Type {
	out := make([]reflect.Type, t.NumIn())
	for i := range out {
		out[i] = t.In(i)
	}
	return out
}

func outs(t reflect.Type) []reflect.Type {
	out := make([]reflect.Type, t.NumOut())
	for i := range out {
		out[i] = t.Out(i)
	}
	return out
}

// funcName is fn's Go name without its package path.
func funcName(fn any) string {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return "func"
	}
	f := runtime.FuncForPC(v.Pointer())
	if f == nil {
		return "func"
	}
	name := f.Name()
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.Index(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSuffix(name, "[...]") // a generic function's instantiation
}

// launch is the launch configuration of the CUDA target for n threads,
// one per element, on the configured stream.
func (c *config) launch(n int) cuda.LaunchConfig {
	grid, block := c.grid(n)
	return cuda.LaunchConfig{Grid: grid, Block: block, Stream: c.stream}
}

// launchError reports a failed CUDA-target launch. A thread that failed
// is reported as the function's failure, without the generated kernel's
// name; the error still wraps the *cuda.KernelError.
func (c *config) launchError(err error) error {
	var ke *cuda.KernelError
	if errors.As(err, &ke) {
		return fmt.Errorf("vectorize %s: target cuda: the function failed in %w", c.name, ke)
	}
	return c.errorf("target cuda: %w", err)
}
