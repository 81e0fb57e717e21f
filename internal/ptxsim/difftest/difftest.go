package difftest

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sort"
	"strings"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxsim/golaunch"
)

// Case is a kernel with its launch and inputs: the shape of the corpus'
// entries.
type Case struct {
	Name      string
	Kernel    any // the kernel's func value, a top-level function
	Grid      cuda.Dim3
	Block     cuda.Dim3
	SharedMem int
	Args      func() []any // fresh inputs on every call
	MathULP   int          // float results may differ by this many ulps (0: bit-exact)
	Printf    bool         // compare the printed text too (as sorted lines)
	Test      string       // the test that runs it, for the rerun command; "TestCorpus" if empty
}

// Options change how the compiled side runs.
type Options struct {
	// Mutate rewrites the PTX before it runs: the hook that injects a
	// known miscompilation to show the suite catches it.
	Mutate func(ptx string) string
	// Debug compiles with bounds and division checks.
	Debug bool
}

// Outcome is what one engine produced.
type Outcome struct {
	Args   []any // the arguments after the launch (slices hold the results)
	Stdout string
	Err    error
}

// Native runs c on the CPU backend.
func Native(c Case) Outcome {
	args := c.Args()
	var out Outcome
	run := func() error {
		if err := cuda.SetBackend(cuda.CPU); err != nil {
			return err
		}
		return cuda.Jit(c.Kernel).LaunchWith(cuda.LaunchConfig{Grid: c.Grid, Block: c.Block, SharedMem: c.SharedMem}, args...)
	}
	if c.Printf {
		out.Stdout, out.Err = captureStdout(run)
	} else {
		out.Err = run()
	}
	out.Args = args
	return out
}

// CompileCase compiles c's kernel, as the ptxsim backend does.
func CompileCase(c Case, opt Options) (*compiler.Module, error) {
	fk, err := frontend.LoadFunc(c.Kernel)
	if err != nil {
		return nil, err
	}
	return compiler.Compile(fk, compiler.Target{Debug: opt.Debug})
}

// Compiled runs c through the compiler and the interpreter.
func Compiled(c Case, opt Options) (Outcome, *compiler.Module) {
	m, err := CompileCase(c, opt)
	if err != nil {
		return Outcome{Err: fmt.Errorf("compile: %w", err)}, nil
	}
	return RunModule(m, c, opt), m
}

// RunModule runs a compiled module over fresh inputs of c.
func RunModule(m *compiler.Module, c Case, opt Options) Outcome {
	if opt.Mutate != nil {
		mm := *m
		mm.PTX = opt.Mutate(m.PTX)
		m = &mm
	}
	args := c.Args()
	gk, err := golaunch.New(m)
	if err != nil {
		return Outcome{Args: args, Err: err}
	}
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		vals[i] = reflect.ValueOf(a)
	}
	var sb strings.Builder
	err = gk.Run(golaunch.Launch{
		Grid:      [3]int{c.Grid.X, c.Grid.Y, c.Grid.Z},
		Block:     [3]int{c.Block.X, c.Block.Y, c.Block.Z},
		SharedMem: c.SharedMem,
		Stdout:    &sb,
		MaxSteps:  1 << 26,
	}, vals)
	return Outcome{Args: args, Stdout: sb.String(), Err: err}
}

// Mismatch is a difference between the engines, with everything needed to
// reproduce it.
type Mismatch struct {
	Case   string
	Report string
}

// Error returns the full report.
func (m *Mismatch) Error() string { return m.Report }

