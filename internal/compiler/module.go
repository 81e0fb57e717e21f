package compiler

import "fmt"

// Target describes what to compile for.
type Target struct {
	SM       int  // compute capability as 75, 80, 90; 0 means 75
	Debug    bool // bounds and shift checks that fill the device error record (division by zero is checked in every build)
	FastMath bool // allow FMA contraction and approximate float32 division and sqrt
	// LineInfo writes .file and .loc directives that map the PTX to the
	// Go source lines it came from, for profilers and debuggers (ptxas
	// and the driver's JIT then need -lineinfo, CU_JIT_GENERATE_LINE_INFO,
	// to keep them). The instructions are the same with or without it.
	LineInfo bool
	// MaxRegisters, when not 0, caps the registers per thread of the
	// kernel: the entry's .maxnreg. It must be between MinMaxRegisters and
	// MaxMaxRegisters.
	MaxRegisters int
	// MaxThreads, when not 0, is the most threads per block the kernel is
	// launched with (1 to 1024; the entry's .maxntid), and MinBlocksPerSM,
	// when not 0, the blocks a multiprocessor should hold at once
	// (.minnctapersm, written only with MaxThreads): Numba's
	// launch_bounds, CUDA C's __launch_bounds__.
	MaxThreads, MinBlocksPerSM int
	// NoReadOnlyCache disables ld.global.nc for slices the kernel never
	// writes; a backend sets it for a launch whose slice arguments overlap.
	NoReadOnlyCache bool
}

// The range of Target.MaxRegisters: ptxas's smallest register budget
// (sm_5x and sm_6x; it raises anything below 24 to 24 from sm_70 on) and
// the most registers a thread can address.
const (
	MinMaxRegisters = 16
	MaxMaxRegisters = 255
)

// check reports a target the compiler cannot honour.
func (t Target) check() error {
	if r := t.MaxRegisters; r != 0 && (r < MinMaxRegisters || r > MaxMaxRegisters) {
		return fmt.Errorf("a limit of %d registers per thread; it must be between %d and %d (or 0 for none)", r, MinMaxRegisters, MaxMaxRegisters)
	}
	if t.MaxThreads < 0 || t.MaxThreads > 1024 || t.MinBlocksPerSM < 0 || t.MinBlocksPerSM > 0 && t.MaxThreads == 0 {
		return fmt.Errorf("launch bounds of %d threads and %d blocks per multiprocessor; want 1 to 1024 threads (0: none) and a non-negative block count, which needs the thread count", t.MaxThreads, t.MinBlocksPerSM)
	}
	return nil
}

func (t Target) sm() int {
	if t.SM == 0 {
		return 75
	}
	return t.SM
}

// PTXVersion is the PTX ISA version of every module (its .version
// directive): 7.8, CUDA 11.8's, which every driver from CUDA 11.8 on
// JIT-compiles. A newer .version would fail on older drivers with
// CUDA_ERROR_UNSUPPORTED_PTX_VERSION.
const PTXVersion = "7.8"

// MinDriverVersion is the oldest driver, as cuDriverGetVersion reports it
// (1000*major + 10*minor), that accepts PTXVersion.
const MinDriverVersion = 11080

// MaxTargetSM is the newest architecture PTXVersion can name in .target
// (sm_90). A device of a newer compute capability gets a module for sm_90:
// the driver JIT-compiles PTX for any device at least as new as its target.
const MaxTargetSM = 90

// PTXTarget is the module's .target architecture for t: "sm_75" for SM 75
// (and for 0), "sm_90" for SM 90 and for every newer compute capability
// (MaxTargetSM).
func (t Target) PTXTarget() string {
	return fmt.Sprintf("sm_%d", min(t.sm(), MaxTargetSM))
}

// ParamKind is the kind of a kernel's Go parameter.
type ParamKind int

// Kinds of kernel parameters.
const (
	Scalar ParamKind = iota // a number or bool
	Slice                   // []T: pointer, len, cap
	Array2                  // cuda.Array2[T]: pointer, len, cap, rows, cols, off, s0, s1
	Array3                  // cuda.Array3[T]: pointer, len, cap, d0, d1, d2, off, s0, s1, s2
	// Aggregate is an array or struct passed by value (Numba's tuples and
	// namedtuples): one PTX byte array holding the value as Go lays it out
	// in memory, padding included, so that a launch copies the Go value's
	// bytes; none for a value of zero size.
	Aggregate
)

// String names the kind as in Go: "scalar", "slice", "Array2", "Array3",
// "aggregate".
func (k ParamKind) String() string {
	return [...]string{"scalar", "slice", "Array2", "Array3", "aggregate"}[k]
}

