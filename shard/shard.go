// Package shard splits a job over 1..M independent processes (Slurm array
// tasks, srun or mpirun ranks, Kubernetes Indexed Jobs), writes each shard's
// results atomically as a part file plus a JSON manifest, and verifies that a
// directory of parts covers a range exactly once.
package shard

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Rank is one shard's position: K of M, 0 <= K < M.
type Rank struct {
	K, M   int
	Source string // where K and M came from, e.g. "-shard" or "SLURM_ARRAY_TASK_ID"
}

// String formats r as K/M.
func (r Rank) String() string { return fmt.Sprintf("%d/%d", r.K, r.M) }

// Parse reads "K/M".
func Parse(s string) (Rank, error) {
	ks, ms, ok := strings.Cut(s, "/")
	if !ok {
		return Rank{}, fmt.Errorf("shard %q: want K/M, e.g. 0/4", s)
	}
	k, err1 := strconv.Atoi(strings.TrimSpace(ks))
	m, err2 := strconv.Atoi(strings.TrimSpace(ms))
	if err1 != nil || err2 != nil {
		return Rank{}, fmt.Errorf("shard %q: K and M must be integers", s)
	}
	r := Rank{K: k, M: m, Source: "-shard"}
	return r, r.check()
}

func (r Rank) check() error {
	if r.M < 1 {
		return fmt.Errorf("shard %s (from %s): M must be at least 1", r, r.Source)
	}
	if r.K < 0 || r.K >= r.M {
		return fmt.Errorf("shard %s (from %s): K must be in 0..%d", r, r.Source, r.M-1)
	}
	return nil
}

// Detect finds the rank from the environment (getenv, usually os.Getenv):
// SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT (less SLURM_ARRAY_TASK_MIN),
// SLURM_PROCID/SLURM_NTASKS, OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE, and
// JOB_COMPLETION_INDEX with size indexedM (0 when not given). It returns
// ok=false when no source is set, and an error when a source is malformed or
// two sources disagree (naming both).
func Detect(getenv func(string) string, indexedM int) (r Rank, ok bool, err error) {
	var found []Rank
	add := func(name string, k, m int, kerr, merr error) error {
		if kerr != nil || merr != nil {
			return fmt.Errorf("shard: %s is set but malformed (%v %v)", name, kerr, merr)
		}
		rk := Rank{K: k, M: m, Source: name}
		if err := rk.check(); err != nil {
			return err
		}
		found = append(found, rk)
		return nil
	}
	atoi := func(name string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(getenv(name)))
		if err != nil {
			return 0, fmt.Errorf("%s=%q", name, getenv(name))
		}
		return v, nil
	}
	if getenv("SLURM_ARRAY_TASK_ID") != "" {
		id, e1 := atoi("SLURM_ARRAY_TASK_ID")
		cnt, e2 := atoi("SLURM_ARRAY_TASK_COUNT")
		lo := 0
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			var e3 error
			if lo, e3 = atoi("SLURM_ARRAY_TASK_MIN"); e3 != nil {
				e1 = errors.Join(e1, e3)
			}
		}
		if err := add("SLURM_ARRAY_TASK_ID", id-lo, cnt, e1, e2); err != nil {
			return Rank{}, false, err
		}
	}
	if getenv("SLURM_PROCID") != "" && getenv("SLURM_NTASKS") != "" {
		k, e1 := atoi("SLURM_PROCID")
		m, e2 := atoi("SLURM_NTASKS")
		// One task (every sbatch job step has SLURM_NTASKS=1) is no rank.
		if m != 1 || e2 != nil {
			if err := add("SLURM_PROCID", k, m, e1, e2); err != nil {
				return Rank{}, false, err
			}
		}
	}
	if getenv("OMPI_COMM_WORLD_RANK") != "" {
		k, e1 := atoi("OMPI_COMM_WORLD_RANK")
		m, e2 := atoi("OMPI_COMM_WORLD_SIZE")
		if err := add("OMPI_COMM_WORLD_RANK", k, m, e1, e2); err != nil {
			return Rank{}, false, err
		}
	}
	if getenv("JOB_COMPLETION_INDEX") != "" {
		k, e1 := atoi("JOB_COMPLETION_INDEX")
		var e2 error
		if indexedM < 1 {
			e2 = errors.New("the shard count M must be given with it")
		}
		if err := add("JOB_COMPLETION_INDEX", k, indexedM, e1, e2); err != nil {
			return Rank{}, false, err
		}
	}
	if len(found) == 0 {
		return Rank{}, false, nil
	}
	for _, o := range found[1:] {
		if o.K != found[0].K || o.M != found[0].M {
			return Rank{}, false, fmt.Errorf("shard: %s says %s but %s says %s", found[0].Source, found[0], o.Source, o)
		}
	}
	return found[0], true, nil
}

// Range is the inclusive range First..Last.
type Range struct{ First, Last int64 }

// Len is the count of numbers in r.
func (r Range) Len() int64 { return r.Last - r.First + 1 }

// Split divides first..last into m contiguous ranges of about equal cost,
// where the cost of number x is x^exp (exp = 0.5 for trial division, 0 for
// equal counts). Every range is non-empty; m larger than the count of numbers
// is an error.
func Split(first, last int64, m int, exp float64) ([]Range, error) {
	if m < 1 {
		return nil, fmt.Errorf("shard: %d shards: need at least 1", m)
	}
	if last < first {
		return nil, fmt.Errorf("shard: empty range %d..%d", first, last)
	}
	if int64(m) > last-first+1 {
		return nil, fmt.Errorf("shard: %d shards for %d numbers: more shards than numbers", m, last-first+1)
	}
	// Cumulative cost C(x) = x^(exp+1)/(exp+1); boundary k solves
	// C(b) = C(first) + k/m (C(last+1) - C(first)).
	p := exp + 1
	c0 := math.Pow(float64(first), p)
	c1 := math.Pow(float64(last+1), p)
	out := make([]Range, m)
	prev := first
	for k := range m {
		next := last + 1
		if k < m-1 {
			next = int64(math.Round(math.Pow(c0+float64(k+1)/float64(m)*(c1-c0), 1/p)))
			// Keep every range non-empty and leave room for the rest.
			next = max(next, prev+1)
			next = min(next, last+1-int64(m-1-k))
		}
		out[k] = Range{prev, next - 1}
		prev = next
	}
	return out, nil
}
