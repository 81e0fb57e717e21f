package cuda

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// Option changes how a kernel is compiled and run: a set of Flags (Debug,
// FastMath, LineInfo, combined with |) or MaxRegisters(n). Flags add up
// over the options given; of several MaxRegisters the last counts. A nil
// Option is ignored.
type Option interface {
	apply(o *Options)
}

// Flags are the options that are on or off. Each is an Option; several
// combine with |, as in cuda.Jit(fn, cuda.Debug|cuda.LineInfo).
type Flags uint

const (
	// Debug checks indexing and integer division in compiled kernels and
	// reports the failing thread with its Go source position, as the CPU
	// backend always does. NUGO_DEBUG=1 turns it on for every kernel.
	Debug Flags = 1 << iota
	// FastMath lets the GPU compiler contract multiplies and adds into FMA
	// and use approximate division and square roots.
	FastMath
	// LineInfo maps the compiled code to Go source lines (Numba's
	// lineinfo=True): the PTX carries .file and .loc directives and the
	// GPU backend has the driver keep them
	// (CU_JIT_GENERATE_LINE_INFO), so that Nsight Compute, Nsight Systems
	// and cuda-gdb show the Go line of each instruction; the ptxsim
	// backend names the Go line of a faulting instruction. The code is
	// the same as without it. NUGO_LINEINFO=1 turns it on for every
	// kernel.
	LineInfo
	// Strict makes the CPU backend compile the kernel for a GPU (sm_75),
	// with the functions bound to its func parameters, before it runs the
	// kernel natively, the first time for each set of functions: what a
	// GPU would refuse (a map, an interface, a closure passed for a func
	// parameter or to vectorize's CUDA target) is then a *CompileError in
	// a plain go test on a machine without a GPU, instead of code that
	// runs on the CPU and fails on the first GPU. The compiled backends
	// compile every kernel anyway. NUGO_STRICT=1 turns it on for every
	// kernel.
	Strict
)

// StrictSM is the compute capability Strict compiles for (sm_75, as nugo
// vet does by default).
const StrictSM = 75

func (f Flags) apply(o *Options) { o.Flags |= f }

// String names the flags that are set, as "Debug|LineInfo"; no flags is "0".
func (f Flags) String() string {
	var names []string
	for _, n := range []struct {
		flag Flags
		name string
	}{{Debug, "Debug"}, {FastMath, "FastMath"}, {LineInfo, "LineInfo"}, {Strict, "Strict"}} {
		if f&n.flag != 0 {
			names = append(names, n.name)
			f &^= n.flag
		}
	}
	if f != 0 {
		names = append(names, fmt.Sprintf("%#x", uint(f)))
	}
	if len(names) == 0 {
		return "0"
	}
	return strings.Join(names, "|")
}

// Options are the settings a kernel is compiled with (Kernel.Options).
type Options struct {
	Flags Flags
	// MaxRegisters caps the registers per thread of the compiled kernel
	// (see the MaxRegisters option); 0 means no cap.
	MaxRegisters int
	// MaxThreads and MinBlocksPerSM are the kernel's launch bounds (see
	// the LaunchBounds option); 0 means none.
	MaxThreads, MinBlocksPerSM int
}

type launchBounds struct{ threads, blocks int }

func (b launchBounds) apply(o *Options) { o.MaxThreads, o.MinBlocksPerSM = b.threads, b.blocks }

// LaunchBounds promises that the kernel is launched with blocks of at most
// maxThreads threads (1 to 1024) and asks that minBlocksPerSM blocks fit on
// a multiprocessor at once (0: no wish): Numba's launch_bounds, CUDA C's
// __launch_bounds__, PTX's .maxntid and .minnctapersm. The GPU's compiler
// then budgets registers for that block size. A launch with a larger
// block is refused before anything runs, on every backend; ForAll picks
// blocks within the bound. Values out of range make the kernel fail with
// an error that says so. Of several LaunchBounds the last counts.
func LaunchBounds(maxThreads, minBlocksPerSM int) Option {
	return launchBounds{maxThreads, minBlocksPerSM}
}

type maxRegisters int

func (n maxRegisters) apply(o *Options) { o.MaxRegisters = int(n) }

