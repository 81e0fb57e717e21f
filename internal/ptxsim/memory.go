package ptxsim

import (
	"fmt"
	"sort"
	"sync"
	"unsafe"
)

// Memory is the global memory of a simulated device: host byte buffers
// registered at device address ranges. Allocations made by Alloc live below
// the generic windows of shared, local and const memory. A Memory may be used
// by several launches one after another; registering or freeing while a
// launch runs takes effect at the next launch.
type Memory struct {
	mu      sync.Mutex
	regions []*region // sorted by base
	next    uint64
}

type region struct {
	base uint64
	data []byte
	// aligned reports that the host address of data[0] is 8-byte aligned
	// and base is 8-byte aligned, so natural device alignment implies host
	// alignment for atomics.
	aligned bool
}

// NewMemory returns an empty device memory.
func NewMemory() *Memory {
	return &Memory{next: 1 << 32}
}

// Alloc allocates n zeroed bytes and returns their device address, aligned to
// 256 bytes as cudaMalloc does, and the host buffer that backs them.
func (m *Memory) Alloc(n int) (uint64, []byte) {
	if n < 0 {
		n = 0
	}
	words := make([]uint64, (n+7)/8+1)
	buf := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)[:n:n]
	m.mu.Lock()
	defer m.mu.Unlock()
	size := uint64(n+255)/256*256 + 256 // a gap catches small overruns
	addr := m.next
	for moved := true; moved; {
		moved = false
		for _, r := range m.regions { // skip ranges the caller registered
			end := r.base + uint64(len(r.data))
			if addr < end && r.base < addr+size {
				addr = (end + 511) / 256 * 256
				moved = true
			}
		}
	}
	m.next = addr + size
	m.insert(&region{base: addr, data: buf, aligned: true})
	return addr, buf
}

// Register makes data visible at device address addr. The range must not
// overlap another registration nor the generic windows at and above 1<<47.
func (m *Memory) Register(addr uint64, data []byte) error {
	end := addr + uint64(len(data))
	if end < addr || end > windowBase {
		return fmt.Errorf("ptxsim: register [%#x, %#x): outside the global address range", addr, end)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.regions {
		if addr < r.base+uint64(len(r.data)) && r.base < end {
			return fmt.Errorf("ptxsim: register [%#x, %#x): overlaps [%#x, %#x)", addr, end, r.base, r.base+uint64(len(r.data)))
		}
	}
	al := false
	if len(data) > 0 {
		al = uintptr(unsafe.Pointer(&data[0]))%8 == 0 && addr%8 == 0
	}
	m.insert(&region{base: addr, data: data, aligned: al})
	return nil
}

func (m *Memory) insert(r *region) {
	i := sort.Search(len(m.regions), func(i int) bool { return m.regions[i].base > r.base })
	m.regions = append(m.regions, nil)
	copy(m.regions[i+1:], m.regions[i:])
	m.regions[i] = r
}

// Free removes the allocation or registration that starts at addr.
func (m *Memory) Free(addr uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, r := range m.regions {
		if r.base == addr {
			m.regions = append(m.regions[:i], m.regions[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("ptxsim: free %#x: not the start of an allocation", addr)
}

// Bytes returns the host bytes behind [addr, addr+n), which must lie in one
// allocation.
func (m *Memory) Bytes(addr uint64, n int) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := findRegion(m.regions, addr, uint64(n)); r != nil {
		off := addr - r.base
		return r.data[off : off+uint64(n) : off+uint64(n)], nil
	}
	return nil, fmt.Errorf("ptxsim: no allocation holds [%#x, %#x)", addr, addr+uint64(n))
}

func (m *Memory) snapshot() []*region {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*region(nil), m.regions...)
}

// findRegion returns the region holding [addr, addr+n), or nil.
func findRegion(rs []*region, addr, n uint64) *region {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].base > addr }) - 1
	if i < 0 {
		return nil
	}
	r := rs[i]
	off := addr - r.base
	if off+n < off || off+n > uint64(len(r.data)) {
		return nil
	}
	return r
}
