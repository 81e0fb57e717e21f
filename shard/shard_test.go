package shard

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Rank
		err  string
	}{
		{"0/4", Rank{0, 4, "-shard"}, ""},
		{"3/4", Rank{3, 4, "-shard"}, ""},
		{"5/4", Rank{}, "K must be in 0..3"},
		{"4/4", Rank{}, "K must be in 0..3"},
		{"-1/4", Rank{}, "K must be in 0..3"},
		{"0/0", Rank{}, "M must be at least 1"},
		{"x", Rank{}, "want K/M"},
		{"a/b", Rank{}, "must be integers"},
	} {
		got, err := Parse(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		m    int
		want Rank
		ok   bool
		err  string
	}{
		{"none", nil, 0, Rank{}, false, ""},
		{"array", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, Rank{2, 4, "SLURM_ARRAY_TASK_ID"}, true, ""},
		{"array min", map[string]string{"SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "10"}, 0, Rank{2, 4, "SLURM_ARRAY_TASK_ID"}, true, ""},
		{"array with one srun task", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_PROCID": "0", "SLURM_NTASKS": "1"}, 0, Rank{1, 4, "SLURM_ARRAY_TASK_ID"}, true, ""},
		{"one task is no rank", map[string]string{"SLURM_PROCID": "0", "SLURM_NTASKS": "1"}, 0, Rank{}, false, ""},
		{"srun", map[string]string{"SLURM_PROCID": "3", "SLURM_NTASKS": "8"}, 0, Rank{3, 8, "SLURM_PROCID"}, true, ""},
		{"mpirun", map[string]string{"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "2"}, 0, Rank{1, 2, "OMPI_COMM_WORLD_RANK"}, true, ""},
		{"k8s", map[string]string{"JOB_COMPLETION_INDEX": "5"}, 6, Rank{5, 6, "JOB_COMPLETION_INDEX"}, true, ""},
		{"k8s without M", map[string]string{"JOB_COMPLETION_INDEX": "5"}, 0, Rank{}, false, "M must be given"},
		{"agreeing", map[string]string{"SLURM_PROCID": "1", "SLURM_NTASKS": "2", "OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "2"}, 0, Rank{1, 2, "SLURM_PROCID"}, true, ""},
		{"conflict", map[string]string{"SLURM_PROCID": "1", "SLURM_NTASKS": "2", "OMPI_COMM_WORLD_RANK": "0", "OMPI_COMM_WORLD_SIZE": "2"}, 0, Rank{}, false, "SLURM_PROCID says 1/2 but OMPI_COMM_WORLD_RANK says 0/2"},
		{"malformed", map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, Rank{}, false, "malformed"},
		{"out of range", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, Rank{}, false, "K must be in 0..3"},
	} {
		got, ok, err := Detect(func(k string) string { return tc.env[k] }, tc.m)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || ok != tc.ok || got != tc.want {
			t.Errorf("%s: Detect = %v, %v, %v; want %v, %v", tc.name, got, ok, err, tc.want, tc.ok)
		}
	}
}

// cost is the trial-division model's cost of first..last.
func cost(r Range) float64 {
	return math.Pow(float64(r.Last+1), 1.5) - math.Pow(float64(r.First), 1.5)
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		first, last int64
		m           int
		exp         float64
	}{
		{2, 100_000_000, 4, 0.5},
		{2, 100_000_000, 16, 0.5},
		{2, 1000, 7, 0},
		{2, 10, 9, 0.5}, // one number per shard
		{2, 2, 1, 0.5},
	} {
		rs, err := Split(tc.first, tc.last, tc.m, tc.exp)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != tc.m || rs[0].First != tc.first || rs[len(rs)-1].Last != tc.last {
			t.Fatalf("Split(%d,%d,%d) = %v: wrong ends", tc.first, tc.last, tc.m, rs)
		}
		for i, r := range rs {
			if r.Len() < 1 || (i > 0 && r.First != rs[i-1].Last+1) {
				t.Fatalf("Split(%d,%d,%d) = %v: range %d empty or not contiguous", tc.first, tc.last, tc.m, rs, i)
			}
		}
		if tc.exp == 0.5 && tc.last > 1000 {
			lo, hi := math.Inf(1), 0.0
			for _, r := range rs {
				lo, hi = min(lo, cost(r)), max(hi, cost(r))
			}
			if hi/lo > 1.001 {
				t.Errorf("Split(%d,%d,%d): modelled cost imbalance %.4f", tc.first, tc.last, tc.m, hi/lo)
			}
			if rs[0].Len() <= rs[len(rs)-1].Len() {
				t.Errorf("the first shard (%d numbers) should hold more than the last (%d)", rs[0].Len(), rs[len(rs)-1].Len())
			}
		}
	}
	for _, bad := range []struct {
		first, last int64
		m           int
	}{{2, 10, 10}, {2, 10, 0}, {5, 4, 1}} {
		if _, err := Split(bad.first, bad.last, bad.m, 0.5); err == nil {
			t.Errorf("Split(%d,%d,%d) succeeded", bad.first, bad.last, bad.m)
		}
	}
}

// writePart writes values first..last (value = number) as shard k of m.
func writePart(t *testing.T, dir string, n int64, k, m int, first, last int64, version string) {
	t.Helper()
	w, err := Create(dir, k, m)
	if err != nil {
		t.Fatal(err)
	}
	var buf []byte
	for v := first; v <= last; v++ {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	if _, err := w.Write(buf); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(Manifest{N: n, Shard: k, Shards: m, First: first, Last: last, Version: version}); err != nil {
		t.Fatal(err)
	}
}

func TestMerge(t *testing.T) {
	const n = 100
	want := int64(n*(n+1)/2 - 1)
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  []string // problems, each a substring; none means clean
	}{
		{"clean", func(t *testing.T, dir string) {
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
			writePart(t, dir, n, 1, 2, 61, 100, "v1")
		}, nil},
		{"rerun is idempotent", func(t *testing.T, dir string) {
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
			writePart(t, dir, n, 1, 2, 61, 100, "v1")
		}, nil},
		{"missing shard", func(t *testing.T, dir string) {
			writePart(t, dir, n, 1, 3, 41, 70, "v1")
			writePart(t, dir, n, 2, 3, 71, 100, "v1")
		}, []string{"gap: 2..40"}},
		{"missing end", func(t *testing.T, dir string) {
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
		}, []string{"gap: 61..100"}},
		{"overlap", func(t *testing.T, dir string) {
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
			writePart(t, dir, n, 1, 2, 50, 100, "v1")
		}, []string{"overlap: 50..60"}},
		{"different N and version", func(t *testing.T, dir string) {
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
			writePart(t, dir, 200, 1, 2, 61, 100, "v2")
		}, []string{"N=200", `version "v2"`}},
		{"truncated part", func(t *testing.T, dir string) {
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
			writePart(t, dir, n, 1, 2, 61, 100, "v1")
			if err := os.Truncate(filepath.Join(dir, PartName(1, 2)), 16); err != nil {
				t.Fatal(err)
			}
		}, []string{"corrupt part part-1-of-2.bin: 16 bytes"}},
		{"edited part", func(t *testing.T, dir string) {
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
			writePart(t, dir, n, 1, 2, 61, 100, "v1")
			p := filepath.Join(dir, PartName(0, 2))
			data, _ := os.ReadFile(p)
			data[3] ^= 1
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"corrupt part part-0-of-2.bin: sha256"}},
		{"corrupt manifest", func(t *testing.T, dir string) {
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
			writePart(t, dir, n, 1, 2, 61, 100, "v1")
			if err := os.WriteFile(filepath.Join(dir, ManifestName(1, 2)), []byte("{"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"corrupt manifest part-1-of-2.json", "gap: 61..100"}},
		{"aborted part leaves nothing", func(t *testing.T, dir string) {
			writePart(t, dir, n, 0, 2, 2, 60, "v1")
			w, err := Create(dir, 1, 2)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(make([]byte, 80))
			w.Abort()
		}, []string{"gap: 61..100"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			rep, err := Merge(dir)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(rep.Problems, "\n")
			if len(tc.want) == 0 {
				if rep.Err() != nil || rep.Checksum != want {
					t.Fatalf("problems %q, checksum %d (want %d)", got, rep.Checksum, want)
				}
				var sb strings.Builder
				if err := Concat(dir, rep, &sb); err != nil || sb.Len() != 99*8 {
					t.Fatalf("Concat wrote %d bytes, %v", sb.Len(), err)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("problems %q lack %q", got, w)
				}
			}
			if rep.Err() == nil {
				t.Error("Err() is nil")
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.Contains(e.Name(), ".tmp") {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}

func TestCommitDiskFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	dir := t.TempDir()
	w, err := Create(dir, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Replace the temporary file by one on which every write fails.
	tmp := w.f.Name()
	w.f.Close()
	os.Remove(tmp)
	if w.f, err = os.OpenFile("/dev/full", os.O_WRONLY, 0); err != nil {
		t.Skipf("cannot open /dev/full: %v", err)
	}
	if _, err := w.Write(make([]byte, 8)); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("write to a full disk: %v", err)
	}
	w.f.Close()
	w.f = nil
	if _, err := os.Stat(filepath.Join(dir, ManifestName(0, 1))); !os.IsNotExist(err) {
		t.Errorf("a manifest exists after a failed write: %v", err)
	}
}
