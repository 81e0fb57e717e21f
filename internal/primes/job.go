package primes

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/nugo-dev/nugo/cuda"
)

// Config describes one run of the job.
type Config struct {
	N int64 // the last number; the job covers From..N
	// From is the first number; 0 means 2.
	From  int64
	Block int       // threads per block
	Chunk int       // numbers per launch; 0 means DefaultChunk
	Out   io.Writer // if not nil, receives every result as a little-endian int64
	// Samples is how many results of each chunk are checked against
	// FactorSum (besides the chunk's first and last).
	Samples int
	// Progress, if not nil, is called after each chunk with the count of
	// numbers done.
	Progress func(done int64)
}

// DefaultChunk is the numbers per launch: 32 MiB of results.
const DefaultChunk = 1 << 22

// Result is what a run measured.
type Result struct {
	Backend    cuda.Backend
	N          int64
	From       int64         // the first number
	Checksum   int64         // sum of all results
	First      []int64       // the first results (up to 3)
	Last       []int64       // the last results (up to 3)
	KernelTime time.Duration // summed over launches, by events
	WallTime   time.Duration
	Verified   int // results checked against FactorSum
}

// Throughput is numbers per second of kernel time.
func (r Result) Throughput() float64 {
	if r.KernelTime <= 0 {
		return 0
	}
	from := max(r.From, 2)
	return float64(r.N-from+1) / r.KernelTime.Seconds()
}

// Run runs the job on the current backend.
func Run(cfg Config) (Result, error) {
	if cfg.N < 2 {
		return Result{}, fmt.Errorf("primes: N must be at least 2, got %d", cfg.N)
	}
	if cfg.From == 0 {
		cfg.From = 2
	}
	if cfg.From < 2 || cfg.From > cfg.N {
		return Result{}, fmt.Errorf("primes: the first number must be in 2..%d, got %d", cfg.N, cfg.From)
	}
	if cfg.Block <= 0 {
		cfg.Block = 256
	}
	if cfg.Chunk <= 0 {
		cfg.Chunk = DefaultChunk
	}
	be, err := cuda.CurrentBackend()
	if err != nil {
		return Result{}, err
	}
	res := Result{Backend: be, N: cfg.N, From: cfg.From}
	total := cfg.N - cfg.From + 1
	chunk := int(min(int64(cfg.Chunk), total))

	k, err := cuda.Compile(Kernel)
	if err != nil {
		return res, err
	}
	dev, err := cuda.NewDeviceArray[int64](chunk)
	if err != nil {
		return res, err
	}
	defer dev.Free()
	host := make([]int64, chunk)
	start, end, err := newEvents()
	if err != nil {
		return res, err
	}
	rng := rand.New(rand.NewPCG(uint64(cfg.N), 1))
	var buf []byte
	t0 := time.Now()

	for first := cfg.From; first <= cfg.N; first += int64(chunk) {
		n := int(min(int64(chunk), cfg.N-first+1))
		out := dev
		if n < chunk {
			// The last, shorter chunk: a fresh array of the right length.
			if out, err = cuda.NewDeviceArray[int64](n); err != nil {
				return res, err
			}
			defer out.Free()
		}
		grid := (n + cfg.Block - 1) / cfg.Block
		if err := start.Record(nil); err != nil {
			return res, err
		}
		if err := k.Launch(cuda.Dim1(grid), cuda.Dim1(cfg.Block), first, out); err != nil {
			return res, err
		}
		if err := end.Record(nil); err != nil {
			return res, err
		}
		dt, err := cuda.ElapsedTime(start, end)
		if err != nil {
			return res, err
		}
		res.KernelTime += dt
		got := host[:n]
		if err := out.CopyToHost(got); err != nil {
			return res, err
		}
		if err := verify(first, got, cfg.Samples, rng); err != nil {
			return res, err
		}
		res.Verified += min(n, cfg.Samples+2)
		for _, v := range got {
			res.Checksum += v
		}
		if len(res.First) == 0 {
			res.First = append([]int64(nil), got[:min(3, n)]...)
		}
		res.Last = append(res.Last, got[max(0, n-3):]...)
		res.Last = res.Last[max(0, len(res.Last)-3):]
		if cfg.Out != nil {
			buf = buf[:0]
			for _, v := range got {
				buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
			}
			if _, err := cfg.Out.Write(buf); err != nil {
				return res, fmt.Errorf("primes: writing results: %w", err)
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(first + int64(n) - cfg.From)
		}
	}
	res.WallTime = time.Since(t0)
	return res, nil
}

func newEvents() (*cuda.Event, *cuda.Event, error) {
	a, err := cuda.NewEvent()
	if err != nil {
		return nil, nil, err
	}
	b, err := cuda.NewEvent()
	return a, b, err
}

// verify checks the chunk's first and last result and samples random ones
// against the serial reference.
func verify(first int64, got []int64, samples int, rng *rand.Rand) error {
	check := func(i int) error {
		if want := FactorSum(first + int64(i)); got[i] != want {
			return fmt.Errorf("primes: result for %d is %d, the serial reference says %d", first+int64(i), got[i], want)
		}
		return nil
	}
	if err := check(0); err != nil {
		return err
	}
	if err := check(len(got) - 1); err != nil {
		return err
	}
	for range samples {
		if err := check(rng.IntN(len(got))); err != nil {
			return err
		}
	}
	return nil
}
