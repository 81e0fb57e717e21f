package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wellFormedSVG fails the test unless path holds an SVG document that
// names each of want.
func wellFormedSVG(t *testing.T, path string, want ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", path, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element %q, want svg", path, root)
	}
	for _, w := range want {
		if !bytes.Contains(data, []byte(w)) {
			t.Errorf("%s lacks %q", path, w)
		}
	}
}

// nugo bench -plot writes its results as an SVG chart.
func TestBenchPlot(t *testing.T) {
	resetBackend(t)
	path := filepath.Join(t.TempDir(), "x.svg")
	var out bytes.Buffer
	if err := bench(&out, []string{"-backend", "cpu", "-n", "10000", "-reps", "3", "-plot", path}); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	wellFormedSVG(t, path, "nugo (cpu)", "primes 10⁴", "vecadd 10⁴", "kernel time", "throughput")
}

// nugo plot draws gpu-check's results.jsonl, leaving out and counting the
// lines that report errors, and refuses a file without results.
func TestPlotCommand(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results.jsonl")
	lines := `{"impl":"nugo","workload":"vecadd","n":100000000,"kernel_ms":0.31}
{"impl":"numba","workload":"vecadd","n":100000000,"kernel_ms":0.33}
{"impl":"cuda","workload":"vecadd","n":100000000,"kernel_ms":0.30}
{"impl":"numba","workload":"primes","n":100000000,"error":"not run: numba-cuda probe failed"}
`
	if err := os.WriteFile(results, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	chart := filepath.Join(dir, "chart.svg")
	if err := runPlot([]string{"-o", chart, "-title", "three implementations", results}); err != nil {
		t.Fatal(err)
	}
	wellFormedSVG(t, chart, "three implementations", "nugo", "Numba", "CUDA C", "vecadd 10⁸")

	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, []byte(`{"impl":"nugo","workload":"vecadd","n":1,"error":"x"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	none := filepath.Join(dir, "none.svg")
	if err := runPlot([]string{"-o", none, empty}); err == nil || !strings.Contains(err.Error(), "no results") {
		t.Errorf("nugo plot of errors only: %v", err)
	}
	if _, err := os.Stat(none); !os.IsNotExist(err) {
		t.Errorf("a chart was written for no results: %v", err)
	}
	if err := runPlot([]string{filepath.Join(dir, "missing.jsonl")}); err == nil {
		t.Error("nugo plot of a missing file: no error")
	}
}
