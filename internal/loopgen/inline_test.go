package loopgen

import (
	"slices"
	"strings"
	"testing"
)

const inlineDir = "testdata/inline"

// TestInlineHelpers checks which kernels of the inline test package get a
// block loop once the synchronising helpers they call are inlined, why the
// others keep the goroutine path, what the inlined code looks like, and
// that the generated file is the committed one (which go vet compiles).
func TestInlineHelpers(t *testing.T) {
	res, err := Generate(inlineDir)
	if err != nil {
		t.Fatal(err)
	}
	src := string(res.Source)
	// registration returns the RegisterBlockLoop call of kernel k, up to
	// the next registration.
	registration := func(k string) string {
		i := strings.Index(src, "RegisterBlockLoop("+k+",")
		if i < 0 {
			return ""
		}
		rest := src[i+1:]
		if j := strings.Index(rest, "cuda.Register"); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	for _, tc := range []struct {
		kernel string
		why    string   // "" when it gets a block loop
		has    []string // in its registration
	}{
		{kernel: "Value", has: []string{`}, "sum")`, "//line inline.go:19", "nugoVV2[nugoI] += nugoVV2[nugoI+nugoD]"}},
		{kernel: "Multi", has: []string{`"sum", "sumCount")`, "n2 := int32(nugoCount)", "s := res", "n := res2"}},
		{kernel: "Named", has: []string{`"bounds")`, "var lo2 int32", "var hi2 int32", "lo := lo2", "hi := hi2"}},
		{kernel: "EarlyUniform", has: []string{`"scale")`, "if k == 0 {", "var res int32", "res = v2 * k"}},
		{kernel: "EarlyLoop", why: "calls loopRet, which synchronises the block and returns before its end (inline.go:73)"},
		{kernel: "Capture", has: []string{`"capped")`, "limit2 := v + 1", "v2 := v * 2", "min(v2, limit)", "a[i] = res + limit2"}},
		{kernel: "Nested", has: []string{`"sum", "twice")`}},
		{kernel: "InExpr", has: []string{`"sum")`, "a[i] = 1 + 2*res"}},
		{kernel: "ShortCircuit", why: "calls allPos, which synchronises the block, on the right of && or ||"},
		{kernel: "InLoopCond", why: "calls allPos, which synchronises the block, in a loop's condition"},
		{kernel: "Generic", has: []string{`"gsum")`, "var v2 int32 = a[i]"}},
		{kernel: "GenKernel[float32]", has: []string{`"gsum")`, "var v2 float32 = a[i]", "[]float32"}},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			if !slices.Contains(res.Kernels, tc.kernel) {
				t.Errorf("%s has no loop at all", tc.kernel)
			}
			if tc.why == "" {
				if !slices.Contains(res.Fissioned, tc.kernel) {
					t.Fatalf("%s has no block loop; unfissioned: %v", tc.kernel, res.Unfissioned)
				}
				r := registration(tc.kernel)
				for _, s := range tc.has {
					if !strings.Contains(r, s) {
						t.Errorf("%s's block loop lacks %q:\n%s", tc.kernel, s, r)
					}
				}
				return
			}
			i := slices.IndexFunc(res.Unfissioned, func(s Skip) bool { return s.Name == tc.kernel })
			if i < 0 {
				t.Fatalf("%s is not among the kernels kept on goroutines (fissioned %v)", tc.kernel, res.Fissioned)
			}
			if why := res.Unfissioned[i].Reason; !strings.Contains(why, tc.why) || !strings.HasPrefix(why, "inline.go:") {
				t.Errorf("%s keeps goroutines because %q, want a position and %q", tc.kernel, why, tc.why)
			}
		})
	}
	// Recursion is never inlined: the kernel runs its depth-counting copy.
	if slices.Contains(res.Fissioned, "Recursive") || !slices.Contains(res.Bounded, "Recursive") {
		t.Errorf("Recursive: fissioned %v, bounded %v; want it bounded, not fissioned", res.Fissioned, res.Bounded)
	}
	checkCommitted(t, inlineDir, res.Source)
}