// MaxRegisters caps the registers each thread of the kernel may use
// (Numba's max_registers, PTX's .maxnreg), n between 16 and 255, or 0 for
// the compiler's own choice. Fewer registers per thread let more threads
// run at once on a multiprocessor, at the cost of spilling values to local
// memory; the GPU's compiler raises a cap below its architecture's minimum
// (24 from sm_70 on) to that minimum. A value out of range makes the
// kernel fail to compile with an error that says so. The cpu and ptxsim
// backends ignore it; `nugo ptx -maxregs n -sass` shows the registers
// ptxas allots with the cap.
func MaxRegisters(n int) Option { return maxRegisters(n) }

// Kernel is a Go function prepared for launching over a grid of threads.
// Make one with Jit or Compile; it is safe for concurrent use.
type Kernel struct {
	fn     reflect.Value
	name   string
	params []param
	opts   Options
	err    error // why fn is not a kernel; Jit defers it to Launch

	mu       sync.Mutex
	compiled map[any]any // per-backend compiled forms, keyed by the backend
}

// LaunchConfig is the full set of launch parameters: Numba's
// kernel[grid, block, stream, sharedmem].
type LaunchConfig struct {
	Grid, Block Dim3
	// Stream, when not nil, makes the launch asynchronous: Launch returns
	// once the launch is queued, and errors from running the kernel are
	// returned by the stream's Synchronize.
	Stream *Stream
	// SharedMem is the size in bytes of the block's dynamic shared memory
	// (DynamicSharedArray).
	SharedMem int
	// Cooperative makes the launch cooperative, as Numba makes the launch
	// of a kernel that uses cuda.cg.this_grid() (cuLaunchCooperativeKernel
	// on the GPU): every block of the grid is resident at once, so that
	// the threads can wait for each other with SyncGrid. The grid may then
	// have at most MaxCooperativeBlocks blocks; a larger one is refused
	// before anything runs. A kernel that calls SyncGrid must be launched
	// so.
	Cooperative bool
	// Device, when not nil, is the device the launch runs on (DeviceAt);
	// nil is the current device. A Stream's device is the launch's device,
	// and a Device other than it is an error.
	Device *DeviceHandle
}

// Jit prepares fn for launching. fn must be a function whose first
// parameter is a Thread and whose other parameters are numbers, bools,
// slices of numbers, Array2, Array3 or funcs of numbers, bools and
// Float16s (which may also take slices of and pointers to those, Array2
// and Array3),
// returning nothing. Problems with fn are reported by the first Launch; on
// a GPU backend the kernel is compiled at its first launch.
//
// A func parameter, such as f func(float32, float32) float32, takes a
// function at launch, which the kernel calls. The cpu backend calls it as
// Go does; the compiled backends (gpu, ptxsim) compile the kernel once per
// set of functions passed, calling each directly as a device function, so
// there it must be a top-level function (of any package, generic
// instantiations included) that the kernel's rules allow, not a closure or
// a method value.
func Jit(fn any, opts ...Option) *Kernel {
	k := &Kernel{opts: envOptions()}
	for _, o := range opts {
		if o != nil {
			o.apply(&k.opts)
		}
	}
	k.err = k.inspect(fn)
	if r := k.opts.MaxRegisters; k.err == nil && r != 0 && (r < compiler.MinMaxRegisters || r > compiler.MaxMaxRegisters) {
		k.err = fmt.Errorf("kernel %s: MaxRegisters(%d): a thread's register cap must be between %d and %d (or 0 for none)", k.name, r, compiler.MinMaxRegisters, compiler.MaxMaxRegisters)
	}
	if o := k.opts; k.err == nil && (o.MaxThreads != 0 || o.MinBlocksPerSM != 0) && (o.MaxThreads < 1 || o.MaxThreads > 1024 || o.MinBlocksPerSM < 0) {
		k.err = fmt.Errorf("kernel %s: LaunchBounds(%d, %d): the threads per block must be between 1 and 1024 and the blocks per multiprocessor at least 0", k.name, o.MaxThreads, o.MinBlocksPerSM)
	}
	return k
}

