package ptxsim

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
)

// Program is a Module loaded into a Memory: its .global variables have
// device addresses there and its .const image is initialised.
type Program struct {
	mod        *Module
	mem        *Memory
	globalBase uint64
	constImg   []byte
	templates  map[*function][]uint64
}

// Load allocates the module's .global variables in mem and resolves their
// addresses in the code. A Module may be loaded into several memories.
func (m *Module) Load(mem *Memory) (*Program, error) {
	p := &Program{mod: m, mem: mem, constImg: append([]byte(nil), m.constInit...), templates: map[*function][]uint64{}}
	if m.globalSize > 0 {
		addr, buf := mem.Alloc(m.globalSize)
		copy(buf, m.globalInit)
		p.globalBase = addr
	}
	for _, f := range m.funcs {
		if !f.defined {
			continue
		}
		t := append([]uint64(nil), f.template...)
		for _, r := range f.relocs {
			switch r.v.sp {
			case spGlobal:
				t[r.slot] = p.globalBase + r.v.off + uint64(r.add)
			case spConst:
				t[r.slot] = r.v.off + uint64(r.add)
			}
		}
		p.templates[f] = t
	}
	return p, nil
}

// GlobalVar is a module-scope .global variable of a loaded program.
type GlobalVar struct {
	Name string
	Addr uint64 // device address in the program's Memory
	Size int    // bytes
}

// Globals lists the program's module-scope .global variables in
// declaration order.
func (p *Program) Globals() []GlobalVar {
	var out []GlobalVar
	for _, v := range p.mod.vars {
		if v.sp == spGlobal {
			out = append(out, GlobalVar{Name: v.name, Addr: p.globalBase + v.off, Size: v.size})
		}
	}
	return out
}

// Unload frees the memory Load allocated for the module's .global
// variables; the program must not be run afterwards.
func (p *Program) Unload() error {
	if p.mod.globalSize == 0 {
		return nil
	}
	return p.mem.Free(p.globalBase)
}

// Module returns the module the program was loaded from.
func (p *Program) Module() *Module { return p.mod }

// GlobalAddr returns the device address of a module-scope .global variable.
func (p *Program) GlobalAddr(name string) (uint64, bool) {
	for _, v := range p.mod.vars {
		if v.name == name && v.sp == spGlobal {
			return p.globalBase + v.off, true
		}
	}
	return 0, false
}

// Config describes one kernel launch.
type Config struct {
	Kernel    string
	Grid      [3]int    // blocks per grid (zero components count as 1)
	Block     [3]int    // threads per block (zero components count as 1)
	SharedMem int       // bytes of dynamic shared memory per block
	Params    []byte    // the kernel parameter buffer (see PackParams)
	Stdout    io.Writer // vprintf output; nil discards it
	Workers   int       // goroutines running blocks; 0 means GOMAXPROCS
	MaxSteps  int64     // per thread limit on taken branches and calls; 0 means no limit
	// Cooperative runs every block of the grid at once, each on a
	// goroutine of its own (Workers is ignored), as a cooperative launch
	// on a GPU keeps them all resident: blocks can then wait for each
	// other, as nugo's grid barrier does, spinning on memory with
	// nanosleep, which yields to the other blocks here. A block that
	// keeps spinning after another has exited is reported as a deadlock.
	Cooperative bool
}

// Stats reports what a launch executed.
type Stats struct {
	Instructions int64 // instructions executed (including predicated-off ones)
}

// ExecError is a fault during execution: it names the kernel, the
// instruction and its PTX line, the block and thread, and the address.
type ExecError struct {
	Kernel  string
	Func    string // function executing (the kernel or a .func it called)
	Line    int
	Inst    string
	Block   [3]int
	Thread  [3]int
	Addr    uint64
	HasAddr bool
	Kind    FaultKind
	Msg     string
	// Source is the source position (file:line:col) of the instruction
	// from the module's .loc directives (nugo writes them with its
	// LineInfo option); "" when the PTX has none.
	Source string
}

// FaultKind classifies a fault the way a GPU's driver reports it (see
// ExecError.Kind).
type FaultKind int

// The kinds of fault. A GPU reports an address fault as
// CUDA_ERROR_ILLEGAL_ADDRESS, a misaligned atomic as
// CUDA_ERROR_MISALIGNED_ADDRESS, a trap as CUDA_ERROR_LAUNCH_FAILED.
const (
	FaultOther      FaultKind = iota // internal errors, bad vprintf arguments
	FaultAddress                     // an access outside memory the thread may reach
	FaultMisaligned                  // a misaligned atomic
	FaultTrap                        // the trap instruction
	FaultLimit                       // Config.MaxSteps or the call depth exceeded
)

