// Package golaunch runs a kernel compiled by nugo's compiler in the PTX
// interpreter over Go argument values: host slices and Array2/Array3 views
// are made visible to the kernel at their host addresses, scalars are packed
// into the parameter buffer as the compiler laid it out. The cuda package's
// ptxsim backend and the differential tests share it.
package golaunch

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"reflect"
	"runtime"
	"sort"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/ptxsim"
)

// Kernel is a compiled kernel ready to run in the interpreter.
type Kernel struct {
	Mod *compiler.Module // what the compiler produced
	Sim *ptxsim.Module   // its PTX, parsed by the interpreter
}

// New parses a compiled module's PTX for the interpreter.
func New(m *compiler.Module) (*Kernel, error) {
	sm, err := ptxsim.Parse(m.PTX)
	if err != nil {
		return nil, fmt.Errorf("compile %s: the interpreter cannot run the generated PTX: %w", m.Kernel, err)
	}
	return &Kernel{Mod: m, Sim: sm}, nil
}

// Launch is one launch's shape.
type Launch struct {
	Grid, Block [3]int
	SharedMem   int
	Stdout      io.Writer // vprintf output
	Workers     int       // 0: GOMAXPROCS
	MaxSteps    int64     // 0: unlimited
	// Cooperative runs every block at once (ptxsim.Config.Cooperative);
	// a kernel that syncs the grid (compiler.Module.UsesGridSync) needs
	// it.
	Cooperative bool
}

// CheckError is a failed debug-mode check read from the module's error
// record after the launch.
type CheckError struct {
	Block, Thread [3]int
	Pos           string // Go source position
	Msg           string
}

// Error names the failing thread, the check and its Go position.
func (e *CheckError) Error() string {
	s := fmt.Sprintf("block (%d,%d,%d) thread (%d,%d,%d): %s", e.Block[0], e.Block[1], e.Block[2],
		e.Thread[0], e.Thread[1], e.Thread[2], e.Msg)
	if e.Pos != "" {
		s += " at " + e.Pos
	}
	return s
}

// Run launches k over args, the kernel's Go arguments after the Thread. It
// returns a *ptxsim.ExecError for an interpreter fault and a *CheckError for
// a failed debug check.
func (k *Kernel) Run(l Launch, args []reflect.Value) error {
	_, err := k.RunStats(l, args)
	return err
}

// RunStats is Run that also reports what the interpreter executed.
func (k *Kernel) RunStats(l Launch, args []reflect.Value) (ptxsim.Stats, error) {
	m := k.Mod
	if len(args) != len(m.Params) {
		return ptxsim.Stats{}, fmt.Errorf("compiled kernel takes %d parameters, got %d", len(m.Params), len(args))
	}
	params := make([]byte, m.ParamBytes)
	var spans []span
	for i, p := range m.Params {
		if err := packParam(params, p, args[i], &spans); err != nil {
			return ptxsim.Stats{}, fmt.Errorf("argument %d (%s): %w", i+1, p.Name, err)
		}
	}
	if m.UsesGridSync {
		if !l.Cooperative {
			return ptxsim.Stats{}, fmt.Errorf("kernel %s syncs the grid (t.SyncGrid); launch it cooperatively", m.Kernel)
		}
		// The grid barrier's counter and its exit word, zeroed, this
		// launch's own.
		counter := new([compiler.GridSyncCounterBytes / 8]uint64)
		spans = append(spans, span{unsafe.Pointer(counter), compiler.GridSyncCounterBytes})
		putBits(params[m.GridSyncParam.Offset:], 8, uint64(uintptr(unsafe.Pointer(counter))))
		defer runtime.KeepAlive(counter)
	}
	mem := ptxsim.NewMemory()
	for _, s := range mergeSpans(spans) {
		if err := mem.Register(uint64(uintptr(s.p)), unsafe.Slice((*byte)(s.p), s.n)); err != nil {
			return ptxsim.Stats{}, err
		}
	}
	prog, err := k.Sim.Load(mem)
	if err != nil {
		return ptxsim.Stats{}, err
	}
	st, err := prog.RunStats(ptxsim.Config{Kernel: m.Entry, Grid: l.Grid, Block: l.Block, SharedMem: l.SharedMem,
		Params: params, Stdout: l.Stdout, Workers: l.Workers, MaxSteps: l.MaxSteps, Cooperative: l.Cooperative})
	runtime.KeepAlive(args) // the kernel reached their memory through raw addresses
	if err != nil {
		return st, err
	}
	if m.UsesErrorRecord {
		return st, readErrorRecord(m, prog, mem)
	}
	return st, nil
}

