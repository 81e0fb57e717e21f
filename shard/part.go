package shard

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Manifest describes one written part. It is written after its part, so a
// part without a manifest is never taken as complete.
type Manifest struct {
	N        int64     `json:"n"`        // the whole job covers 2..N
	Shard    int       `json:"shard"`    // K
	Shards   int       `json:"shards"`   // M
	First    int64     `json:"first"`    // first number of this part
	Last     int64     `json:"last"`     // last number of this part
	Count    int64     `json:"count"`    // int64 values in the part
	Checksum int64     `json:"checksum"` // sum of the values
	SHA256   string    `json:"sha256"`   // of the part file
	Part     string    `json:"part"`     // the part's file name
	Backend  string    `json:"backend,omitempty"`
	Devices  string    `json:"devices,omitempty"`
	Host     string    `json:"host,omitempty"`
	Version  string    `json:"version"`
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
}

// PartName is the part file name of shard k of m.
func PartName(k, m int) string { return fmt.Sprintf("part-%d-of-%d.bin", k, m) }

// ManifestName is the manifest file name of shard k of m.
func ManifestName(k, m int) string { return fmt.Sprintf("part-%d-of-%d.json", k, m) }

// PartWriter writes a part file atomically: values go to a temporary file in
// the same directory, and Commit renames it into place and then writes the
// manifest the same way. Abort (or a failed Commit) removes the temporary file.
type PartWriter struct {
	dir, name string
	f         *os.File
	sum       int64
	count     int64
	sha       interface {
		io.Writer
		Sum([]byte) []byte
	}
}

// Create starts shard k of m's part in dir (created if missing).
func Create(dir string, k, m int) (*PartWriter, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("shard: creating %s: %w", dir, err)
	}
	name := PartName(k, m)
	f, err := os.CreateTemp(dir, "."+name+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("shard: creating part %s: %w", name, err)
	}
	return &PartWriter{dir: dir, name: name, f: f, sha: sha256.New()}, nil
}

// Write appends little-endian int64 values (as bytes, a multiple of 8).
func (w *PartWriter) Write(p []byte) (int, error) {
	if len(p)%8 != 0 {
		return 0, fmt.Errorf("shard: write of %d bytes is not a whole number of int64", len(p))
	}
	for i := 0; i < len(p); i += 8 {
		w.sum += int64(binary.LittleEndian.Uint64(p[i:]))
	}
	w.count += int64(len(p) / 8)
	w.sha.Write(p)
	if _, err := w.f.Write(p); err != nil {
		return 0, fmt.Errorf("shard: writing part %s (disk full?): %w", w.name, err)
	}
	return len(p), nil
}

// Abort removes the temporary file; nothing is left that looks complete.
func (w *PartWriter) Abort() {
	if w.f != nil {
		w.f.Close()
		os.Remove(w.f.Name())
		w.f = nil
	}
}

// Commit syncs and renames the part into place, then writes the manifest m
// (its Count, Checksum, SHA256 and Part filled in here) atomically.
func (w *PartWriter) Commit(m Manifest) error {
	if w.f == nil {
		return fmt.Errorf("shard: part %s already committed or aborted", w.name)
	}
	defer w.Abort()
	if m.Last-m.First+1 != w.count {
		return fmt.Errorf("shard: part %s holds %d values for %d..%d", w.name, w.count, m.First, m.Last)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("shard: syncing part %s: %w", w.name, err)
	}
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("shard: closing part %s: %w", w.name, err)
	}
	tmp := w.f.Name()
	w.f = nil
	// A stale manifest of an earlier run goes first, so that for a moment
	// there is no manifest rather than one that does not match its part.
	mpath := filepath.Join(w.dir, ManifestName(m.Shard, m.Shards))
	if err := os.Remove(mpath); err != nil && !os.IsNotExist(err) {
		os.Remove(tmp)
		return fmt.Errorf("shard: removing old manifest: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(w.dir, w.name)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("shard: renaming part %s: %w", w.name, err)
	}
	m.Count, m.Checksum, m.Part = w.count, w.sum, w.name
	m.SHA256 = hex.EncodeToString(w.sha.Sum(nil))
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(mpath, append(data, '\n'))
}

func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("shard: writing %s: %w", path, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("shard: writing %s (disk full?): %w", path, err)
	}
	return nil
}

