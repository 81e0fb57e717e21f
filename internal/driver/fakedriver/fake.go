package fakedriver

import (
	"fmt"
	"regexp"
	"sync"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/ptxsim"
)

// DeviceSpec describes one fake device.
type DeviceSpec struct {
	Name     string
	TotalMem int
	// Attrs are the device attributes DeviceAttribute answers; an attribute
	// missing here is CUDA_ERROR_INVALID_VALUE.
	Attrs map[driver.DeviceAttribute]int
}

// DefaultDevice is a Turing-class device (sm_75, 40 SMs, 1 GiB) with the
// limits of real hardware of that generation.
func DefaultDevice() DeviceSpec {
	return DeviceSpec{
		Name:     "nugo fake GPU (sm_75)",
		TotalMem: 1 << 30,
		Attrs: map[driver.DeviceAttribute]int{
			driver.AttrMaxThreadsPerBlock:           1024,
			driver.AttrMaxBlockDimX:                 1024,
			driver.AttrMaxBlockDimY:                 1024,
			driver.AttrMaxBlockDimZ:                 64,
			driver.AttrMaxGridDimX:                  1<<31 - 1,
			driver.AttrMaxGridDimY:                  65535,
			driver.AttrMaxGridDimZ:                  65535,
			driver.AttrMaxSharedMemoryPerBlock:      48 << 10,
			driver.AttrTotalConstantMemory:          64 << 10,
			driver.AttrWarpSize:                     32,
			driver.AttrMaxRegistersPerBlock:         65536,
			driver.AttrClockRate:                    1590000,
			driver.AttrMultiprocessorCount:          40,
			driver.AttrKernelExecTimeout:            0,
			driver.AttrIntegrated:                   0,
			driver.AttrCanMapHostMemory:             1,
			driver.AttrConcurrentKernels:            1,
			driver.AttrPCIBusID:                     1,
			driver.AttrPCIDeviceID:                  0,
			driver.AttrMemoryClockRate:              5001000,
			driver.AttrGlobalMemoryBusWidth:         256,
			driver.AttrL2CacheSize:                  4 << 20,
			driver.AttrMaxThreadsPerMultiprocessor:  1024,
			driver.AttrAsyncEngineCount:             3,
			driver.AttrUnifiedAddressing:            1,
			driver.AttrPCIDomainID:                  0,
			driver.AttrComputeCapabilityMajor:       7,
			driver.AttrComputeCapabilityMinor:       5,
			driver.AttrMaxSharedMemoryPerSM:         64 << 10,
			driver.AttrMaxRegistersPerSM:            65536,
			driver.AttrManagedMemory:                1,
			driver.AttrConcurrentManagedAccess:      1,
			driver.AttrMaxSharedMemoryPerBlockOptin: 64 << 10,
			driver.AttrCooperativeLaunch:            1,
		},
	}
}

// DefaultFuncAttrs are the attributes of a loaded kernel where its PTX says
// nothing more (see resources.go for what it says: registers, local and
// shared memory, and the threads per block those allow on its device).
func DefaultFuncAttrs() map[driver.FunctionAttribute]int {
	return map[driver.FunctionAttribute]int{
		driver.FuncMaxThreadsPerBlock:   1024,
		driver.FuncSharedSizeBytes:      0,
		driver.FuncConstSizeBytes:       0,
		driver.FuncLocalSizeBytes:       0,
		driver.FuncNumRegs:              16,
		driver.FuncPTXVersion:           78,
		driver.FuncBinaryVersion:        75,
		driver.FuncMaxDynamicSharedSize: 48 << 10,
		driver.FuncPreferredCarveout:    -1,
	}
}

// Config shapes a Fake. The zero value is one DefaultDevice and driver 12020.
type Config struct {
	// Devices lists the devices; nil means one DefaultDevice. An empty,
	// non-nil list makes Init fail with CUDA_ERROR_NO_DEVICE, as the real
	// library does on a machine without a GPU.
	Devices []DeviceSpec
	// DriverVersion is what DriverVersion answers; 0 means 12020.
	DriverVersion int
	// LaunchTimeMS is how far each launch advances the fake clock that
	// events read; 0 means 1 ms.
	LaunchTimeMS float32
	// Sim, when not nil, makes the Fake run kernels in the PTX interpreter
	// (see SimConfig); nil only records them.
	Sim *SimConfig
}

// Fault makes calls to one driver entry point fail.
type Fault struct {
	// Call is the entry point as driver.Error.Call names it: "cuMemAlloc".
	Call string
	// Code is the result to return.
	Code driver.Result
	// After lets this many matching calls succeed before the first failure.
	After int
	// Times is how many calls fail: 0 means one, negative means all.
	Times int
	// Log is the JIT error log a failing cuModuleLoadDataEx reports.
	Log string
	// Sticky models a fault inside a kernel: the matching call itself
	// succeeds, and every later call that needs the context fails with Code
	// until the primary context's last reference is released.
	Sticky bool
}

