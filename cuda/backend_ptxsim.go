package cuda

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime"
	"sort"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxsim"
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

// ptxsimExecutor compiles a kernel to PTX and interprets it. Device
// addresses are the host addresses of the argument buffers, registered with
// the interpreter's memory for the launch.
type ptxsimExecutor struct{}

// ptxsimKey keys the compiled form in Kernel.compiled.
type ptxsimKey struct{}

type ptxsimKernel struct {
	mod *compiler.Module
	sim *ptxsim.Module
}

func (ptxsimExecutor) kind() Backend { return PTXSim }

func (ptxsimExecutor) compile(k *Kernel) (*ptxsimKernel, error) {
	c, err := k.compiledFor(ptxsimKey{}, func() (any, error) {
		fk, err := frontend.LoadFunc(k.Func())
		if err != nil {
			return nil, ptxsimCompileError(k.name, err)
		}
		m, err := compiler.Compile(fk, compiler.Target{Debug: k.opts&Debug != 0, FastMath: k.opts&FastMath != 0})
		if err != nil {
			return nil, ptxsimCompileError(k.name, err)
		}
		sm, err := ptxsim.Parse(m.PTX)
		if err != nil {
			return nil, fmt.Errorf("compile %s: the interpreter cannot run the generated PTX: %w", k.name, err)
		}
		return &ptxsimKernel{mod: m, sim: sm}, nil
	})
	if err != nil {
		return nil, err
	}
	return c.(*ptxsimKernel), nil
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

// span is a host memory range that a launch makes visible to the kernel.
type span struct {
	p unsafe.Pointer
	n uintptr
}

func (e ptxsimExecutor) execute(k *Kernel, cfg LaunchConfig, args []reflect.Value) error {
	pk, err := e.compile(k)
	if err != nil {
		return err
	}
	m := pk.mod
	if len(args) != len(m.Params) {
		return fmt.Errorf("compiled kernel takes %d parameters, got %d", len(m.Params), len(args))
	}
	params := make([]byte, m.ParamBytes)
	var spans []span
	for i, p := range m.Params {
		if err := packPTXParam(params, p, args[i], &spans); err != nil {
			return fmt.Errorf("%v: %w", k.params[i], err)
		}
	}
	mem := ptxsim.NewMemory()
	for _, s := range mergeSpans(spans) {
		if err := mem.Register(uint64(uintptr(s.p)), unsafe.Slice((*byte)(s.p), s.n)); err != nil {
			return err
		}
	}
	prog, err := pk.sim.Load(mem)
	if err != nil {
		return err
	}
	err = prog.Run(ptxsim.Config{
		Kernel:    m.Entry,
		Grid:      [3]int{cfg.Grid.X, cfg.Grid.Y, cfg.Grid.Z},
		Block:     [3]int{cfg.Block.X, cfg.Block.Y, cfg.Block.Z},
		SharedMem: cfg.SharedMem,
		Params:    params,
		Stdout:    os.Stdout,
	})
	runtime.KeepAlive(args) // the kernel reached their memory through raw addresses
	var ee *ptxsim.ExecError
	if errors.As(err, &ee) {
		return &KernelError{Kernel: k.name, Block: Dim3{ee.Block[0], ee.Block[1], ee.Block[2]},
			Thread: Dim3{ee.Thread[0], ee.Thread[1], ee.Thread[2]}, Msg: ee.Error()}
	}
	if err != nil {
		return err
	}
	if m.UsesErrorRecord {
		return readErrorRecord(k, m, prog, mem)
	}
	return nil
}

// readErrorRecord reports the first failed debug check of the launch.
func readErrorRecord(k *Kernel, m *compiler.Module, prog *ptxsim.Program, mem *ptxsim.Memory) error {
	addr, ok := prog.GlobalAddr(compiler.ErrorSymbol)
	if !ok {
		return nil
	}
	rec, err := mem.Bytes(addr, compiler.ErrorRecordSize)
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	if le.Uint32(rec) == 0 {
		return nil
	}
	code, site := le.Uint32(rec[4:]), int(le.Uint32(rec[8:]))
	ke := &KernelError{Kernel: k.name,
		Block:  Dim3{int(le.Uint32(rec[12:])), int(le.Uint32(rec[16:])), int(le.Uint32(rec[20:]))},
		Thread: Dim3{int(le.Uint32(rec[24:])), int(le.Uint32(rec[28:])), int(le.Uint32(rec[32:]))}}
	val, bound := int64(le.Uint64(rec[40:])), int64(le.Uint64(rec[48:]))
	kind := ""
	if site >= 0 && site < len(m.Sites) {
		ke.Pos = m.Sites[site].Pos
		kind = m.Sites[site].Kind
	}
	switch code {
	case compiler.ErrIndex:
		ke.Msg = fmt.Sprintf("index out of range [%d] with length %d", val, bound)
	case compiler.ErrDivide:
		ke.Msg = "integer divide by zero"
	case compiler.ErrSlice:
		ke.Msg = fmt.Sprintf("slice bounds out of range [%d] with capacity %d", val, bound)
	default:
		ke.Msg = kind
	}
	return ke
}

// packPTXParam writes one Go argument into the PTX parameter buffer and
// records the host memory it refers to.
func packPTXParam(buf []byte, p compiler.Param, v reflect.Value, spans *[]span) error {
	var data reflect.Value
	var dims []int
	switch p.Kind {
	case compiler.Scalar:
		if len(p.PTX) != 1 {
			return fmt.Errorf("scalar with %d PTX parameters", len(p.PTX))
		}
		return putScalar(buf, p.PTX[0], v)
	case compiler.Slice:
		data = v
	case compiler.Array2, compiler.Array3:
		data = v.MethodByName("Data").Call(nil)[0]
		for _, r := range v.MethodByName("Shape").Call(nil) {
			dims = append(dims, int(r.Int()))
		}
	}
	up := data.UnsafePointer()
	ptr := uintptr(up)
	n, c := data.Len(), data.Cap()
	if c > 0 && up != nil {
		*spans = append(*spans, span{up, uintptr(c) * data.Type().Elem().Size()})
	}
	for _, pp := range p.PTX {
		var x uint64
		switch pp.Role {
		case "ptr":
			x = uint64(ptr)
		case "len":
			x = uint64(n)
		case "cap":
			x = uint64(c)
		case "rows", "d0":
			x = uint64(dims[0])
		case "cols", "d1":
			x = uint64(dims[1])
		case "d2":
			x = uint64(dims[2])
		default:
			return fmt.Errorf("unknown parameter role %q", pp.Role)
		}
		putBits(buf[pp.Offset:], pp.Size, x)
	}
	return nil
}

func putScalar(buf []byte, pp compiler.PTXParam, v reflect.Value) error {
	var x uint64
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			x = 1
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x = uint64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x = v.Uint()
	case reflect.Float32:
		x = uint64(math.Float32bits(float32(v.Float())))
	case reflect.Float64:
		x = math.Float64bits(v.Float())
	default:
		return fmt.Errorf("cannot pass a %s", v.Type())
	}
	putBits(buf[pp.Offset:], pp.Size, x)
	return nil
}

func putBits(b []byte, size int, x uint64) {
	switch size {
	case 1:
		b[0] = byte(x)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(x))
	default:
		binary.LittleEndian.PutUint64(b, x)
	}
}

// mergeSpans unions overlapping ranges (arguments may alias).
func mergeSpans(s []span) []span {
	sort.Slice(s, func(i, j int) bool { return uintptr(s[i].p) < uintptr(s[j].p) })
	var out []span
	for _, x := range s {
		if n := len(out); n > 0 && uintptr(x.p) < uintptr(out[n-1].p)+out[n-1].n {
			last := &out[n-1]
			last.n = max(last.n, uintptr(x.p)+x.n-uintptr(last.p))
			continue
		}
		out = append(out, x)
	}
	return out
}
