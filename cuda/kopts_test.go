package cuda_test

// The kernel options Numba's @cuda.jit has besides debug and fastmath
// (LineInfo, MaxRegisters), Nanosleep and the profiler calls, on the
// backends this machine offers.

import (
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// noEnvOptions clears the variables that turn options on for every kernel.
func noEnvOptions(t *testing.T) {
	t.Setenv("NUGO_DEBUG", "")
	t.Setenv("NUGO_LINEINFO", "")
}

// TestKernelOptions: flags combine, later options override earlier ones,
// nil is ignored, the environment adds its flags, and a register cap
// outside 16..255 is an error of Compile, Launch and PTX that names the
// value and the range.
func TestKernelOptions(t *testing.T) {
	noEnvOptions(t)
	onBackend(t, CPU)
	cases := []struct {
		name string
		env  string // NUGO_LINEINFO
		opts []Option
		want Options
		bad  bool
	}{
		{"none", "", nil, Options{}, false},
		{"flags", "", []Option{Debug | LineInfo, FastMath}, Options{Flags: Debug | LineInfo | FastMath}, false},
		{"max registers", "", []Option{MaxRegisters(32), Debug}, Options{Flags: Debug, MaxRegisters: 32}, false},
		{"later wins", "", []Option{MaxRegisters(32), MaxRegisters(64)}, Options{MaxRegisters: 64}, false},
		{"zero lifts the cap", "", []Option{MaxRegisters(64), MaxRegisters(0)}, Options{}, false},
		{"bounds", "", []Option{MaxRegisters(16), MaxRegisters(255)}, Options{MaxRegisters: 255}, false},
		{"nil ignored", "", []Option{nil, FastMath, nil}, Options{Flags: FastMath}, false},
		{"NUGO_LINEINFO", "1", []Option{Debug}, Options{Flags: Debug | LineInfo}, false},
		{"NUGO_LINEINFO not 1", "yes", nil, Options{}, false},
		{"too few", "", []Option{MaxRegisters(15)}, Options{MaxRegisters: 15}, true},
		{"too many", "", []Option{MaxRegisters(256)}, Options{MaxRegisters: 256}, true},
		{"negative", "", []Option{MaxRegisters(-1)}, Options{MaxRegisters: -1}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("NUGO_LINEINFO", c.env)
			k := Jit(testkernels.Scale, c.opts...)
			if got := k.Options(); got != c.want {
				t.Errorf("Options() = %+v, want %+v", got, c.want)
			}
			launchErr := k.Launch(Dim1(1), Dim1(4), make([]float32, 4), float32(2))
			_, compileErr := Compile(testkernels.Scale, c.opts...)
			_, ptxErr := k.PTX(75)
			if !c.bad {
				for what, err := range map[string]error{"Launch": launchErr, "Compile": compileErr, "PTX": ptxErr} {
					if err != nil {
						t.Errorf("%s: %v", what, err)
					}
				}
				return
			}
			for what, err := range map[string]error{"Launch": launchErr, "Compile": compileErr, "PTX": ptxErr} {
				wantErr(t, what, err, "kernel Scale", "MaxRegisters(", "between 16 and 255")
			}
		})
	}
}

// TestLineInfoAndMaxRegistersPTX: LineInfo writes .file for the kernel's
// Go file and .loc directives, MaxRegisters .maxnreg on the entry; neither
// appears without the option.
func TestLineInfoAndMaxRegistersPTX(t *testing.T) {
	noEnvOptions(t)
	plain, err := Jit(testkernels.Scale).PTX(75)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".loc", ".file", ".maxnreg"} {
		if strings.Contains(plain, d) {
			t.Errorf("PTX without options has %s", d)
		}
	}
	ptx, err := Jit(testkernels.Scale, LineInfo, MaxRegisters(40)).PTX(90)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`(?m)^\.file 1 "[^"]*testkernels/kernels\.go"$`, `(?m)^\t\.loc 1 1[0-9] \d+$`, `(?m)^\)\n\.maxnreg 40\n\{`} {
		if !regexp.MustCompile(want).MatchString(ptx) {
			t.Errorf("PTX lacks %q:\n%s", want, ptx)
		}
	}
	t.Setenv("NUGO_LINEINFO", "1")
	if env, err := Jit(testkernels.Scale).PTX(75); err != nil || !strings.Contains(env, "\t.loc 1 ") {
		t.Errorf("NUGO_LINEINFO=1: PTX without .loc (%v)", err)
	}
}

