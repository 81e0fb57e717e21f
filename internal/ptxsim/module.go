package ptxsim

import (
	"fmt"
	"sort"
)

// Module is parsed, pre-decoded PTX: immutable, safe to launch concurrently.
type Module struct {
	Version     string // .version
	Target      string // .target
	AddressSize int    // .address_size

	funcs   map[string]*function
	kernels []*function
	vars    []*variable // module-scope variables, in declaration order (plus function-scope .shared/.global/.const)

	sharedStatic int // bytes of static shared memory per block
	sharedAlign  int // alignment of the dynamic shared area
	globalSize   int // bytes of the module's .global image
	constSize    int // bytes of the module's .const image
	globalInit   []byte
	constInit    []byte

	files map[int]string // .file directives: number → source file name
}

// Kernels lists the .entry functions of the module in source order.
func (m *Module) Kernels() []string {
	out := make([]string, len(m.kernels))
	for i, k := range m.kernels {
		out[i] = k.name
	}
	return out
}

// SharedSize is the module's static shared memory per block in bytes: its
// .shared variables, without the dynamic area.
func (m *Module) SharedSize() int { return m.sharedStatic }

// Param describes one kernel parameter: its byte offset in the parameter
// buffer, its size and alignment, and its PTX type.
type Param struct {
	Name   string
	Offset int
	Size   int
	Align  int
	Type   string // e.g. ".u64", ".f32", ".b8" (arrays: Size > type size)
}

// Params returns the parameter layout of kernel name.
func (m *Module) Params(kernel string) ([]Param, error) {
	f := m.funcs[kernel]
	if f == nil || !f.entry {
		return nil, fmt.Errorf("ptxsim: no kernel %q in module", kernel)
	}
	out := make([]Param, len(f.params))
	for i, p := range f.params {
		out[i] = Param{Name: p.name, Offset: p.off, Size: p.size, Align: p.align, Type: p.ty.String()}
	}
	return out, nil
}

// ParamSize is the byte size of kernel's parameter buffer.
func (m *Module) ParamSize(kernel string) (int, error) {
	f := m.funcs[kernel]
	if f == nil || !f.entry {
		return 0, fmt.Errorf("ptxsim: no kernel %q in module", kernel)
	}
	return f.paramSize, nil
}

type variable struct {
	name   string
	sp     space
	ty     ptype
	align  int
	size   int
	init   []byte
	extern bool   // extern .shared: the dynamic shared area
	off    uint64 // offset in its space (shared area, module global/const image, or frame)
	line   int
}

// param is a .param or .reg parameter of an entry or function.
type param struct {
	name  string
	ty    ptype
	size  int
	align int
	isReg bool
	reg   int32 // register index when isReg
	off   int   // kernel param buffer offset (entry) or frame offset (func)
}

type function struct {
	name      string
	entry     bool
	extern    bool
	defined   bool
	params    []param
	rets      []param
	paramSize int // entry: size of the parameter buffer

	nregs     int
	template  []uint64 // initial register file: specials, declared registers (0), constants
	regNames  []string
	code      []inst
	frameSize int
	calls     []callInfo
	relocs    []reloc
	line      int
	usesBar   bool
	track     bool // the module tracks divergence (diverge.go)
	// locs are the function's .loc directives in PTX line order: the
	// source position of the instructions after each (see sourceAt).
	locs []srcLoc
}

// srcLoc is one .loc directive: from PTX line ptxLine on, the code is that
// of source position pos ("file.go:12:5").
type srcLoc struct {
	ptxLine    int
	file, line int
	col        int
	pos        string
}

// sourceAt is the source position of the instruction on PTX line line,
// from the last .loc before it in f; "" when there is none.
func (f *function) sourceAt(line int) string {
	i := sort.Search(len(f.locs), func(i int) bool { return f.locs[i].ptxLine > line })
	if i == 0 || line <= 0 {
		return ""
	}
	return f.locs[i-1].pos
}

// reloc patches a constant slot with a variable's address at load time.
type reloc struct {
	slot int32
	v    *variable
	add  int64
}

// callInfo is the operand lists of a call instruction.
type callInfo struct {
	callee *function
	rets   []argRef
	args   []argRef
}

// argRef names where an argument comes from or a result goes to in the
// caller: a register (or constant slot) or a frame offset (.param variable).
type argRef struct {
	isReg bool
	reg   int32
	off   int
	size  int
}

// Register file layout: fixed slots first.
const (
	slotTrue = iota
	slotFalse
	slotTidX
	slotTidY
	slotTidZ
	slotNtidX
	slotNtidY
	slotNtidZ
	slotCtaidX
	slotCtaidY
	slotCtaidZ
	slotNctaidX
	slotNctaidY
	slotNctaidZ
	slotLaneid
	slotWarpid
	slotNwarpid
	slotSmid
	slotDynSmem
	slotTotalSmem
	slotLanemaskEq
	slotLanemaskLt
	slotLanemaskLe
	slotLanemaskGt
	slotLanemaskGe
	numFixedSlots
)

var specialRegs = map[string]int32{
	"%tid.x": slotTidX, "%tid.y": slotTidY, "%tid.z": slotTidZ,
	"%ntid.x": slotNtidX, "%ntid.y": slotNtidY, "%ntid.z": slotNtidZ,
	"%ctaid.x": slotCtaidX, "%ctaid.y": slotCtaidY, "%ctaid.z": slotCtaidZ,
	"%nctaid.x": slotNctaidX, "%nctaid.y": slotNctaidY, "%nctaid.z": slotNctaidZ,
	"%laneid": slotLaneid, "%warpid": slotWarpid, "%nwarpid": slotNwarpid,
	"%smid": slotSmid, "%gridid": slotFalse, "%nsmid": slotTrue,
	"%dynamic_smem_size": slotDynSmem, "%total_smem_size": slotTotalSmem,
	"%lanemask_eq": slotLanemaskEq, "%lanemask_lt": slotLanemaskLt, "%lanemask_le": slotLanemaskLe,
	"%lanemask_gt": slotLanemaskGt, "%lanemask_ge": slotLanemaskGe,
}
