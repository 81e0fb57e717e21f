package devmath

import (
	"bufio"
	"compress/gzip"
	"flag"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// exactBound is the largest error, in ulp against the exact (correctly
// rounded) value, each function may show on testdata/ref64.txt.gz; the
// same figures appear in the table of doc.go.
var exactBound = map[string]float64{
	"Exp": 1, "Exp2": 1, "Expm1": 1, "Log": 1, "Log2": 1, "Log10": 1, "Log1p": 1,
	"Sin": 1, "Cos": 1, "Tan": 1, "Asin": 1, "Acos": 1, "Atan": 1,
	"Sinh": 1, "Cosh": 1, "Tanh": 1, "Asinh": 1, "Acosh": 1, "Atanh": 1,
	"Cbrt": 1, "Erf": 1, "Erfc": 1, "Pow": 1, "Atan2": 1, "Hypot": 1,
}

var funcs1 = map[string]func(float64) float64{
	"Exp": Exp, "Exp2": Exp2, "Expm1": Expm1, "Log": Log, "Log2": Log2, "Log10": Log10, "Log1p": Log1p,
	"Sin": Sin, "Cos": Cos, "Tan": Tan, "Asin": Asin, "Acos": Acos, "Atan": Atan,
	"Sinh": Sinh, "Cosh": Cosh, "Tanh": Tanh, "Asinh": Asinh, "Acosh": Acosh, "Atanh": Atanh,
	"Cbrt": Cbrt, "Erf": Erf, "Erfc": Erfc,
}

var funcs2 = map[string]func(float64, float64) float64{
	"Pow": Pow, "Atan2": Atan2, "Hypot": Hypot,
}

// refLine is one line of ref64.txt.gz.
type refLine struct {
	name string
	args []float64
	want float64
}

// exactRef names another reference file for TestExact64, in ref64.txt.gz's
// format: the larger runs of testdata/genref.py N SEED that doc.go's "max"
// column reports (go test -run TestExact64 -v -args -exactref FILE).
var exactRef = flag.String("exactref", defaultExactRef, "reference file of TestExact64")

const defaultExactRef = "testdata/ref64.txt.gz"

func readRef(t *testing.T) []refLine {
	t.Helper()
	return readRefFile(t, *exactRef)
}

// readRefFile reads a gzipped reference file in ref64.txt.gz's format.
func readRefFile(t *testing.T, path string) []refLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []refLine
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		var vs []float64
		for _, s := range fs[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("bad line %q: %v", sc.Text(), err)
			}
			vs = append(vs, v)
		}
		out = append(out, refLine{fs[0], vs[:len(vs)-1], vs[len(vs)-1]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestExact64(t *testing.T) {
	lines := readRef(t)
	worst := map[string]float64{}
	at := map[string][]float64{}
	count := map[string]int{}
	for _, l := range lines {
		var got float64
		if f, ok := funcs1[l.name]; ok && len(l.args) == 1 {
			got = f(l.args[0])
		} else if f, ok := funcs2[l.name]; ok && len(l.args) == 2 {
			got = f(l.args[0], l.args[1])
		} else {
			t.Fatalf("unknown function %s/%d", l.name, len(l.args))
		}
		count[l.name]++
		if d := ulpDist(got, l.want); d > worst[l.name] {
			worst[l.name], at[l.name] = d, l.args
		}
	}
	for name, b := range exactBound {
		if count[name] == 0 && *exactRef != defaultExactRef {
			continue // a larger run of a few functions
		}
		if count[name] < 1000 {
			t.Errorf("%s: only %d reference points", name, count[name])
		}
		t.Logf("%-6s %5d points, max %.0f ulp from exact at %v", name, count[name], worst[name], at[name])
		if !(worst[name] <= b) {
			t.Errorf("%s: %v ulp from the exact value at %v; bound %v", name, worst[name], at[name], b)
		}
	}
	_ = math.Inf
}
