package primes

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
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
	// numbers done, over all devices (from one goroutine at a time).
	Progress func(done int64)
	// Devices are the devices that share the chunks; nil means the
	// current device alone.
	Devices []*cuda.DeviceHandle

	// beforeLaunch, if not nil, is called by device i (its index in
	// Devices) before it launches chunk c: tests make a device slow with it.
	beforeLaunch func(i, c int)
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
	KernelTime time.Duration // summed over launches (and devices), by events
	WallTime   time.Duration
	Verified   int // results checked against FactorSum
	// PerDevice is what each device did, in the order of Config.Devices.
	PerDevice []DeviceResult
}

// DeviceResult is one device's share of a run.
type DeviceResult struct {
	Device     string // as cuda.DeviceHandle names it
	ID         int
	Chunks     int
	Numbers    int64
	KernelTime time.Duration
}

// Throughput is the device's numbers per second of kernel time.
func (d DeviceResult) Throughput() float64 {
	if d.KernelTime <= 0 {
		return 0
	}
	return float64(d.Numbers) / d.KernelTime.Seconds()
}

// DeviceError is the failure of one device during a run: the device, the
// chunk it was computing, and why. The run stops the other devices and
// returns it.
type DeviceError struct {
	Device      string
	Chunk       int   // the chunk's index, from 0
	First, Last int64 // its numbers
	Err         error
}

func (e *DeviceError) Error() string {
	return fmt.Sprintf("primes: %s failed on chunk %d (numbers %d..%d): %v", e.Device, e.Chunk, e.First, e.Last, e.Err)
}

func (e *DeviceError) Unwrap() error { return e.Err }

// Throughput is numbers per second of kernel time; on several devices,
// whose kernel times overlap, numbers per second of the run's wall time.
func (r Result) Throughput() float64 {
	if len(r.PerDevice) > 1 {
		if r.WallTime <= 0 {
			return 0
		}
		return float64(r.N-max(r.From, 2)+1) / r.WallTime.Seconds()
	}
	if r.KernelTime <= 0 {
		return 0
	}
	from := max(r.From, 2)
	return float64(r.N-from+1) / r.KernelTime.Seconds()
}

// Run runs the job on cfg.Devices, or the current device. The chunks are
// handed out through a shared queue, so a faster device takes more; the
// results are written, summed and reported in order, so the checksum and
// Out are those of a single-device run. If a device fails, the others
// stop after their current chunk and Run returns a *DeviceError; what was
// written to Out by then is a prefix of the results, never all of them.
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
	devs := cfg.Devices
	if len(devs) == 0 {
		d, err := cuda.CurrentDevice()
		if err != nil {
			return Result{}, err
		}
		devs = []*cuda.DeviceHandle{d}
	}
	res := Result{Backend: be, N: cfg.N, From: cfg.From, PerDevice: make([]DeviceResult, len(devs))}
	total := cfg.N - cfg.From + 1
	chunk := int(min(int64(cfg.Chunk), total))
	j := &job{cfg: cfg, chunk: chunk, chunks: int((total + int64(chunk) - 1) / int64(chunk)), kernel: cuda.Jit(Kernel),
		results: make(chan chunkResult, len(devs)), stopped: make(chan struct{})}
	// Each device computes into a buffer taken from free and the collector
	// gives it back once the chunk is written: at most cap(free) chunks are
	// computed ahead of the one written next, however slow one device is.
	window := min(2*len(devs), j.chunks)
	j.free = make(chan []int64, window)
	for range window {
		j.free <- make([]int64, chunk)
	}
	t0 := time.Now()
	var wg sync.WaitGroup
	for i, d := range devs {
		res.PerDevice[i] = DeviceResult{Device: d.String(), ID: d.ID()}
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.work(i, d, &res.PerDevice[i])
		}()
	}
	go func() { wg.Wait(); close(j.results) }()
	err = j.collect(&res)
	for range j.results {
		// Drain what the devices still deliver once collect has failed.
	}
	for _, d := range res.PerDevice {
		res.KernelTime += d.KernelTime
	}
	res.WallTime = time.Since(t0)
	if err != nil {
		return res, err
	}
	if first := j.failure(); first != nil {
		return res, first
	}
	return res, nil
}

// job is one run's shared state.
type job struct {
	cfg    Config
	chunk  int // numbers per chunk (the last may have fewer)
	chunks int
	kernel *cuda.Kernel

	next     atomic.Int64  // the next chunk to hand out
	stopped  chan struct{} // closed when a device fails or the results cannot be written
	stopOnce sync.Once
	free     chan []int64
	results  chan chunkResult

	mu  sync.Mutex
	err *DeviceError // the first device failure
}