// Error names the kernel, block and thread, then the Detail and the
// Source position when known.
func (e *ExecError) Error() string {
	s := fmt.Sprintf("ptxsim: kernel %s, block (%d,%d,%d) thread (%d,%d,%d): %s", e.Kernel,
		e.Block[0], e.Block[1], e.Block[2], e.Thread[0], e.Thread[1], e.Thread[2], e.Detail())
	if e.Source != "" {
		s += " at " + e.Source
	}
	return s
}

// Detail describes the fault without the kernel, block and thread: the
// function, the PTX line and instruction, what went wrong and the address.
func (e *ExecError) Detail() string {
	s := ""
	if e.Func != e.Kernel && e.Func != "" {
		s += "in " + e.Func + ", "
	}
	if e.Line > 0 {
		s += fmt.Sprintf("PTX line %d %q: ", e.Line, e.Inst)
	}
	s += e.Msg
	if e.HasAddr {
		s += fmt.Sprintf(" (address %#x)", e.Addr)
	}
	return s
}

func dim(d [3]int) [3]int {
	for i := range d {
		if d[i] <= 0 {
			d[i] = 1
		}
	}
	return d
}

// launchState is shared by the workers of one launch.
type launchState struct {
	prog      *Program
	fn        *function
	grid      [3]int
	block     [3]int
	nthreads  int
	params    []byte
	regions   []*region
	shared    int // total shared bytes per block
	dynShared int // dynamic shared bytes per block
	out       io.Writer
	outMu     sync.Mutex
	maxSteps  int64
	failed    atomic.Bool
	errMu     sync.Mutex
	err       error
	instrs    atomic.Int64

	// Cooperative launches: the blocks that have finished (see
	// worker.yield).
	coop     bool
	finished atomic.Int64
	// firstDone is the linear index plus one of the first block that
	// finished, which the deadlock's message names.
	firstDone atomic.Int64
}

// Run launches a kernel and waits for it; it returns the first fault.
func (p *Program) Run(cfg Config) error {
	_, err := p.RunStats(cfg)
	return err
}

// RunStats is Run that also reports execution statistics.
func (p *Program) RunStats(cfg Config) (Stats, error) {
	f := p.mod.funcs[cfg.Kernel]
	if f == nil || !f.entry {
		return Stats{}, fmt.Errorf("ptxsim: no kernel %q in module", cfg.Kernel)
	}
	grid, block := dim(cfg.Grid), dim(cfg.Block)
	n := block[0] * block[1] * block[2]
	if n > 1024 {
		return Stats{}, fmt.Errorf("ptxsim: launch %s: block (%d,%d,%d) has %d threads; at most 1024", cfg.Kernel, block[0], block[1], block[2], n)
	}
	if grid[1] > 65535 || grid[2] > 65535 || grid[0] > math.MaxInt32 {
		return Stats{}, fmt.Errorf("ptxsim: launch %s: grid (%d,%d,%d) too large", cfg.Kernel, grid[0], grid[1], grid[2])
	}
	if cfg.SharedMem < 0 {
		return Stats{}, fmt.Errorf("ptxsim: launch %s: negative shared memory size", cfg.Kernel)
	}
	if len(cfg.Params) < f.paramSize {
		return Stats{}, fmt.Errorf("ptxsim: launch %s: parameter buffer has %d bytes, kernel needs %d", cfg.Kernel, len(cfg.Params), f.paramSize)
	}
	shared := p.mod.sharedStatic
	if cfg.SharedMem > 0 {
		shared = align(shared, p.mod.sharedAlign) + cfg.SharedMem
	}
	ls := &launchState{prog: p, fn: f, grid: grid, block: block, nthreads: n, params: cfg.Params,
		regions: p.mem.snapshot(), shared: shared, dynShared: cfg.SharedMem, out: cfg.Stdout, maxSteps: cfg.MaxSteps}
	nblocks := grid[0] * grid[1] * grid[2]
	ls.coop = cfg.Cooperative
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Cooperative {
		workers = nblocks
	}
	if workers > nblocks {
		workers = nblocks
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := newWorker(ls)
			for !ls.failed.Load() {
				b := int(next.Add(1) - 1)
				if b >= nblocks {
					break
				}
				wk.runBlock(b)
				ls.firstDone.CompareAndSwap(0, int64(b)+1)
				ls.finished.Add(1)
			}
			ls.instrs.Add(wk.instrs)
		}()
	}
	wg.Wait()
	return Stats{Instructions: ls.instrs.Load()}, ls.err
}

// spinAfterExit is how many times in a row a thread of a cooperative launch
// may yield, spinning on memory, after another block has exited, before the
// launch is reported as deadlocked (see worker.yield).
const spinAfterExit = 64

