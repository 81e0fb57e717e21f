package fissiontest

import (
	"context"
	"flag"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	numSeeds  = flag.Int("fissionseeds", 0, "random barrier programs to run (0: 160, or 40 with -short)")
	firstSeed = flag.Uint64("fissionseed", 1, "the seed of the first random barrier program")
	keepDir   = flag.Bool("fissionkeep", false, "keep the generated package under testdata even when the test passes")
)

// TestGenerateDeterministic: a seed always gives the same program, and
// different seeds give different programs.
func TestGenerateDeterministic(t *testing.T) {
	for _, seed := range []uint64{1, 2, 77} {
		a, b := Generate(seed, "K"), Generate(seed, "K")
		if !reflect.DeepEqual(a, b) {
			t.Errorf("seed %d gives two programs", seed)
		}
		if c := Generate(seed+1000, "K"); c.Source == a.Source {
			t.Errorf("seeds %d and %d give the same program", seed, seed+1000)
		}
	}
}

// TestGenerateCovers: the programs of the seeds the test runs use every
// construct they are meant to check, and each parses as Go.
func TestGenerateCovers(t *testing.T) {
	want := []string{
		"t.SyncThreads()", "t.SyncThreadsCount(", "t.SyncThreadsAnd(", "t.SyncThreadsOr(",
		"for t.SyncThreadsOr(", "for i", "; t.SyncThreadsAnd(", "cuda.ShflDownSync(", "cuda.ShflUpSync(",
		"cuda.ShflXorSync(", "cuda.ShflSync(", "cuda.BallotSync(", "cuda.AnySync(", "cuda.AllSync(",
		"cuda.SharedArray2[", "t.SyncWarp()", "return\n", "nt-1-tid", "if tid < ", "for i", "float64", "uint64",
		// Divergent ifs (gen_divergent.go).
		"if t.LaneID() < ", "SyncMask(t, 0xffff", "if t.LaneID()%2 == 0 {", "if tid/32", "cuda.ActiveMask(t)",
		// uniformShape (gen_uniform.go).
		"\tbreak\n", "\tcontinue\n", " := 0\n", "} else if ", "switch (", "default:",
		// localsShape (gen_locals.go).
		"\tp = ", "*3 + tid\n", " = tid ^ bid\n", "\tbreak L", "\tcontinue L",
	}
	seen := map[string]bool{}
	shapes := map[bool]bool{}
	for seed := uint64(1); seed <= 160; seed++ {
		p := Generate(seed, fmt.Sprintf("K%d", seed))
		if _, err := format.Source([]byte("package x\n" + p.Source)); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, p.Source)
		}
		for _, w := range want {
			if strings.Contains(p.Source, w) {
				seen[w] = true
			}
		}
		shapes[p.BlockY > 1] = true
		if p.N > p.Threads() || p.N < 0 {
			t.Errorf("seed %d: %d inputs for %d threads", seed, p.N, p.Threads())
		}
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no program of seeds 1..160 has %q", w)
		}
	}
	if !shapes[true] || !shapes[false] {
		t.Errorf("block shapes: two-dimensional %v, one-dimensional %v; want both", shapes[true], shapes[false])
	}
}