// Compile prepares fn like Jit, but checks it, and on a GPU backend
// compiles it, at once.
func Compile(fn any, opts ...Option) (*Kernel, error) {
	k := Jit(fn, opts...)
	if k.err != nil {
		return nil, k.err
	}
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", k.name, err)
	}
	if p, ok := be.(preparer); ok {
		if err := p.prepare(k); err != nil {
			return nil, err
		}
	}
	if k.opts.Flags&Strict != 0 && be.kind() == CPU {
		// As a GPU backend's Compile: the source checked, and without
		// func parameters (bound at launch) the kernel compiled.
		var err error
		if k.hasFuncParams() {
			err = k.checkSource()
		} else {
			_, err = k.module(k.target(StrictSM), nil)
		}
		if err != nil {
			return nil, err
		}
	}
	return k, nil
}

// preparer is implemented by backends that compile kernels.
type preparer interface {
	prepare(k *Kernel) error
}

// envOptions are the options the environment turns on for every kernel:
// NUGO_DEBUG=1 (Debug), NUGO_LINEINFO=1 (LineInfo) and NUGO_STRICT=1
// (Strict).
func envOptions() Options {
	var o Options
	if os.Getenv("NUGO_DEBUG") == "1" {
		o.Flags |= Debug
	}
	if os.Getenv("NUGO_STRICT") == "1" {
		o.Flags |= Strict
	}
	if os.Getenv("NUGO_LINEINFO") == "1" {
		o.Flags |= LineInfo
	}
	return o
}

// usable says why k cannot be launched or compiled: nil, not made by Jit
// or Compile, or not a kernel (the error Jit deferred).
func (k *Kernel) usable() error {
	switch {
	case k == nil:
		return errors.New("nil *cuda.Kernel; make one with Jit or Compile")
	case k.err != nil:
		return k.err
	case !k.fn.IsValid():
		return errors.New("kernel was not made by Jit or Compile")
	}
	return nil
}

// Name is the kernel function's name, without its package path ("" for a
// nil Kernel).
func (k *Kernel) Name() string {
	if k == nil {
		return ""
	}
	return k.name
}

// Options returns the options the kernel was made with, those the
// environment turns on (NUGO_DEBUG, NUGO_LINEINFO) included.
func (k *Kernel) Options() Options {
	if k == nil {
		return Options{}
	}
	return k.opts
}

// Func returns the kernel's Go function (nil for a nil Kernel).
func (k *Kernel) Func() any {
	if k == nil || !k.fn.IsValid() {
		return nil
	}
	return k.fn.Interface()
}

// Launch runs the kernel over grid blocks of block threads each and waits
// for it to finish. args are the kernel's parameters after the Thread:
// host slices and Array2/Array3 values are copied to the device and back
// after the kernel (on the CPU backend the kernel works on them directly);
// DeviceArrays stay on the device; scalars must convert to the parameter's
// type without loss. Everything is checked before anything runs.
//
// Arguments may share memory (the same slice or device array twice, or
// overlapping slices of one array): they alias on every backend, as they
// do in Go, because host memory is copied to the device by range, not by
// argument.
func (k *Kernel) Launch(grid, block Dim3, args ...any) error {
	return k.LaunchWith(LaunchConfig{Grid: grid, Block: block}, args...)
}

// LaunchWith runs the kernel with a full launch configuration; with a
// Stream it is asynchronous.
func (k *Kernel) LaunchWith(cfg LaunchConfig, args ...any) error {
	return k.launch(cfg, args, nil)
}

