package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/primes"
)

func init() {
	commands["primes"] = command{summary: "sum the prime factors of every integer 2..N, one kernel thread per number", run: runPrimes}
}

func runPrimes(args []string) (err error) {
	fs := flag.NewFlagSet("primes", flag.ContinueOnError)
	n := fs.Int64("n", 1_000_000, "the last number")
	backend := fs.String("backend", "", "auto, cpu, gpu or ptxsim (default: NUGO_BACKEND, else auto)")
	block := fs.Int("block", 256, "threads per block")
	chunk := fs.Int("chunk", primes.DefaultChunk, "numbers per launch")
	outPath := fs.String("out", "", "write every result to `FILE` as little-endian int64")
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
	cfg := primes.Config{N: *n, Block: *block, Chunk: *chunk, Samples: 100}
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
		defer func() {
			if ferr := w.Flush(); err == nil && ferr != nil {
				err = ferr
			}
			if cerr := f.Close(); err == nil && cerr != nil {
				err = cerr
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
	fmt.Printf("backend     %s\n", res.Backend)
	fmt.Printf("N           %d\n", res.N)
	fmt.Printf("kernel time %v\n", res.KernelTime.Round(time.Microsecond))
	fmt.Printf("wall time   %v\n", res.WallTime.Round(time.Microsecond))
	fmt.Printf("throughput  %.4g numbers/s\n", res.Throughput())
	fmt.Printf("first       %v\n", res.First)
	fmt.Printf("last        %v\n", res.Last)
	fmt.Printf("checksum    %d\n", res.Checksum)
	fmt.Printf("verified    %d sampled results match the serial reference\n", res.Verified)
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