// Launch is one recorded kernel launch.
type Launch struct {
	Function  string        // the kernel's .entry name
	Module    driver.Module // the module holding it (for ModuleGetGlobal in OnLaunch)
	Grid      driver.Dim3
	Block     driver.Dim3
	SharedMem int
	Stream    driver.Stream
	Args      [][]byte // each argument's bytes, in order (copies)
	Params    []byte   // the packed buffer, padding included (a copy)
	// Cooperative: launched with LaunchCooperativeKernel.
	Cooperative bool
}

// Live counts what is allocated and not yet freed, for leak checks.
type Live struct {
	Allocs, Bytes, HostAllocs, Registered, Modules, Streams, Events int
}

// Fake is a host-memory driver.API. Its methods are safe for concurrent use;
// the exported fields must be set before the Fake is shared.
type Fake struct {
	// OnLaunch, when set, is called after each successful launch is recorded,
	// without locks held: it may Read and Write device memory to act as the
	// kernel. An error it returns is returned by LaunchKernel; a
	// *driver.Error with a sticky code (driver.Result.Sticky) also poisons
	// the context.
	OnLaunch func(f *Fake, l Launch) error

	mu          sync.Mutex
	cfg         Config
	initialized bool
	ctxRefs     []int                  // per device: primary context references
	current     map[int]driver.Context // per OS thread
	poison      driver.Result
	next        uintptr
	allocs      map[driver.DevicePtr]*alloc
	nextAddr    driver.DevicePtr
	used        []int // per device: bytes allocated
	host        map[unsafe.Pointer][]byte
	registered  map[uintptr]int // page-locked ranges of caller memory: start → bytes
	modules     map[driver.Module]*module
	funcs       map[driver.Function]*function
	funcAttrs   map[string]map[driver.FunctionAttribute]int
	streams     map[driver.Stream]int // stream → device
	peers       map[[2]int]bool       // device → peer whose memory it may use (CtxEnablePeerAccess)
	events      map[driver.Event]*event
	clockMS     float64
	launches    []Launch
	calls       []string
	faults      []*faultState
	sim         []*ptxsim.Memory       // per device, with Config.Sim: every allocation at its address
	pending     []pendingOp            // with Config.Sim: queued device work
	kernelFault error                  // the interpreter's account of the poisoning fault
	limits      []map[driver.Limit]int // per device: context limits set by CtxSetLimit
	profiling   []bool                 // per device: profile collection on (ProfilerStart)
	prefetches  []Prefetch             // cuMemPrefetchAsync calls that succeeded
	advice      []Advice               // cuMemAdvise calls that succeeded
}

type alloc struct {
	dev    int
	mem    []byte
	global bool // a module's global variable: not counted by Live, freed by unload
	// host is the host address of mapped page-locked memory (MemHostAlloc
	// with HostAllocDeviceMap, which MemFreeHost unmaps, or MemHostRegister
	// with HostRegisterDeviceMap, registered, which MemHostUnregister
	// unmaps); nil otherwise.
	host       unsafe.Pointer
	registered bool
	// managed marks managed memory (MemAllocManaged): its device address
	// is its host address.
	managed bool
}

// hostVisible reports whether the host reads and writes the allocation's
// bytes directly (mapped or managed memory), which makes a memset of it
// synchronous, as CUDA documents.
func (a *alloc) hostVisible() bool { return a.host != nil || a.managed }

type module struct {
	dev     int
	funcs   []driver.Function
	globals map[string]driver.DevicePtr
	prog    *ptxsim.Program // with Config.Sim: the module in the interpreter
}

type function struct {
	name   string
	mod    driver.Module
	params []int                            // byte size of each .param of the .entry; nil if unparsed
	code   map[driver.FunctionAttribute]int // with Config.Sim: what the PTX says
}

type event struct {
	dev      int
	flags    driver.EventFlags
	recorded bool
	atMS     float64
}

type faultState struct {
	Fault
	seen, failed int
}

// New returns a Fake shaped by cfg.
func New(cfg Config) *Fake {
	if cfg.Devices == nil {
		cfg.Devices = []DeviceSpec{DefaultDevice()}
	}
	if cfg.DriverVersion == 0 {
		cfg.DriverVersion = 12020
	}
	if cfg.LaunchTimeMS == 0 {
		cfg.LaunchTimeMS = 1
	}
	var sim []*ptxsim.Memory
	if cfg.Sim != nil {
		for range cfg.Devices {
			sim = append(sim, ptxsim.NewMemory())
		}
	}
	return &Fake{
		sim:        sim,
		cfg:        cfg,
		ctxRefs:    make([]int, len(cfg.Devices)),
		used:       make([]int, len(cfg.Devices)),
		current:    map[int]driver.Context{},
		next:       0x1000,
		allocs:     map[driver.DevicePtr]*alloc{},
		nextAddr:   0x7f00_0000_0000,
		host:       map[unsafe.Pointer][]byte{},
		registered: map[uintptr]int{},
		modules:    map[driver.Module]*module{},
		funcs:      map[driver.Function]*function{},
		funcAttrs:  map[string]map[driver.FunctionAttribute]int{},
		streams:    map[driver.Stream]int{},
		events:     map[driver.Event]*event{},
		limits:     make([]map[driver.Limit]int, len(cfg.Devices)),
		profiling:  make([]bool, len(cfg.Devices)),
	}
}

