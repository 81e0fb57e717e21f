package benchplot

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// svgElements parses an SVG and counts its elements by name; it fails the
// test when the document is not well-formed XML with an svg root.
func svgElements(t *testing.T, data []byte) map[string]int {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	counts := map[string]int{}
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
			}
			counts[se.Name.Local]++
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return counts
}

func TestChartWritesSVG(t *testing.T) {
	bars := []Bar{
		{"vecadd 10⁸", "nugo", 0.00031, 1e8}, {"vecadd 10⁸", "Numba", 0.00033, 1e8}, {"vecadd 10⁸", "CUDA C", 0.0003, 1e8},
		{"primes 10⁸", "nugo", 0.21, 1e8}, {"primes 10⁸", "CUDA C", 0.19, 1e8},
	}
	var buf bytes.Buffer
	if err := (Chart{Title: "a test", Subtitle: "this machine"}).Write(&buf, bars, 8*vg.Inch, 6*vg.Inch); err != nil {
		t.Fatal(err)
	}
	counts := svgElements(t, buf.Bytes())
	if counts["path"] < 2*len(bars) {
		t.Errorf("%d paths for %d bars in two panels", counts["path"], len(bars))
	}
	for _, want := range []string{"a test", "this machine", "nugo", "Numba", "CUDA C", "vecadd 10⁸", "primes 10⁸", "log scale", "throughput"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
}

func TestChartRefusesBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		bars []Bar
		want string
	}{
		{"none", nil, "no results"},
		{"zero time", []Bar{{"a", "nugo", 0, 1}}, "positive time"},
		{"negative time", []Bar{{"a", "nugo", -1, 1}}, "positive time"},
	} {
		var buf bytes.Buffer
		err := (Chart{}).Write(&buf, c.bars, 4*vg.Inch, 3*vg.Inch)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error about %q", c.name, err, c.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written with the error", c.name, buf.Len())
		}
	}
}

func TestFromJSONLines(t *testing.T) {
	in := `gpu-check log line, not JSON
{"impl":"cuda","workload":"d2d","n":1000,"kernel_ms":0.5}
{"impl":"nugo","workload":"logs","n":100,"kernel_ms":2}
{"impl":"numba","workload":"primes","n":1000000,"kernel_ms":4}
{"impl":"numba","workload":"primes","n":100000000,"error":"timed out"}
`
	bars, errs, err := FromJSONLines(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Bar{{"logs 100×100", "nugo", 0.002, 10000}, {"primes 10⁶", "Numba", 0.004, 1e6}}
	if errs != 1 || len(bars) != len(want) || bars[0] != want[0] || bars[1] != want[1] {
		t.Errorf("got %+v, %d error lines; want %+v, 1", bars, errs, want)
	}
	if _, _, err := FromJSONLines(strings.NewReader(`{"impl": 3}`)); err == nil {
		t.Error("a malformed line: no error")
	}
}

func TestGroupNameAndSI(t *testing.T) {
	for _, c := range []struct {
		w, want string
		n       int
	}{
		{"primes", "primes 10⁷", 10000000}, {"vecadd", "vecadd 3000", 3000}, {"logs", "logs 10⁴×10⁴", 10000},
	} {
		if got := GroupName(c.w, c.n); got != c.want {
			t.Errorf("GroupName(%s, %d) = %q, want %q", c.w, c.n, got, c.want)
		}
	}
	for v, want := range map[float64]string{1e-3: "1 m", 0.25: "250 m", 3e9: "3 G", 1: "1 ", 0: "0 "} {
		if got := si(v); got != want {
			t.Errorf("si(%g) = %q, want %q", v, got, want)
		}
	}
}
