package hostmem

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// limits asks the machine what the process can get now.
func limits() budget {
	var b budget
	if l := Limit(); l < int(^uint(0)>>1) {
		b.ramSwap = int64(l)
	}
	b.cgroup = cgroupLimit()
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur != ^uint64(0) && rl.Cur < 1<<62 {
		if vm := vmSize(); vm > 0 {
			b.addrSpace = max(int64(rl.Cur)-vm, 1) // 1: exhausted, not unknown
		}
	}
	return b
}

// vmSize is the process's mapped address space (VmSize of
// /proc/self/status), or 0 when unknown.
func vmSize() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "VmSize:" {
			v, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0
			}
			return v << 10
		}
	}
	return 0
}

// cgroupLimit is the memory limit of the process's control group (cgroup
// v2's memory.max, or v1's memory.limit_in_bytes), or 0 when there is none.
func cgroupLimit() int64 {
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(data))
		if s == "max" {
			return 0
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v <= 0 || v >= 1<<62 {
			return 0 // "no limit" is written as a huge number in v1
		}
		return v
	}
	return 0
}