// PTXParam is one parameter of the PTX entry.
type PTXParam struct {
	Name   string // PTX name
	Type   string // PTX type: ".u64", ".s64", ".u32", ".s32", ".f32", ".f64", ".u8", ...
	Size   int    // bytes
	Offset int    // byte offset in the packed parameter buffer (natural alignment, or Align)
	Role   string // "value", "real", "imag" (a complex scalar's parts), "ptr", "len", "cap", "rows", "cols", "d0", "d1", "d2", "off" (the index of an array's first element from ptr), "s0", "s1", "s2" (its strides in elements), "bytes" (an aggregate's memory)
	Align  int    // alignment of a "bytes" parameter (Go's alignment of the aggregate); 0 for the others, naturally aligned
}

// MaxParamBytes is the most bytes of parameters a kernel may take: the
// parameter space of a kernel on every architecture PTXVersion targets.
const MaxParamBytes = 4096

// Param describes how one Go parameter of the kernel (after the cuda.Thread)
// becomes PTX parameters.
type Param struct {
	Arg      int        // index of the Go argument after the cuda.Thread
	Name     string     // Go parameter name
	Kind     ParamKind  // scalar, slice, Array2, Array3
	Elem     string     // Go element type ("float64", "int32", "bool", ...): the scalar's type or the slice's element type; an aggregate's own type
	ElemSize int        // bytes per element (1 for bool); an aggregate's size
	PTX      []PTXParam // in order
}

// FuncParam is a kernel parameter of func type. CompileBound binds it to a
// function, which the kernel calls directly; it has no PTX parameter, and
// the launch passes nothing for it.
type FuncParam struct {
	Arg  int    // index of the Go argument after the cuda.Thread
	Name string // Go parameter name
	Func string // Go name of the bound function, with type arguments
}

// Site is a source position that a debug check can report.
type Site struct {
	Kind string // "index out of range", "integer divide by zero", "slice bounds out of range", "negative shift amount", ...
	Pos  string // file:line of the Go code, as a Go traceback writes it
	Func string // Go function holding it
	Msg  string // a panic's message, known when compiling (ErrPanic)
}

// sitePos is the position a debug check reports: file:line, without the
// column, as a Go panic's traceback writes it, so that a failure reads the
// same on the CPU backend (which only has the runtime's file and line) and
// on the compiled ones.
func (f *fnState) sitePos() string {
	p := f.m.k.Fset.Position(f.pos)
	if !p.IsValid() {
		return ""
	}
	return fmt.Sprintf("%s:%d", p.Filename, p.Line)
}

// Module is a compiled kernel.
type Module struct {
	PTX               string      // the module's text
	Entry             string      // name of the .entry to launch
	Kernel            string      // Go name of the kernel, with type arguments
	Params            []Param     // one per Go parameter after the cuda.Thread, except func parameters
	FuncParams        []FuncParam // func parameters: bound to a function, no PTX parameter
	ParamBytes        int         // size of the packed parameter buffer
	SharedBytes       int         // static shared memory per block
	UsesDynamicShared bool        // calls cuda.DynamicSharedArray
	UsesPrintf        bool        // calls vprintf
	UsesErrorRecord   bool        // has debug checks: the module defines ErrorSymbol
	Sites             []Site      // debug sites, indexed by the record's site field
	// UsesGridSync says that the kernel calls cuda.Thread.SyncGrid: it
	// must be launched cooperatively, and it takes the hidden parameter
	// GridSyncParam, the device address of a zeroed 32-bit counter of the
	// launch's own (see gridsync.go).
	UsesGridSync bool
	// GridSyncParam is the hidden parameter of a grid-syncing kernel, last
	// in the entry and in the parameter buffer (ParamBytes counts it);
	// Role "gridsync". Zero when UsesGridSync is false.
	GridSyncParam PTXParam
	Target        Target
}

// ErrorSymbol is the global that debug-mode modules define: a 64-byte record
// that the first failing check of a launch fills in, little-endian:
//
//	offset  0  u32  code | flags<<8 | site<<12; 0: no check failed
//	offset  4  u32  blockIdx.x
//	offset  8  u32  blockIdx.y | blockIdx.z<<16
//	offset 12  u32  threadIdx.x | threadIdx.y<<10 | threadIdx.z<<20
//	offset 16  s64  the check's values, six at most (16, 24, ..., 56)
//
// code is one of ErrIndex..., flags RecordUnsigned or 0, site an index
// into Module.Sites (below MaxSites). The first word is claimed whole by
// compare-and-swap, so one thread's failure fills the record. CUDA's
// limits make the packing exact: blockIdx.y and .z are below 65536,
// threadIdx.x and .y below 1024, threadIdx.z below 64.
//
// The values are those Go's message prints, in the order each code lists:
// for the bounds checks, x and y of Go's runtime boundsError. A backend
// zeroes the record before the launch (cuModuleGetGlobal + memset) and
// reads it after synchronising (DecodeRecord); the failing thread has
// exited.
const ErrorSymbol = "__nugo_error"

