package hostmem

import (
	"sync"
	"syscall"
)

// Limit is the most bytes one allocation may ask for: the machine's RAM
// and swap, asked once. A larger request cannot succeed, and the Go runtime
// would end the process for it instead of returning an error.
var Limit = sync.OnceValue(func() int {
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