// Report is the outcome of Merge.
type Report struct {
	N         int64
	Manifests []Manifest // sorted by First
	Checksum  int64
	Problems  []string // gaps, overlaps, corrupt or mismatched parts
}

// Err is nil when r has no problems, else an error listing them all.
func (r Report) Err() error {
	if len(r.Problems) == 0 {
		return nil
	}
	return fmt.Errorf("shard: merge found %d problem(s):\n  %s", len(r.Problems), strings.Join(r.Problems, "\n  "))
}

// Merge reads every manifest in dir, checks every part against its sha256
// and the manifests against each other (same N, M and version; 2..N covered
// exactly once) and sums the checksums. Problems go into the report; the
// error is for a directory that cannot be read.
func Merge(dir string) (Report, error) {
	var rep Report
	paths, err := filepath.Glob(filepath.Join(dir, "part-*-of-*.json"))
	if err != nil {
		return rep, err
	}
	if len(paths) == 0 {
		return rep, fmt.Errorf("shard: no manifests (part-K-of-M.json) in %s", dir)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return rep, fmt.Errorf("shard: %w", err)
		}
		var m Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("corrupt manifest %s: %v", filepath.Base(p), err))
			continue
		}
		if msg := checkPart(dir, m); msg != "" {
			rep.Problems = append(rep.Problems, msg)
		}
		rep.Manifests = append(rep.Manifests, m)
	}
	if len(rep.Manifests) == 0 {
		return rep, nil
	}
	ms := rep.Manifests
	sort.Slice(ms, func(i, j int) bool { return ms[i].First < ms[j].First })
	rep.N = ms[0].N
	for _, m := range ms[1:] {
		if m.N != rep.N {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s is for N=%d, %s for N=%d", m.Part, m.N, ms[0].Part, rep.N))
		}
		if m.Version != ms[0].Version {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s was written by version %q, %s by %q", m.Part, m.Version, ms[0].Part, ms[0].Version))
		}
		if m.Shards != ms[0].Shards {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s is one of %d shards, %s one of %d", m.Part, m.Shards, ms[0].Part, ms[0].Shards))
		}
	}
	next := int64(2)
	for _, m := range ms {
		switch {
		case m.First > next:
			rep.Problems = append(rep.Problems, fmt.Sprintf("gap: %d..%d is in no part (missing before %s)", next, m.First-1, m.Part))
		case m.First < next:
			rep.Problems = append(rep.Problems, fmt.Sprintf("overlap: %d..%d of %s is also in an earlier part", m.First, min(next-1, m.Last), m.Part))
		}
		next = max(next, m.Last+1)
		rep.Checksum += m.Checksum
	}
	if next <= rep.N {
		rep.Problems = append(rep.Problems, fmt.Sprintf("gap: %d..%d is in no part (missing at the end)", next, rep.N))
	}
	return rep, nil
}

// checkPart verifies a part against its manifest; "" means it matches.
func checkPart(dir string, m Manifest) string {
	name := m.Part
	if name == "" || filepath.Base(name) != name {
		return fmt.Sprintf("manifest of shard %d/%d names no valid part file (%q)", m.Shard, m.Shards, name)
	}
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return fmt.Sprintf("part %s of shard %d/%d: %v", name, m.Shard, m.Shards, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fmt.Sprintf("part %s: reading: %v", name, err)
	}
	if n != m.Count*8 {
		return fmt.Sprintf("corrupt part %s: %d bytes, the manifest says %d values (%d bytes)", name, n, m.Count, m.Count*8)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != m.SHA256 {
		return fmt.Sprintf("corrupt part %s: sha256 %s, the manifest says %s", name, got, m.SHA256)
	}
	if m.Count != m.Last-m.First+1 {
		return fmt.Sprintf("manifest of %s: %d values for %d..%d", name, m.Count, m.First, m.Last)
	}
	return ""
}

// Concat writes the parts of a clean report to w in order.
func Concat(dir string, rep Report, w io.Writer) error {
	if err := rep.Err(); err != nil {
		return err
	}
	for _, m := range rep.Manifests {
		f, err := os.Open(filepath.Join(dir, m.Part))
		if err != nil {
			return fmt.Errorf("shard: %w", err)
		}
		_, err = io.Copy(w, f)
		f.Close()
		if err != nil {
			return fmt.Errorf("shard: copying %s: %w", m.Part, err)
		}
	}
	return nil
}