// chunkResult is one computed and verified chunk.
type chunkResult struct {
	index int
	data  []int64 // a buffer from free
}

// bounds are the numbers of chunk c.
func (j *job) bounds(c int) (first int64, n int) {
	first = j.cfg.From + int64(c)*int64(j.chunk)
	return first, int(min(int64(j.chunk), j.cfg.N-first+1))
}

func (j *job) fail(e *DeviceError) {
	j.mu.Lock()
	if j.err == nil {
		j.err = e
	}
	j.mu.Unlock()
	j.stop()
}

// stop makes every device stop after its current chunk.
func (j *job) stop() { j.stopOnce.Do(func() { close(j.stopped) }) }

func (j *job) stopping() bool {
	select {
	case <-j.stopped:
		return true
	default:
		return false
	}
}

func (j *job) failure() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		return nil
	}
	return j.err
}

// work computes chunks on device d until none are left or the run stops.
func (j *job) work(i int, d *cuda.DeviceHandle, st *DeviceResult) {
	c := -1
	failed := func(err error) {
		first, n := j.bounds(max(c, 0))
		j.fail(&DeviceError{Device: d.String(), Chunk: max(c, 0), First: first, Last: first + int64(n) - 1, Err: err})
	}
	if err := d.Compile(j.kernel); err != nil {
		failed(err)
		return
	}
	dev, err := cuda.NewDeviceArrayOn[int64](d, j.chunk)
	if err != nil {
		failed(err)
		return
	}
	defer dev.Free()
	start, err := d.NewEvent()
	if err != nil {
		failed(err)
		return
	}
	end, err := d.NewEvent()
	if err != nil {
		failed(err)
		return
	}
	for {
		var buf []int64
		select {
		case buf = <-j.free: // every buffer in use: the collector gives one back
		case <-j.stopped:
			return
		}
		c = int(j.next.Add(1) - 1)
		if c >= j.chunks || j.stopping() {
			j.free <- buf // for the devices still waiting for one, to see the same
			return
		}
		first, n := j.bounds(c)
		out := dev
		if n < j.chunk {
			if out, err = dev.Slice(0, n); err != nil {
				failed(err)
				return
			}
		}
		grid := (n + j.cfg.Block - 1) / j.cfg.Block
		if j.cfg.beforeLaunch != nil {
			j.cfg.beforeLaunch(i, c)
		}
		if err := start.Record(nil); err != nil {
			failed(err)
			return
		}
		if err := d.Launch(j.kernel, cuda.Dim1(grid), cuda.Dim1(j.cfg.Block), first, out); err != nil {
			failed(err)
			return
		}
		if err := end.Record(nil); err != nil {
			failed(err)
			return
		}
		dt, err := cuda.ElapsedTime(start, end)
		if err != nil {
			failed(err)
			return
		}
		got := buf[:n]
		if err := out.CopyToHost(got); err != nil {
			failed(err)
			return
		}
		rng := rand.New(rand.NewPCG(uint64(first), 1))
		if err := verify(first, got, j.cfg.Samples, rng); err != nil {
			failed(err)
			return
		}
		st.Chunks++
		st.Numbers += int64(n)
		st.KernelTime += dt
		j.results <- chunkResult{index: c, data: got}
	}
}

// collect takes the devices' chunks as they come and writes them in
// order: checksum, first and last results, Out, progress.
func (j *job) collect(res *Result) error {
	pending := map[int][]int64{}
	next := 0
	var done int64
	var buf []byte
	for r := range j.results {
		done += int64(len(r.data))
		if j.cfg.Progress != nil {
			j.cfg.Progress(done)
		}
		pending[r.index] = r.data
		for {
			got, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			first, n := j.bounds(next)
			next++
			res.Verified += min(n, j.cfg.Samples+2)
			for _, v := range got {
				res.Checksum += v
			}
			if len(res.First) == 0 {
				res.First = append([]int64(nil), got[:min(3, n)]...)
			}
			res.Last = append(res.Last, got[max(0, n-3):]...)
			res.Last = res.Last[max(0, len(res.Last)-3):]
			if j.cfg.Out != nil {
				buf = buf[:0]
				for _, v := range got {
					buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
				}
				if _, err := j.cfg.Out.Write(buf); err != nil {
					j.stop()
					return fmt.Errorf("primes: writing the results of %d..%d: %w", first, first+int64(n)-1, err)
				}
			}
			j.free <- got[:cap(got)]
		}
	}
	if j.failure() == nil && next != j.chunks {
		return fmt.Errorf("primes: internal error: %d of %d chunks computed", next, j.chunks)
	}
	return nil
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