// readErrorRecord reports the first failed debug check of the launch.
func readErrorRecord(m *compiler.Module, prog *ptxsim.Program, mem *ptxsim.Memory) error {
	addr, ok := prog.GlobalAddr(compiler.ErrorSymbol)
	if !ok {
		return nil
	}
	rec, err := mem.Bytes(addr, compiler.ErrorRecordSize)
	if err != nil {
		return err
	}
	f, failed := m.DecodeRecord(rec)
	if !failed {
		return nil
	}
	return &CheckError{Block: f.Block, Thread: f.Thread, Pos: f.Pos, Msg: f.Msg}
}

// span is a host memory range that a launch makes visible to the kernel.
type span struct {
	p unsafe.Pointer
	n uintptr
}

// packParam writes one Go argument into the PTX parameter buffer and
// records the host memory it refers to.
func packParam(buf []byte, p compiler.Param, v reflect.Value, spans *[]span) error {
	var data reflect.Value
	var dims, strides []int
	off := 0
	switch p.Kind {
	case compiler.Scalar:
		if v.Kind() == reflect.Complex64 || v.Kind() == reflect.Complex128 {
			if len(p.PTX) != 2 {
				return fmt.Errorf("complex scalar with %d PTX parameters", len(p.PTX))
			}
			c := v.Complex()
			for i, part := range []float64{real(c), imag(c)} {
				if err := putScalar(buf, p.PTX[i], reflect.ValueOf(part)); err != nil {
					return err
				}
			}
			return nil
		}
		if len(p.PTX) != 1 {
			return fmt.Errorf("scalar with %d PTX parameters", len(p.PTX))
		}
		return putScalar(buf, p.PTX[0], v)
	case compiler.Aggregate:
		// The value's bytes as Go lays them out; none for a value of size 0.
		if len(p.PTX) == 0 {
			return nil
		}
		pp := p.PTX[0]
		if len(p.PTX) != 1 || pp.Role != "bytes" || uintptr(pp.Size) != v.Type().Size() || pp.Offset+pp.Size > len(buf) {
			return fmt.Errorf("%s does not fit its %d-byte parameter", v.Type(), pp.Size)
		}
		c := reflect.New(v.Type())
		c.Elem().Set(v)
		copy(buf[pp.Offset:], unsafe.Slice((*byte)(c.UnsafePointer()), pp.Size))
		return nil
	case compiler.Slice:
		data = v
	case compiler.Array2, compiler.Array3:
		dm, sh := v.MethodByName("Data"), v.MethodByName("Shape")
		if !dm.IsValid() || !sh.IsValid() {
			return fmt.Errorf("%s has no Data and Shape methods", v.Type())
		}
		data = dm.Call(nil)[0]
		for _, r := range sh.Call(nil) {
			dims = append(dims, int(r.Int()))
		}
		st, of := v.MethodByName("Strides"), v.MethodByName("Offset")
		if !st.IsValid() || !of.IsValid() {
			return fmt.Errorf("%s has no Strides and Offset methods", v.Type())
		}
		for _, r := range st.Call(nil) {
			strides = append(strides, int(r.Int()))
		}
		off = int(of.Call(nil)[0].Int())
	}
	if data.Kind() != reflect.Slice {
		return fmt.Errorf("got %s, want a slice", data.Type())
	}
	up := data.UnsafePointer()
	n, c := data.Len(), data.Cap()
	if c > 0 && up != nil {
		*spans = append(*spans, span{up, uintptr(c) * data.Type().Elem().Size()})
	}
	for _, pp := range p.PTX {
		var x uint64
		switch pp.Role {
		case "ptr":
			x = uint64(uintptr(up))
		case "len":
			x = uint64(n)
		case "cap":
			x = uint64(c)
		case "rows", "d0", "cols", "d1", "d2":
			i := map[string]int{"rows": 0, "d0": 0, "cols": 1, "d1": 1, "d2": 2}[pp.Role]
			if i >= len(dims) {
				return fmt.Errorf("parameter role %s needs %d dimensions", pp.Role, i+1)
			}
			x = uint64(dims[i])
		case "off":
			x = uint64(off)
		case "s0", "s1", "s2":
			i := int(pp.Role[1] - '0')
			if i >= len(strides) {
				return fmt.Errorf("parameter role %s needs %d dimensions", pp.Role, i+1)
			}
			x = uint64(strides[i])
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
	case reflect.Struct:
		// cuda.Float16: a struct of its uint16 bits, a .b16 parameter
		if pp.Type != ".b16" || v.NumField() != 1 || v.Field(0).Kind() != reflect.Uint16 {
			return fmt.Errorf("cannot pass a %s", v.Type())
		}
		x = v.Field(0).Uint()
	default:
		return fmt.Errorf("cannot pass a %s", v.Type())
	}
	if pp.Type == ".f32" && v.Kind() == reflect.Float64 {
		x = uint64(math.Float32bits(float32(v.Float())))
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