// yield is a nanosleep of one of the worker's threads: a thread spinning on
// memory that another block is to change, as nugo's grid barrier does. In a
// cooperative launch it lets the other blocks' goroutines run, and it
// reports, as a message for the thread's fault, a grid barrier that cannot
// complete. A block that has finished has passed every grid barrier, which
// needed every block's arrival at each: so once a block has finished, the
// barrier a spinning thread waits at has either completed, and its next
// load sees so, or never will, because blocks exited without reaching it.
// A thread that still spins several yields (and loads) after it first saw
// a finished block is therefore deadlocked. (The count starts only once a
// block has finished: a thread descheduled between its load and its yield
// may see blocks that finished meanwhile, whose release its next load
// sees.) Outside cooperative launches blocks run a few at a time, and
// yield only yields.
func (w *worker) yield() string {
	ls := w.ls
	if ls.failed.Load() {
		return "launch stopped by another block's fault"
	}
	if !ls.coop {
		runtime.Gosched()
		return ""
	}
	if done := ls.finished.Load(); done > 0 {
		w.spins++
		if w.spins > spinAfterExit {
			// Any block that finished is one that never reached this
			// barrier; name the first. The words are those of nugo's
			// cpu backend and debug-mode check (compiler.GridExitMsg).
			lin := int(ls.firstDone.Load() - 1)
			g := ls.grid
			return fmt.Sprintf("block (%d,%d,%d) returned before t.SyncGrid, which the rest of the grid waits at; every block must reach every SyncGrid (deadlock: %d block(s) exited without reaching this grid barrier)",
				lin%g[0], lin/g[0]%g[1], lin/(g[0]*g[1]), done)
		}
	}
	runtime.Gosched()
	return ""
}

// stopSpinning ends a wait of the block's threads, at a block barrier or
// when the block ends.
func (w *worker) stopSpinning() { w.spins = 0 }

func (ls *launchState) fail(err error) {
	ls.errMu.Lock()
	if ls.err == nil {
		ls.err = err
	}
	ls.errMu.Unlock()
	ls.failed.Store(true)
}

// PackParams lays out args in kernel's parameter buffer, converting each to
// its parameter's declared type: Go integers (and uintptr device addresses)
// for integer parameters, floats for float parameters, []byte for array
// parameters (.b8 name[N]).
func PackParams(m *Module, kernel string, args ...any) ([]byte, error) {
	params, err := m.Params(kernel)
	if err != nil {
		return nil, err
	}
	if len(args) != len(params) {
		return nil, fmt.Errorf("ptxsim: kernel %s takes %d parameters, got %d", kernel, len(params), len(args))
	}
	size, _ := m.ParamSize(kernel)
	buf := make([]byte, size)
	for i, p := range params {
		dst := buf[p.Offset : p.Offset+p.Size]
		if b, ok := args[i].([]byte); ok {
			if len(b) != p.Size {
				return nil, fmt.Errorf("ptxsim: parameter %s: %d bytes given, %d needed", p.Name, len(b), p.Size)
			}
			copy(dst, b)
			continue
		}
		v := reflect.ValueOf(args[i])
		var bits uint64
		switch p.Type {
		case ".f32":
			switch v.Kind() {
			case reflect.Float32, reflect.Float64:
				bits = uint64(math.Float32bits(float32(v.Float())))
			default:
				return nil, fmt.Errorf("ptxsim: parameter %s (.f32): got %T", p.Name, args[i])
			}
		case ".f64":
			switch v.Kind() {
			case reflect.Float32, reflect.Float64:
				bits = math.Float64bits(v.Float())
			default:
				return nil, fmt.Errorf("ptxsim: parameter %s (.f64): got %T", p.Name, args[i])
			}
		default:
			switch v.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				bits = uint64(v.Int())
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				bits = v.Uint()
			case reflect.Bool:
				if v.Bool() {
					bits = 1
				}
			case reflect.Float32:
				bits = uint64(math.Float32bits(float32(v.Float())))
			case reflect.Float64:
				bits = math.Float64bits(v.Float())
			default:
				return nil, fmt.Errorf("ptxsim: parameter %s (%s): got %T", p.Name, p.Type, args[i])
			}
		}
		switch p.Size {
		case 1:
			dst[0] = byte(bits)
		case 2:
			binary.LittleEndian.PutUint16(dst, uint16(bits))
		case 4:
			binary.LittleEndian.PutUint32(dst, uint32(bits))
		case 8:
			binary.LittleEndian.PutUint64(dst, bits)
		default:
			return nil, fmt.Errorf("ptxsim: parameter %s has %d bytes: pass a []byte", p.Name, p.Size)
		}
	}
	return buf, nil
}