// ErrorRecordSize is the byte size of ErrorSymbol.
const ErrorRecordSize = 64

// RecordValues is the number of values an error record holds.
const RecordValues = 6

// MaxSites bounds the debug checks of a module: the record's site field
// has 20 bits, and below 1<<19 the first word (the compare-and-swap's
// immediate operand) stays a positive 32-bit number.
const MaxSites = 1 << 19

// RecordUnsigned is the record's flag for an x of unsigned type: it prints
// as a uint64, where a signed one prints negative (and without its bound,
// as Go's runtime does for a negative index).
const RecordUnsigned = 1

// Error codes in the record, with the values each stores. The bounds
// checks follow Go's runtime: one code for each of boundsError's formats,
// with its x and y. A slice expression checks its indices right to left,
// as the gc compiler does, so that the failure reported is the one Go
// reports. The cuda.Array2/Array3 and MustView checks store what the CPU
// backend's panics print.
const (
	ErrIndex  = 1 // s[x] with len(s) y: "index out of range [x] with length y"
	ErrDivide = 2 // integer divide by zero (x the divisor, 0)
	// ErrSliceAcap: s[:x] of a slice, x > cap(s) = y:
	// "slice bounds out of range [:x] with capacity y".
	ErrSliceAcap = 3
	ErrShift     = 4 // negative shift amount x
	// ErrShape2: cuda.MustView2(data, rows, cols) with a negative
	// dimension or len(data) != rows*cols; values len(data), rows, cols.
	ErrShape2 = 5
	// ErrSliceAlen: a[:x] of an array, x > len(a) = y:
	// "slice bounds out of range [:x] with length y".
	ErrSliceAlen = 6
	// ErrSliceB: s[x:y] with x > y (y the high bound, or len(s) for s[x:]):
	// "slice bounds out of range [x:y]".
	ErrSliceB = 7
	// ErrSlice3Alen: a[::x] of an array, x > len(a) = y:
	// "slice bounds out of range [::x] with length y".
	ErrSlice3Alen = 8
	// ErrSlice3Acap: s[::x] of a slice, x > cap(s) = y:
	// "slice bounds out of range [::x] with capacity y".
	ErrSlice3Acap = 9
	// ErrSlice3B: s[:x:y] with x > y: "slice bounds out of range [:x:y]".
	ErrSlice3B = 10
	// ErrSlice3C: s[x:y:] with x > y: "slice bounds out of range [x:y:]".
	ErrSlice3C = 11
	// ErrConvert: (*[x]T)(s) or [x]T(s) with len(s) y < x: "cannot
	// convert slice with length y to array or pointer to array with
	// length x".
	ErrConvert = 12
	// ErrShape3: cuda.MustView3 as ErrShape2; values len(data), d0, d1, d2.
	ErrShape3 = 13
	// ErrIndex2: cuda.Array2's At or Set out of its shape; values i, j,
	// rows, cols.
	ErrIndex2 = 14
	// ErrIndex3: cuda.Array3's At or Set out of its shape; values i, j, k,
	// d0, d1, d2.
	ErrIndex3 = 15
	// ErrGridExit: a grid barrier (t.SyncGrid) found, in debug mode, that
	// every thread of another block had returned, so that the barrier
	// could never complete; values the returned block's x, y, z.
	ErrGridExit = 16
	// ErrPanic: panic(v) of a constant or errors.New(constant); the
	// message, fmt.Sprint(v) as the CPU backend prints it, is the site's
	// Msg.
	ErrPanic = 17
	// ErrWarpMask: a warp operation (cuda.ShflSyncMask and the other Mask
	// forms) called by a lane not in its member mask; values the mask and
	// the lane.
	ErrWarpMask = 18
)

// WarpMaskMsg is the message of a warp operation whose member mask does
// not include the calling lane, with the mask and the lane; the cpu
// backend, ptxsim and the compiled debug check all say it.
const WarpMaskMsg = "warp operation with member mask %#08x called by lane %d, which is not in the mask (CUDA leaves this undefined)"

// GridExitMsg is the message of a block that returned before a SyncGrid
// the rest of the grid waits at, with the returned block's x, y and z;
// the cpu backend, ptxsim and the compiled debug check all say it.
const GridExitMsg = "block (%d,%d,%d) returned before t.SyncGrid, which the rest of the grid waits at; every block must reach every SyncGrid (on a GPU without debug mode the grid hangs)"