// runCmd runs a command in dir and returns its combined output.
func runCmd(t *testing.T, dir string, name string, args ...string) (string, error) {
	t.Helper()
	limit := 10 * time.Minute
	if d, ok := t.Deadline(); ok {
		limit = max(time.Until(d)-10*time.Second, time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestRandomBarrierPrograms writes random synchronising kernels into one
// package under testdata (inside this module, so that its test may use
// internal/cpu to turn the block loops off), runs this tree's nugo gen on
// it, requires a block loop for every kernel, and runs the package's
// generated test, which launches each kernel through its block loop, the
// goroutine path and ptxsim and requires the same bits.
func TestRandomBarrierPrograms(t *testing.T) {
	n := *numSeeds
	if n == 0 {
		n = 160
		if testing.Short() {
			n = 40
		}
	}
	progs := make([]*Program, n)
	for i := range progs {
		seed := *firstSeed + uint64(i)
		progs[i] = Generate(seed, fmt.Sprintf("K%d", seed))
	}
	checkPrograms(t, progs)
}

// checkPrograms writes progs into one package under testdata, runs nugo
// gen on it, requires a block loop for each, and runs the package's test,
// which compares the three paths.
func checkPrograms(t *testing.T, progs []*Program) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the random programs: %v", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "run-")
	if err != nil {
		t.Fatal(err)
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() || *keepDir {
			t.Logf("the generated package stays in %s", dir)
			return
		}
		os.RemoveAll(dir)
	})
	nugo := filepath.Join(t.TempDir(), "nugo")
	if out, err := runCmd(t, root, gobin, "build", "-o", nugo, "./cmd/nugo"); err != nil {
		t.Fatalf("go build ./cmd/nugo: %v\n%s", err, out)
	}
	testBin := filepath.Join(t.TempDir(), "programs.test")
	// A block loop that does not compile stops the whole package: such
	// kernels are reported and left out, and the rest built again.
	for round := 0; len(progs) > 0; round++ {
		if round == 5 {
			t.Fatalf("the generated package still does not compile after %d rounds", round)
		}
		bad := genAndBuild(t, gobin, nugo, root, dir, testBin, progs)
		if len(bad) == 0 {
			break
		}
		var rest []*Program
		for _, p := range progs {
			if !bad[p.Name] {
				rest = append(rest, p)
			}
		}
		progs = rest
	}
	if len(progs) == 0 {
		return
	}
	// A kernel that deadlocks fails the package's test with its goroutines
	// before this test's own deadline.
	limit := 8 * time.Minute
	if d, ok := t.Deadline(); ok {
		limit = max(time.Until(d)-30*time.Second, 10*time.Second)
	}
	out, err := runCmd(t, dir, testBin, "-test.count=1", "-test.v", "-test.timeout="+limit.String())
	rel, _ := filepath.Rel(root, dir)
	if err != nil {
		t.Errorf("the random programs (go test -count=1 ./%s to rerun; the package stays):\n%s", filepath.ToSlash(rel), failures(out))
	} else if n := strings.Count(out, "--- PASS: TestPrograms/"); n != len(progs) {
		t.Errorf("the package's test passed %d programs of %d:\n%s", n, len(progs), out)
	}
}

// failures drops the passing programs' lines from a verbose test output.
func failures(out string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "=== RUN") || strings.HasPrefix(strings.TrimSpace(l), "--- PASS") {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// genAndBuild writes progs into dir, runs nugo gen -v on it, reports the
// kernels left without a block loop, and builds the package's test into
// testBin. It returns the kernels whose block loops do not compile,
// reported too.
func genAndBuild(t *testing.T, gobin, nugo, root, dir, testBin string, progs []*Program) map[string]bool {
	t.Helper()
	for _, f := range []string{"nugo_loops.go", "nugo_source.go"} {
		os.Remove(filepath.Join(dir, f))
	}
	kernels := writeFormatted(t, filepath.Join(dir, "kernels.go"), kernelFile(progs))
	out, err := runCmd(t, root, nugo, "gen", "-v", dir)
	if err != nil {
		t.Fatalf("nugo gen -v %s: %v\n%s", dir, err, out)
	}
	byName := map[string]*Program{}
	for _, p := range progs {
		byName[p.Name] = p
	}
	refused := map[string]bool{}
	for _, m := range regexp.MustCompile(`kernel (\w+) keeps goroutines at its barriers: (.*)`).FindAllStringSubmatch(out, -1) {
		p := byName[m[1]]
		if p == nil {
			t.Errorf("nugo gen names a kernel %s, which is not one of the programs: %s", m[1], m[2])
			continue
		}
		refused[p.Name] = true
		if slices.ContainsFunc(p.MayRefuse, func(r string) bool { return strings.Contains(m[2], r) }) {
			t.Logf("nugo gen left %s on goroutines, as it may: %s", m[1], m[2])
			continue
		}
		t.Errorf("nugo gen left %s on goroutines: %s\n%s", m[1], m[2], p.Source)
	}
	loops, err := os.ReadFile(filepath.Join(dir, "nugo_loops.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range progs {
		if !refused[p.Name] && !strings.Contains(string(loops), "cuda.RegisterBlockLoop("+p.Name+",") {
			t.Errorf("nugo_loops.go has no block loop for %s", p.Name)
		}
	}
	writeFormatted(t, filepath.Join(dir, "programs_test.go"), testFile(progs, refused))
	out, err = runCmd(t, dir, gobin, "test", "-c", "-o", testBin, ".")
	if err == nil {
		return nil
	}
	// The block loops' //line directives name kernels.go's lines.
	owner := kernelLines(kernels)
	bad := map[string]bool{}
	for _, m := range regexp.MustCompile(`kernels\.go:(\d+)(:\d+)?: (.*)`).FindAllStringSubmatch(out, -1) {
		line, _ := strconv.Atoi(m[1])
		if line < len(owner) && owner[line] != "" && !bad[owner[line]] {
			bad[owner[line]] = true
			t.Errorf("the block loop of %s does not compile: kernels.go:%s: %s\n%s", owner[line], m[1], m[3], byName[owner[line]].Source)
		}
	}
	if len(bad) == 0 {
		t.Fatalf("the generated package does not compile:\n%s", out)
	}
	return bad
}

// kernelLines maps each line of a kernels.go (numbered from 1) to the
// kernel whose declaration holds it.
func kernelLines(src []byte) []string {
	lines := strings.Split(string(src), "\n")
	owner := make([]string, len(lines)+1)
	re := regexp.MustCompile(`^func (\w+)\(`)
	cur := ""
	for i, l := range lines {
		if m := re.FindStringSubmatch(l); m != nil {
			cur = m[1]
		}
		owner[i+1] = cur
	}
	return owner
}

// writeFormatted writes src, gofmt'd, into the file name and returns it.
func writeFormatted(t *testing.T, name, src string) []byte {
	t.Helper()
	b, err := format.Source([]byte(src))
	if err != nil {
		t.Fatalf("generated %s: %v\n%s", name, err, src)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return b
}

// kernelFile is the generated package's kernels.
func kernelFile(progs []*Program) string {
	var b strings.Builder
	b.WriteString("// Code generated by internal/fissiontest; DO NOT EDIT.\n\n")
	b.WriteString("// Package fissionrun holds random synchronising kernels.\npackage fissionrun\n\nimport \"github.com/nugo-dev/nugo/cuda\"\n\n")
	for _, p := range progs {
		b.WriteString(p.Source)
		b.WriteString("\n")
	}
	return b.String()
}

// testFile is the generated package's test: each kernel on the goroutine
// path, through its block loop and on ptxsim.
func testFile(progs []*Program, refused map[string]bool) string {
	var b strings.Builder
	b.WriteString(`// Code generated by internal/fissiontest; DO NOT EDIT.

package fissionrun

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/cpu"
)

type prog struct {
	name          string
	kernel        any
	bx, by, grid  int
	n, p          int
	slots, fslots int
	src           string
	blockLoop     bool // nugo gen gave it a block loop
}

var progs = []prog{
`)
	for _, p := range progs {
		fmt.Fprintf(&b, "\t{%q, %s, %d, %d, %d, %d, %d, %d, %d, %q, %v},\n", p.Name, p.Name, p.BlockX, p.BlockY, p.Grid, p.N, p.P, p.Slots, p.FSlots, p.Source, !refused[p.Name])
	}
	b.WriteString(`}

// inputs are the program's inputs: integers of several magnitudes and
// floats, some of them zero or negative.
func inputs(pr prog) ([]int32, []float32) {
	in, fin := make([]int32, pr.n), make([]float32, pr.n)
	x := uint32(len(pr.name)*7919 + pr.bx*31 + pr.grid)
	for i := range in {
		x = x*1664525 + 1013904223
		switch x >> 30 {
		case 0:
			in[i] = int32(x>>20) - 2048
		case 1:
			in[i] = int32(x)
		default:
			in[i] = int32(x>>24) - 100
		}
		fin[i] = float32(int32(x>>8)-(1<<23)) / 4096
	}
	return in, fin
}

type path struct {
	name    string
	backend cuda.Backend
	noLoops bool
}

var paths = []path{{"goroutines", cuda.CPU, true}, {"block loop", cuda.CPU, false}, {"ptxsim", cuda.PTXSim, false}}

func run(pr prog, p path) ([]any, error) {
	if err := cuda.SetBackend(p.backend); err != nil {
		return nil, err
	}
	defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(p.noLoops))
	in, fin := inputs(pr)
	nt := pr.bx * pr.by * pr.grid
	args := []any{in, fin, make([]int64, nt*pr.slots), make([]float64, nt*pr.fslots), pr.p}
	cfg := cuda.LaunchConfig{Grid: cuda.Dim1(pr.grid), Block: cuda.Dim2(pr.bx, pr.by)}
	return args, cuda.Jit(pr.kernel).LaunchWith(cfg, args...)
}

// TestPrograms runs every program on the goroutine path, through its
// block loop and on ptxsim, and requires the same bits.
func TestPrograms(t *testing.T) {
	defer cuda.SetBackend(cuda.Auto)
	for _, pr := range progs {
		t.Run(pr.name, func(t *testing.T) {
			// The CPU backend runs the block loop, not goroutines.
			rb, ok := cpu.Rows(reflect.ValueOf(pr.kernel))
			if _, isBlock := rb.Bind.(func([]any) func() cuda.BlockLoop); pr.blockLoop && (!ok || !isBlock) {
				t.Fatalf("no block loop registered for %s", pr.name)
			}
			want, err := run(pr, paths[0])
			if err != nil {
				t.Fatalf("%s: %v\n%s", paths[0].name, err, pr.src)
			}
			for _, p := range paths[1:] {
				got, err := run(pr, p)
				if err != nil {
					t.Errorf("%s: %v\n%s", p.name, err, pr.src)
					continue
				}
				if d := corpus.Diffs(want, got, 0); len(d) > 0 {
					t.Errorf("%s differs from the goroutine path (block %dx%d, grid %d, n %d, p %d; out has %d slots per thread, fout %d):\n%s\n%s\ninputs: %v %v\ngoroutines: %v %v\n%s: %v %v",
						p.name, pr.bx, pr.by, pr.grid, pr.n, pr.p, pr.slots, pr.fslots, strings.Join(d[:min(len(d), 20)], "\n"), pr.src,
						want[0], want[1], want[2], want[3], p.name, got[2], got[3])
				}
			}
		})
	}
	_ = fmt.Sprint
}
`)
	return b.String()
}
