package difftest

import (
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strings"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/corpus"
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
	// Cooperative launches the kernel cooperatively (it syncs the grid).
	Cooperative bool
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
		return cuda.Jit(c.Kernel).LaunchWith(cuda.LaunchConfig{Grid: c.Grid, Block: c.Block, SharedMem: c.SharedMem, Cooperative: c.Cooperative}, args...)
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
	// A mutated kernel may write the same memory from several blocks; the
	// interpreter runs blocks on parallel goroutines, so such a program would
	// be a data race in the host process. One worker runs them in turn.
	workers := 0
	if opt.Mutate != nil {
		workers = 1
	}
	var sb strings.Builder
	err = gk.Run(golaunch.Launch{
		Grid:        [3]int{c.Grid.X, c.Grid.Y, c.Grid.Z},
		Block:       [3]int{c.Block.X, c.Block.Y, c.Block.Z},
		SharedMem:   c.SharedMem,
		Stdout:      &sb,
		MaxSteps:    1 << 26,
		Workers:     workers,
		Cooperative: c.Cooperative,
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

// Compare returns one line per element in which got (the compiled run)
// differs from want (the native run); see corpus.Diffs for the rules.
func Compare(want, got []any, ulp int) []string { return corpus.Diffs(want, got, ulp) }