// Check runs c on both engines and returns a *Mismatch when they differ.
func Check(c Case, opt Options) error {
	want := Native(c)
	if want.Err != nil {
		return fmt.Errorf("%s: native run failed: %w", c.Name, want.Err)
	}
	got, _ := Compiled(c, opt)
	var diffs []string
	if got.Err != nil {
		diffs = append(diffs, fmt.Sprintf("compiled run failed: %v", got.Err))
	} else {
		diffs = Compare(want.Args, got.Args, c.MathULP)
		if c.Printf && sortedLines(want.Stdout) != sortedLines(got.Stdout) {
			diffs = append(diffs, fmt.Sprintf("printed text differs:\nnative:\n%s\ncompiled:\n%s", clip(want.Stdout, 2000), clip(got.Stdout, 2000)))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	return &Mismatch{Case: c.Name, Report: report(c, want, got, diffs)}
}

func report(c Case, want, got Outcome, diffs []string) string {
	var b strings.Builder
	fn := runtime.FuncForPC(reflect.ValueOf(c.Kernel).Pointer())
	file, line := fn.FileLine(fn.Entry())
	fmt.Fprintf(&b, "case %s: kernel %s (%s:%d), grid %v block %v shared %d\n", c.Name, fn.Name(), file, line, c.Grid, c.Block, c.SharedMem)
	b.WriteString("differences:\n")
	for i, d := range diffs {
		if i == 20 {
			fmt.Fprintf(&b, "  ... and %d more\n", len(diffs)-20)
			break
		}
		fmt.Fprintf(&b, "  %s\n", d)
	}
	test := c.Test
	if test == "" {
		test = "TestCorpus"
	}
	fmt.Fprintf(&b, "dump its PTX: go test ./internal/ptxsim/difftest -run '%s$/%s$' -v -dumpptx\n", test, c.Name)
	fmt.Fprintf(&b, "inputs:\n%s", describeArgs(c.Args()))
	fmt.Fprintf(&b, "native outputs:\n%s", describeArgs(want.Args))
	fmt.Fprintf(&b, "compiled outputs:\n%s", describeArgs(got.Args))
	return b.String()
}

func describeArgs(args []any) string {
	var b strings.Builder
	for i, a := range args {
		s := fmt.Sprintf("%v", a)
		fmt.Fprintf(&b, "  arg %d (%T): %s\n", i+1, a, clip(s, 400))
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("... (%d bytes)", len(s))
}

func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// Compare returns one line per element in which got differs from want:
// integers and bools exactly, floats by bits (NaNs of any payload are
// equal: Go does not define NaN payloads) or within ulp units in the last
// place.
func Compare(want, got []any, ulp int) []string {
	var out []string
	if len(want) != len(got) {
		return []string{fmt.Sprintf("%d arguments, want %d", len(got), len(want))}
	}
	for i := range want {
		w, g := flat(want[i]), flat(got[i])
		if !w.IsValid() {
			continue // a scalar: input only
		}
		if !g.IsValid() || w.Type() != g.Type() || w.Len() != g.Len() {
			out = append(out, fmt.Sprintf("argument %d: got %T of another shape, want %T", i+1, got[i], want[i]))
			continue
		}
		for j := 0; j < w.Len(); j++ {
			if msg := diffElem(w.Index(j), g.Index(j), ulp); msg != "" {
				out = append(out, fmt.Sprintf("argument %d (%T) element %d: %s", i+1, want[i], j, msg))
			}
		}
	}
	return out
}

func flat(x any) reflect.Value {
	v := reflect.ValueOf(x)
	if !v.IsValid() {
		return v
	}
	if v.Kind() == reflect.Slice {
		return v
	}
	if m := v.MethodByName("Data"); m.IsValid() {
		return m.Call(nil)[0]
	}
	return reflect.Value{}
}

func diffElem(w, g reflect.Value, ulp int) string {
	switch w.Kind() {
	case reflect.Float32:
		a, b := float32(w.Float()), float32(g.Float())
		if math.Float32bits(a) == math.Float32bits(b) || a != a && b != b {
			return ""
		}
		if ulp > 0 && ulps(float64(a), float64(b), 32) <= uint64(ulp) {
			return ""
		}
		return fmt.Sprintf("compiled %v (%#x), native %v (%#x)", b, math.Float32bits(b), a, math.Float32bits(a))
	case reflect.Float64:
		a, b := w.Float(), g.Float()
		if math.Float64bits(a) == math.Float64bits(b) || a != a && b != b {
			return ""
		}
		if ulp > 0 && ulps(a, b, 64) <= uint64(ulp) {
			return ""
		}
		return fmt.Sprintf("compiled %v (%#x), native %v (%#x)", b, math.Float64bits(b), a, math.Float64bits(a))
	}
	if !reflect.DeepEqual(w.Interface(), g.Interface()) {
		return fmt.Sprintf("compiled %v, native %v", g.Interface(), w.Interface())
	}
	return ""
}

// ulps is the distance between a and b in units in the last place of the
// format, counting across zero.
func ulps(a, b float64, bits int) uint64 {
	if a != a || b != b {
		return math.MaxUint64
	}
	ord := func(x float64) int64 {
		var u int64
		if bits == 32 {
			u = int64(math.Float32bits(float32(x)))
			if u&(1<<31) != 0 {
				u = -(u &^ (1 << 31))
			}
		} else {
			u = int64(math.Float64bits(x))
			if u < 0 {
				u = -(u & math.MaxInt64)
			}
		}
		return u
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}
