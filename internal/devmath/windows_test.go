package devmath

import (
	"math"
	"testing"
)

// TestWindowsExact checks, against mpmath (testdata/refwindows.txt.gz, from
// testdata/genzeros.py), the two regions where an independent check found
// the library outside its bounds (issue 21 item 17): Lgamma within 0.0065
// of each zero of lgamma in (-5, -2) and near it (relative error, 3 ulp,
// up to the zero itself), and Sinh and Cosh between ln(MaxFloat64) and
// asinh(MaxFloat64), where the result is finite (1 ulp) and then +-Inf.
func TestWindowsExact(t *testing.T) {
	bound := map[string]float64{"Lgamma": 3, "Sinh": 1, "Cosh": 1}
	worst := map[string]float64{}
	at := map[string]float64{}
	count := map[string]int{}
	finite := 0
	for _, l := range readRefFile(t, "testdata/refwindows.txt.gz") {
		x := l.args[0]
		var got, want float64
		switch l.name {
		case "Lgamma":
			var sign int
			got, sign = Lgamma(x)
			want = l.args[1]
			if float64(sign) != l.want {
				t.Errorf("Lgamma(%v): sign %d, want %v", x, sign, l.want)
			}
		case "Sinh":
			got, want = Sinh(x), l.want
		case "Cosh":
			got, want = Cosh(x), l.want
		default:
			t.Fatalf("unknown function %s", l.name)
		}
		if l.name != "Lgamma" && !math.IsInf(want, 0) && math.Abs(x) > 709.782712893384 {
			finite++ // in the window where Go's math overflows
		}
		count[l.name]++
		if d := ulpDist(got, want); d > worst[l.name] || math.IsNaN(d) {
			worst[l.name], at[l.name] = d, x
		}
	}
	if finite < 100 {
		t.Errorf("only %d finite Sinh/Cosh results beyond ln(MaxFloat64)", finite)
	}
	for name, b := range bound {
		if count[name] < 500 {
			t.Errorf("%s: only %d reference points", name, count[name])
		}
		t.Logf("%-6s %5d points, max %.0f ulp from exact at %v", name, count[name], worst[name], at[name])
		if !(worst[name] <= b) {
			t.Errorf("%s: %v ulp from the exact value at %v; bound %v", name, worst[name], at[name], b)
		}
	}
}

// TestOverflowWindow pins the values of issue 21 item 17 and the float32
// counterparts: sinh and cosh overflow where the exact value does, and
// Go's math (the cpu backend) overflows earlier.
func TestOverflowWindow(t *testing.T) {
	cases := []struct {
		name string
		got  float64
		want float64
	}{
		{"Sinh(710)", Sinh(710), 1.1169973830808555e+308},
		{"Sinh(-710)", Sinh(-710), -1.1169973830808555e+308},
		{"Cosh(710.4758600739439)", Cosh(710.4758600739439), 1.7976931348621744e+308},
		{"Sinh(710.475860073944)", Sinh(710.475860073944), math.Inf(1)},
		{"Cosh(-710.475860073944)", Cosh(-710.475860073944), math.Inf(1)},
		{"Sinh32(89)", float64(Sinh32(89)), float64(float32(math.Exp(88) * math.E / 2))},
		{"Cosh32(89.41)", float64(Cosh32(89.41)), float64(float32(math.Cosh(float64(float32(89.41)))))},
		{"Sinh32(89.42)", float64(Sinh32(89.42)), math.Inf(1)},
		{"Cosh32(-89.42)", float64(Cosh32(-89.42)), math.Inf(1)},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if !math.IsInf(math.Sinh(710), 1) {
		t.Logf("Go's math.Sinh(710) is now finite: the window in docs/math.md can go")
	}
}
