package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/shard"
)

// TestPrimesShardMerge runs 2..10^6 as four shards, each its own command
// run, merges them, and compares the merged file with a single-process run.
func TestPrimesShardMerge(t *testing.T) {
	dir := t.TempDir()
	parts := filepath.Join(dir, "parts")
	for k := range 4 {
		args := []string{"-n", "1000000", "-backend", "cpu", "-shard", shard.Rank{K: k, M: 4}.String(), "-out", parts}
		if err := runPrimes(args); err != nil {
			t.Fatalf("shard %d: %v", k, err)
		}
	}
	// Rerunning a shard replaces it and changes nothing.
	if err := runPrimes([]string{"-n", "1000000", "-backend", "cpu", "-shard", "2/4", "-out", parts}); err != nil {
		t.Fatal(err)
	}
	rep, err := shard.Merge(parts)
	if err != nil || rep.Err() != nil {
		t.Fatalf("merge: %v %v", err, rep.Err())
	}
	if rep.Checksum != 64989338772 {
		t.Fatalf("checksum %d, want 64989338772", rep.Checksum)
	}
	merged := filepath.Join(dir, "merged.bin")
	if err := runPrimes([]string{"merge", "-out", merged, parts}); err != nil {
		t.Fatal(err)
	}
	single := filepath.Join(dir, "single.bin")
	if err := runPrimes([]string{"-n", "1000000", "-backend", "cpu", "-out", single}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(merged)
	b, _ := os.ReadFile(single)
	if len(a) != 999_999*8 || !bytes.Equal(a, b) {
		t.Fatalf("merged file (%d bytes) differs from the single run's (%d bytes)", len(a), len(b))
	}
	// A missing shard: merge names the gap and writes no output.
	if err := os.Remove(filepath.Join(parts, shard.ManifestName(1, 4))); err != nil {
		t.Fatal(err)
	}
	out2 := filepath.Join(dir, "merged2.bin")
	err = runPrimes([]string{"merge", "-out", out2, parts})
	if err == nil || !strings.Contains(err.Error(), "gap: ") {
		t.Fatalf("merge with a missing shard: %v", err)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("merge of an incomplete directory wrote %s", out2)
	}
}

func TestPrimesShardFromEnvironment(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "2")
	dir := t.TempDir()
	if err := runPrimes([]string{"-n", "1000", "-backend", "cpu", "-out", dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, shard.ManifestName(1, 2))); err != nil {
		t.Fatalf("no manifest for the array task's shard: %v", err)
	}
	err := runPrimes([]string{"-n", "1000", "-backend", "cpu", "-shard", "0/2", "-out", dir})
	if err == nil || !strings.Contains(err.Error(), "SLURM_ARRAY_TASK_ID") {
		t.Fatalf("-shard conflicting with the environment: %v", err)
	}
}

func TestPrimesShardBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "100", "-shard", "5/4", "-out", dir}, "K must be in 0..3"},
		{[]string{"-n", "100", "-shard", "0/0", "-out", dir}, "M must be at least 1"},
		{[]string{"-n", "100", "-shard", "x", "-out", dir}, "want K/M"},
		{[]string{"-n", "10", "-shard", "0/20", "-out", dir}, "more shards than numbers"},
		{[]string{"-n", "100", "-shard", "0/4"}, "-out DIR is required"},
		{[]string{"-n", "100", "-shard", "0/4", "-split", "even", "-out", dir}, "-split \"even\""},
		{[]string{"merge"}, "want one DIR"},
		{[]string{"merge", filepath.Join(dir, "none")}, "no manifests"},
	} {
		err := runPrimes(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("nugo primes %q: error %v, want %q", c.args, err, c.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("bad input left files: %v", ents)
	}
}