// Compile-time check: the fake is an API.
var _ driver.API = (*Fake)(nil)

// Inject arms faults; they fire in the order given when several match a call.
func (f *Fake) Inject(faults ...Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ft := range faults {
		f.faults = append(f.faults, &faultState{Fault: ft})
	}
}

// ClearFaults disarms every fault and lifts a context poisoning.
func (f *Fake) ClearFaults() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = nil
	f.poison, f.kernelFault = driver.Success, nil
}

// SetFuncAttr sets a kernel attribute for every kernel named name, loaded
// now or later (e.g. NumRegs, which also lowers the MaxThreadsPerBlock the
// fake derives from it, or MaxThreadsPerBlock itself; a launch of a larger
// block fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
func (f *Fake) SetFuncAttr(name string, attr driver.FunctionAttribute, value int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.funcAttrs[name] == nil {
		f.funcAttrs[name] = map[driver.FunctionAttribute]int{}
	}
	f.funcAttrs[name][attr] = value
}

// Calls lists the driver entry points called so far, in order.
func (f *Fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// Count is how many times the entry point name has been called.
func (f *Fake) Count(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if c == name {
			n++
		}
	}
	return n
}

// Launches returns the recorded launches, oldest first.
func (f *Fake) Launches() []Launch {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Launch(nil), f.launches...)
}

// Live reports what is allocated and not freed.
func (f *Fake) Live() Live {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := Live{HostAllocs: len(f.host), Registered: len(f.registered), Modules: len(f.modules),
		Streams: len(f.streams), Events: len(f.events)}
	for _, a := range f.allocs {
		if !a.global && a.host == nil { // mapped memory counts in HostAllocs
			l.Allocs++
			l.Bytes += len(a.mem)
		}
	}
	return l
}

// Read copies n bytes of device memory at p, as a kernel hook or a test
// sees it (after the queued work, with Config.Sim).
func (f *Fake) Read(p driver.DevicePtr, n int) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flush()
	b, err := f.span("Read", p, n)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), b...), nil
}

// Write stores b into device memory at p (after the queued work, with
// Config.Sim).
func (f *Fake) Write(p driver.DevicePtr, b []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flush()
	dst, err := f.span("Write", p, len(b))
	if err != nil {
		return err
	}
	copy(dst, b)
	return nil
}

// enter is the common prologue of every API method, called with f.mu held:
// it records the call, fires injected faults, and checks initialisation,
// the current context and poisoning. It returns the current context's device.
func (f *Fake) enter(call string, needInit, needCtx bool) (dev int, err error) {
	f.calls = append(f.calls, call)
	poisonedNow := false
	for _, ft := range f.faults {
		if ft.Call != call {
			continue
		}
		ft.seen++
		if ft.seen <= ft.After || (ft.Times >= 0 && ft.failed >= max(ft.Times, 1)) {
			continue
		}
		ft.failed++
		if ft.Sticky {
			f.poison = ft.Code
			poisonedNow = true
			break
		}
		e := driver.NewError(call, ft.Code)
		e.Log = ft.Log
		return -1, e
	}
	if needInit && !f.initialized {
		return -1, driver.NewError(call, driver.ErrorNotInitialized)
	}
	if !needCtx {
		return -1, nil
	}
	dev = f.ctxDevice(f.current[threadID()])
	if dev < 0 || f.ctxRefs[dev] == 0 {
		return -1, driver.NewError(call, driver.ErrorInvalidContext)
	}
	if hostSync[call] {
		f.flush()
	}
	if f.poison != driver.Success && !poisonedNow {
		return -1, driver.NewError(call, f.poison)
	}
	return dev, nil
}

// ctxHandle is device d's primary context handle; ctxDevice inverts it.
func ctxHandle(d int) driver.Context { return driver.Context(0xc0de0000 + d*0x100) }

func (f *Fake) ctxDevice(c driver.Context) int {
	d := int(c) - 0xc0de0000
	if c == 0 || d < 0 || d%0x100 != 0 || d/0x100 >= len(f.cfg.Devices) {
		return -1
	}
	return d / 0x100
}

// handle returns a fresh handle value, distinct across all kinds.
func (f *Fake) handle() uintptr {
	f.next += 0x10
	return f.next
}

func invalid(call, why string, args ...any) *driver.Error {
	e := driver.NewError(call, driver.ErrorInvalidValue)
	e.Message += ": " + fmt.Sprintf(why, args...)
	return e
}

// lazyRE compiles a regular expression on first use: the fake driver is
// linked into every program (NUGO_FAKE_GPU), which must not pay for its
// expressions at start.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
