package compiler

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptx"
)

// Compile lowers a loaded kernel to a PTX module for target. Errors in the
// user's code are a *frontend.Error with positioned diagnostics.
func Compile(k *frontend.Kernel, target Target) (*Module, error) {
	return CompileBound(k, target, nil)
}

// CompileBound compiles a kernel specialised for the functions bound to its
// func parameters: bound maps the index of a Go argument after the
// cuda.Thread to the device function loaded for it (frontend.LoadDevice),
// which may come from another package. Calls through the parameter become
// direct calls of that function (inlined when small); the parameter has no
// PTX parameter (see Module.FuncParams). Every func parameter must be
// bound.
func CompileBound(k *frontend.Kernel, target Target, bound map[int]*frontend.Kernel) (*Module, error) {
	if err := target.check(); err != nil {
		return nil, fmt.Errorf("compile %s: %w", k.Name, err)
	}
	m := &modState{
		k:      k,
		target: target,
		mod: &ptx.Module{
			Version:     PTXVersion,
			Target:      target.PTXTarget(),
			AddressSize: 64,
		},
		funcs:       map[*ssa.Function]*ptx.Func{},
		names:       map[string]int{},
		strings:     map[string]string{},
		tables:      map[*ssa.Global]string{},
		files:       map[string]int{},
		recursion:   map[*ssa.Function]bool{},
		reach:       map[[2]*ssa.Function]bool{},
		leaks:       map[*ssa.Function]token.Pos{},
		localSize:   map[*ptx.Func]int64{},
		loopChecked: map[*ssa.Function]bool{},
		out:         &Module{Kernel: k.Name, Target: target},
		diags:       &diagList{fset: k.Fset},
		owners:      []*frontend.Kernel{k},
	}
	if err := m.bind(bound); err != nil {
		return nil, err
	}
	if err := m.compile(); err != nil {
		return nil, err
	}
	return m.out, nil
}

// modState is what one module's compilation shares between functions.
type modState struct {
	k           *frontend.Kernel
	target      Target
	mod         *ptx.Module
	out         *Module
	funcs       map[*ssa.Function]*ptx.Func // emitted or queued device functions
	queue       []*ssa.Function
	names       map[string]int
	strings     map[string]string // constant strings → global symbol
	tables      map[*ssa.Global]string
	unsealed    map[*ssa.Global]bool // tables whose address escapes loads (readonly.go), nil until asked
	files       map[string]int       // Go source files → .file numbers
	nlabel      int                  // labels are module-unique (inlined bodies share a function)
	recursion   map[*ssa.Function]bool
	reach       map[[2]*ssa.Function]bool   // reaches' answers
	leaks       map[*ssa.Function]token.Pos // localLeak's answers
	localSize   map[*ptx.Func]int64         // bytes of .local memory each function declares
	loopChecked map[*ssa.Function]bool      // checkLoopAddresses has run
	nshared     int
	shared      []sharedBuf // the static shared buffers, zeroed at block start
	diags       *diagList

	usesVprintf bool
	errorRecord bool
	dynShared   bool
	gridSync    bool // calls cuda.Thread.SyncGrid (gridsync.go)

	// bound maps the kernel's func parameters to their functions; owners
	// are the loaded programs whose functions the module holds, the
	// kernel's first (see CompileBound).
	bound  map[*ssa.Parameter]*frontend.Kernel
	owners []*frontend.Kernel
}

// diagList collects the diagnostics of one compilation.
type diagList struct {
	fset *token.FileSet
	list []frontend.Diagnostic
}

func (d *diagList) add(pos token.Pos, format string, args ...any) {
	d.list = append(d.list, frontend.Diagnostic{Pos: d.fset.Position(pos), Msg: fmt.Sprintf(format, args...)})
}

