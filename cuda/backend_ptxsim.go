package cuda

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxsim"
	"github.com/nugo-dev/nugo/internal/ptxsim/golaunch"
)

func init() {
	registerBackend(PTXSim, func() (backend, error) {
		return &ptxsimBackend{newHostBackend(ptxsimExecutor{})}, nil
	})
}

// ptxsimBackend runs kernels through nugo's compiler and the PTX
// interpreter; device memory, streams and events are the host backend's.
type ptxsimBackend struct {
	*hostBackend
}

// prepare compiles k at once (Compile), so that compile errors surface there.
func (b *ptxsimBackend) prepare(k *Kernel) error {
	_, err := ptxsimExecutor{}.compile(k)
	return err
}

// ptxsimExecutor compiles a kernel to PTX and interprets it (golaunch):
// device addresses are the host addresses of the argument buffers.
type ptxsimExecutor struct{}

// ptxsimKey keys the compiled form in Kernel.compiled.
type ptxsimKey struct{}

func (ptxsimExecutor) kind() Backend { return PTXSim }

func (ptxsimExecutor) compile(k *Kernel) (*golaunch.Kernel, error) {
	c, err := k.compiledFor(ptxsimKey{}, func() (any, error) {
		fk, err := frontend.LoadFunc(k.Func())
		if err != nil {
			return nil, ptxsimCompileError(k.name, err)
		}
		m, err := compiler.Compile(fk, compiler.Target{Debug: k.opts&Debug != 0, FastMath: k.opts&FastMath != 0})
		if err != nil {
			return nil, ptxsimCompileError(k.name, err)
		}
		return golaunch.New(m)
	})
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

// ptxsimCompileError turns the front end's positioned error into a *CompileError.
func ptxsimCompileError(name string, err error) error {
	var fe *frontend.Error
	if errors.As(err, &fe) {
		ce := &CompileError{Kernel: fe.Kernel}
		for _, d := range fe.Diags {
			pos := ""
			if d.Pos.IsValid() {
				pos = d.Pos.String()
			}
			ce.Diagnostics = append(ce.Diagnostics, Diagnostic{Pos: pos, Msg: d.Msg})
		}
		return ce
	}
	return fmt.Errorf("compile %s: %w", name, err)
}

func (e ptxsimExecutor) execute(k *Kernel, cfg LaunchConfig, args []reflect.Value, _ []boundArg) error {
	gk, err := e.compile(k)
	if err != nil {
		return err
	}
	err = gk.Run(golaunch.Launch{
		Grid:      [3]int{cfg.Grid.X, cfg.Grid.Y, cfg.Grid.Z},
		Block:     [3]int{cfg.Block.X, cfg.Block.Y, cfg.Block.Z},
		SharedMem: cfg.SharedMem,
		Stdout:    printerWriter{},
	}, args)
	var ee *ptxsim.ExecError
	var ce *golaunch.CheckError
	switch {
	case errors.As(err, &ee):
		return &KernelError{Kernel: k.name, Block: Dim3{ee.Block[0], ee.Block[1], ee.Block[2]},
			Thread: Dim3{ee.Thread[0], ee.Thread[1], ee.Thread[2]}, Msg: ee.Detail()}
	case errors.As(err, &ce):
		return &KernelError{Kernel: k.name, Block: Dim3{ce.Block[0], ce.Block[1], ce.Block[2]},
			Thread: Dim3{ce.Thread[0], ce.Thread[1], ce.Thread[2]}, Pos: ce.Pos, Msg: ce.Msg}
	}
	return err
}
