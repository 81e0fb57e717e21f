package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/primes"
	"github.com/nugo-dev/nugo/internal/version"
	"github.com/nugo-dev/nugo/shard"
)

func init() {
	commands["primes"] = command{summary: "sum the prime factors of every integer 2..N, one kernel thread per number", run: runPrimes}
}

func runPrimes(args []string) (err error) {
	if len(args) > 0 && args[0] == "merge" {
		return runPrimesMerge(args[1:])
	}
	fs := flag.NewFlagSet("primes", flag.ContinueOnError)
	n := fs.Int64("n", 1_000_000, "the last number")
	backend := fs.String("backend", "", "auto, cpu, gpu or ptxsim (default: NUGO_BACKEND, else auto)")
	block := fs.Int("block", 256, "threads per block")
	chunk := fs.Int("chunk", primes.DefaultChunk, "numbers per launch")
	outPath := fs.String("out", "", "write every result to `FILE` as little-endian int64 (with -shard or a rank from the environment: a directory for part-K-of-M.bin and its manifest)")
	shardFlag := fs.String("shard", "", "compute shard `K/M` of 2..N (default: from SLURM_ARRAY_*, SLURM_PROCID/NTASKS, OMPI_COMM_WORLD_*, JOB_COMPLETION_INDEX)")
	split := fs.String("split", "cost", "how shards divide 2..N: cost (equal √n trial-division work) or count (equal numbers)")
	shards := fs.Int("shards", 0, "M for JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs)")
	devicesFlag := fs.String("devices", "", "share the chunks over the backend's devices: `all` or a list such as 0,2 (default: the current device; cpu and ptxsim have NUGO_VIRTUAL_DEVICES)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	// primes.Run takes 0 for "the default"; here a bad value is an error.
	if *block < 1 || *block > 1024 {
		return fmt.Errorf("-block %d: threads per block must be between 1 and 1024", *block)
	}
	if *chunk < 1 {
		return fmt.Errorf("-chunk %d: numbers per launch must be at least 1", *chunk)
	}
	if *backend != "" {
		if err := cuda.SetBackend(cuda.Backend(*backend)); err != nil {
			return err
		}
	}
	rank, sharded, err := primesRank(*shardFlag, *shards)
	if err != nil {
		return err
	}
	if *n < 2 {
		return fmt.Errorf("-n %d: N must be at least 2", *n)
	}
	devs, err := primesDevices(*devicesFlag)
	if err != nil {
		return err
	}
	cfg := primes.Config{N: *n, Block: *block, Chunk: *chunk, Samples: 100, Devices: devs}
	if sharded {
		exp := 0.5
		switch *split {
		case "cost":
		case "count":
			exp = 0
		default:
			return fmt.Errorf("-split %q: want cost or count", *split)
		}
		return runPrimesShard(cfg, rank, *outPath, exp)
	}
	// finishOut flushes and closes the -out file, once: before the
	// summary that names it, so that a failed write is reported instead
	// of the file (issue 21, item 16).
	finishOut := func() error { return nil }
	if *outPath != "" {
		// Not f, err := ...: the deferred func below must set the result
		// err, not a variable of this block, or a failed write (a full
		// disk) would go unreported.
		f, cerr := os.Create(*outPath)
		if cerr != nil {
			return cerr
		}
		st, serr := f.Stat()
		regular := serr == nil && st.Mode().IsRegular()
		w := bufio.NewWriterSize(f, 1<<20)
		var once sync.Once
		var outErr error
		finishOut = func() error {
			once.Do(func() {
				outErr = w.Flush()
				if cerr := f.Close(); outErr == nil && cerr != nil {
					outErr = cerr
				}
			})
			return outErr
		}
		defer func() {
			if ferr := finishOut(); err == nil && ferr != nil {
				err = ferr
			}
			if err != nil && regular {
				// A failed run leaves no file of partial results behind
				// (a device or a pipe such as /dev/stdout is left alone).
				if rerr := os.Remove(*outPath); rerr != nil {
					err = fmt.Errorf("%w (and %s, which holds partial results, could not be removed: %v)", err, *outPath, rerr)
				}
			}
		}()
		cfg.Out = w
	}
	cfg.Progress = progress(*n-1, os.Stderr, term.IsTerminal(int(os.Stdout.Fd())))

	res, err := primes.Run(cfg)
	if err != nil {
		return err
	}
	if err := finishOut(); err != nil {
		return err
	}
	fmt.Printf("backend     %s\n", res.Backend)
	fmt.Printf("N           %d\n", res.N)
	fmt.Printf("kernel time %v\n", res.KernelTime.Round(time.Microsecond))
	fmt.Printf("wall time   %v\n", res.WallTime.Round(time.Microsecond))
	fmt.Printf("throughput  %.4g numbers/s\n", res.Throughput())
	fmt.Printf("first       %v\n", res.First)
	fmt.Printf("last        %v\n", res.Last)
	fmt.Printf("checksum    %d\n", res.Checksum)
	fmt.Printf("verified    %d sampled results match the serial reference\n", res.Verified)
	printDevices(res)
	if *outPath != "" {
		fmt.Printf("results     %s (%d little-endian int64)\n", *outPath, res.N-1)
	}
	return nil
}

// progress returns a callback that shows a progress bar on w once a run has
// taken about 2 s, if enabled.
func progress(total int64, w io.Writer, enabled bool) func(int64) {
	if !enabled {
		return nil
	}
	start := time.Now()
	var bar *progressbar.ProgressBar
	return func(done int64) {
		if bar == nil {
			if time.Since(start) < 2*time.Second || done >= total {
				return
			}
			bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription("primes"), progressbar.OptionShowCount(),
				progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		}
		_ = bar.Set64(done)
		if done >= total {
			_ = bar.Finish()
		}
	}
}

// primesRank resolves the shard from -shard or the environment; a -shard
// that disagrees with the environment is an error naming both.
func primesRank(flagVal string, m int) (shard.Rank, bool, error) {
	env, envOK, err := shard.Detect(os.Getenv, m)
	if err != nil {
		return shard.Rank{}, false, err
	}
	if flagVal == "" {
		return env, envOK, nil
	}
	r, err := shard.Parse(flagVal)
	if err != nil {
		return r, false, fmt.Errorf("-shard: %w", err)
	}
	if envOK && (env.K != r.K || env.M != r.M) {
		return r, false, fmt.Errorf("-shard %s conflicts with %s, which says %s", r, env.Source, env)
	}
	return r, true, nil
}

// runPrimesShard computes one shard, split by the cost model x^exp (0.5:
// the √n cost of trial division; 0: equal counts), into DIR/part-K-of-M.bin and its manifest.
func runPrimesShard(cfg primes.Config, rank shard.Rank, dir string, exp float64) error {
	if dir == "" {
		return fmt.Errorf("shard %s: -out DIR is required", rank)
	}
	ranges, err := shard.Split(2, cfg.N, rank.M, exp)
	if err != nil {
		return err
	}
	rg := ranges[rank.K]
	w, err := shard.Create(dir, rank.K, rank.M)
	if err != nil {
		return err
	}
	defer w.Abort()
	fullN := cfg.N
	cfg.From, cfg.N = rg.First, rg.Last
	cfg.Out = w
	t0 := time.Now()
	res, err := primes.Run(cfg)
	if err != nil {
		return fmt.Errorf("shard %s (%d..%d): %w", rank, rg.First, rg.Last, err)
	}
	host, _ := os.Hostname()
	m := shard.Manifest{N: fullN, Shard: rank.K, Shards: rank.M, First: rg.First, Last: rg.Last,
		Backend: string(res.Backend), Devices: deviceList(res), Host: host, Version: version.Get().Version, Start: t0, End: time.Now()}
	if err := w.Commit(m); err != nil {
		return err
	}
	fmt.Printf("shard       %s (from %s)\n", rank, rank.Source)
	fmt.Printf("range       %d..%d\n", rg.First, rg.Last)
	fmt.Printf("backend     %s\n", res.Backend)
	fmt.Printf("wall time   %v\n", res.WallTime.Round(time.Microsecond))
	fmt.Printf("checksum    %d\n", res.Checksum)
	printDevices(res)
	fmt.Printf("part        %s\n", shard.PartName(rank.K, rank.M))
	return nil
}

// primesDevices resolves -devices: "" is the current device alone, "all"
// every device of the backend, else a comma-separated list of ordinals,
// each once.
func primesDevices(v string) ([]*cuda.DeviceHandle, error) {
	switch v = strings.TrimSpace(v); v {
	case "":
		d, err := cuda.CurrentDevice()
		if err != nil {
			return nil, err
		}
		return []*cuda.DeviceHandle{d}, nil
	case "all":
		devs, err := cuda.AllDevices()
		if err != nil {
			return nil, fmt.Errorf("-devices all: %w", err)
		}
		return devs, nil
	}
	var devs []*cuda.DeviceHandle
	seen := map[int]bool{}
	for _, f := range strings.Split(v, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 0 {
			return nil, fmt.Errorf("-devices %s: %q is not a device number; want all or a list such as 0,2", v, f)
		}
		if seen[i] {
			return nil, fmt.Errorf("-devices %s: device %d is listed twice", v, i)
		}
		seen[i] = true
		d, err := cuda.DeviceAt(i)
		if err != nil {
			return nil, fmt.Errorf("-devices %s: %w", v, err)
		}
		devs = append(devs, d)
	}
	return devs, nil
}

// deviceList is the devices of a run as the manifest records them: "0,2".
func deviceList(res primes.Result) string {
	ids := make([]string, len(res.PerDevice))
	for i, d := range res.PerDevice {
		ids[i] = strconv.Itoa(d.ID)
	}
	return strings.Join(ids, ",")
}

// printDevices prints each device's share of a run on several devices.
func printDevices(res primes.Result) {
	if len(res.PerDevice) < 2 {
		return
	}
	for _, d := range res.PerDevice {
		fmt.Printf("device      %-14s %4d chunks %12d numbers  kernel %-12v %.4g numbers/s\n",
			d.Device, d.Chunks, d.Numbers, d.KernelTime.Round(time.Microsecond), d.Throughput())
	}
}

// runPrimesMerge verifies a directory of parts and prints the total checksum.
func runPrimesMerge(args []string) (err error) {
	fs := flag.NewFlagSet("primes merge", flag.ContinueOnError)
	outPath := fs.String("out", "", "concatenate the parts into `FILE`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("primes merge: want one DIR, got %q", fs.Args())
	}
	dir := fs.Arg(0)
	rep, err := shard.Merge(dir)
	if err != nil {
		return err
	}
	if err := rep.Err(); err != nil {
		return err
	}
	if *outPath != "" {
		f, err := os.CreateTemp(filepath.Dir(*outPath), "."+filepath.Base(*outPath)+".tmp*")
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		err = shard.Concat(dir, rep, w)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), *outPath)
		}
		if err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("primes merge -out %s: %w", *outPath, err)
		}
	}
	fmt.Printf("N           %d\n", rep.N)
	fmt.Printf("parts       %d\n", len(rep.Manifests))
	fmt.Printf("checksum    %d\n", rep.Checksum)
	if *outPath != "" {
		fmt.Printf("results     %s (%d little-endian int64)\n", *outPath, rep.N-1)
	}
	return nil
}
