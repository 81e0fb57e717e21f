package random

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/nugo-dev/nugo/cuda"
)

// maxGenerators bounds n so that a states slice (16 bytes a generator)
// stays far from overflowing int; a request past it is an error rather
// than a failed allocation.
const maxGenerators = 1 << 40

// Init fills states with len(states)/2 generators derived from seed as
// Numba's init_xoroshiro128p_states does: generator 0 is seeded by
// splitmix64 (InitState) and jumped ahead subsequence times 2^64 steps;
// every further generator is its predecessor jumped 2^64 steps. The same
// seed and subsequence give the same states as Numba, so kernels draw the
// same numbers.
//
// Generator i occupies states[2*i] and states[2*i+1]; len(states) must be
// even. A large subsequence costs no more than a small one: the jumps are
// applied as one power of the jump's matrix.
func Init(states []uint64, seed, subsequence uint64) error {
	if len(states)%2 != 0 {
		return fmt.Errorf("random.Init: len(states) = %d is odd; generator states take 2 uint64 each", len(states))
	}
	n := len(states) / 2
	if n == 0 {
		return nil
	}
	InitState(states, 0, seed)
	jumpN(states, 0, subsequence)
	fillJumps(states)
	return nil
}

// chunkGenerators is the least number of generators a goroutine of
// fillJumps takes on: below it, starting one costs more than it saves.
const chunkGenerators = 1 << 13

// fillJumps sets every generator of states after the first to its
// predecessor jumped once. Jump's matrix lets a chunk of generators start
// anywhere (generator g is the first jumped g times), so chunks fill in
// parallel on GOMAXPROCS goroutines, all finished before it returns.
func fillJumps(states []uint64) {
	n := len(states) / 2
	workers := min(runtime.GOMAXPROCS(0), n/chunkGenerators)
	if workers <= 1 {
		fillRange(states, 1, n)
		return
	}
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += per {
		hi := min(lo+per, n)
		wg.Go(func() {
			if lo > 0 {
				states[2*lo], states[2*lo+1] = states[0], states[1]
				jumpN(states, lo, uint64(lo))
			}
			fillRange(states, lo+1, hi)
		})
	}
	wg.Wait()
}

// fillRange sets generators lo..hi-1 to their predecessors jumped once.
func fillRange(states []uint64, lo, hi int) {
	j := jumpTable()
	for i := lo; i < hi; i++ {
		v := j.apply(state{states[2*i-2], states[2*i-1]})
		states[2*i], states[2*i+1] = v[0], v[1]
	}
}

// HostStates returns n generators' states in host memory, initialised by
// Init: a slice of 2n uint64 to pass to a kernel (copied in and out at
// each launch) or to the kernel-side functions on the host.
func HostStates(n int, seed, subsequence uint64) ([]uint64, error) {
	if err := checkCount(n); err != nil {
		return nil, fmt.Errorf("random.HostStates: %w", err)
	}
	states := make([]uint64, 2*n)
	if err := Init(states, seed, subsequence); err != nil {
		return nil, err
	}
	return states, nil
}

// NewStates returns a device array holding the states of n generators
// seeded with seed, on the current backend: what Numba's
// create_xoroshiro128p_states(n, seed) returns. Pass it to kernels as a
// []uint64 parameter, where thread i draws from generator i with
// Uniform64(states, i) and friends; the states stay on the device and
// advance with every draw, so a second launch continues the sequences.
func NewStates(n int, seed uint64) (*cuda.DeviceArray[uint64], error) {
	return NewStatesAsync(n, seed, 0, nil)
}

// NewStatesAsync is NewStates with Numba's two further arguments: the
// first generator starts subsequence jumps (of 2^64 steps) into the
// sequence, and the copy to the device is queued on stream s (nil for
// the default stream, which also waits for the copy).
func NewStatesAsync(n int, seed, subsequence uint64, s *cuda.Stream) (*cuda.DeviceArray[uint64], error) {
	host, err := HostStates(n, seed, subsequence)
	if err != nil {
		return nil, fmt.Errorf("random.NewStates: %w", err)
	}
	var d *cuda.DeviceArray[uint64]
	if s == nil {
		d, err = cuda.ToDevice(host)
	} else {
		d, err = cuda.ToDeviceAsync(host, s)
	}
	if err != nil {
		return nil, fmt.Errorf("random.NewStates(%d generators): %w", n, err)
	}
	return d, nil
}

// InitDevice re-initialises the generators of an existing device array
// (Numba's init_xoroshiro128p_states), one per pair of elements, as Init
// does for a host slice.
func InitDevice(d *cuda.DeviceArray[uint64], seed, subsequence uint64) error {
	if d == nil {
		return fmt.Errorf("random.InitDevice: nil device array")
	}
	host := make([]uint64, d.Len())
	if err := Init(host, seed, subsequence); err != nil {
		return fmt.Errorf("random.InitDevice: %w", err)
	}
	if err := d.CopyFromHost(host); err != nil {
		return fmt.Errorf("random.InitDevice: %w", err)
	}
	return nil
}

// checkCount validates a number of generators.
func checkCount(n int) error {
	if n < 0 {
		return fmt.Errorf("negative number of generators %d", n)
	}
	if n > maxGenerators {
		return fmt.Errorf("%d generators is too many; at most %d", n, maxGenerators)
	}
	return nil
}