// jitRecorder is the fake driver with a record of what ModuleLoadData was
// given.
type jitRecorder struct {
	*fakedriver.Fake
	mu   sync.Mutex
	opts []driver.JITOptions
	ptx  []string
}

// ModuleLoadData records the module and its options and loads it.
func (r *jitRecorder) ModuleLoadData(ptx string, o driver.JITOptions) (driver.Module, driver.JITLog, error) {
	r.mu.Lock()
	r.opts = append(r.opts, o)
	r.ptx = append(r.ptx, ptx)
	r.mu.Unlock()
	return r.Fake.ModuleLoadData(ptx, o)
}

// TestGPULoadsWithLineInfo: on the GPU backend a LineInfo kernel's module
// is loaded with CU_JIT_GENERATE_LINE_INFO, so that the driver keeps the
// .loc lines; others are not. A register cap travels as .maxnreg in the
// PTX, not as CU_JIT_MAX_REGISTERS (which would cap the whole module).
func TestGPULoadsWithLineInfo(t *testing.T) {
	noEnvOptions(t)
	cases := []struct {
		name     string
		opts     []Option
		lineInfo bool
		maxnreg  string
	}{
		{"plain", nil, false, ""},
		{"LineInfo", []Option{LineInfo}, true, ""},
		{"MaxRegisters", []Option{MaxRegisters(48)}, false, ".maxnreg 48"},
		{"both with Debug", []Option{LineInfo | Debug, MaxRegisters(64)}, true, ".maxnreg 64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &jitRecorder{Fake: fakedriver.New(fakedriver.Config{})}
			UseGPUDriver(t, r)
			if err := Jit(testkernels.Scale, c.opts...).Launch(Dim1(1), Dim1(32), make([]float32, 32), float32(2)); err != nil {
				t.Fatal(err)
			}
			if len(r.opts) != 1 {
				t.Fatalf("%d modules loaded, want 1", len(r.opts))
			}
			o, ptx := r.opts[0], r.ptx[0]
			if o.LineInfo != c.lineInfo || o.MaxRegisters != 0 {
				t.Errorf("JIT options %+v; want LineInfo %v and no MaxRegisters", o, c.lineInfo)
			}
			if strings.Contains(ptx, "\t.loc ") != c.lineInfo {
				t.Errorf("PTX has .loc: %v, want %v", !c.lineInfo, c.lineInfo)
			}
			if c.maxnreg != "" && !strings.Contains(ptx, c.maxnreg) || c.maxnreg == "" && strings.Contains(ptx, ".maxnreg") {
				t.Errorf("PTX's .maxnreg: want %q:\n%s", c.maxnreg, ptx)
			}
		})
	}
}

// TestPTXSimFaultNamesGoLine: the ptxsim backend names the Go line of a
// faulting store (the interpreter reads the .loc directives), with
// LineInfo and without it: ptxsim always compiles with them (issue 21,
// item 16).
func TestPTXSimFaultNamesGoLine(t *testing.T) {
	noEnvOptions(t)
	onBackend(t, PTXSim)
	for _, c := range []struct {
		name string
		opts []Option
		pos  string // a regexp; "" for none
	}{
		{"LineInfo", []Option{LineInfo}, `testkernels/corpus\.go:134$`}, // file:line, as a Go traceback writes it
		{"plain", nil, `testkernels/corpus\.go:134$`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Jit(testkernels.OutOfRange, c.opts...).Launch(Dim1(4), Dim1(256), make([]int32, 1000))
			var ke *KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("got %v, want a *KernelError", err)
			}
			if c.pos == "" {
				if ke.Pos != "" {
					t.Errorf("Pos = %q without LineInfo", ke.Pos)
				}
				return
			}
			if !regexp.MustCompile(c.pos).MatchString(ke.Pos) || !strings.Contains(err.Error(), ": 4-byte store outside any global allocation (address 0x") || !strings.Contains(err.Error(), " at "+ke.Pos) {
				t.Errorf("Pos %q, error %q; want the fault at position %s", ke.Pos, err, c.pos)
			}
		})
	}
}