// launch checks and runs a launch. shape, when not nil, chooses the grid
// and block once the arguments are bound (ForAll); the shape is checked
// after it, and before binding otherwise, so that a bad shape is reported
// first.
func (k *Kernel) launch(cfg LaunchConfig, args []any, shape func(be backend, cfg *LaunchConfig, bound []boundArg) error) (err error) {
	if err := k.usable(); err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("launch %s: internal error: %v", k.name, r)
		}
	}()
	be, err := k.backendFor(cfg)
	if err != nil {
		return fmt.Errorf("launch %s: %w", k.name, err)
	}
	lim := be.limits()
	if shape == nil {
		if err := lim.checkShape(cfg.Grid, cfg.Block); err != nil {
			return fmt.Errorf("launch %s: %w", k.name, err)
		}
		if err := k.checkBounds(cfg.Block); err != nil {
			return fmt.Errorf("launch %s: %w", k.name, err)
		}
	}
	if cfg.SharedMem < 0 || cfg.SharedMem > lim.MaxSharedMemory {
		return fmt.Errorf("launch %s: dynamic shared memory of %d bytes; it must be between 0 and %d", k.name, cfg.SharedMem, lim.MaxSharedMemory)
	}
	bound, err := k.bind(be, args)
	if err != nil {
		return fmt.Errorf("launch %s: %w", k.name, err)
	}
	if shape != nil {
		if err := shape(be, &cfg, bound); err != nil {
			return fmt.Errorf("launch %s: %w", k.name, err)
		}
		if cfg.Grid.X == 0 {
			return nil // no threads: nothing to run
		}
		if err := lim.checkShape(cfg.Grid, cfg.Block); err != nil {
			return fmt.Errorf("launch %s: %w", k.name, err)
		}
		if err := k.checkBounds(cfg.Block); err != nil {
			return fmt.Errorf("launch %s: %w", k.name, err)
		}
	}
	if cfg.Cooperative {
		if err := checkCooperative(be, k, cfg, bound); err != nil {
			return fmt.Errorf("launch %s: %w", k.name, err)
		}
	}
	if err := k.strictCheck(be, bound); err != nil {
		return fmt.Errorf("launch %s: %w", k.name, err)
	}
	if err := be.launch(cfg.Stream, k, cfg, bound); err != nil {
		return fmt.Errorf("launch %s: %w", k.name, err)
	}
	return nil
}

// checkBounds refuses a block larger than the kernel's LaunchBounds.
func (k *Kernel) checkBounds(block Dim3) error {
	if m := k.opts.MaxThreads; m > 0 && block.Size() > m {
		return fmt.Errorf("block %v has %d threads; the kernel's LaunchBounds allow at most %d", block, block.Size(), m)
	}
	return nil
}

// backendFor is the backend of the device a launch runs on: the
// stream's, else cfg.Device's, else the current one.
func (k *Kernel) backendFor(cfg LaunchConfig) (backend, error) {
	var be backend
	if h := cfg.Device; h != nil {
		if h.be == nil {
			return nil, errors.New("LaunchConfig.Device was not made by DeviceAt or AllDevices")
		}
		be = h.be
	} else {
		var err error
		if be, err = current(); err != nil {
			return nil, err
		}
	}
	if s := cfg.Stream; s != nil {
		if s.be == nil {
			return nil, errors.New("stream was not made by NewStream")
		}
		if s.be.root() != be.root() {
			return nil, fmt.Errorf("stream belongs to the %s backend, not %s", s.be.kind(), be.kind())
		}
		if cfg.Device != nil && !sameDevice(s.be, be) {
			return nil, fmt.Errorf("the stream is on %s, LaunchConfig.Device is %s", s.be.deviceName(), be.deviceName())
		}
		be = s.be
	}
	return be, nil
}

// strictCheck compiles the kernel for a GPU, with the launch's functions,
// before the CPU backend runs it with Strict (cached per set of
// functions, as every compiled form).
func (k *Kernel) strictCheck(be backend, bound []boundArg) error {
	if k.opts.Flags&Strict == 0 || be.kind() != CPU {
		return nil
	}
	_, err := k.module(k.target(StrictSM), bound)
	return err
}

// compiledFor returns the kernel's compiled form for key, making it with
// compile on first use.
func (k *Kernel) compiledFor(key any, compile func() (any, error)) (any, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if c, ok := k.compiled[key]; ok {
		return c, nil
	}
	c, err := compile()
	if err != nil {
		return nil, err
	}
	if k.compiled == nil {
		k.compiled = map[any]any{}
	}
	k.compiled[key] = c
	return c, nil
}

// paramKind is how a kernel parameter is passed.
type paramKind int

const (
	scalarParam paramKind = iota
	sliceParam
	arrayParam // Array2 or Array3
	funcParam  // a func of numbers, bools and Float16s (and slices of and pointers to them, Array2 and Array3 in), bound to a function at launch
	// valueParam is an array or struct of numbers, bools and Float16s
	// (and arrays and structs of them) passed by value: the launch copies
	// its bytes as Go lays them out.
	valueParam
)

