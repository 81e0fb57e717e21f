package hostmem

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// Info reports the host's physical memory (total) and how much of it new
// allocations can take without swapping (available): the kernel's
// MemAvailable estimate from /proc/meminfo, which counts reclaimable page
// cache, or, where /proc is not mounted, sysinfo's free and buffer RAM.
func Info() (available, total int64, err error) {
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if a, t, ok := parseMeminfo(b); ok {
			return a, t, nil
		}
	}
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0, 0, fmt.Errorf("host memory: %w", err)
	}
	u := int64(si.Unit)
	return (int64(si.Freeram) + int64(si.Bufferram)) * u, int64(si.Totalram) * u, nil
}

// parseMeminfo reads MemAvailable and MemTotal, in bytes, from the text of
// /proc/meminfo ("MemTotal:       16318844 kB").
func parseMeminfo(b []byte) (available, total int64, ok bool) {
	var haveA, haveT bool
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) < 2 {
			continue
		}
		v, err := strconv.ParseInt(string(f[1]), 10, 64)
		if err != nil || v < 0 {
			continue
		}
		if len(f) >= 3 && string(f[2]) == "kB" {
			v *= 1024
		}
		switch string(f[0]) {
		case "MemAvailable:":
			available, haveA = v, true
		case "MemTotal:":
			total, haveT = v, true
		}
	}
	return available, total, haveA && haveT
}