// TestNanosleepNeedsSM70: compiled for a GPU older than sm_70, a kernel
// that calls Nanosleep is a *CompileError at the call that names sm_70.
func TestNanosleepNeedsSM70(t *testing.T) {
	c, ok := corpus.Lookup("syncreduce/nanosleep_backoff")
	if !ok {
		t.Fatal("corpus case syncreduce/nanosleep_backoff is missing")
	}
	for _, sm := range []int{60, 61} {
		_, err := Jit(c.Kernel).PTX(sm)
		var ce *CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "sm_70") || !strings.Contains(err.Error(), "syncreduce.go:") {
			t.Errorf("sm_%d: got %v, want a *CompileError at the call that names sm_70", sm, err)
		}
	}
	for _, sm := range []int{70, 75, 90} {
		if ptx, err := Jit(c.Kernel).PTX(sm); err != nil || !strings.Contains(ptx, "nanosleep.u32") {
			t.Errorf("sm_%d: %v; want PTX with nanosleep.u32", sm, err)
		}
	}
}

// TestProfileStartStop: the host backends accept the calls and do
// nothing; the GPU backend calls cuProfilerStart and cuProfilerStop in the
// device's context, and a driver failure comes back as a *DriverError
// that says which call failed.
func TestProfileStartStop(t *testing.T) {
	for _, b := range []Backend{CPU, PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			if err := ProfileStart(); err != nil {
				t.Errorf("ProfileStart: %v", err)
			}
			if err := ProfileStop(); err != nil {
				t.Errorf("ProfileStop: %v", err)
			}
		})
	}
	t.Run("gpu-fake", func(t *testing.T) {
		f := fakeGPU(t, fakedriver.Config{})
		steps := []struct {
			name      string
			do        func() error
			call      string
			profiling bool
		}{
			{"start", ProfileStart, "cuProfilerStart", true},
			{"stop", ProfileStop, "cuProfilerStop", false},
		}
		for _, s := range steps {
			before := f.Count(s.call)
			if err := s.do(); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			if f.Count(s.call) != before+1 || f.Profiling(0) != s.profiling {
				t.Errorf("%s: %s called %d times, profiling %v; want once, %v", s.name, s.call, f.Count(s.call)-before, f.Profiling(0), s.profiling)
			}
			f.Inject(fakedriver.Fault{Call: s.call, Code: driver.ErrorUnknown})
			err := s.do()
			wantDriverError(t, err, s.call, driver.ErrorUnknown)
			prefix := "ProfileStop: device 0: "
			if s.profiling {
				prefix = "ProfileStart: device 0: "
			}
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("%s error %q; want it to start %q", s.name, err, prefix)
			}
		}
	})
}

// TestGPUOptionsRun: on the simulated GPU and a real one, a kernel
// compiled with line information, debug checks and a register cap computes
// what it computes without them, and the profiler calls succeed with no
// profiler attached.
func TestGPUOptionsRun(t *testing.T) {
	noEnvOptions(t)
	for _, b := range []struct {
		name  string
		setup func(t *testing.T)
	}{
		{"gpu-sim", func(t *testing.T) { simGPU(t) }},
		{"gpu", realGPU},
	} {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			if err := ProfileStart(); err != nil {
				t.Fatalf("ProfileStart: %v", err)
			}
			for _, opts := range [][]Option{nil, {LineInfo}, {LineInfo | Debug, MaxRegisters(24)}, {MaxRegisters(255)}} {
				data := make([]float32, 1000)
				for i := range data {
					data[i] = float32(i)
				}
				if err := Jit(testkernels.Scale, opts...).Launch(Dim1(4), Dim1(256), data, float32(3)); err != nil {
					t.Fatalf("%v: %v", opts, err)
				}
				for i, v := range data {
					if v != 3*float32(i) {
						t.Fatalf("%v: data[%d] = %v, want %v", opts, i, v, 3*float32(i))
					}
				}
			}
			if err := ProfileStop(); err != nil {
				t.Fatalf("ProfileStop: %v", err)
			}
		})
	}
}

func TestFlagsString(t *testing.T) {
	for _, c := range []struct {
		f    Flags
		want string
	}{{0, "0"}, {Debug, "Debug"}, {Debug | LineInfo, "Debug|LineInfo"}, {FastMath | 1<<7, "FastMath|0x80"}} {
		if got := c.f.String(); got != c.want {
			t.Errorf("Flags(%d).String() = %q, want %q", uint(c.f), got, c.want)
		}
	}
}