// param describes one kernel parameter after the Thread.
type param struct {
	index int // 1-based position among the launch arguments
	kind  paramKind
	typ   reflect.Type
	elem  reflect.Type // element type of slices and arrays
	ndim  int          // 1 for slices, 2 or 3 for arrays
}

func (p param) String() string { return fmt.Sprintf("argument %d (%s)", p.index, p.typ) }

var (
	threadType  = reflect.TypeFor[Thread]()
	float16Type = reflect.TypeFor[Float16]()
)

// inspect checks that fn is a kernel and records its parameters.
func (k *Kernel) inspect(fn any) error {
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func {
		k.name = fmt.Sprintf("%T", fn)
		return fmt.Errorf("kernel must be a func whose first parameter is cuda.Thread, got %T", fn)
	}
	if v.IsNil() {
		k.name = "nil"
		return errors.New("kernel is a nil func")
	}
	k.fn = v
	k.name = funcName(v)
	if name, ok := frontend.InstanceName(fn); ok {
		k.name = name // a generic kernel instantiated inside generic code
	}
	t := v.Type()
	if t.NumIn() == 0 || t.In(0) != threadType {
		return fmt.Errorf("kernel %s: first parameter must be cuda.Thread, in %s", k.name, t)
	}
	if t.NumOut() != 0 {
		return fmt.Errorf("kernel %s returns values; kernels return nothing (write results into a slice parameter)", k.name)
	}
	if t.IsVariadic() {
		return fmt.Errorf("kernel %s is variadic; kernels take a fixed list of parameters", k.name)
	}
	for i := 1; i < t.NumIn(); i++ {
		p, err := newParam(i, t.In(i))
		if err != nil {
			return fmt.Errorf("kernel %s: %w", k.name, err)
		}
		k.params = append(k.params, p)
	}
	if n := paramBytes(k.params); n > compiler.MaxParamBytes {
		// Every backend refuses it, as the GPU's parameter space must.
		return fmt.Errorf("kernel %s: its parameters take %d bytes; at most %d fit in a launch (pass large arrays and structs in a slice instead)", k.name, n, compiler.MaxParamBytes)
	}
	return nil
}

// paramBytes is the size of the parameter buffer of a kernel taking
// params, laid out as the compiler lays it out: each PTX parameter
// naturally aligned, an aggregate aligned as Go aligns it.
func paramBytes(params []param) int {
	n := 0
	put := func(size, align int) {
		n = (n+align-1)/align*align + size
	}
	for _, p := range params {
		switch p.kind {
		case scalarParam:
			if isComplexKind(p.typ.Kind()) {
				half := int(p.typ.Size()) / 2
				put(half, half)
				put(half, half)
			} else {
				put(int(p.typ.Size()), int(p.typ.Size()))
			}
		case sliceParam:
			put(24, 8)
		case arrayParam:
			put(8*(3+p.ndim), 8)
		case valueParam:
			if p.typ.Size() > 0 {
				put(int(p.typ.Size()), p.typ.Align())
			}
		}
	}
	return n
}

func newParam(i int, t reflect.Type) (param, error) {
	p := param{index: i, typ: t}
	switch {
	case isScalarKind(t.Kind()) || t == float16Type:
		p.kind = scalarParam
	case t.Kind() == reflect.Slice && isElemType(t.Elem()):
		p.kind, p.elem, p.ndim = sliceParam, t.Elem(), 1
	case t.Implements(ndArrayType):
		a := reflect.Zero(t).Interface().(ndArray)
		p.kind, p.elem, p.ndim = arrayParam, a.flat().Type().Elem(), len(a.shape())
	case isScalarFunc(t):
		p.kind = funcParam
	case t.Kind() == reflect.Array || t.Kind() == reflect.Struct:
		if why := byValueProblem(t, ""); why != "" {
			return p, fmt.Errorf("parameter %d has type %s, passed by value: %s; arrays and structs passed by value hold numbers, bools and cuda.Float16s and arrays and structs of them (pass memory as a slice parameter)", i, t, why)
		}
		p.kind = valueParam
	default:
		return p, fmt.Errorf("parameter %d has type %s; kernel parameters are numbers (complex ones too), bools, cuda.Float16, arrays and structs of those (by value), slices of numbers, bools or structs of numbers, cuda.Array2, cuda.Array3 or funcs of numbers, bools and cuda.Float16 (taking slices of and pointers to those, cuda.Array2 and cuda.Array3 too)", i, t)
	}
	return p, nil
}

