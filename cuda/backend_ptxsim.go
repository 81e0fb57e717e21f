package cuda

import (
	"errors"
	"reflect"

	"github.com/nugo-dev/nugo/internal/ptxsim"
	"github.com/nugo-dev/nugo/internal/ptxsim/golaunch"
)

func init() {
	registerBackend(PTXSim, func() (backend, error) { return newPTXSimBackend(), nil })
}

func newPTXSimBackend() *ptxsimBackend {
	b := &ptxsimBackend{newHostBackend(ptxsimExecutor{})}
	b.self = b
	b.spawn = func() *hostBackend { return newPTXSimBackend().hostBackend }
	return b
}

// ptxsimBackend runs kernels through nugo's compiler and the PTX
// interpreter; device memory, streams and events are the host backend's.
type ptxsimBackend struct {
	*hostBackend
}

// prepare compiles k at once (Compile), so that compile errors surface
// there. A kernel with func parameters is only checked: it is compiled at
// launch, for the functions passed.
func (b *ptxsimBackend) prepare(k *Kernel) error {
	if k.hasFuncParams() {
		return k.checkSource()
	}
	_, err := ptxsimExecutor{}.compile(k, nil)
	return err
}

// ptxsimExecutor compiles a kernel to PTX and interprets it (golaunch):
// device addresses are the host addresses of the argument buffers.
type ptxsimExecutor struct{}

// ptxsimKey keys the compiled form in Kernel.compiled: one per set of
// functions passed for func parameters (see funcsKey).
type ptxsimKey struct {
	funcs      string
	noReadOnly bool // the launch's arguments overlap (see argsOverlap)
}

func (ptxsimExecutor) kind() Backend { return PTXSim }

// compile compiles k for the functions of bound's func arguments (the
// module is cached by Kernel.module, its parsed form here).
func (ptxsimExecutor) compile(k *Kernel, bound []boundArg) (*golaunch.Kernel, error) {
	target := k.target(0)
	target.NoReadOnlyCache = argsOverlap(bound)
	// .loc directives change no instruction, and let a fault name the Go
	// line even without LineInfo or debug mode (issue 21, item 16).
	target.LineInfo = true
	m, err := k.module(target, bound)
	if err != nil {
		return nil, err
	}
	c, err := k.compiledFor(ptxsimKey{funcsKey(bound), target.NoReadOnlyCache}, func() (any, error) { return golaunch.New(m) })
	if err != nil {
		return nil, err
	}
	return c.(*golaunch.Kernel), nil
}

// printerWriter sends vprintf output where the CPU backend's Printf goes.
type printerWriter struct{}

// Write prints p under the printer's lock.
func (printerWriter) Write(p []byte) (int, error) {
	printer.Lock()
	defer printer.Unlock()
	return printer.w.Write(p)
}

func (e ptxsimExecutor) execute(k *Kernel, cfg LaunchConfig, args []reflect.Value, bound []boundArg) error {
	gk, err := e.compile(k, bound)
	if err != nil {
		return err
	}
	args = ptxArgs(gk.Mod, args)
	err = gk.Run(golaunch.Launch{
		Grid:        [3]int{cfg.Grid.X, cfg.Grid.Y, cfg.Grid.Z},
		Block:       [3]int{cfg.Block.X, cfg.Block.Y, cfg.Block.Z},
		SharedMem:   cfg.SharedMem,
		Stdout:      printerWriter{},
		Cooperative: cfg.Cooperative,
	}, args)
	var ee *ptxsim.ExecError
	var ce *golaunch.CheckError
	switch {
	case errors.As(err, &ee):
		return &KernelError{Kernel: k.name, Block: Dim3{ee.Block[0], ee.Block[1], ee.Block[2]},
			Thread: Dim3{ee.Thread[0], ee.Thread[1], ee.Thread[2]}, Pos: goLine(ee.Source), Msg: ee.Detail()}
	case errors.As(err, &ce):
		return &KernelError{Kernel: k.name, Block: Dim3{ce.Block[0], ce.Block[1], ce.Block[2]},
			Thread: Dim3{ce.Thread[0], ce.Thread[1], ce.Thread[2]}, Pos: ce.Pos, Msg: ce.Msg}
	}
	return err
}
