package cuda

import (
	"sync"
	"syscall"
)

// hostMemoryLimit is the most bytes a host backend allocates for one
// device array: the machine's RAM and swap, asked once. A larger request
// cannot succeed, and the Go runtime would end the process for it (a
// fatal out of memory, not a panic) instead of returning an error.
var hostMemoryLimit = sync.OnceValue(func() int {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return int(^uint(0) >> 1)
	}
	total := (uint64(si.Totalram) + uint64(si.Totalswap)) * uint64(si.Unit)
	if total == 0 || total > uint64(^uint(0)>>1) {
		return int(^uint(0) >> 1)
	}
	return int(total)
})