// byValueProblem says why a kernel cannot take a value of type t (reached
// at path, a field path such as "In.Next" or "[i]" for an array's
// elements), or "" when it holds only numbers, bools, Float16s and arrays
// and structs of them.
func byValueProblem(t reflect.Type, path string) string {
	switch {
	case t == float16Type || isScalarKind(t.Kind()):
		return ""
	case t.Kind() == reflect.Array:
		return byValueProblem(t.Elem(), path+"[i]")
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			name := f.Name
			if path != "" {
				name = path + "." + f.Name
			}
			if why := byValueProblem(f.Type, name); why != "" {
				return why
			}
		}
		return ""
	}
	what := "field " + path
	if path == "[i]" {
		what = "the element"
	}
	kind := t.Kind().String()
	switch t.Kind() {
	case reflect.Pointer, reflect.UnsafePointer:
		kind = "pointer"
	case reflect.Interface:
		kind = "an interface"
	}
	if kind[0] != 'a' {
		kind = "a " + kind
	}
	return fmt.Sprintf("%s has type %s, %s", what, t, kind)
}

// isElemType reports whether t may be the element type of a slice
// parameter or a device array: a number or a struct of numbers.
func isElemType(t reflect.Type) bool {
	return isNumberKind(t.Kind()) || t.Kind() == reflect.Bool || isPlainStruct(t)
}

// isPlainStruct reports whether t is a struct of numbers and bools, arrays
// of them and such structs: memory a kernel can read and write in place,
// laid out on the device as Go lays it out on the host.
func isPlainStruct(t reflect.Type) bool {
	if t.Kind() != reflect.Struct || t.NumField() == 0 {
		return false
	}
	var plain func(t reflect.Type) bool
	plain = func(t reflect.Type) bool {
		switch {
		case isScalarKind(t.Kind()):
			return true
		case t.Kind() == reflect.Array:
			return plain(t.Elem())
		case t.Kind() == reflect.Struct:
			for i := range t.NumField() {
				if !plain(t.Field(i).Type) {
					return false
				}
			}
			return true
		}
		return false
	}
	return plain(t)
}

// isNumberKind reports whether k is an integer, float or complex kind.
func isNumberKind(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Complex128
}

func isComplexKind(k reflect.Kind) bool { return k == reflect.Complex64 || k == reflect.Complex128 }

func isScalarKind(k reflect.Kind) bool { return k == reflect.Bool || isNumberKind(k) }

// isScalarFunc reports whether t is a func type a kernel parameter may
// have: of numbers and bools, and slices of and pointers to numbers and
// bools, Array2 and Array3 in.
func isScalarFunc(t reflect.Type) bool {
	if t.Kind() != reflect.Func || t.IsVariadic() {
		return false
	}
	for i := range t.NumIn() {
		in := t.In(i)
		memory := (in.Kind() == reflect.Slice || in.Kind() == reflect.Pointer) && isFuncScalar(in.Elem()) || in.Implements(ndArrayType)
		if !isFuncScalar(in) && !memory {
			return false
		}
	}
	for i := range t.NumOut() {
		if !isFuncScalar(t.Out(i)) {
			return false
		}
	}
	return true
}

// isFuncScalar reports whether a bound function may take or return a value
// of type t: a number, a bool or a Float16.
func isFuncScalar(t reflect.Type) bool { return isScalarKind(t.Kind()) || t == float16Type }

// hasFuncParams reports whether the kernel takes a function, so that it can
// be compiled only for a launch's arguments.
func (k *Kernel) hasFuncParams() bool {
	for _, p := range k.params {
		if p.kind == funcParam {
			return true
		}
	}
	return false
}

// funcName is fn's name without its package path: "increment", or
// "main.func1" for a function literal.
func funcName(fn reflect.Value) string {
	f := runtime.FuncForPC(fn.Pointer())
	if f == nil {
		return "kernel"
	}
	name := f.Name()
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.Index(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name
}
