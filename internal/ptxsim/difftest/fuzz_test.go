package difftest

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxsim/golaunch"
)

var edgeInts = []int64{0, 1, -1, 2, -2, 127, -128, 255, 32767, -32768, 65535, math.MaxInt32, math.MinInt32, math.MaxUint32,
	math.MaxInt64, math.MinInt64, 1 << 40, -(1 << 40) + 3}
var edgeFloats = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 1e-310, -5e-324, 1e-40, 3e38, -3.5e38, 1e300,
	math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), math.Pi, 16777217, 0.1}

// genInputs draws a generated kernel's inputs from edge values and random bits.
func genInputs(p *program, data []byte) ([]int64, []float64) {
	r := newSource(append([]byte("inputs"), data...))
	r.pos = len(r.data) // use the seeded generator only
	in := make([]int64, genThreads*max(p.nIn, 1))
	fin := make([]float64, genThreads*max(p.nFIn, 1))
	for i := range in {
		if r.intn(3) == 0 {
			in[i] = edgeInts[r.intn(len(edgeInts))]
		} else {
			in[i] = int64(r.u64()) >> r.intn(64)
		}
	}
	for i := range fin {
		if r.intn(2) == 0 {
			fin[i] = edgeFloats[r.intn(len(edgeFloats))]
		} else {
			fin[i] = float64(int64(r.u64())>>r.intn(64)) / float64(1+r.intn(1000))
		}
	}
	return in, fin
}

// runCompiled compiles generated source and runs it in the interpreter; a
// compiler panic is returned as an error.
func runCompiled(src string, p *program, in []int64, fin []float64, mutate func(string) string) (out []int64, fout []float64, ptx string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	fk, err := frontend.LoadSource("fuzzkernel.go", []byte(src), "kernel")
	if err != nil {
		return nil, nil, "", fmt.Errorf("front end: %w", err)
	}
	m, err := compiler.Compile(fk, compiler.Target{})
	if err != nil {
		return nil, nil, "", fmt.Errorf("compile: %w", err)
	}
	if mutate != nil {
		mm := *m
		mm.PTX = mutate(m.PTX)
		m = &mm
	}
	gk, err := golaunch.New(m)
	if err != nil {
		return nil, nil, m.PTX, err
	}
	no, nfo := p.outputs()
	out = make([]int64, genThreads*no)
	fout = make([]float64, genThreads*nfo)
	args := []reflect.Value{reflect.ValueOf(in), reflect.ValueOf(fin), reflect.ValueOf(out), reflect.ValueOf(fout)}
	err = gk.Run(golaunch.Launch{Grid: [3]int{genBlocks, 1, 1}, Block: [3]int{genBlock, 1, 1}, MaxSteps: 1 << 24}, args)
	return out, fout, m.PTX, err
}

// checkGenerated generates, evaluates, compiles and compares one program.
func checkGenerated(t *testing.T, data []byte) {
	if msg := diffGenerated(data, nil); msg != "" {
		t.Fatal(msg)
	}
}

// diffGenerated returns a report of how the compiled program differs from
// Go's semantics, or "".
func diffGenerated(data []byte, mutate func(string) string) string {
	p := generate(data)
	src := p.Source()
	in, fin := genInputs(p, data)
	wantOut, wantFout := p.evalAll(in, fin)
	gotOut, gotFout, ptx, err := runCompiled(src, p, in, fin, mutate)
	if err != nil {
		return fmt.Sprintf("generated kernel failed: %v\n--- source ---\n%s", err, src)
	}
	var diffs []string
	for i := range wantOut {
		if wantOut[i] != gotOut[i] {
			diffs = append(diffs, fmt.Sprintf("out[%d] (thread %d): compiled %d, Go %d", i, i/(len(wantOut)/genThreads), gotOut[i], wantOut[i]))
		}
	}
	for i := range wantFout {
		w, g := wantFout[i], gotFout[i]
		if math.Float64bits(w) != math.Float64bits(g) && !(w != w && g != g) {
			diffs = append(diffs, fmt.Sprintf("fout[%d] (thread %d): compiled %v (%#x), Go %v (%#x)", i, i/(len(wantFout)/genThreads), g, math.Float64bits(g), w, math.Float64bits(w)))
		}
	}
	if len(diffs) > 0 {
		if len(diffs) > 10 {
			diffs = append(diffs[:10], fmt.Sprintf("... %d differences in all", len(diffs)))
		}
		nin := max(p.nIn, 1)
		nfin := max(p.nFIn, 1)
		return fmt.Sprintf("compiled kernel differs from Go:\n%s\n--- source ---\n%s\n--- inputs of thread 0 ---\nin %v\nfin %v\n--- PTX ---\n%s",
			join(diffs), src, in[:nin], fin[:nfin], ptx)
	}
	return ""
}

