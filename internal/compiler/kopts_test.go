package compiler

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/ptxas"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// lineSrc puts known statements on known lines: line 13 multiplies, line
// 14 calls math.Exp (devmath, another file), line 15 a device function
// whose body is on line 9 and stores.
const lineSrc = `package k

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

func twice(x float64) float64 { return x + x }

func lines(t cuda.Thread, a, out []float64) {
	i := t.Grid1()
	v := a[i] * 3
	w := math.Exp(v)
	out[i] = twice(w)
}
`

// stripLineInfo drops the .file and .loc lines, and the blank line that
// ends the block of .file lines, from a module's text.
func stripLineInfo(ptx string) string {
	var out []string
	afterFiles := false
	for _, l := range strings.Split(ptx, "\n") {
		switch {
		case strings.HasPrefix(l, ".file "):
			afterFiles = true
			continue
		case afterFiles && l == "":
			afterFiles = false
			continue
		case strings.HasPrefix(l, "\t.loc "):
			continue
		}
		afterFiles = false
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestLineInfo: Target.LineInfo adds .file for each Go source file and
// .loc before the code of each position, and nothing else: without the
// directives the module is the one compiled without it, which has none.
// The lines are the Go source's (the multiply on line 13, the device
// function's body on line 9, math.Exp in devmath's own file, the store on
// line 15), and ptxas
// accepts the module with -lineinfo.
func TestLineInfo(t *testing.T) {
	for _, c := range []struct {
		name   string
		target Target
	}{{"default", Target{}}, {"debug", Target{Debug: true}}, {"sm_90", Target{SM: 90}}, {"fastmath", Target{FastMath: true}}} {
		target := c.target
		t.Run(c.name, func(t *testing.T) {
			plain, err := compileSrc(t, lineSrc, "lines", target)
			if err != nil {
				t.Fatal(err)
			}
			li := target
			li.LineInfo = true
			m, err := compileSrc(t, lineSrc, "lines", li)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(plain.PTX, ".loc") || strings.Contains(plain.PTX, ".file") {
				t.Errorf("PTX without LineInfo has line directives:\n%s", plain.PTX)
			}
			if got := stripLineInfo(m.PTX); got != plain.PTX {
				t.Errorf("LineInfo changed the code; without its directives:\n%s\nwithout LineInfo:\n%s", got, plain.PTX)
			}
			files := regexp.MustCompile(`(?m)^\.file (\d+) "([^"]*)"$`).FindAllStringSubmatch(m.PTX, -1)
			ids := map[string]string{}
			for _, f := range files {
				ids[f[2]] = f[1]
			}
			if ids["kernel.go"] != "1" {
				t.Errorf(".file directives %q; want kernel.go as file 1", files)
			}
			devmath := ""
			for name, id := range ids {
				if strings.HasPrefix(name, "devmath/") {
					devmath = id
				}
			}
			if devmath == "" {
				t.Errorf(".file directives %q; want a devmath file for math.Exp", files)
			}
			for _, want := range []string{
				`(?m)^\t\.loc 1 13 \d+\n(\t\.loc .*\n)?[^.]*\tmul\.(rn\.)?f64`, // a[i] * 3
				`(?m)^\t\.loc 1 9 \d+$`,                 // twice's body, inlined
				`(?m)^\t\.loc ` + devmath + ` \d+ \d+$`, // math.Exp's body
				`(?m)^\t\.loc 1 15 \d+$`,                // the call and the store
			} {
				if !regexp.MustCompile(want).MatchString(m.PTX) {
					t.Errorf("PTX lacks %q:\n%s", want, ptxastest.Numbered(m.PTX))
				}
			}
			for _, loc := range regexp.MustCompile(`\.loc (\d+) (\d+) (\d+)`).FindAllStringSubmatch(m.PTX, -1) {
				if line, _ := strconv.Atoi(loc[2]); loc[1] == "1" && (line < 9 || line > 16) {
					t.Errorf("%s: line %d is outside the kernel's source", loc[0], line)
				}
			}
			if !ptxastest.Available(t) {
				return
			}
			for _, arch := range []string{"sm_75", "sm_90"} {
				if arch == "sm_75" && li.sm() > 75 {
					continue
				}
				if _, err := ptxas.Assemble(m.PTX, arch, false, "-lineinfo"); err != nil {
					t.Errorf("ptxas -lineinfo %s: %v\n%s", arch, err, ptxastest.Numbered(m.PTX))
				}
			}
		})
	}
}

// pressureSrc keeps 24 float64 values live across a loop: about 48
// registers per thread unless capped.
func pressureSrc() string {
	var b strings.Builder
	b.WriteString("package k\n\nimport \"github.com/nugo-dev/nugo/cuda\"\n\nfunc pressure(t cuda.Thread, x []float64, n int) {\n\ti := t.Grid1() * 24\n")
	const k = 24
	for j := range k {
		fmt.Fprintf(&b, "\ta%d := x[i+%d]\n", j, j)
	}
	b.WriteString("\tfor s := 0; s < n; s++ {\n")
	for j := range k {
		fmt.Fprintf(&b, "\t\ta%d = a%d*a%d + float64(s)\n", j, j, (j+1)%k)
	}
	b.WriteString("\t}\n")
	for j := range k {
		fmt.Fprintf(&b, "\tx[i+%d] = a%d\n", j, j)
	}
	b.WriteString("}\n")
	return b.String()
}

var usedRegsRE = regexp.MustCompile(`Used (\d+) registers`)

// usedRegisters assembles ptx for arch with ptxas -v and returns the
// registers it reports.
func usedRegisters(t *testing.T, ptx, arch string) int {
	t.Helper()
	log, err := ptxas.Assemble(ptx, arch, true)
	if err != nil {
		t.Fatalf("ptxas %s: %v", arch, err)
	}
	m := usedRegsRE.FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("ptxas -v reports no register count:\n%s", log)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestMaxRegisters: Target.MaxRegisters writes .maxnreg on the entry (and
// nowhere else), ptxas keeps to it on a kernel that uses more registers
// without it, and values outside 16..255 are refused.
func TestMaxRegisters(t *testing.T) {
	src := pressureSrc()
	plain, err := compileSrc(t, src, "pressure", Target{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.PTX, ".maxnreg") {
		t.Errorf("PTX without MaxRegisters has .maxnreg")
	}
	for _, n := range []int{32, 40} {
		m, err := compileSrc(t, src, "pressure", Target{MaxRegisters: n})
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(`(?m)^\.visible \.entry pressure\([^)]*\)\n\.maxnreg %d\n\{`, n)
		if !regexp.MustCompile(want).MatchString(m.PTX) {
			t.Errorf("MaxRegisters %d: no .maxnreg %d on the entry:\n%s", n, n, m.PTX)
		}
		if strings.Count(m.PTX, ".maxnreg") != 1 {
			t.Errorf("MaxRegisters %d: %d .maxnreg directives, want 1", n, strings.Count(m.PTX, ".maxnreg"))
		}
		if !ptxastest.Available(t) {
			continue
		}
		for _, arch := range []string{"sm_75", "sm_90"} {
			free := usedRegisters(t, plain.PTX, arch)
			capped := usedRegisters(t, m.PTX, arch)
			t.Logf("%s: %d registers without a cap, %d with .maxnreg %d", arch, free, capped, n)
			if free <= n {
				t.Errorf("%s: the kernel uses only %d registers uncapped; the test needs more than %d", arch, free, n)
			}
			if capped > n {
				t.Errorf("%s: .maxnreg %d, ptxas used %d registers", arch, n, capped)
			}
		}
	}
	for _, c := range []struct {
		n  int
		ok bool
	}{{0, true}, {16, true}, {255, true}, {15, false}, {256, false}, {-1, false}, {1 << 20, false}} {
		_, err := compileSrc(t, src, "pressure", Target{MaxRegisters: c.n})
		switch {
		case c.ok && err != nil:
			t.Errorf("MaxRegisters %d: %v", c.n, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "between 16 and 255")):
			t.Errorf("MaxRegisters %d: error %v, want one naming the range 16..255", c.n, err)
		}
	}
}

const sleepSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func sleeper(t cuda.Thread, ns []uint32) {
	cuda.Nanosleep(100)
	cuda.Nanosleep(ns[t.Grid1()])
}
`

// TestNanosleep: cuda.Nanosleep is nanosleep.u32 with an immediate or a
// register on sm_70 and later, and a positioned compile error that names
// sm_70 on older targets.
func TestNanosleep(t *testing.T) {
	for _, sm := range []int{0, 70, 90} {
		m, err := compileSrc(t, sleepSrc, "sleeper", Target{SM: sm})
		if err != nil {
			t.Fatalf("sm %d: %v", sm, err)
		}
		for _, want := range []string{`nanosleep\.u32 \t100;`, `nanosleep\.u32 \t%r\d+;`} {
			if !regexp.MustCompile(want).MatchString(m.PTX) {
				t.Errorf("sm %d: PTX lacks %q:\n%s", sm, want, m.PTX)
			}
		}
		assembleAll(t, "sleeper", m)
	}
	for _, sm := range []int{50, 60, 61} {
		_, err := compileSrc(t, sleepSrc, "sleeper", Target{SM: sm})
		want := fmt.Sprintf("kernel.go:6:16: cuda.Nanosleep needs compute capability 7.0 (sm_70) or later (PTX nanosleep), but the target is sm_%d", sm)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("sm %d: error %v; want %q", sm, err, want)
		}
	}
}

// TestLaunchBounds: Target.MaxThreads and MinBlocksPerSM write .maxntid and
// .minnctapersm on the entry (issue 21, item 13); ptxas then budgets the
// registers so that that many blocks of that many threads fit (65536
// registers per multiprocessor: 2 blocks of 1024 threads leave 32 each on
// sm_90);
// bounds out of range are refused.
func TestLaunchBounds(t *testing.T) {
	src := pressureSrc()
	m, err := compileSrc(t, src, "pressure", Target{MaxThreads: 1024, MinBlocksPerSM: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := `(?m)^\.visible \.entry pressure\([^)]*\)\n\.maxntid 1024, 1, 1\n\.minnctapersm 2\n\{`
	if !regexp.MustCompile(want).MatchString(m.PTX) {
		t.Errorf("no .maxntid/.minnctapersm on the entry:\n%s", m.PTX)
	}
	only, err := compileSrc(t, src, "pressure", Target{MaxThreads: 256})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(only.PTX, ".maxntid 256, 1, 1\n{") || strings.Contains(only.PTX, ".minnctapersm") {
		t.Errorf("MaxThreads alone: want .maxntid 256 and no .minnctapersm")
	}
	if ptxastest.Available(t) {
		// sm_90 runs 2048 threads per multiprocessor (sm_75 only 1024,
		// so that there the wish cannot be met and ptxas ignores it).
		if regs := usedRegisters(t, m.PTX, "sm_90"); regs > 32 {
			t.Errorf("sm_90: launch bounds of 2 blocks of 1024 threads, ptxas used %d registers", regs)
		}
		assembleAll(t, "pressure", m)
		assembleAll(t, "pressure", only)
	}
	for _, c := range []struct {
		threads, blocks int
		ok              bool
	}{{0, 0, true}, {1, 0, true}, {1024, 32, true}, {1025, 0, false}, {-1, 0, false}, {0, 2, false}, {64, -1, false}} {
		_, err := compileSrc(t, src, "pressure", Target{MaxThreads: c.threads, MinBlocksPerSM: c.blocks})
		switch {
		case c.ok && err != nil:
			t.Errorf("bounds (%d, %d): %v", c.threads, c.blocks, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "launch bounds")):
			t.Errorf("bounds (%d, %d): error %v, want one about the launch bounds", c.threads, c.blocks, err)
		}
	}
}