func (m *modState) compile() error {
	kernel := m.k.Func
	m.checkTableWrites()
	entry := m.symbol(kernelSymbol(m.k))
	m.out.Entry = entry
	kf := &ptx.Func{Name: entry, Entry: true, MaxNReg: m.target.MaxRegisters, MaxNTid: m.target.MaxThreads, MinNCTAPerSM: m.target.MinBlocksPerSM}
	m.mod.Funcs = append(m.mod.Funcs, kf)
	m.funcs[kernel] = kf
	m.lowerFunc(kernel, kf, true)
	for len(m.queue) > 0 {
		fn := m.queue[0]
		m.queue = m.queue[1:]
		m.lowerFunc(fn, m.funcs[fn], false)
	}
	if m.gridSync && m.target.Debug {
		m.gridExitEpilogue(kf)
	}
	m.zeroShared(kf)
	if m.gridSync {
		m.gridSyncPrologue(kf)
	}
	if len(m.diags.list) > 0 {
		sort.SliceStable(m.diags.list, func(i, j int) bool {
			a, b := m.diags.list[i].Pos, m.diags.list[j].Pos
			if a.Filename != b.Filename {
				return a.Filename < b.Filename
			}
			if a.Line != b.Line {
				return a.Line < b.Line
			}
			return a.Column < b.Column
		})
		return &frontend.Error{Kernel: m.k.Name, Diags: m.diags.list}
	}
	if m.usesVprintf {
		m.mod.Globals = append(m.mod.Globals, ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);")
	}
	if m.errorRecord {
		m.mod.Globals = append(m.mod.Globals, fmt.Sprintf(".visible .global .align 8 .b8 %s[%d];", ErrorSymbol, ErrorRecordSize))
	}
	if m.dynShared {
		m.mod.Globals = append(m.mod.Globals, ".extern .shared .align 16 .b8 __nugo_dynshared[];")
	}
	m.out.PTX = m.mod.String()
	m.out.UsesPrintf = m.usesVprintf
	m.out.UsesErrorRecord = m.errorRecord
	m.out.UsesDynamicShared = m.dynShared
	m.out.SharedBytes = m.nshared
	return nil
}

// kernelSymbol is the entry's name: the Go name with type arguments spelled
// in identifier characters.
func kernelSymbol(k *frontend.Kernel) string {
	return sanitize(k.Name)
}

// sanitize maps a Go name to PTX identifier characters.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		case r == '[' || r == ',' || r == '.':
			b.WriteString("_")
		case r == ']' || r == ' ':
		default:
			b.WriteString("_")
		}
	}
	s = b.String()
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "_" + s
	}
	return s
}

// symbol returns a module-unique PTX name for base.
func (m *modState) symbol(base string) string {
	n := m.names[base]
	m.names[base] = n + 1
	if n == 0 {
		return base
	}
	return fmt.Sprintf("%s_%d", base, n)
}

// deviceFunc returns the PTX function of a device function, queueing it.
func (m *modState) deviceFunc(fn *ssa.Function) *ptx.Func {
	if pf, ok := m.funcs[fn]; ok {
		return pf
	}
	name := fn.Name()
	if fn.Pkg != nil && fn.Pkg.Pkg.Path() == frontend.DevmathPath {
		name = "devmath_" + name
	}
	if p := fn.Parent(); p != nil {
		name = p.Name() + "_" + name
	}
	if pos := m.localLeak(fn); pos != token.NoPos {
		why := "it calls itself"
		if len(fn.FreeVars) > 0 {
			why = "it is a closure"
		}
		m.diags.add(pos, "cannot let the address of a local variable of %s out of it: %s, so it is not inlined, and its variables end when it returns; declare the variable in the caller and pass its address in", fn.Name(), why)
	}
	pf := &ptx.Func{Name: m.symbol("fn_" + sanitize(name))}
	if _, _, total := retLayout(fn.Signature.Results()); total > 0 {
		pf.Results = []ptx.Param{{Name: pf.Name + "_ret", Size: total, Align: 8}}
	}
	m.funcs[fn] = pf
	m.mod.Funcs = append(m.mod.Funcs, pf)
	m.queue = append(m.queue, fn)
	return pf
}

// constString returns the symbol of a NUL-terminated global holding s.
func (m *modState) constString(s string) string {
	if sym, ok := m.strings[s]; ok {
		return sym
	}
	sym := m.symbol(fmt.Sprintf("__nugo_str%d", len(m.strings)))
	m.strings[s] = sym
	m.mod.Globals = append(m.mod.Globals, ptx.ByteArray(".global", sym, append([]byte(s), 0)))
	return sym
}

// retLayout places a device function's result leaves in its one .param
// result array (PTX allows only one .param return value): each leaf at its
// natural alignment, bools as 4 bytes.
func retLayout(results *types.Tuple) ([]scalar, []int, int) {
	ls, _ := leaves(results)
	offs := make([]int, len(ls))
	off := 0
	for i, s := range ls {
		size := 4
		if s.is64() {
			size = 8
		}
		off = (off + size - 1) / size * size
		offs[i] = off
		off += size
	}
	return ls, offs, (off + 7) / 8 * 8
}
