package driver

import (
	"encoding/binary"
	"math"
	"runtime"
	"unsafe"
)

// Params is a kernel's argument list packed for cuLaunchKernel: each argument's
// bytes (little-endian, as the device reads them) at an offset aligned to the
// argument's size, in the kernel's parameter order. A Params is reused across
// launches with Reset, so packing allocates nothing once the buffers have grown.
//
// The real binding hands the driver an array of pointers into this buffer; the
// driver copies the values during cuLaunchKernel, so the Params may be reset
// and reused as soon as LaunchKernel returns. A Params is not safe for
// concurrent use: each launching goroutine needs its own.
type Params struct {
	buf   []byte
	offs  []int
	sizes []int
	ptrs  []unsafe.Pointer // scratch: the pointer array the real launch passes
	pin   runtime.Pinner   // reused so that a launch does not allocate one
}

// Reset empties the list, keeping its storage.
func (p *Params) Reset() {
	p.buf, p.offs, p.sizes = p.buf[:0], p.offs[:0], p.sizes[:0]
}

// Len is the number of arguments.
func (p *Params) Len() int { return len(p.offs) }

// Arg returns argument i's bytes (aliasing the buffer).
func (p *Params) Arg(i int) []byte { return p.buf[p.offs[i] : p.offs[i]+p.sizes[i]] }

// Offset returns argument i's offset in Bytes.
func (p *Params) Offset(i int) int { return p.offs[i] }

// Bytes is the packed buffer, padding included.
func (p *Params) Bytes() []byte { return p.buf }

// Add appends an argument of len(b) bytes aligned to align (a power of two,
// at most 16; values below 1 mean 1).
func (p *Params) Add(b []byte, align int) {
	off := p.reserve(len(b), align)
	copy(p.buf[off:], b)
}

func (p *Params) reserve(size, align int) int {
	if align < 1 {
		align = 1
	}
	off := (len(p.buf) + align - 1) &^ (align - 1)
	for len(p.buf) < off+size {
		p.buf = append(p.buf, 0)
	}
	p.offs = append(p.offs, off)
	p.sizes = append(p.sizes, size)
	return off
}

// AddU8 appends a one-byte argument (u8, s8, or a bool as 0/1).
func (p *Params) AddU8(v uint8) { p.buf[p.reserve(1, 1)] = v }

// AddU16 appends a two-byte integer argument.
func (p *Params) AddU16(v uint16) {
	binary.LittleEndian.PutUint16(p.buf[p.reserve(2, 2):], v)
}

// AddU32 appends a four-byte integer argument (u32 or s32 bits).
func (p *Params) AddU32(v uint32) {
	binary.LittleEndian.PutUint32(p.buf[p.reserve(4, 4):], v)
}

// AddU64 appends an eight-byte integer argument (u64 or s64 bits).
func (p *Params) AddU64(v uint64) {
	binary.LittleEndian.PutUint64(p.buf[p.reserve(8, 8):], v)
}

// AddF32 appends a float32 argument.
func (p *Params) AddF32(v float32) { p.AddU32(math.Float32bits(v)) }

// AddF64 appends a float64 argument.
func (p *Params) AddF64(v float64) { p.AddU64(math.Float64bits(v)) }

// AddPtr appends a device pointer argument.
func (p *Params) AddPtr(v DevicePtr) { p.AddU64(uint64(v)) }

// pinnedPointers fills the array of argument pointers cuLaunchKernel takes
// (void **kernelParams), pins it and the buffer it points into, and returns
// its address. The caller unpins with p.pin.Unpin after the call. p must hold
// at least one argument.
func (p *Params) pinnedPointers() uintptr {
	p.ptrs = p.ptrs[:0]
	for _, off := range p.offs {
		p.ptrs = append(p.ptrs, unsafe.Pointer(&p.buf[off]))
	}
	p.pin.Pin(&p.buf[0])
	p.pin.Pin(&p.ptrs[0])
	return uintptr(unsafe.Pointer(&p.ptrs[0]))
}
