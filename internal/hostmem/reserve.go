package hostmem

import (
	"fmt"
	"sync"
)

// Device memory of the host backends (cpu, ptxsim) is accounted here, so
// that allocations which together exceed what the process can get fail
// with an error, as cuMemAlloc does on a GPU, instead of being accepted one
// by one and ending the process with the runtime's fatal out-of-memory when
// their pages are touched or their address space cannot be mapped.

var reserved struct {
	sync.Mutex
	bytes int64
}

// testRAM, when positive, stands for the machine's RAM and swap (tests
// only: see SetRAMForTest), guarded by reserved's lock.
var testRAM int64

// SetRAMForTest makes Reserve count as if the machine had ram bytes of RAM
// and swap, so that a test can exhaust it without touching real memory; it
// returns the function that restores the real figure.
func SetRAMForTest(ram int64) (restore func()) {
	reserved.Lock()
	prev := testRAM
	testRAM = ram
	reserved.Unlock()
	return func() {
		reserved.Lock()
		testRAM = prev
		reserved.Unlock()
	}
}

// ErrOutOfMemory is wrapped by Reserve's refusals.
var ErrOutOfMemory = fmt.Errorf("out of memory")

// Reserve accounts for an allocation of bytes of device memory kept in
// host memory, or returns an error wrapping ErrOutOfMemory that names what
// the process can get: the allocations live so far and this one must fit
// in the machine's RAM and swap and in the memory limit of the process's
// control group, and this one in the address space left under its
// RLIMIT_AS (ulimit -v). Release gives the bytes back.
func Reserve(bytes int) error {
	if bytes < 0 {
		return fmt.Errorf("cannot allocate %d bytes", bytes)
	}
	reserved.Lock()
	defer reserved.Unlock()
	b := limits()
	if testRAM > 0 {
		b.ramSwap = testRAM
	}
	live := reserved.bytes
	if err := b.check(live, int64(bytes)); err != nil {
		return err
	}
	reserved.bytes += int64(bytes)
	return nil
}

// Release returns bytes accounted by Reserve.
func Release(bytes int) {
	reserved.Lock()
	reserved.bytes -= int64(bytes)
	if reserved.bytes < 0 {
		reserved.bytes = 0
	}
	reserved.Unlock()
}

// Reserved is the device memory of the host backends now accounted.
func Reserved() int64 {
	reserved.Lock()
	defer reserved.Unlock()
	return reserved.bytes
}

// budget is what the process can get; a zero or negative field is unknown
// (no limit).
type budget struct {
	ramSwap   int64 // RAM and swap of the machine
	cgroup    int64 // the control group's memory limit
	addrSpace int64 // address space left under RLIMIT_AS
}

// asMargin is kept free under RLIMIT_AS for the Go runtime's own mappings
// (heap arena metadata, goroutine stacks) besides the allocation itself.
const asMargin = 64 << 20

func (b budget) check(live, n int64) error {
	if b.ramSwap > 0 && live+n > b.ramSwap {
		return fmt.Errorf("%w: %d bytes requested, %d in use by device arrays; this machine has %d bytes of RAM and swap", ErrOutOfMemory, n, live, b.ramSwap)
	}
	if b.cgroup > 0 && live+n > b.cgroup {
		return fmt.Errorf("%w: %d bytes requested, %d in use by device arrays; the process's control group may use %d bytes", ErrOutOfMemory, n, live, b.cgroup)
	}
	if b.addrSpace > 0 && n+n/32+asMargin > b.addrSpace {
		return fmt.Errorf("%w: %d bytes requested; %d bytes of address space are left under the process's limit (ulimit -v)", ErrOutOfMemory, n, b.addrSpace)
	}
	return nil
}