// TestFuzzHarnessCatchesMiscompilation: the generated-kernel check fails
// when the compiled PTX is broken on purpose.
func TestFuzzHarnessCatchesMiscompilation(t *testing.T) {
	caught, tried := 0, 0
	for i := 0; i < 40 && tried < 8; i++ {
		data := []byte(fmt.Sprintf("seed-%d", i))
		p := generate(data)
		m, err := compileSource(p.Source())
		if err != nil {
			t.Fatal(err)
		}
		for _, mu := range [][2]string{{"xor.b", "or.b"}, {"setp.lt.s", "setp.le.s"}, {"min.s", "max.s"}} {
			if !strings.Contains(m.PTX, mu[0]) {
				continue
			}
			tried++
			if diffGenerated(data, func(s string) string { return strings.ReplaceAll(s, mu[0], mu[1]) }) != "" {
				caught++
			}
		}
	}
	if tried == 0 {
		t.Fatal("no generated program had an instruction to break")
	}
	// a mutation can be harmless for some inputs, but not for most
	if caught*2 < tried {
		t.Fatalf("the check caught %d of %d injected miscompilations", caught, tried)
	}
}

func compileSource(src string) (*compiler.Module, error) {
	fk, err := frontend.LoadSource("fuzzkernel.go", []byte(src), "kernel")
	if err != nil {
		return nil, err
	}
	return compiler.Compile(fk, compiler.Target{})
}

func join(s []string) string {
	out := ""
	for _, x := range s {
		out += "  " + x + "\n"
	}
	return out
}

// FuzzCompiledMatchesNative generates random well-typed kernels, evaluates
// them with Go's semantics and compares with the compiled kernel run by the
// interpreter. The seeds run in every go test.
func FuzzCompiledMatchesNative(f *testing.F) {
	for i := 0; i < 24; i++ {
		f.Add([]byte(fmt.Sprintf("seed-%d", i)))
	}
	f.Add([]byte{})
	f.Add([]byte{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9})
	f.Fuzz(checkGenerated)
}

// TestGeneratorCoversPointers: the seeds of FuzzCompiledMatchesNative use
// each kind of pointer the generator makes (issue 21, item 1): pointers into
// local arrays and variables returned by device functions, a device
// function's own variable returned, pointers passed to a real (recursive)
// call, and a device function that writes through its pointer parameter.
func TestGeneratorCoversPointers(t *testing.T) {
	want := []string{"*elemPtr_", "(*newVal_", "*pick_", "\tsetDeep_", "= swapAdd_"}
	seen := map[string]int{}
	for i := 0; i < 24; i++ {
		data := []byte(fmt.Sprintf("seed-%d", i))
		src := generate(data).Source()
		body := src[strings.Index(src, "func kernel("):]
		for _, w := range want {
			if strings.Contains(body, w) {
				seen[w]++
			}
		}
		if msg := diffGenerated(data, nil); msg != "" {
			t.Fatal(msg)
		}
	}
	for _, w := range want {
		if seen[w] == 0 {
			t.Errorf("no seed program uses %q", w)
		}
	}
	t.Logf("seed programs using each pointer form: %v", seen)
}
